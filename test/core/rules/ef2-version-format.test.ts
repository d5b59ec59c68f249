import { edit, lineOf, migrating, MIGRATION, ruleTable } from "../../helpers.js";

const { extension } = MIGRATION;
const YAML = { path: "extension/extension.yaml" };
const withVersion = (v: string) => edit(extension, 'version: "1.7.0"', `version: ${v}`);
const line = lineOf(extension, "version:");

ruleTable("ef2-version-format", {
  valid: [
    { name: "quoted major.minor.patch", doc: extension, options: YAML },
    { name: "plain major.minor.patch (YAML reads it as text)", doc: withVersion("1.7.0"), options: YAML },
    { name: "zeros without leading zeros", doc: withVersion("0.10.0"), options: YAML },
    { name: "beside the plugin.json it replaces", doc: extension, options: migrating() },
  ],
  invalid: [
    {
      name: "two numbers, which YAML reads as a number: suggests the three",
      doc: withVersion("1.10"),
      options: YAML,
      lines: [line],
      messageId: "notString",
      data: { value: "1.10", read: "the number 1.1" },
      message:
        "`version` is `1.10`, which YAML reads as the number 1.1, not the text `major.minor.patch`; Dynatrace refuses the upload",
      severity: "error",
      suggestions: [[{ desc: "write `1.10.0`", output: withVersion('"1.10.0"') }]],
    },
    {
      name: "a whole number",
      doc: withVersion("2"),
      options: migrating(),
      lines: [line],
      messageId: "notString",
      suggestions: [[{ desc: "write `2.0.0`", output: withVersion('"2.0.0"') }]],
    },
    {
      name: "a quoted EF1 version with a leading zero",
      doc: withVersion('"1.07"'),
      options: YAML,
      lines: [line],
      messageId: "notSemver",
      data: { value: "1.07" },
      suggestions: [[{ desc: "write `1.7.0`", output: withVersion('"1.7.0"') }]],
    },
    {
      name: "a pre-release: Dynatrace takes three numbers only",
      doc: withVersion("1.7.0-beta"),
      options: YAML,
      lines: [line],
      messageId: "notSemver",
      suggestions: [[{ desc: "write `1.7.0`", output: withVersion('"1.7.0"') }]],
    },
    {
      name: "nothing to suggest for a word",
      doc: withVersion("latest"),
      options: YAML,
      lines: [line],
      messageId: "notSemver",
      data: { value: "latest" },
    },
    {
      name: "a mapping",
      doc: withVersion("{ major: 1 }"),
      options: YAML,
      lines: [line],
      messageId: "notString",
      data: { value: "{ major: 1 }", read: "a mapping" },
    },
    {
      name: "empty: null, said to be empty (not `version` is ``)",
      doc: withVersion(""),
      options: YAML,
      lines: [line],
      messageId: "empty",
      message:
        "`version` is empty, which YAML reads as nothing (null), not the text `major.minor.patch`; Dynatrace refuses the upload",
    },
    {
      name: "null written `~`: what YAML read, as written",
      doc: withVersion("~"),
      options: YAML,
      lines: [line],
      messageId: "notString",
      data: { value: "~", read: "nothing (null)" },
    },
    {
      name: "no version: at line 1",
      doc: extension.replace('version: "1.7.0"\n', ""),
      options: YAML,
      lines: [1],
      messageId: "missing",
    },
  ],
});
