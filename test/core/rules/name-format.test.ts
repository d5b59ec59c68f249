import { ruleTable, validHost, validRemote, text, lineOf, EXTENSION, EF2, edit } from "../../helpers.js";

const host = (name: unknown) => text({ ...validHost(), name });
const remote = (name: unknown) => text({ ...validRemote(), name });
/** Remote by its entity (CUSTOM_DEVICE), whatever the name says. */
const remoteByEntity = (name: string) => text({ ...validRemote(), name });

const bad = (name: string, doc: string, message?: string | RegExp) => ({
  name: `${JSON.stringify(name)}`,
  doc,
  lines: [lineOf(doc, '"name"')],
  messageId: "format",
  ...(message !== undefined ? { message } : {}),
});

ruleTable("name-format", {
  valid: [
    { name: "extension.yaml: the valid extension", doc: EXTENSION, options: EF2 },
    {
      name: "extension.yaml: a Dynatrace extension's name (no `custom:`)",
      doc: edit(EXTENSION, "name: custom:example.snmp-router", "name: com.dynatrace.extension.snmp-router"),
      options: EF2,
    },
    { name: "the host example", doc: validHost() },
    { name: "the remote example (custom.remote.python.demo_device)", doc: validRemote() },
    { name: "host python, several segments with `-` and `_`", doc: host("custom.python.a.b-c_d") },
    { name: "host jmx", doc: host("custom.jmx.Tomcat9") },
    { name: "host pmi", doc: host("custom.pmi.x") },
    { name: "remote with one segment", doc: remote("custom.remote.x") },
    { name: "remote with several segments", doc: remote("custom.remote.python.demo.v2") },
    { name: "a name that is not a string is a type problem", doc: host(42) },
  ],
  invalid: [
    {
      name: "extension.yaml: capitals and a space in the name",
      doc: edit(EXTENSION, "name: custom:example.snmp-router", "name: custom:Example Router"),
      options: EF2,
      lines: [1],
      messageId: "format",
      data: { value: '"custom:Example Router"' },
    },
    bad("custom.python", host("custom.python"), "must be `custom.<jmx|python|pmi>.<id>` for a host plugin"),
    bad("custom.java.x", host("custom.java.x"), /`custom\.<jmx\|python\|pmi>\.<id>`/),
    bad("custom.python.my plugin", host("custom.python.my plugin"), '`name` is "custom.python.my plugin"'),
    bad("Custom.python.x", host("Custom.python.x")),
    bad("custom.python.a..b", host("custom.python.a..b")),
    bad("custom.python.a.", host("custom.python.a.")),
    bad("custom.python.ä", host("custom.python.ä")),
    bad("python.x", host("python.x")),
    bad("custom.remote.", remote("custom.remote."), "must be `custom.remote.<id>` for a remote plugin"),
    bad("custom.remote.a b", remote("custom.remote.a b"), "for a remote plugin"),
    // A CUSTOM_DEVICE entity makes the plugin remote: a host name does not fit the remote pattern.
    bad(
      "custom.python.x with entity CUSTOM_DEVICE",
      remoteByEntity("custom.python.x"),
      "must be `custom.remote.<id>`",
    ),
    {
      ...bad("severity lowered", host("custom.python")),
      severity: "warning",
      options: { config: { rules: { "name-format": "warning" } } },
    },
  ],
});

ruleTable("name-format", {
  valid: [
    {
      name: "turned off",
      doc: host("custom.python"),
      options: { config: { rules: { "name-format": "off" } } },
    },
  ],
  invalid: [],
});
