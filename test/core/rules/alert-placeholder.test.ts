import { ruleTable, validHost, validRemote, lineOf, at, make, EF2, EXTENSION, edit } from "../../helpers.js";

type Obj = Record<string, unknown>;

const describeAs = (doc: Obj, description: string, metric = 0): string =>
  make(doc, (d) => {
    at(d, "metrics", metric, "alert_settings", 0).description = description;
  });

const typo = describeAs(validHost(), "{severity} requests on {entityname} is above {treshold}");
const metricname = describeAs(validHost(), "{metricname} is {severity} on {entityname}");
const capital = describeAs(validRemote(), "CPU at {Threshold}");
const twoUnknown = describeAs(validHost(), "{metric} on {host} ({metric} again)");
const both = describeAs(validRemote(), "{metricname} on {device}");
const secondMetric = make(validHost(), (d) => {
  at(d, "metrics", 1).alert_settings = [
    {
      alert_id: "slow",
      event_type: "PERFORMANCE_EVENT",
      event_name: "Slow",
      description: "slow: {value}",
      threshold: 500,
      alert_condition: "ABOVE",
      samples: 5,
      violating_samples: 3,
      dealerting_samples: 5,
    },
  ];
});

// An extension whose `alerts` lists two metric events (extensions-2.md §6), and the files the caller read.
const efAlerts = edit(
  EXTENSION,
  "dashboards:\n",
  "alerts:\n  - path: alerts/errors.json\n  - path: alerts/uptime.json\ndashboards:\n",
);
const event = (description: string) => ({
  name: "Errors",
  metricId: "example.router.if.errors.count",
  description,
});
const alertFiles = (errors: string, uptime = "{entityname} is down") => ({
  ...EF2,
  files: {
    paths: ["extension/extension.yaml", "extension/alerts/errors.json", "extension/alerts/uptime.json"],
    contents: new Map([
      ["extension/alerts/errors.json", JSON.stringify(event(errors))],
      ["extension/alerts/uptime.json", JSON.stringify(event(uptime))],
    ]),
  },
});

ruleTable("alert-placeholder", {
  valid: [
    {
      name: "extension.yaml: every metric event placeholder, `{dims:<key>}` included",
      doc: efAlerts,
      options: alertFiles(
        "{alert_condition} {baseline} {dims} {dims:device.name} {entityname} {metricname} {missing_data_samples} {severity} {threshold}",
      ),
    },
    {
      name: "extension.yaml: alert files the caller did not pass say nothing",
      doc: efAlerts,
      options: EF2,
    },
    { name: "host example", doc: validHost() },
    { name: "remote example", doc: validRemote() },
    {
      name: "all six documented placeholders",
      doc: describeAs(
        validHost(),
        "{threshold} {severity} {entityname} {violating_samples} {dimensions} {alert_condition}",
      ),
    },
    {
      name: "braces that are not placeholders: empty, or with whitespace inside",
      doc: describeAs(validHost(), "value {} is { above } the {threshold}"),
    },
    {
      name: "no description at all",
      doc: make(validHost(), (d) => {
        delete at(d, "metrics", 0, "alert_settings", 0).description;
      }),
    },
    {
      name: "placeholders are only checked in description, not in event_name",
      doc: make(validHost(), (d) => {
        at(d, "metrics", 0, "alert_settings", 0).event_name = "Too many {metric}";
      }),
    },
    {
      name: "rule turned off (silences the notice too)",
      doc: both,
      options: { config: { rules: { "alert-placeholder": "off" } } },
    },
  ],
  invalid: [
    {
      name: "extension.yaml: an EF1 description carried over as is: `{dimensions}` is `{dims}`, at the alert's path",
      messageId: "unknownEvent",
      doc: efAlerts,
      options: alertFiles("Errors on {entityname} ({dimensions})"),
      lines: [lineOf(efAlerts, "- path: alerts/errors.json")],
      data: { path: "alerts/errors.json", name: "dimensions" },
      severity: "warning",
      message:
        "alert `alerts/errors.json`: unknown placeholder `{dimensions}` in `description` is shown literally: EF1's `{dimensions}` is `{dims}` in a metric event (known: {alert_condition}, ",
    },
    {
      name: "extension.yaml: EF1's `{violating_samples}` has no metric event placeholder",
      messageId: "unknownEvent",
      doc: efAlerts,
      options: alertFiles("{threshold} on {entityname}", "{violating_samples} samples above {threshold}"),
      lines: [lineOf(efAlerts, "- path: alerts/uptime.json")],
      data: { path: "alerts/uptime.json", name: "violating_samples" },
      message: "has no metric event placeholder; write the number of violating samples",
    },
    {
      name: "extension.yaml: a typo, with the closest placeholder",
      messageId: "unknownEvent",
      doc: efAlerts,
      options: alertFiles("{entityname} above {treshold}"),
      lines: [lineOf(efAlerts, "- path: alerts/errors.json")],
      data: { name: "treshold" },
      message: "did you mean `{threshold}`?",
    },
    {
      name: "host: a misspelt placeholder, with a suggestion, at the description value",
      messageId: "unknown",
      data: { name: "treshold", suggestion: ": did you mean `{threshold}`?" },
      doc: typo,
      lines: [lineOf(typo, '"description"')],
      message: "unknown placeholder `{treshold}` is shown literally: did you mean `{threshold}`?",
      severity: "warning",
    },
    {
      name: "{metricname} is only a notice",
      messageId: "metricname",
      doc: metricname,
      lines: [lineOf(metricname, '"description"')],
      message: "`{metricname}`",
      severity: "notice",
    },
    {
      name: "remote: placeholders are case-sensitive",
      messageId: "unknown",
      doc: capital,
      lines: [lineOf(capital, '"description"')],
      message: "`{Threshold}` is shown literally: did you mean `{threshold}`?",
      severity: "warning",
    },
    {
      name: "one finding per distinct unknown placeholder",
      messageId: "unknown",
      doc: twoUnknown,
      lines: [lineOf(twoUnknown, '"description"'), lineOf(twoUnknown, '"description"')],
      message: /unknown placeholder `\{(metric|host)\}`.*known: \{threshold\}/,
      severity: "warning",
    },
    {
      name: "the placeholder of an alert on the second metric",
      messageId: "unknown",
      doc: secondMetric,
      lines: [lineOf(secondMetric, '"description": "slow: {value}"')],
      message: "`{value}`",
    },
    {
      name: "configured severity applies to every finding of the rule",
      messageId: ["metricname", "unknown"],
      doc: both,
      lines: [lineOf(both, '"description"'), lineOf(both, '"description"')],
      severity: "error",
      options: { config: { rules: { "alert-placeholder": "error" } } },
    },
  ],
});
