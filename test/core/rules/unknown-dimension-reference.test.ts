import { ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

const unknownDim = make(validHost(), (d) => {
  at(d, "ui", "charts", 0, "series", 1).dimensions = ["endpoint", "method"];
});
const noDims = make(validHost(), (d) => {
  at(d, "ui", "charts", 0, "series", 0).dimensions = ["endpoint"];
});
const keychart = make(validHost(), (d) => {
  at(d, "ui", "keycharts", 0, "series", 0).dimensions = ["Endpoint", "pid"];
});
const remote = make(validRemote(), (d) => {
  at(d, "ui", "keycharts", 0, "series", 0).dimensions = ["cores"];
});

ruleTable("unknown-dimension-reference", {
  valid: [
    { name: "host example (a series on a defined dimension)", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "every dimension of the metric, in another order",
      doc: make(validHost(), (d) => {
        at(d, "ui", "charts", 0, "series", 1).dimensions = ["endpoint", "rx_pid"];
      }),
    },
    {
      name: "an empty dimensions list",
      doc: make(validHost(), (d) => {
        at(d, "ui", "charts", 0, "series", 0).dimensions = [];
      }),
    },
    {
      name: "a series on an unknown metric (unknown-metric-reference reports it, not this rule)",
      doc: make(validHost(), (d) => {
        at<unknown[]>(d, "ui", "charts", 0, "series").push({ key: "nope", dimensions: ["x"] });
      }),
    },
    {
      name: "dimensions of a keymetric are not checked by this rule",
      doc: make(validRemote(), (d) => {
        at(d, "ui", "keycharts", 0, "series", 0).dimensions = ["core"];
      }),
    },
    {
      name: "rule turned off",
      doc: unknownDim,
      options: { config: { rules: { "unknown-dimension-reference": "off" } } },
    },
  ],
  invalid: [
    {
      name: "host chart series naming a dimension its metric lacks, at that value",
      messageId: "unknown",
      data: { key: "requests", dimension: "method" },
      doc: unknownDim,
      lines: [lineOf(unknownDim, '"method"')],
      message: "metric `requests` has no dimension `method` (its dimensions: `rx_pid`, `endpoint`)",
      severity: "error",
    },
    {
      name: "a metric without dimensions",
      messageId: "unknown",
      doc: noDims,
      lines: [lineOf(noDims, '"endpoint"', 2)],
      message: "metric `latency` has no dimension `endpoint` (it has no dimensions)",
    },
    {
      name: "keychart series: case matters, one finding per unknown name",
      messageId: "unknown",
      doc: keychart,
      lines: [lineOf(keychart, '"Endpoint"'), lineOf(keychart, '"pid"')],
      message: /metric `requests` has no dimension `(Endpoint|pid)`/,
    },
    {
      name: "remote keychart series",
      messageId: "unknown",
      doc: remote,
      lines: [lineOf(remote, '"cores"')],
      message: "(its dimensions: `core`)",
    },
  ],
});
