import { ruleTable, validHost, validRemote, lineOf, at, make, EF2, EXTENSION, edit } from "../../helpers.js";

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

const efDimension = edit(EXTENSION, 'splitBy("interface.name")', 'splitBy("interface.alias")');

// An extension whose `alerts` lists a metric event (extensions-2.md §6), and the file the caller read.
const efAlert = edit(EXTENSION, "dashboards:\n", "alerts:\n  - path: alerts/errors.json\ndashboards:\n");
const alertFile = (metricSelector: string) => ({
  ...EF2,
  files: {
    paths: ["extension/extension.yaml", "extension/alerts/errors.json"],
    contents: new Map([["extension/alerts/errors.json", JSON.stringify({ name: "Errors", metricSelector })]]),
  },
});

ruleTable("unknown-dimension-reference", {
  valid: [
    { name: "extension.yaml: the valid extension", doc: EXTENSION, options: EF2 },
    {
      name: "extension.yaml: a Prometheus metric split by a label the file does not name",
      doc: "name: custom:example.prom\nversion: 1.0.0\nminDynatraceVersion: '1.285'\nauthor:\n  name: x\nprometheus:\n  - group: g\n    metrics:\n      - key: example.prom.up\n        value: metric:up\nscreens:\n  - entityType: x\n    chartsCards:\n      - key: c\n        charts:\n          - graphChartConfig:\n              metrics:\n                - metricSelector: example.prom.up:splitBy(\"job\")\n",
      options: EF2,
    },
    {
      name: "extension.yaml: an alert file's selector split by its metric's dimensions and Dynatrace's own",
      doc: efAlert,
      options: alertFile(
        'example.router.if.errors.count:filter(eq("device.name","core")):splitBy("dt.entity.example:router","interface.name")',
      ),
    },
    {
      name: "extension.yaml: an alert file not read (the caller did not pass it): not judged",
      doc: efAlert,
      options: EF2,
    },
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
      name: "extension.yaml: split by a dimension its subgroup does not have, as a warning",
      doc: efDimension,
      options: EF2,
      lines: [lineOf(efDimension, 'splitBy("interface.alias")')],
      messageId: "unknownExtension",
      data: { key: "example.router.if.in.bytes.count", dimension: "interface.alias" },
      message: /\(its dimensions: `device\.name`, `interface\.name`\)/,
      severity: "warning",
    },
    {
      name: "extension.yaml: an alert file's selector filtered by a dimension its metric lacks, at the alert's path",
      doc: efAlert,
      options: alertFile(
        'example.router.if.errors.count:filter(eq("interface.nme","eth0")):splitBy("interface.name")',
      ),
      lines: [lineOf(efAlert, "- path: alerts/errors.json")],
      messageId: "unknownAlert",
      data: { key: "example.router.if.errors.count", dimension: "interface.nme", path: "alerts/errors.json" },
      message:
        "alert `alerts/errors.json`: metric `example.router.if.errors.count` has no dimension `interface.nme` (its dimensions: `device.name`, `interface.name`): splitting or filtering by it gives one empty series, and the metric event watches no data",
      severity: "warning",
    },
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
