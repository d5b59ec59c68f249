import { ruleTable, validHost, validRemote, text, lineOf } from "../../helpers.js";

const host = (version: unknown) => text({ ...validHost(), version });
const remote = (version: unknown) => text({ ...validRemote(), version });
const bad = (label: string, doc: string) => ({
  name: label,
  doc,
  lines: [lineOf(doc, '"version"')],
  messageId: "format",
  message: "must be digits, a dot and digits",
});

ruleTable("version-format", {
  valid: [
    { name: "the host example (1.2.0)", doc: validHost() },
    { name: "the remote example (2.0.3)", doc: validRemote() },
    { name: "two segments", doc: host("0.1") },
    { name: "large numbers", doc: host("10.200.3000") },
    { name: "leading zeros are digits", doc: remote("01.02") },
    { name: "a number is a type problem (invalid-type), not a format one", doc: host(1.2) },
  ],
  invalid: [
    bad("one segment", host("1")),
    bad("four segments", host("1.0.0.0")),
    bad("a `v` prefix", host("v1.0")),
    bad("a pre-release suffix", remote("1.0.0-beta")),
    bad("a trailing dot", host("1.")),
    bad("a leading space", remote(" 1.0")),
    bad("a trailing newline", host("1.0\n")),
    bad("non-ASCII digits", host("١.٠")),
    bad("empty", host("")),
    {
      ...bad("severity lowered", host("1")),
      severity: "warning",
      options: { config: { rules: { "version-format": "warning" } } },
    },
  ],
});

ruleTable("version-format", {
  valid: [
    { name: "turned off", doc: host("1"), options: { config: { rules: { "version-format": "off" } } } },
  ],
  invalid: [],
});
