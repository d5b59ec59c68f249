import { ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

const three = make(validHost(), (d) => {
  at<unknown[]>(d, "ui", "keymetrics").push({ key: "latency" }, { key: "requests", aggregation: "max" });
});
const fourRemote = make(validRemote(), (d) => {
  at<unknown[]>(d, "ui", "keymetrics").push({ key: "cpu" }, { key: "cpu" }, { key: "cpu" });
});

ruleTable("keymetrics-limit", {
  valid: [
    { name: "host example (one key metric)", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "exactly two",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "ui", "keymetrics").push({ key: "latency" });
      }),
    },
    {
      name: "an empty list",
      doc: make(validHost(), (d) => {
        at(d, "ui").keymetrics = [];
      }),
    },
    {
      name: "three keycharts and three charts (no limit there)",
      doc: make(validHost(), (d) => {
        const chart = { group: "G", title: "T", series: [{ key: "latency" }] };
        at<unknown[]>(d, "ui", "keycharts").push(chart, chart);
        at<unknown[]>(d, "ui", "charts").push(chart, chart);
      }),
    },
    {
      name: "no ui at all",
      doc: make(validHost(), (d) => {
        delete d.ui;
      }),
    },
    { name: "rule turned off", doc: three, options: { config: { rules: { "keymetrics-limit": "off" } } } },
  ],
  invalid: [
    {
      name: "host: three entries, at the keymetrics key",
      messageId: "tooMany",
      data: { count: 3 },
      doc: three,
      lines: [lineOf(three, '"keymetrics"')],
      message: "`ui.keymetrics` has 3 entries; at most two are allowed",
      severity: "error",
    },
    {
      name: "remote: four entries, one finding",
      messageId: "tooMany",
      doc: fourRemote,
      lines: [lineOf(fourRemote, '"keymetrics"')],
      message: "has 4 entries",
    },
    {
      name: "lowered to a warning in configuration",
      messageId: "tooMany",
      doc: three,
      lines: [lineOf(three, '"keymetrics"')],
      severity: "warning",
      options: { config: { rules: { "keymetrics-limit": "warning" } } },
    },
  ],
});
