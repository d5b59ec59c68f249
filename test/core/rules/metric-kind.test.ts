import { ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

// An element with neither kind: `{}` pretty-prints on one line, so its line is where `{}` is.
const emptyElement = make(validHost(), (d) => at<unknown[]>(d, "metrics").push({}));

// An element with only an alert list: the finding points at the element's opening brace, the line
// before its first member.
const alertsOnly = make(validHost(), (d) =>
  at<unknown[]>(d, "metrics").push({ entity: "PROCESS_GROUP_INSTANCE", alert_settings: [] }),
);

// Both kinds in one element: the finding points at the `statetimeseries` key.
const bothRemote = make(validRemote(), (d) => {
  at(d, "metrics", 0).statetimeseries = { key: "cpu_state", states: ["OK"], displayname: "CPU state" };
});
const bothHost = make(validHost(), (d) => {
  at(d, "metrics", 1).statetimeseries = {
    key: "latency_state",
    states: ["OK"],
    displayname: "Latency state",
  };
});

// `timeseries` only inside the free-form metric `source`: that is not the element's own member.
const onlyInSource = make(validHost(), (d) =>
  at<unknown[]>(d, "metrics").push({ source: { timeseries: { key: "x" }, statetimeseries: {} } }),
);

const twoBad = make(validRemote(), (d) => {
  at<unknown[]>(d, "metrics").push({});
  at(d, "metrics", 1).timeseries = { key: "status_num", unit: "Count", displayname: "Status number" };
});

ruleTable("metric-kind", {
  valid: [
    { name: "host example (timeseries only)", doc: validHost() },
    { name: "remote example (one timeseries and one statetimeseries element)", doc: validRemote() },
    {
      name: "timeseries with every optional member (entity, source, alert_settings)",
      doc: make(validHost(), (d) => {
        const m = at(d, "metrics", 1);
        m.entity = "PROCESS_GROUP_INSTANCE";
        m.source = { query: "a:b=c", attribute: "Count" };
        m.alert_settings = [];
      }),
    },
    {
      name: "rule turned off",
      doc: emptyElement,
      options: { config: { rules: { "metric-kind": "off" } } },
    },
  ],
  invalid: [
    {
      name: "host element {} holds neither",
      messageId: "neither",
      data: { index: 2 },
      doc: emptyElement,
      lines: [lineOf(emptyElement, "{}")],
      message: "holds neither `timeseries` nor `statetimeseries`",
      severity: "error",
    },
    {
      name: "host element with only entity and alert_settings",
      messageId: "neither",
      doc: alertsOnly,
      lines: [lineOf(alertsOnly, '"alert_settings": []') - 2],
      message: "`metrics[2]` holds neither",
    },
    {
      name: "timeseries/statetimeseries nested in the metric source do not count",
      messageId: "neither",
      doc: onlyInSource,
      lines: [lineOf(onlyInSource, '"source": {\n        "timeseries"') - 1],
      message: "neither",
    },
    {
      name: "remote element with both points at its statetimeseries key",
      messageId: "both",
      doc: bothRemote,
      lines: [lineOf(bothRemote, '"statetimeseries"')],
      message: "holds both `timeseries` and `statetimeseries`",
      severity: "error",
    },
    {
      name: "host element with both",
      messageId: "both",
      doc: bothHost,
      lines: [lineOf(bothHost, '"statetimeseries"')],
      message: "`metrics[1]` holds both",
    },
    {
      name: "two bad elements in one remote descriptor, in line order",
      messageId: ["both", "neither"],
      doc: twoBad,
      lines: [lineOf(twoBad, '"statetimeseries"'), lineOf(twoBad, "{}")],
      message: /holds (both|neither)/,
    },
    {
      name: "severity can be lowered in configuration",
      messageId: "both",
      doc: bothHost,
      lines: [lineOf(bothHost, '"statetimeseries"')],
      severity: "warning",
      options: { config: { rules: { "metric-kind": "warning" } } },
    },
  ],
});
