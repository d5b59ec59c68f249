import { ruleTable, validHost, validRemote, lineOf, at, make, EF2, EXTENSION, edit } from "../../helpers.js";

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

/** An extension's chart on a count by its key as written, which Dynatrace ingests with `.count`. */
const efCount = edit(
  EXTENSION,
  "example.router.if.in.bytes.count:splitBy",
  "example.router.if.in.bytes:splitBy",
);
const efPrefix = edit(
  EXTENSION,
  "condition: $prefix(example.router.)",
  "condition: $prefix(example.routers.)",
);

/** A calculated metric (`func:`) of the extension's metrics, as published extensions write them. */
const calculated = (selector: string) =>
  edit(
    EXTENSION,
    "metrics:\n  - key: example.router.uptime\n",
    `metrics:\n  - key: func:example.router.if.bits\n    query:\n      metricSelector: ${selector}\n    metadata:\n      displayName: Bits\n      unit: Bit\n  - key: example.router.uptime\n`,
  );
const efCalculated = calculated(
  "'(example.router.if.in.bytes.count + example.router.if.inn.bytes.count) * 8'",
);

// An extension whose `alerts` lists metric events (extensions-2.md §6), and the files the caller read.
const efAlerts = edit(
  EXTENSION,
  "dashboards:\n",
  "alerts:\n  - path: alerts/errors.json\n  - path: alerts/uptime.json\ndashboards:\n",
);
const alertFiles = (errors: object, uptime: object = { metricSelector: "example.router.uptime:max" }) => ({
  ...EF2,
  files: {
    paths: ["extension/extension.yaml", "extension/alerts/errors.json", "extension/alerts/uptime.json"],
    contents: new Map([
      ["extension/alerts/errors.json", JSON.stringify(errors)],
      ["extension/alerts/uptime.json", JSON.stringify(uptime)],
    ]),
  },
});
const event = { name: "Errors", monitoringStrategy: { type: "STATIC_THRESHOLD", threshold: 1 } };

ruleTable("unknown-metric-reference", {
  valid: [
    { name: "extension.yaml: the valid extension", doc: EXTENSION, options: EF2 },
    {
      name: "extension.yaml: alerts on metrics it reports (metricId with `.count`, a selector), or on builtin and other namespaces' metrics",
      doc: efAlerts,
      options: alertFiles(
        { ...event, metricId: "example.router.if.errors.count" },
        { metricSelector: 'builtin:host.cpu.usage:filter(eq("x","y")) + other.vendor.metric' },
      ),
    },
    {
      name: "extension.yaml: an alert naming a reported metric with `func:` (as sql-oracle's does): not said missing",
      doc: efAlerts,
      options: alertFiles(
        { ...event, metricSelector: "func:example.router.if.errors.count:splitBy(interface.name):avg" },
        { metricSelector: "func:example.router.uptime" },
      ),
    },
    {
      name: "extension.yaml: alert files not read (the caller did not pass them), not JSON, or of another shape",
      doc: efAlerts,
      options: {
        ...EF2,
        files: {
          contents: new Map([
            ["extension/alerts/errors.json", '{ "metricId": "example.router.if.errorz", '],
            ["extension/alerts/uptime.json", '["example.router.uptim"]'],
          ]),
        },
      },
    },
    {
      name: "extension.yaml: an alert on a calculated metric it describes (`func:`)",
      doc: edit(
        calculated("example.router.if.in.bytes.count * 8"),
        "dashboards:\n",
        "alerts:\n  - path: alerts/errors.json\ndashboards:\n",
      ),
      options: {
        ...EF2,
        files: {
          contents: new Map([
            ["extension/alerts/errors.json", '{"metricSelector": "func:example.router.if.bits"}'],
          ]),
        },
      },
    },
    {
      name: "extension.yaml: another extension's or a built-in metric",
      doc: edit(
        EXTENSION,
        "metricSelector: example.router.uptime:",
        "metricSelector: builtin:host.cpu.usage:",
      ).replace("example.router.if.in.bytes.count:splitBy", "com.example.other.traps.count:splitBy"),
      options: EF2,
    },
    {
      name: "extension.yaml: a calculated metric of metrics the extension reports, and of a built-in one",
      doc: calculated(
        "'(example.router.if.in.bytes.count + example.router.if.out.bytes.count) * 8 / builtin:host.cpu.usage'",
      ),
      options: EF2,
    },
    {
      name: "extension.yaml: a calculated metric of another, named without its `func:` (as sql-oracle's extension does)",
      doc: edit(
        calculated("'example.router.if.in.bytes.count * 8'"),
        "  - key: example.router.uptime\n",
        "  - key: func:example.router.if.kbits\n    query:\n      metricSelector: '(example.router.if.bits) / 1000'\n  - key: example.router.uptime\n",
      ),
      options: EF2,
    },
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
      name: "extension.yaml: an alert file's metricId names a count without `.count`, at the alert's path",
      doc: efAlerts,
      options: alertFiles({ ...event, metricId: "example.router.if.errors" }),
      lines: [lineOf(efAlerts, "- path: alerts/errors.json")],
      messageId: "unknownAlert",
      data: { key: "example.router.if.errors", path: "alerts/errors.json" },
      severity: "warning",
      message:
        "alert `alerts/errors.json` is on `example.router.if.errors`, which this extension neither reports nor describes: its metric event never fires: did you mean `example.router.if.errors.count`?",
    },
    {
      name: "extension.yaml: an alert file's metricSelector names a metric the extension does not report",
      doc: efAlerts,
      options: alertFiles(
        { ...event, metricId: "example.router.if.errors.count" },
        { metricSelector: 'example.router.uptme:filter(eq("device.name","a")):max' },
      ),
      lines: [lineOf(efAlerts, "- path: alerts/uptime.json")],
      messageId: "unknownAlert",
      data: { key: "example.router.uptme", path: "alerts/uptime.json" },
    },
    {
      name: "extension.yaml: a chart on a count's key without `.count`, as a warning",
      doc: efCount,
      options: EF2,
      lines: [lineOf(efCount, "metricSelector: example.router.if.in.bytes:")],
      messageId: "unknownExtension",
      data: { key: "example.router.if.in.bytes" },
      severity: "warning",
      message: /did you mean `example\.router\.if\.in\.bytes\.count`\?$/,
    },
    {
      name: "extension.yaml: a calculated metric's selector names a metric the extension does not report, at its selector",
      doc: efCalculated,
      options: EF2,
      lines: [lineOf(efCalculated, "metricSelector: '(example.router.if.in.bytes.count + ")],
      messageId: "unknownCalculated",
      data: { key: "example.router.if.inn.bytes.count" },
      severity: "warning",
      message:
        "`example.router.if.inn.bytes.count` is no metric this extension reports or describes: calculated metric `func:example.router.if.bits` stays empty: did you mean `example.router.if.in.bytes.count`?",
    },
    {
      name: "extension.yaml: a topology source no metric matches",
      doc: efPrefix,
      options: EF2,
      lines: [lineOf(efPrefix, "condition: $prefix(example.routers.)")],
      messageId: "unknownPrefix",
      data: { key: "example.routers." },
      severity: "warning",
    },
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
