import { EF2, edit, EXTENSION, lineOf, MIGRATION, ruleTable } from "../../helpers.js";

// MIGRATION.extension is a JMX extension (`minDynatraceVersion: "1.275.0"`); EXTENSION an SNMP one.
const jmx = MIGRATION.extension;
const jmxAt = (version: string) =>
  edit(jmx, 'minDynatraceVersion: "1.275.0"', `minDynatraceVersion: ${version}`);
const old = jmxAt('"1.250"');
const shortForm = jmxAt('"1.3"');
const justBelow = jmxAt('"1.264.9"');

ruleTable("min-version-too-low", {
  valid: [
    { name: "a JMX extension for 1.275.0", doc: jmx, options: EF2 },
    { name: "a JMX extension for exactly 1.265", doc: jmxAt('"1.265"'), options: EF2 },
    { name: "1.265.0 is 1.265", doc: jmxAt("1.265.0"), options: EF2 },
    {
      name: "an SNMP extension has no documented minimum",
      doc: edit(EXTENSION, 'minDynatraceVersion: "1.285"', 'minDynatraceVersion: "1.229"'),
      options: EF2,
    },
    { name: "a number, not a string, is invalid-type's", doc: jmxAt("1.2"), options: EF2 },
    { name: "a build placeholder is not compared", doc: jmxAt('"<%=minVersion%>"'), options: EF2 },
    {
      name: "rule turned off",
      doc: old,
      options: { ...EF2, config: { rules: { "min-version-too-low": "off" } } },
    },
  ],
  invalid: [
    {
      name: "a JMX extension for 1.250: at minDynatraceVersion",
      messageId: "low",
      data: { value: "1.250", source: "jmx", needed: "1.265" },
      doc: old,
      options: EF2,
      lines: [lineOf(old, "minDynatraceVersion:")],
      severity: "warning",
      message:
        "`minDynatraceVersion` is `1.250`, but the `jmx` data source needs Dynatrace 1.265 or later: environments older than 1.265 install an extension they cannot run",
    },
    {
      name: "versions compare as numbers (1.3 is older than 1.265)",
      messageId: "low",
      doc: shortForm,
      options: EF2,
      lines: [lineOf(shortForm, "minDynatraceVersion:")],
    },
    {
      name: "just below",
      messageId: "low",
      doc: justBelow,
      options: EF2,
      lines: [lineOf(justBelow, "minDynatraceVersion:")],
    },
  ],
});
