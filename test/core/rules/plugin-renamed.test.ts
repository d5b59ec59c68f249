import { ruleTable, validHost, validRemote, lineOf, at, make, EF2, EXTENSION } from "../../helpers.js";

const host = make(validHost(), (d) => {
  d.name = "custom.python.demo_plugin_v2";
});
const remote = make(validRemote(), (d) => {
  d.name = "custom.remote.python.device";
});
const caseOnly = make(validHost(), (d) => {
  d.name = "custom.python.Demo_Plugin";
});

ruleTable("plugin-renamed", {
  valid: [
    {
      name: "extension.yaml: a build template's name",
      doc: EXTENSION.replace("name: custom:example.snmp-router", "name: custom:<%=extensionName%>"),
      options: { ...EF2, base: EXTENSION },
    },
    { name: "same name", doc: validHost(), options: { base: validHost() } },
    {
      name: "same name, other changes (configUI displayName)",
      doc: make(validRemote(), (d) => {
        at(d, "configUI").displayName = "Demo device (new)";
      }),
      options: { base: validRemote() },
    },
    { name: "no base", doc: host },
    {
      name: "rule turned off",
      doc: host,
      options: { base: validHost(), config: { rules: { "plugin-renamed": "off" } } },
    },
  ],
  invalid: [
    {
      name: "extension.yaml: a different extension to Dynatrace",
      doc: EXTENSION.replace("name: custom:example.snmp-router", "name: custom:example.router"),
      options: { ...EF2, base: EXTENSION },
      lines: [1],
      messageId: "renamedExtension",
      data: { before: "custom:example.snmp-router", after: "custom:example.router" },
      severity: "warning",
    },
    {
      name: "host: renamed, at head's name value",
      messageId: "renamed",
      data: { before: "custom.python.demo_plugin", after: "custom.python.demo_plugin_v2" },
      doc: host,
      lines: [lineOf(host, '"name": "custom.python.demo_plugin_v2"')],
      message:
        "the plugin was renamed from `custom.python.demo_plugin` to `custom.python.demo_plugin_v2`: the server treats it as a new plugin",
      severity: "warning",
      options: { base: validHost() },
    },
    {
      name: "remote",
      messageId: "renamed",
      doc: remote,
      lines: [lineOf(remote, '"name"')],
      message: "data and configuration do not carry over",
      options: { base: validRemote() },
    },
    {
      name: "a change of case is a rename",
      messageId: "renamed",
      doc: caseOnly,
      lines: [lineOf(caseOnly, '"name"')],
      message: "to `custom.python.Demo_Plugin`",
      options: { base: validHost() },
    },
    {
      name: "raised to error in configuration",
      messageId: "renamed",
      doc: host,
      lines: [lineOf(host, '"name"')],
      severity: "error",
      options: { base: validHost(), config: { rules: { "plugin-renamed": "error" } } },
    },
  ],
});
