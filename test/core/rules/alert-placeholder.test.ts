import { ruleTable, validHost, validRemote, lineOf, at, make } from "../../helpers.js";

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

ruleTable("alert-placeholder", {
  valid: [
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
