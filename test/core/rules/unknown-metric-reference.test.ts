import { ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

const keymetricTypo = make(validHost(), (d) => {
  at(d, "ui", "keymetrics", 0).key = "request";
});
const keychartUnknown = make(validHost(), (d) => {
  at(d, "ui", "keycharts", 0, "series", 0).key = "throughput";
});
const chartSecondSeries = make(validHost(), (d) => {
  at(d, "ui", "charts", 0, "series", 1).key = "Requests";
});
const remoteEverywhere = make(validRemote(), (d) => {
  at(d, "ui", "keymetrics", 0).key = "cpuu";
  at(d, "ui", "keycharts", 0, "series", 0).key = "memory";
  at(d, "ui", "charts", 0, "series", 0).key = "state";
});

ruleTable("unknown-metric-reference", {
  valid: [
    { name: "host example", doc: validHost() },
    { name: "remote example (a chart of a statetimeseries counts as known)", doc: validRemote() },
    {
      name: "a reference to a metric defined later in the list",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "metrics").push({
          timeseries: { key: "errors", unit: "Count", displayname: "Errors" },
        });
        at<unknown[]>(d, "ui", "keymetrics").push({ key: "errors" });
      }),
    },
    {
      name: "configUI keys, alert ids and property keys are not metric references",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 0, "alert_settings", 0).alert_id = "no_such_metric";
      }),
    },
    {
      name: "a series without a key is for required-member",
      doc: make(validHost(), (d) => {
        delete at(d, "ui", "charts", 0, "series", 0).key;
      }),
    },
    {
      name: "rule turned off",
      doc: keymetricTypo,
      options: { config: { rules: { "unknown-metric-reference": "off" } } },
    },
  ],
  invalid: [
    {
      name: "host keymetric with a typo, at the key value, with a suggestion",
      messageId: "unknown",
      data: { key: "request", suggestion: ": did you mean `requests`?" },
      doc: keymetricTypo,
      lines: [lineOf(keymetricTypo, '"key": "request"')],
      message: "no metric has the key `request`: did you mean `requests`?",
      severity: "error",
    },
    {
      name: "host keychart series naming an unknown metric (no close match)",
      messageId: "unknown",
      doc: keychartUnknown,
      lines: [lineOf(keychartUnknown, '"key": "throughput"')],
      message: /^no metric has the key `throughput`$/,
    },
    {
      name: "keys are case-sensitive (chart series)",
      messageId: "unknown",
      doc: chartSecondSeries,
      lines: [lineOf(chartSecondSeries, '"key": "Requests"')],
      message: "did you mean `requests`?",
    },
    {
      name: "remote: keymetrics, keycharts and charts, in line order",
      messageId: "unknown",
      doc: remoteEverywhere,
      lines: [
        lineOf(remoteEverywhere, '"key": "cpuu"'),
        lineOf(remoteEverywhere, '"key": "memory"'),
        lineOf(remoteEverywhere, '"key": "state"'),
      ],
      message: "no metric has the key",
    },
  ],
});
