import { ruleTable, validHost, validRemote, text, lineOf, set, edit, EXTENSION, EF2 } from "../../helpers.js";

const dropdownNumbers = set(validRemote(), ["properties", 1], "dropdownValues", ["fast", 2]);
const unitNumber = set(validHost(), ["metrics", 0, "timeseries"], "unit", 5);
const versionNumber = set(validHost(), [], "version", 1.2);
const metricsObject = set(validRemote(), [], "metrics", {});
const sourceString = set(validHost(), [], "source", "demo_plugin");
const processTypesStrings = set(validHost(), [], "processTypes", ["10"]);
const thresholdString = set(validHost(), ["metrics", 0, "alert_settings", 0], "threshold", "100");
const samplesFraction = set(validRemote(), ["metrics", 0, "alert_settings", 0], "samples", 5.5);
const rightaxisString = set(validHost(), ["ui", "charts", 0, "series", 0], "rightaxis", "false");
const displayOrderBool = set(validHost(), ["configUI", "properties", 0], "displayOrder", true);
const dimensionsString = set(validHost(), ["metrics", 0, "timeseries"], "dimensions", "endpoint");
const nullName = set(validRemote(), [], "name", null);
const technologyNumber = set(validRemote(), [], "technologies", ["Demo Device", 7]);
const rootArray = "[\n  {}\n]\n";

/**
 * The SQL data source's query frequency and timeout as its reference documents them: an interval a variable
 * sets (`minutes: var:<id>`), a `timeout` (seconds, a string or a variable) and a cron `schedule`.
 */
const SQL_FREQUENCY = `name: custom:example.sql
version: 1.0.0
minDynatraceVersion: "1.303"
author:
  name: x
vars:
  - id: myInterval
    displayName: Interval
    defaultValue: "10"
    pattern: ^[0-9]+$
    type: text
  - id: myTimeout
    displayName: Timeout
    type: text
sqlOracle:
  - group: cpu
    interval:
      minutes: var:myInterval
    timeout: "20"
    query: SELECT value AS cpu_count FROM v$parameter WHERE name = 'cpu_count'
    metrics:
      - key: example.sql.cpu.cores
        value: col:cpu_count
    subgroups:
      - subgroup: scheduled
        schedule: "0 12 ? * 2-6"
        timeout: var:myTimeout
        query: SELECT 1 AS one FROM dual
        metrics:
          - key: example.sql.one
            value: col:one
`;

ruleTable("invalid-type", {
  valid: [
    { name: "extension.yaml: the valid extension", doc: EXTENSION, options: EF2 },
    {
      name: "extension.yaml: an SQL interval a variable sets (SQL data source reference)",
      doc: SQL_FREQUENCY,
      options: EF2,
    },
    {
      name: "extension.yaml: an interval of 0 minutes has the type meant (its range is invalid-format's)",
      doc: edit(EXTENSION, "      minutes: 1\n", "      minutes: 0\n"),
      options: EF2,
    },
    {
      name: "extension.yaml: an interval of 3,000 minutes neither",
      doc: edit(EXTENSION, "      minutes: 1\n", "      minutes: 3000\n"),
      options: EF2,
    },
    { name: "the host example", doc: validHost() },
    { name: "the remote example", doc: validRemote() },
    {
      name: "displayOrder as a string (declared a string by the spec)",
      doc: set(validHost(), ["configUI", "properties", 0], "displayOrder", "1"),
    },
    {
      name: "an integer threshold (a number)",
      doc: set(validHost(), ["metrics", 0, "alert_settings", 0], "threshold", 250),
    },
    {
      name: "samples written 5.0 (an integer value)",
      doc: edit(text(validHost()), '"samples": 5', '"samples": 5.0'),
    },
    { name: "defaultValue null", doc: set(validRemote(), ["properties", 0], "defaultValue", null) },
    {
      name: "metric source of any JSON type (free-form)",
      doc: set(validHost(), ["metrics", 1], "source", [1, "x", { y: null }]),
    },
  ],
  invalid: [
    {
      name: "extension.yaml: minDynatraceVersion unquoted, which YAML reads as a number",
      doc: edit(EXTENSION, 'minDynatraceVersion: "1.285"', "minDynatraceVersion: 1.285"),
      options: EF2,
      lines: [lineOf(EXTENSION, "minDynatraceVersion")],
      messageId: "type",
      data: { expected: "a string", actual: "number" },
    },
    {
      name: "extension.yaml: a subgroup's table flag as text",
      doc: edit(EXTENSION, "table: true", 'table: "yes"'),
      options: EF2,
      lines: [lineOf(EXTENSION, "table: true")],
      messageId: "type",
      data: { path: "snmp[0].subgroups[1].table", expected: "a boolean" },
    },
    {
      name: "dropdownValues holding a number: reported once, at the item",
      messageId: "type",
      data: { path: "properties[1].dropdownValues[1]", expected: "a string", actual: "integer", value: "2" },
      doc: dropdownNumbers,
      lines: [lineOf(dropdownNumbers, '"dropdownValues"') + 2],
      message: "must be a string, not integer 2",
    },
    {
      name: "unit as a number: invalid-type only, not invalid-value too",
      messageId: "type",
      doc: unitNumber,
      lines: [lineOf(unitNumber, '"unit": 5')],
      message: "must be a string, not integer 5",
    },
    {
      name: "version as a number: at the value",
      messageId: "type",
      doc: versionNumber,
      lines: [lineOf(versionNumber, '"version"')],
      message: "`version` must be a string, not number 1.2",
    },
    {
      name: "version as a number: quoted as written, not as parsed (1.10, not 1.1)",
      messageId: "type",
      doc: edit(text(validHost()), '"version": "1.2.0"', '"version": 1.10'),
      lines: [lineOf(text(validHost()), '"version"')],
      data: { actual: "number", value: "1.10" },
      message: /^`version` must be a string, not number 1\.10$/,
    },
    {
      name: "version written 1.0: a number as the author sees it, not integer 1",
      messageId: "type",
      doc: edit(text(validHost()), '"version": "1.2.0"', '"version": 1.0'),
      lines: [lineOf(text(validHost()), '"version"')],
      message: /^`version` must be a string, not number 1\.0$/,
    },
    {
      name: "extension.yaml: minDynatraceVersion 1.250 quoted as written, not as the number 1.25",
      doc: edit(EXTENSION, 'minDynatraceVersion: "1.285"', "minDynatraceVersion: 1.250"),
      options: EF2,
      lines: [lineOf(EXTENSION, "minDynatraceVersion")],
      messageId: "type",
      message: /^`minDynatraceVersion` must be a string, not number 1\.250$/,
    },
    {
      name: "an optional member null: says null once",
      messageId: "typeNull",
      doc: set(validHost(), ["metrics", 0, "alert_settings", 0], "description", null),
      lines: [
        lineOf(set(validHost(), ["metrics", 0, "alert_settings", 0], "description", null), '"description"'),
      ],
      message: /^`metrics\[0\]\.alert_settings\[0\]\.description` must be a string, not null$/,
    },
    {
      name: "metrics as an object",
      messageId: "type",
      doc: metricsObject,
      lines: [lineOf(metricsObject, '"metrics"')],
      message: "must be an array, not object",
    },
    {
      name: "source as a string",
      messageId: "type",
      doc: sourceString,
      lines: [lineOf(sourceString, '"source"')],
      message: "`source` must be an object",
    },
    {
      name: "processTypes with a string id",
      messageId: "type",
      doc: processTypesStrings,
      lines: [lineOf(processTypesStrings, '"10"')],
      message: '`processTypes[0]` must be an integer, not string "10"',
    },
    {
      name: "threshold as a string",
      messageId: "type",
      doc: thresholdString,
      lines: [lineOf(thresholdString, '"threshold"')],
      message: "must be a number",
    },
    {
      name: "samples with a fraction (remote)",
      messageId: "type",
      doc: samplesFraction,
      lines: [lineOf(samplesFraction, '"samples"')],
      message: "must be an integer, not number 5.5",
    },
    {
      name: "rightaxis as a string",
      messageId: "type",
      doc: rightaxisString,
      lines: [lineOf(rightaxisString, '"rightaxis"')],
      message: "must be a boolean",
    },
    {
      name: "displayOrder as a boolean",
      messageId: "type",
      doc: displayOrderBool,
      lines: [lineOf(displayOrderBool, '"displayOrder"')],
      message: "must be an integer or string, not boolean true",
    },
    {
      name: "dimensions as a string",
      messageId: "type",
      doc: dimensionsString,
      lines: [lineOf(dimensionsString, '"dimensions"')],
      message: "`metrics[0].timeseries.dimensions` must be an array",
    },
    {
      name: "name null (remote)",
      doc: nullName,
      lines: [lineOf(nullName, '"name"')],
      message: /^`name` must be a string, not null$/,
      messageId: "typeNull",
    },
    {
      name: "a number among technology names",
      messageId: "type",
      doc: technologyNumber,
      lines: [lineOf(technologyNumber, '"Demo Device"') + 1],
      message: "`technologies[1]` must be a string",
    },
    {
      name: "the root is an array",
      doc: rootArray,
      lines: [1],
      message: "must be an object, not array",
      messageId: "type",
    },
    {
      name: "severity can be lowered",
      messageId: "type",
      doc: versionNumber,
      lines: [lineOf(versionNumber, '"version"')],
      severity: "warning",
      options: { config: { rules: { "invalid-type": "warning" } } },
    },
  ],
});

ruleTable("invalid-type", {
  valid: [
    { name: "turned off", doc: versionNumber, options: { config: { rules: { "invalid-type": "off" } } } },
  ],
  invalid: [],
});
