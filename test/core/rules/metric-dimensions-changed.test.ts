import { ruleTable, validHost, validRemote, lineOf, at, make, EF2, EXTENSION } from "../../helpers.js";

const added = make(validHost(), (d) => {
  at(d, "metrics", 0, "timeseries").dimensions = ["rx_pid", "endpoint", "method"];
});
const gained = make(validHost(), (d) => {
  at(d, "metrics", 1, "timeseries").dimensions = ["endpoint"];
});
const dropped = make(validHost(), (d) => {
  delete at(d, "metrics", 0, "timeseries").dimensions;
});
const remoteState = make(validRemote(), (d) => {
  at(d, "metrics", 1, "statetimeseries").dimensions = ["zone"];
});

const efDropped = EXTENSION.replace(
  "    dimensions:\n      - key: device.name\n        value: oid:1.3.6.1.2.1.1.5.0\n",
  "",
);

ruleTable("metric-dimensions-changed", {
  valid: [
    {
      name: "extension.yaml: a dimension added breaks nothing",
      doc: EXTENSION.replace(
        "            filter: var:if_name_filter\n",
        "            filter: var:if_name_filter\n          - key: interface.alias\n            value: oid:1.3.6.1.2.1.31.1.1.1.18\n",
      ),
      options: { ...EF2, base: EXTENSION },
    },
    { name: "unchanged", doc: validHost(), options: { base: validHost() } },
    {
      name: "same dimensions in another order",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 0, "timeseries").dimensions = ["endpoint", "rx_pid"];
      }),
      options: { base: validHost() },
    },
    {
      name: "an empty list where there was none",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 1, "timeseries").dimensions = [];
      }),
      options: { base: validHost() },
    },
    {
      name: "a new metric with dimensions",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "metrics").push({
          timeseries: { key: "errors", unit: "Count", dimensions: ["code"], displayname: "Errors" },
        });
      }),
      options: { base: validHost() },
    },
    {
      name: "only a chart series' dimensions changed",
      doc: make(validHost(), (d) => {
        at(d, "ui", "charts", 0, "series", 1).dimensions = [];
      }),
      options: { base: validHost() },
    },
    { name: "no base", doc: added },
    {
      name: "rule turned off",
      doc: added,
      options: { base: validHost(), config: { rules: { "metric-dimensions-changed": "off" } } },
    },
  ],
  invalid: [
    {
      name: "extension.yaml: a group's dimension dropped: one finding per metric that had it",
      doc: efDropped,
      options: { ...EF2, base: EXTENSION },
      lines: [
        "- key: example.router.uptime",
        "- key: example.router.if.in.bytes",
        "- key: example.router.if.out.bytes",
        "- key: example.router.if.errors",
      ].map((k) => lineOf(efDropped, k)),
      messageId: "removed",
      data: { removed: "`device.name`", s: "", them: "it" },
      severity: "warning",
    },
    {
      name: "host: a dimension added, at head's dimensions key",
      messageId: "changed",
      data: { key: "requests", was: "`rx_pid`, `endpoint`" },
      doc: added,
      lines: [lineOf(added, '"dimensions"')],
      message:
        "the dimensions of metric `requests` changed from `rx_pid`, `endpoint` to `rx_pid`, `endpoint`, `method`",
      severity: "warning",
      options: { base: validHost() },
    },
    {
      name: "a metric without dimensions gains one",
      messageId: "changed",
      doc: gained,
      lines: [lineOf(gained, '"dimensions"', 2)],
      message: "metric `latency` changed from none to `endpoint`",
      options: { base: validHost() },
    },
    {
      name: "dimensions removed: at the metric's timeseries key",
      messageId: "changed",
      doc: dropped,
      lines: [lineOf(dropped, '"timeseries"')],
      message: "to none;",
      options: { base: validHost() },
    },
    {
      name: "remote statetimeseries",
      messageId: "changed",
      doc: remoteState,
      lines: [lineOf(remoteState, '"dimensions"', 2)],
      message: "metric `status` changed from none to `zone`",
      options: { base: validRemote() },
    },
  ],
});
