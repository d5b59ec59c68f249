import {
  ruleTable,
  validHost,
  validRemote,
  lineOf,
  set,
  EXTENSION,
  EF2,
  edit,
  MIGRATION,
} from "../../helpers.js";

const metricKey = set(validHost(), ["metrics", 1, "timeseries"], "key", "latency ms");
const stateKey = set(validRemote(), ["metrics", 1, "statetimeseries"], "key", "status.code");
const dimension = set(validHost(), ["metrics", 0, "timeseries"], "dimensions", ["rx_pid", "end point"]);
const alertId = set(validRemote(), ["metrics", 0, "alert_settings", 0], "alert_id", "cpu high!");
const propertyKey = set(validHost(), ["properties", 0], "key", "status.url");
const colorName = set(validHost(), ["ui", "keycharts", 0, "series", 0], "color", "blue");
const colorHex5 = set(validRemote(), ["ui", "keycharts", 0, "series", 0], "color", "#12345");
const colorRgbMissing = set(validHost(), ["ui", "charts", 0, "series", 0], "color", "rgb(1, 2)");
const agentVersion = set(validHost(), [], "requiredAgentVersion", "latest");
const emptyKey = set(validHost(), ["metrics", 1, "timeseries"], "key", "");

/**
 * The valid extension with its device dimensions anchored (`&device`) and a second group that reuses them by
 * alias (`*device`), its device dimension's key written `key`.
 */
function aliasedDevice(key: string): string {
  const anchored = edit(
    EXTENSION,
    "    dimensions:\n      - key: device.name\n",
    `    dimensions: &device\n      - key: ${key}\n`,
  );
  return edit(
    anchored,
    "\nmetrics:\n",
    "  - group: device-slow\n    interval:\n      minutes: 5\n    dimensions: *device\n    subgroups:\n      - subgroup: uptime-slow\n        table: false\n        metrics:\n          - key: example.router.uptime.slow\n            value: oid:1.3.6.1.2.1.1.3.0\n\nmetrics:\n",
  );
}
const aliasedCapitals = aliasedDevice("Device.Name");

/** The valid extension with its group's interval at 0 minutes and its uptime subgroup's quoted. */
const twoIntervals = edit(
  edit(EXTENSION, "      minutes: 1\n", "      minutes: 0\n"),
  "        table: false\n",
  '        table: false\n        interval:\n          minutes: "5"\n',
);
/** The JMX example with a metric's value written with a prefix JMX does not have. */
const jmxPrefix = edit(MIGRATION.extension, "value: attribute:NumActive", "value: attr:NumActive");
/** The JMX example with a dimension's value of an unknown prefix, and a metric's value an object. */
const jmxDimension = edit(
  edit(MIGRATION.extension, "value: property:name", "value: prop:name"),
  "value: attribute:NumIdle",
  "value: { attribute: NumIdle }",
);

ruleTable("invalid-format", {
  valid: [
    { name: "extension.yaml: the valid extension", doc: EXTENSION, options: EF2 },
    {
      name: "extension.yaml: `_` in the name (Dynatrace's own checks allow it)",
      doc: edit(EXTENSION, "name: custom:example.snmp-router", "name: custom:example.snmp_router"),
      options: EF2,
    },
    {
      name: "extension.yaml: a metric key with `_` and `-` in its sections",
      doc: edit(
        EXTENSION,
        "example.router.uptime\n            value",
        "example.router.up_time-s\n            value",
      ),
      options: EF2,
    },
    {
      name: "extension.yaml: dimensions anchored and reused by an alias",
      doc: aliasedDevice("device.name"),
      options: EF2,
    },
    { name: "the host example", doc: validHost() },
    { name: "the remote example", doc: validRemote() },
    {
      name: "keys with digits, `-` and `_`",
      doc: set(validHost(), ["metrics", 1, "timeseries"], "key", "Latency-99_p"),
    },
    {
      name: "dimensions with `-` and `_`",
      doc: set(validHost(), ["metrics", 0, "timeseries"], "dimensions", ["rx_pid", "end-point_2"]),
    },
    { name: "color #rgb", doc: set(validHost(), ["ui", "keycharts", 0, "series", 0], "color", "#0aF") },
    {
      name: "color rgb() with spaces",
      doc: set(validHost(), ["ui", "keycharts", 0, "series", 0], "color", "rgb( 1 , 2 , 255 )"),
    },
    {
      name: "color rgba() with a leading-dot alpha",
      doc: set(validRemote(), ["ui", "keycharts", 0, "series", 0], "color", "rgba(0,0,0,.5)"),
    },
    {
      name: "requiredAgentVersion with four segments",
      doc: set(validHost(), [], "requiredAgentVersion", "1.101.0.20200101"),
    },
    {
      name: "a key that is not a string is a type problem",
      doc: set(validHost(), ["properties", 0], "key", 7),
    },
    {
      name: "keymetric and series keys are references, not patterns (another rule checks them)",
      doc: set(validHost(), ["ui", "keymetrics", 0], "key", "no such key!"),
    },
    {
      name: "the name has a rule of its own (name-format)",
      doc: { ...validHost(), name: "custom.python.bad name" },
    },
    { name: "the version has a rule of its own (version-format)", doc: { ...validHost(), version: "1" } },
    {
      name: "the metricGroup has a rule of its own (metric-group-format)",
      doc: { ...validHost(), metricGroup: "a..b" },
    },
  ],
  invalid: [
    {
      // The alias repeats the anchored list: its finding is on the line to edit, the anchored key, not at `*device`.
      name: "extension.yaml: a dimension key in capitals, anchored and reused by an alias: both at the anchored key",
      doc: aliasedCapitals,
      options: EF2,
      lines: [lineOf(aliasedCapitals, "- key: Device.Name"), lineOf(aliasedCapitals, "- key: Device.Name")],
      messageId: "format",
      message: /`snmp\[[01]\]\.dimensions\[0\]\.key` is "Device\.Name"/,
    },
    {
      // Ajv reports every branch of the interval's anyOf: the value meant the number, not `var:` text nor `5m`.
      name: "extension.yaml: an interval of 0 minutes is told its range (once), not that it must be text",
      doc: edit(EXTENSION, "      minutes: 1\n", "      minutes: 0\n"),
      options: EF2,
      lines: [lineOf(EXTENSION, "      minutes: 1\n")],
      messageId: "format",
      data: {
        path: "snmp[0].interval.minutes",
        value: "0",
        expected: "must be >= 1",
      },
    },
    {
      name: "extension.yaml: an interval of minutes quoted, which is neither a number nor `var:`",
      doc: edit(EXTENSION, "      minutes: 1\n", '      minutes: "5"\n'),
      options: EF2,
      lines: [lineOf(EXTENSION, "      minutes: 1\n")],
      messageId: "format",
      data: {
        path: "snmp[0].interval.minutes",
        value: '"5"',
        expected: "must match `^var:[A-Za-z0-9_.-]+$`",
      },
    },
    {
      // Both take the interval's anyOf: each is told what its own branch wants, neither silences the other.
      name: "extension.yaml: two intervals wrong in different ways (0 minutes, quoted minutes): both told",
      doc: twoIntervals,
      options: EF2,
      lines: [lineOf(twoIntervals, "      minutes: 0\n"), lineOf(twoIntervals, '          minutes: "5"\n')],
      messageId: "format",
      data: [
        { path: "snmp[0].interval.minutes", expected: "must be >= 1" },
        { path: "snmp[0].subgroups[0].interval.minutes", expected: "must match `^var:[A-Za-z0-9_.-]+$`" },
      ],
    },
    {
      // The value's other branch is a `$ref` (an `{attribute, accessor}` object): text is told its pattern.
      name: "extension.yaml: a JMX metric value with an unknown prefix is told the prefixes, not that it must be an object",
      doc: jmxPrefix,
      options: EF2,
      lines: [lineOf(jmxPrefix, "value: attr:NumActive")],
      messageId: "format",
      data: {
        path: "jmx.groups[0].subgroups[0].metrics[0].value",
        value: '"attr:NumActive"',
        expected: "must match `^(attribute:.+|const:.+)$`",
      },
    },
    {
      name: "extension.yaml: a JMX dimension value with an unknown prefix, beside an object value: each told its own",
      doc: jmxDimension,
      options: EF2,
      lines: [lineOf(jmxDimension, "value: prop:name")],
      messageId: "format",
      data: {
        path: "jmx.groups[0].subgroups[0].dimensions[0].value",
        expected: "must match `^(const|property|attribute|var):.+$`",
      },
    },
    {
      name: "extension.yaml: a metric key section starting with `-`",
      doc: edit(EXTENSION, "key: example.router.if.errors\n", "key: example.router.-errors\n"),
      options: EF2,
      lines: [lineOf(EXTENSION, "key: example.router.if.errors\n")],
      messageId: "format",
      data: { path: "snmp[0].subgroups[1].metrics[2].key", value: '"example.router.-errors"' },
    },
    {
      name: "extension.yaml: a dimension key in capitals",
      doc: edit(
        EXTENSION,
        "- key: interface.name\n            value",
        "- key: Interface.Name\n            value",
      ),
      options: EF2,
      lines: [lineOf(EXTENSION, "- key: interface.name")],
      messageId: "format",
    },
    {
      name: "metric key with a space: at the value",
      messageId: "format",
      data: { path: "metrics[1].timeseries.key", value: '"latency ms"' },
      doc: metricKey,
      lines: [lineOf(metricKey, '"latency ms"')],
      message: '`metrics[1].timeseries.key` is "latency ms": it may only hold letters, digits, `_` and `-`',
    },
    {
      name: "statetimeseries key with a dot (remote)",
      messageId: "format",
      doc: stateKey,
      lines: [lineOf(stateKey, '"status.code"')],
      message: "may only hold letters, digits",
    },
    {
      name: "dimension with a space",
      messageId: "format",
      doc: dimension,
      lines: [lineOf(dimension, '"end point"')],
      message: "`metrics[0].timeseries.dimensions[1]`",
    },
    {
      name: "alert_id with `!`",
      messageId: "format",
      doc: alertId,
      lines: [lineOf(alertId, '"cpu high!"')],
      message: "`metrics[0].alert_settings[0].alert_id`",
    },
    {
      name: "property key with a dot",
      messageId: "format",
      doc: propertyKey,
      lines: [lineOf(propertyKey, '"status.url"')],
      message: "`properties[0].key`",
    },
    {
      name: "color by name",
      messageId: "format",
      doc: colorName,
      lines: [lineOf(colorName, '"blue"')],
      message: /must be an HTML color: `#rgb`, `#rrggbb`, `rgb\(r, g, b\)` or `rgba\(r, g, b, a\)`/,
    },
    {
      name: "color with five hex digits (remote)",
      messageId: "format",
      doc: colorHex5,
      lines: [lineOf(colorHex5, '"#12345"')],
      message: "HTML color",
    },
    {
      name: "rgb() with two components",
      messageId: "format",
      doc: colorRgbMissing,
      lines: [lineOf(colorRgbMissing, '"rgb(1, 2)"')],
    },
    {
      name: "requiredAgentVersion that is not a version",
      messageId: "format",
      doc: agentVersion,
      lines: [lineOf(agentVersion, '"latest"')],
      message: "must be a version such as `1.101.0`",
    },
    { name: "empty metric key", doc: emptyKey, lines: [lineOf(emptyKey, '"key": ""')], messageId: "format" },
    {
      name: "severity can be lowered",
      messageId: "format",
      doc: colorName,
      lines: [lineOf(colorName, '"blue"')],
      severity: "warning",
      options: { config: { rules: { "invalid-format": "warning" } } },
    },
  ],
});

ruleTable("invalid-format", {
  valid: [
    { name: "turned off", doc: colorName, options: { config: { rules: { "invalid-format": "off" } } } },
  ],
  invalid: [],
});
