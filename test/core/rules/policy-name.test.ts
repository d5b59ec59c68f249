import { EF2, edit, EXTENSION, ruleTable, validHost, validRemote, text, lineOf } from "../../helpers.js";

const acme = { policy: { name_pattern: "^custom\\.(python|remote)\\.acme_" } };
const host = text(validHost()); // custom.python.demo_plugin
const remote = text(validRemote()); // custom.remote.python.demo_device
const acmeHost = text({ ...validHost(), name: "custom.python.acme_demo" });
const upperAcme = text({ ...validHost(), name: "custom.python.ACME_demo" });
// EF2 names are `custom:…`: a pattern of their own (EXTENSION is `custom:example.snmp-router`).
const acmeExtensions = { policy: { extension_name_pattern: "^custom:acme\\." } };
const acmeExtension = edit(EXTENSION, "name: custom:example.snmp-router", "name: custom:acme.snmp-router");
const templated = edit(EXTENSION, "name: custom:example.snmp-router", 'name: "<%=name%>"');

ruleTable("policy-name", {
  valid: [
    { name: "no policy configured: off", doc: host },
    { name: "no policy configured (remote)", doc: remote },
    { name: "a matching host name", doc: acmeHost, options: { config: acme } },
    {
      name: "a matching remote name",
      doc: { ...validRemote(), name: "custom.remote.acme_device" },
      options: { config: acme },
    },
    {
      name: "unanchored patterns match anywhere in the name",
      doc: host,
      options: { config: { policy: { name_pattern: "demo" } } },
    },
    {
      name: "a name that is not a string is left to invalid-type",
      doc: { ...validHost(), name: 7 },
      options: { config: acme },
    },
    { name: "the organisation's pattern, matched", doc: acmeHost, options: { org: acme } },
    { name: "turned off", doc: host, options: { config: { ...acme, rules: { "policy-name": "off" } } } },
    { name: "an extension, no policy configured", doc: EXTENSION, options: EF2 },
    {
      name: "an extension is not judged by the plugin.json pattern",
      doc: EXTENSION,
      options: { ...EF2, config: acme },
    },
    {
      name: "a plugin.json is not judged by the extension pattern",
      doc: host,
      options: { config: acmeExtensions },
    },
    {
      name: "an extension name that matches policy.extension_name_pattern",
      doc: acmeExtension,
      options: { ...EF2, config: acmeExtensions },
    },
    {
      name: "an extension's build placeholder is the build's to fill",
      doc: templated,
      options: { ...EF2, config: acmeExtensions },
    },
  ],
  invalid: [
    {
      name: "host name outside the policy: at the name",
      messageId: "mismatch",
      data: { name: "custom.python.demo_plugin" },
      doc: host,
      lines: [lineOf(host, '"name"')],
      severity: "error",
      message:
        "plugin name `custom.python.demo_plugin` does not match the organisation's naming policy `^custom\\.(python|remote)\\.acme_`",
      options: { config: acme },
    },
    {
      name: "remote name outside the policy",
      messageId: "mismatch",
      doc: remote,
      lines: [lineOf(remote, '"name"')],
      message: "`custom.remote.python.demo_device`",
      options: { config: acme },
    },
    {
      name: "the pattern is case-sensitive",
      messageId: "mismatch",
      doc: upperAcme,
      lines: [lineOf(upperAcme, '"name"')],
      options: { config: acme },
    },
    {
      name: "policy from the organisation's configuration",
      messageId: "mismatch",
      doc: host,
      lines: [lineOf(host, '"name"')],
      options: { org: acme },
    },
    {
      name: "the repository's pattern replaces the organisation's",
      messageId: "mismatch",
      doc: acmeHost,
      lines: [lineOf(acmeHost, '"name"')],
      options: { org: acme, config: { policy: { name_pattern: "^custom\\.jmx\\." } } },
    },
    {
      name: "severity can be lowered",
      messageId: "mismatch",
      doc: host,
      lines: [lineOf(host, '"name"')],
      severity: "warning",
      options: { config: { ...acme, rules: { "policy-name": "warning" } } },
    },
    {
      name: "an extension name outside policy.extension_name_pattern: at the name",
      messageId: "extension",
      data: { name: "custom:example.snmp-router" },
      doc: EXTENSION,
      lines: [lineOf(EXTENSION, "name: custom:example.snmp-router")],
      severity: "error",
      message:
        "extension name `custom:example.snmp-router` does not match the organisation's naming policy for extensions `^custom:acme\\.` (policy.extension_name_pattern)",
      options: { ...EF2, config: acmeExtensions },
    },
    {
      name: "an extension pattern from the organisation's configuration",
      messageId: "extension",
      doc: EXTENSION,
      lines: [lineOf(EXTENSION, "name: custom:example.snmp-router")],
      options: { ...EF2, org: acmeExtensions },
    },
    {
      name: "the organisation's extension pattern stays when it locks policy-name",
      messageId: "extension",
      doc: EXTENSION,
      lines: [lineOf(EXTENSION, "name: custom:example.snmp-router")],
      options: {
        ...EF2,
        org: { ...acmeExtensions, locked: ["policy-name"] },
        config: { policy: { extension_name_pattern: "^custom:" } },
      },
    },
  ],
});
