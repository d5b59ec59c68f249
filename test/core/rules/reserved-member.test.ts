import { ruleTable, validHost, validRemote, text, lineOf } from "../../helpers.js";

const experimental = text({ ...validHost(), experimentalMinVersion: "1.150" });
const productive = text({ ...validRemote(), productiveMinVersion: "1.150" });
const both = text({ experimentalMinVersion: "1.0", ...validHost(), productiveMinVersion: "1.0" });
const nullValue = text({ ...validHost(), productiveMinVersion: null });
const inMetricSource = text({
  ...validHost(),
  metrics: [{ ...(validHost().metrics as object[])[1], source: { experimentalMinVersion: "1.0" } }],
});

ruleTable("reserved-member", {
  valid: [
    { name: "the host example", doc: validHost() },
    { name: "the remote example", doc: validRemote() },
    { name: "the same name inside a metric's free-form source", doc: inMetricSource },
    { name: "similar but different names", doc: { ...validHost(), experimentalMinversion: "1.0" } },
    { name: "turned off", doc: experimental, options: { config: { rules: { "reserved-member": "off" } } } },
  ],
  invalid: [
    {
      name: "experimentalMinVersion (host): at the key",
      messageId: "reserved",
      data: { member: "experimentalMinVersion" },
      doc: experimental,
      lines: [lineOf(experimental, '"experimentalMinVersion"')],
      message: "`experimentalMinVersion` is reserved for built-in plugins",
    },
    {
      name: "productiveMinVersion (remote)",
      messageId: "reserved",
      doc: productive,
      lines: [lineOf(productive, '"productiveMinVersion"')],
      message: "remove it from custom plugins",
    },
    {
      name: "both: one finding each",
      messageId: "reserved",
      doc: both,
      lines: [lineOf(both, '"experimentalMinVersion"'), lineOf(both, '"productiveMinVersion"')],
      message: /is reserved for built-in plugins/,
    },
    {
      name: "present with any value, even null",
      messageId: "reserved",
      doc: nullValue,
      lines: [lineOf(nullValue, '"productiveMinVersion"')],
    },
    {
      name: "severity can be lowered",
      messageId: "reserved",
      doc: experimental,
      lines: [lineOf(experimental, '"experimentalMinVersion"')],
      severity: "warning",
      options: { config: { rules: { "reserved-member": "warning" } } },
    },
  ],
});
