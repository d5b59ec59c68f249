import { ruleTable, validHost, validRemote, lineOf, at, make, EF2, EXTENSION, edit } from "../../helpers.js";

type Obj = Record<string, unknown>;

const withCounts = (doc: Obj, counts: Obj): string =>
  make(doc, (d) => {
    Object.assign(at(d, "metrics", 0, "alert_settings", 0), counts);
  });

const zeroSamples = withCounts(validHost(), { samples: 0 });
const tooManyViolating = withCounts(validHost(), { samples: 5, violating_samples: 6 });
const negativeDealerting = withCounts(validRemote(), { dealerting_samples: -1 });
const allZero = withCounts(validHost(), { samples: 0, violating_samples: 0, dealerting_samples: 0 });
const zeroViolating = withCounts(validRemote(), { violating_samples: 0 });

// An extension whose `alerts` lists two metric events (extensions-2.md §6), and the files the caller read.
const efAlerts = edit(
  EXTENSION,
  "dashboards:\n",
  "alerts:\n  - path: alerts/errors.json\n  - path: alerts/uptime.json\ndashboards:\n",
);
const ERRORS_LINE = "- path: alerts/errors.json";
const strategy = (counts: object) => ({
  name: "Errors",
  metricId: "example.router.if.errors.count",
  monitoringStrategy: {
    type: "STATIC_THRESHOLD",
    samples: 5,
    violatingSamples: 3,
    dealertingSamples: 5,
    alertCondition: "ABOVE",
    threshold: 1,
    ...counts,
  },
});
const alertFiles = (errors: object | string, uptime: object = strategy({})) => ({
  ...EF2,
  files: {
    paths: ["extension/extension.yaml", "extension/alerts/errors.json", "extension/alerts/uptime.json"],
    contents: new Map([
      ["extension/alerts/errors.json", typeof errors === "string" ? errors : JSON.stringify(errors)],
      ["extension/alerts/uptime.json", JSON.stringify(uptime)],
    ]),
  },
});

ruleTable("alert-samples", {
  valid: [
    { name: "extension.yaml: the valid extension, no alerts", doc: EXTENSION, options: EF2 },
    {
      name: "extension.yaml: metric events of 3 of 5 (dealerting 5), and 60 of 60, nested and flat as the VS Code add-on writes them",
      doc: efAlerts,
      options: alertFiles(
        { ...strategy({}), samples: 5, violatingSamples: 3, dealertingSamples: 5 },
        strategy({ samples: 60, violatingSamples: 60, dealertingSamples: 60 }),
      ),
    },
    {
      name: "extension.yaml: alert files not read, not JSON, or counts that are not numbers (not this rule's)",
      doc: efAlerts,
      options: alertFiles('{ "monitoringStrategy": { "samples": 0 ', strategy({ samples: "0" })),
    },
    {
      name: "extension.yaml: alert files the caller did not pass say nothing",
      doc: efAlerts,
      options: EF2,
    },
    { name: "host example (5 / 3 / 5)", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "violating_samples equal to samples",
      doc: withCounts(validHost(), { samples: 3, violating_samples: 3 }),
    },
    {
      name: "all 1",
      doc: withCounts(validHost(), { samples: 1, violating_samples: 1, dealerting_samples: 1 }),
    },
    {
      name: "dealerting_samples larger than samples (a separate count)",
      doc: withCounts(validHost(), { samples: 3, violating_samples: 2, dealerting_samples: 10 }),
    },
    {
      name: "counts of the wrong type are for invalid-type, not this rule",
      doc: withCounts(validHost(), { samples: "0", violating_samples: "9" }),
    },
    {
      name: "missing counts are for required-member",
      doc: make(validHost(), (d) => {
        const a = at(d, "metrics", 0, "alert_settings", 0);
        delete a.samples;
        delete a.violating_samples;
      }),
    },
    { name: "rule turned off", doc: allZero, options: { config: { rules: { "alert-samples": "off" } } } },
  ],
  invalid: [
    {
      name: "samples 0, at the value",
      messageId: "belowOne",
      data: { count: "samples", value: 0 },
      doc: zeroSamples,
      lines: [lineOf(zeroSamples, '"samples": 0')],
      message: "`samples` is 0; it must be at least 1",
      severity: "error",
    },
    {
      name: "violating_samples above samples",
      messageId: "exceeds",
      doc: tooManyViolating,
      lines: [lineOf(tooManyViolating, '"violating_samples": 6')],
      message: "`violating_samples` (6) exceeds `samples` (5): the alert can never be raised",
    },
    {
      name: "remote: negative dealerting_samples",
      messageId: "belowOne",
      doc: negativeDealerting,
      lines: [lineOf(negativeDealerting, '"dealerting_samples": -1')],
      message: "`dealerting_samples` is -1",
    },
    {
      name: "remote: violating_samples 0",
      messageId: "belowOne",
      doc: zeroViolating,
      lines: [lineOf(zeroViolating, '"violating_samples": 0')],
      message: "at least 1",
    },
    {
      name: "all three 0: one finding each, no comparison against an invalid samples",
      messageId: "belowOne",
      doc: allZero,
      lines: [
        lineOf(allZero, '"samples": 0'),
        lineOf(allZero, '"violating_samples": 0'),
        lineOf(allZero, '"dealerting_samples": 0'),
      ],
      message: "it must be at least 1",
    },
    {
      name: "extension.yaml: violatingSamples above samples, at the alert's path",
      messageId: "eventExceeds",
      doc: efAlerts,
      options: alertFiles(strategy({ samples: 3, violatingSamples: 5 })),
      lines: [lineOf(efAlerts, ERRORS_LINE)],
      data: { path: "alerts/errors.json" },
      severity: "error",
      message:
        "alert `alerts/errors.json`: `monitoringStrategy.violatingSamples` (5) exceeds `monitoringStrategy.samples` (3): the metric event can never be raised",
    },
    {
      name: "extension.yaml: samples 0 in the second alert file, at its path",
      messageId: "eventBelowOne",
      doc: efAlerts,
      options: alertFiles(strategy({}), strategy({ dealertingSamples: 0 })),
      lines: [lineOf(efAlerts, "- path: alerts/uptime.json")],
      data: { path: "alerts/uptime.json", count: "monitoringStrategy.dealertingSamples", value: 0 },
      message:
        "alert `alerts/uptime.json`: `monitoringStrategy.dealertingSamples` is 0; it must be at least 1",
    },
    {
      name: "extension.yaml: a window over an hour",
      messageId: "eventOverHour",
      doc: efAlerts,
      options: alertFiles(strategy({ samples: 90 })),
      lines: [lineOf(efAlerts, ERRORS_LINE)],
      message:
        "alert `alerts/errors.json`: `monitoringStrategy.samples` is 90; samples are one minute each and the window is at most 60 minutes",
    },
    {
      name: "extension.yaml: the flat counts of the metric events API's example body",
      messageId: "eventExceeds",
      doc: efAlerts,
      options: alertFiles({ name: "Errors", samples: 2, violatingSamples: 4, dealertingSamples: 2 }),
      lines: [lineOf(efAlerts, ERRORS_LINE)],
      message: "`violatingSamples` (4) exceeds `samples` (2)",
    },
  ],
});
