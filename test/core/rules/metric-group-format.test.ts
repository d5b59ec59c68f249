import { ruleTable, validHost, validRemote, text, lineOf } from "../../helpers.js";

const host = (metricGroup: unknown) => text({ ...validHost(), metricGroup });
const remote = (metricGroup: unknown) => text({ ...validRemote(), metricGroup });
const bad = (label: string, doc: string) => ({
  name: label,
  doc,
  lines: [lineOf(doc, '"metricGroup"')],
  messageId: "format",
  message: "may only hold letters, digits, `_`, `-` and `.`, with no empty segments",
});

ruleTable("metric-group-format", {
  valid: [
    { name: "the host example (tech.python.demo)", doc: validHost() },
    { name: "the remote example (tech.demo_device)", doc: validRemote() },
    { name: "one segment with `-` and `_`", doc: host("my-group_1") },
    { name: "mixed case and digits", doc: remote("Acme.Devices2.v3") },
    { name: "the plugin name itself", doc: host("custom.python.demo_plugin") },
    { name: "a number is a type problem (invalid-type)", doc: host(5) },
  ],
  invalid: [
    bad("an empty segment", host("tech..python")),
    bad("a leading dot", host(".tech")),
    bad("a trailing dot", remote("tech.")),
    bad("a slash", host("tech/python")),
    bad("a space", remote("my group")),
    bad("empty", host("")),
    bad("non-ASCII letters", host("tech.café")),
    {
      ...bad("severity lowered", host("a..b")),
      severity: "warning",
      options: { config: { rules: { "metric-group-format": "warning" } } },
    },
  ],
});

ruleTable("metric-group-format", {
  valid: [
    {
      name: "turned off",
      doc: host("a..b"),
      options: { config: { rules: { "metric-group-format": "off" } } },
    },
  ],
  invalid: [],
});
