import { describe, expect, it } from "vitest";
import {
  check,
  ruleTable,
  validHost,
  validRemote,
  lineOf,
  set,
  edit,
  EXTENSION,
  EF2,
} from "../../helpers.js";

const unitLower = set(validHost(), ["metrics", 0, "timeseries"], "unit", "percent");
const unitUnknown = set(validRemote(), ["metrics", 0, "timeseries"], "unit", "Percentage");
const aggregationWord = set(validHost(), ["metrics", 0, "timeseries"], "aggregation", "average");
const eventType = set(validHost(), ["metrics", 0, "alert_settings", 0], "event_type", "PERFORMANCE_EVNT");
const eventTypeShort = set(validHost(), ["metrics", 0, "alert_settings", 0], "event_type", "PERFORMANCE");
const conditionLower = set(validRemote(), ["metrics", 0, "alert_settings", 0], "alert_condition", "above");
const seriestype = set(validHost(), ["ui", "charts", 0, "series", 0], "seriestype", "column");
const activation = set(validHost(), ["source"], "activation", "singleton");
const propertyType = set(validHost(), ["properties", 0], "type", "TEXT");
const hostType = set(validHost(), [], "type", "java");
const hostEntity = set(validHost(), [], "entity", "PROCESS_GROUP_INSTANSE");
const keymetricUnit = set(validRemote(), ["ui", "keymetrics", 0], "unit", "Percents");
const mergeAggregation = set(validHost(), ["ui", "keymetrics", 0], "mergeaggregation", "median");
const seriesCount = set(validHost(), ["ui", "charts", 0, "series", 1], "aggregation", "COUNT");

/** A Prometheus extension with the types Dynatrace documents for that data source only. */
const PROMETHEUS_TYPES = `name: custom:example.prom
version: 1.0.0
minDynatraceVersion: "1.318"
author:
  name: x
prometheus:
  - group: http
    metrics:
      - key: example.prom.http.duration
        value: metric:http_duration_seconds
        type: histogram
      - key: example.prom.rpc.duration
        value: metric:rpc_duration_seconds
        type: summary
`;

// An extension whose `alerts` lists a metric event (extensions-2.md §6: the metric events API's v1 model), and
// the files the caller read.
const efAlert = edit(EXTENSION, "dashboards:\n", "alerts:\n  - path: alerts/errors.json\ndashboards:\n");
const event = (strategy: object, top: object = {}) => ({
  name: "Errors",
  description: "Errors on {dims}",
  enabled: true,
  metricId: "example.router.if.errors.count",
  severity: "ERROR",
  ...top,
  monitoringStrategy: {
    type: "STATIC_THRESHOLD",
    samples: 5,
    violatingSamples: 3,
    dealertingSamples: 5,
    alertCondition: "ABOVE",
    threshold: 1,
    ...strategy,
  },
});
const alertFile = (value: object) => ({
  ...EF2,
  files: {
    paths: ["extension/extension.yaml", "extension/alerts/errors.json"],
    contents: new Map([["extension/alerts/errors.json", JSON.stringify(value)]]),
  },
});

ruleTable("invalid-value", {
  valid: [
    { name: "extension.yaml: a metric event of allowed values", doc: efAlert, options: alertFile(event({})) },
    {
      // The Settings 2.0 form holds its condition elsewhere, with values of its own (`OUTSIDE`): not judged.
      name: "extension.yaml: a metric event in another form (modelProperties) is not judged by the v1 values",
      doc: efAlert,
      options: alertFile({
        enabled: true,
        summary: "Errors",
        modelProperties: { type: "AUTO_ADAPTIVE_THRESHOLD", alertCondition: "OUTSIDE", samples: 5 },
      }),
    },
    { name: "extension.yaml: the valid extension", doc: EXTENSION, options: EF2 },
    {
      name: "extension.yaml: Prometheus histograms and summaries (Prometheus data source reference, `type`)",
      doc: PROMETHEUS_TYPES,
      options: EF2,
    },
    {
      name: "extension.yaml: a unit of Dynatrace's bit family (its own extensions use it)",
      doc: edit(EXTENSION, "unit: Byte\n      dimensions", "unit: MegaBitPerSecond\n      dimensions"),
      options: EF2,
    },
    { name: "the host example", doc: validHost() },
    { name: "the remote example", doc: validRemote() },
    {
      name: "aggregation in any case",
      doc: set(validHost(), ["metrics", 0, "timeseries"], "aggregation", "Sum"),
    },
    {
      name: "seriestype in any case",
      doc: set(validHost(), ["ui", "charts", 0, "series", 0], "seriestype", "LINE"),
    },
    {
      name: "host property type in the remote spelling",
      doc: set(validHost(), ["properties", 0], "type", "String"),
    },
    {
      name: "host property type in odd casing",
      doc: set(validHost(), ["properties", 2], "type", "pAsSwOrD"),
    },
    {
      name: "remote property type in host spelling",
      doc: set(validRemote(), ["properties", 0], "type", "STRING"),
    },
    {
      name: "host Textarea is a variant problem, not an invalid value",
      doc: set(validHost(), ["properties", 0], "type", "Textarea"),
    },
    { name: "host entity HOST (host-entity warns instead)", doc: set(validHost(), [], "entity", "HOST") },
    { name: "host type JMX", doc: set(validHost(), [], "type", "JMX") },
    { name: "remote type other than python is variant-mismatch", doc: set(validRemote(), [], "type", "JMX") },
    {
      name: "an aggregation that is not a string is a type problem",
      doc: set(validHost(), ["metrics", 0, "timeseries"], "aggregation", 5),
    },
  ],
  invalid: [
    {
      // EF1 tells `alert_condition` its values; a metric event's condition is told them too, at the alert's path.
      name: "extension.yaml: a metric event's alertCondition not ABOVE or BELOW, at its path",
      doc: efAlert,
      options: alertFile(event({ alertCondition: "ABOVEE" })),
      lines: [lineOf(efAlert, "- path: alerts/errors.json")],
      messageId: "notAllowedNear",
      message:
        '`alerts/errors.json: monitoringStrategy.alertCondition` is "ABOVEE"; allowed: `ABOVE` or `BELOW`. Did you mean `ABOVE`?',
    },
    {
      name: "extension.yaml: a metric event's strategy type and severity not among the API's",
      doc: efAlert,
      options: alertFile(event({ type: "STATIC" }, { severity: "WARNING" })),
      lines: [lineOf(efAlert, "- path: alerts/errors.json"), lineOf(efAlert, "- path: alerts/errors.json")],
      messageId: ["notAllowedNear", "notAllowed"],
      data: [
        {
          path: "alerts/errors.json: monitoringStrategy.type",
          value: '"STATIC"',
          suggestion: "STATIC_THRESHOLD",
        },
        { path: "alerts/errors.json: severity", value: '"WARNING"' },
      ],
    },
    {
      name: "extension.yaml: a made-up per-second unit that a pattern would take",
      doc: edit(EXTENSION, "unit: Second", "unit: MilliSecondPerSecond"),
      options: EF2,
      lines: [lineOf(EXTENSION, "unit: Second")],
      messageId: "notAllowedNear",
      data: { path: "metrics[0].metadata.unit", value: '"MilliSecondPerSecond"' },
      suggestions: [
        [
          {
            desc: "use `MilliSecondPerMinute`",
            output: edit(EXTENSION, "unit: Second", 'unit: "MilliSecondPerMinute"'),
          },
        ],
      ],
    },
    {
      name: "extension.yaml: a unit in the wrong case is fixed, in the style it was written in",
      doc: edit(EXTENSION, "unit: Second", "unit: second"),
      options: EF2,
      lines: [lineOf(EXTENSION, "unit: Second")],
      messageId: "notAllowedNear",
      output: EXTENSION,
    },
    {
      // Windows editors write a byte order mark, which Dynatrace's parser skips: the file is as valid.
      name: "extension.yaml with a byte order mark and CRLF: at the value, fixed, the mark kept",
      doc: "\uFEFF" + edit(EXTENSION, "unit: Second", "unit: second").replace(/\n/g, "\r\n"),
      options: EF2,
      lines: [lineOf(EXTENSION, "unit: Second")],
      messageId: "notAllowedNear",
      output: "\uFEFF" + EXTENSION.replace(/\n/g, "\r\n"),
    },
    {
      // A flow mapping on a line of its own is what users write for short metadata; the finding is at its value.
      name: "extension.yaml: a metric written as a flow mapping in the list: at the value, fixed in place",
      doc: edit(
        EXTENSION,
        "  - key: example.router.if.errors.count\n    metadata:\n      displayName: Inbound errors\n      unit: Count\n",
        "  - {key: example.router.if.errors.count, metadata: {displayName: Inbound errors, unit: count}}\n",
      ),
      options: EF2,
      lines: [lineOf(EXTENSION, "  - key: example.router.if.errors.count")],
      messageId: "notAllowedNear",
      output: edit(
        EXTENSION,
        "  - key: example.router.if.errors.count\n    metadata:\n      displayName: Inbound errors\n      unit: Count\n",
        "  - {key: example.router.if.errors.count, metadata: {displayName: Inbound errors, unit: Count}}\n",
      ),
    },
    {
      name: "extension.yaml: an anchored unit and its alias: at the value, fixed with the anchor kept",
      doc: edit(
        edit(EXTENSION, "Bytes received\n      unit: Byte", "Bytes received\n      unit: &bytes byte"),
        "Bytes sent\n      unit: Byte",
        "Bytes sent\n      unit: *bytes",
      ),
      options: EF2,
      lines: [lineOf(EXTENSION, "Bytes received") + 1, lineOf(EXTENSION, "Bytes sent") + 1],
      messageId: "notAllowedNear",
      output: edit(EXTENSION, "Bytes received\n      unit: Byte", "Bytes received\n      unit: &bytes Byte"),
    },
    {
      name: "extension.yaml: a data source metric type",
      doc: edit(EXTENSION, "type: gauge", "type: counter"),
      options: EF2,
      lines: [lineOf(EXTENSION, "type: gauge")],
      messageId: "notAllowedNear",
      suggestions: [[{ desc: "use `count`", output: edit(EXTENSION, "type: gauge", 'type: "count"') }]],
    },
    {
      name: "unit in the wrong case: at the value, suggesting the right one",
      messageId: "notAllowedNear",
      data: { path: "metrics[0].timeseries.unit", value: '"percent"', suggestion: "Percent" },
      output: edit(unitLower, '"percent"', '"Percent"'),
      doc: unitLower,
      lines: [lineOf(unitLower, '"percent"')],
      message: /allowed: .*`Percent`.*Did you mean `Percent`\?/,
    },
    {
      name: "unknown unit (remote)",
      messageId: "notAllowedNear",
      suggestions: [[{ desc: "use `Percent`", output: edit(unitUnknown, '"Percentage"', '"Percent"') }]],
      doc: unitUnknown,
      lines: [lineOf(unitUnknown, '"Percentage"')],
      message: "Did you mean `Percent`?",
    },
    {
      name: "aggregation not in the list",
      messageId: "notAllowed",
      doc: aggregationWord,
      lines: [lineOf(aggregationWord, '"average"')],
      message: /`MIN`.*`COUNT`.*\(any case\)/,
    },
    {
      name: "event_type with a typo",
      messageId: "notAllowedNear",
      suggestions: [
        [
          {
            desc: "use `PERFORMANCE_EVENT`",
            output: edit(eventType, '"PERFORMANCE_EVNT"', '"PERFORMANCE_EVENT"'),
          },
        ],
      ],
      doc: eventType,
      lines: [lineOf(eventType, '"PERFORMANCE_EVNT"')],
      message: "Did you mean `PERFORMANCE_EVENT`?",
    },
    {
      name: "event_type cut short: the one value it starts is suggested",
      messageId: "notAllowedNear",
      suggestions: [
        [
          {
            desc: "use `PERFORMANCE_EVENT`",
            output: edit(eventTypeShort, '"PERFORMANCE"', '"PERFORMANCE_EVENT"'),
          },
        ],
      ],
      doc: eventTypeShort,
      lines: [lineOf(eventTypeShort, '"PERFORMANCE"')],
      message:
        /allowed: `PERFORMANCE_EVENT`, `ERROR_EVENT` or `AVAILABILITY_EVENT`\. Did you mean `PERFORMANCE_EVENT`\?$/,
    },
    {
      name: "alert_condition is case-sensitive",
      messageId: "notAllowedNear",
      output: edit(conditionLower, '"above"', '"ABOVE"'),
      doc: conditionLower,
      lines: [lineOf(conditionLower, '"above"')],
      message: "Did you mean `ABOVE`?",
    },
    {
      name: "seriestype",
      messageId: "notAllowed",
      doc: seriestype,
      lines: [lineOf(seriestype, '"column"')],
      message: /`line`, `area`.*`bar`/,
    },
    {
      name: "activation is case-sensitive",
      messageId: "notAllowedNear",
      output: edit(activation, '"singleton"', '"Singleton"'),
      doc: activation,
      lines: [lineOf(activation, '"singleton"')],
      message: "Did you mean `Singleton`?",
    },
    {
      name: "property type",
      messageId: "notAllowedNear",
      suggestions: [[{ desc: "use `Textarea`", output: edit(propertyType, '"TEXT"', '"Textarea"') }]],
      doc: propertyType,
      lines: [lineOf(propertyType, '"TEXT"')],
      message: "`properties[0].type`",
    },
    {
      name: "host type",
      doc: hostType,
      lines: [lineOf(hostType, '"java"')],
      message: /`python`.*`JMX`/,
      messageId: "notAllowed",
    },
    {
      name: "host entity",
      messageId: "notAllowedNear",
      suggestions: [
        [
          {
            desc: "use `PROCESS_GROUP_INSTANCE`",
            output: edit(hostEntity, '"PROCESS_GROUP_INSTANSE"', '"PROCESS_GROUP_INSTANCE"'),
          },
        ],
      ],
      doc: hostEntity,
      lines: [lineOf(hostEntity, '"PROCESS_GROUP_INSTANSE"')],
      message: "Did you mean `PROCESS_GROUP_INSTANCE`?",
    },
    {
      name: "keymetric unit (remote)",
      messageId: "notAllowedNear",
      suggestions: [[{ desc: "use `Percent`", output: edit(keymetricUnit, '"Percents"', '"Percent"') }]],
      doc: keymetricUnit,
      lines: [lineOf(keymetricUnit, '"Percents"')],
      message: "`ui.keymetrics[0].unit`",
    },
    {
      name: "mergeaggregation",
      doc: mergeAggregation,
      lines: [lineOf(mergeAggregation, '"median"')],
      messageId: "notAllowed",
    },
    {
      name: "series aggregation has no COUNT",
      messageId: "notAllowed",
      doc: seriesCount,
      lines: [lineOf(seriesCount, '"COUNT"')],
      message: /`SUM`, `AVG`, `MIN`.*`MAX`/,
    },
    {
      name: "severity can be lowered",
      messageId: "notAllowedNear",
      output: edit(unitLower, '"percent"', '"Percent"'),
      doc: unitLower,
      lines: [lineOf(unitLower, '"percent"')],
      severity: "notice",
      options: { config: { rules: { "invalid-value": "notice" } } },
    },
  ],
});

describe("invalid-value: suggested fix", () => {
  it("carries the closest allowed value as a replacement", () => {
    const [f] = check(unitLower).filter((x) => x.ruleId === "invalid-value");
    expect(f?.fix).toEqual({ replacement: '"Percent"', description: "use `Percent`" });
  });

  it("has no fix when nothing is close", () => {
    const doc = set(validHost(), ["metrics", 0, "timeseries"], "unit", "zzzzzzzzzzzz");
    const [f] = check(doc).filter((x) => x.ruleId === "invalid-value");
    expect(f?.line).toBe(lineOf(doc, '"zzzzzzzzzzzz"'));
    expect(f?.message).not.toMatch(/Did you mean/);
    expect(f?.fix).toBeUndefined();
  });

  it("can be turned off", () => {
    expect(
      check(unitLower, { config: { rules: { "invalid-value": "off" } } }).filter(
        (x) => x.ruleId === "invalid-value",
      ),
    ).toEqual([]);
  });
});
