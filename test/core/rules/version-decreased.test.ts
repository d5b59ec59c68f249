import { ruleTable, validHost, validRemote, text, lineOf, EF2, EXTENSION } from "../../helpers.js";

type Obj = Record<string, unknown>;

function withVersion(doc: Obj, version: string): Obj {
  doc.version = version;
  return doc;
}
const head = (doc: Obj, version: string): string => text(withVersion(doc, version));

const lower = head(validHost(), "1.1.9");
const numeric = head(validHost(), "1.9");
const missingSegment = head(validHost(), "1.2");
const remote = head(validRemote(), "1.99.99");
const major = head(validRemote(), "0.10");

ruleTable("version-decreased", {
  valid: [
    {
      name: "extension.yaml: a higher version, by numbers (1.10.0 > 1.9.0)",
      doc: EXTENSION.replace('version: "1.4.0"', 'version: "1.10.0"'),
      options: { ...EF2, base: EXTENSION.replace('version: "1.4.0"', 'version: "1.9.0"') },
    },
    { name: "unchanged", doc: validHost(), options: { base: validHost() } },
    { name: "increased", doc: head(validHost(), "1.2.1"), options: { base: validHost() } },
    {
      name: "1.10 after 1.9 (segments compare as numbers, not text)",
      doc: head(validHost(), "1.10"),
      options: { base: withVersion(validHost(), "1.9") },
    },
    {
      name: "2.1 after 2.1.0 (equal: missing segments are 0)",
      doc: head(validRemote(), "2.1"),
      options: { base: withVersion(validRemote(), "2.1.0") },
    },
    {
      name: "leading zeros do not count: 1.010 after 1.9",
      doc: head(validHost(), "1.010"),
      options: { base: withVersion(validHost(), "1.9") },
    },
    {
      name: "a malformed head version is version-format's business",
      doc: head(validHost(), "1.x"),
      options: { base: validHost() },
    },
    {
      name: "a malformed base version is not compared",
      doc: validHost(),
      options: { base: withVersion(validHost(), "9.9-beta") },
    },
    { name: "no base", doc: lower },
    {
      name: "rule turned off",
      doc: lower,
      options: { base: validHost(), config: { rules: { "version-decreased": "off" } } },
    },
  ],
  invalid: [
    {
      name: "extension.yaml: a rollback to the previous release",
      doc: EXTENSION.replace('version: "1.4.0"', 'version: "1.3.9"'),
      options: { ...EF2, base: EXTENSION },
      lines: [lineOf(EXTENSION, "version:")],
      messageId: "decreased",
      data: { base: "1.4.0", head: "1.3.9" },
    },
    {
      name: "host: lower, at head's version value",
      messageId: "decreased",
      data: { base: "1.2.0", head: "1.1.9" },
      doc: lower,
      lines: [lineOf(lower, '"version": "1.1.9"')],
      message: "`version` went down from `1.2.0` to `1.1.9`",
      severity: "error",
      options: { base: validHost() },
    },
    {
      name: "1.9 after 1.10",
      messageId: "decreased",
      doc: numeric,
      lines: [lineOf(numeric, '"version": "1.9"')],
      message: "from `1.10` to `1.9` (versions compare segment by segment as numbers); it must increase",
      options: { base: withVersion(validHost(), "1.10") },
    },
    {
      name: "1.2 after 1.2.1",
      messageId: "decreased",
      doc: missingSegment,
      lines: [lineOf(missingSegment, '"version": "1.2"')],
      message: "from `1.2.1` to `1.2`",
      options: { base: withVersion(validHost(), "1.2.1") },
    },
    {
      name: "remote: 1.99.99 after 2.0.3",
      messageId: "decreased",
      doc: remote,
      lines: [lineOf(remote, '"version"')],
      message: "went down from `2.0.3`",
      options: { base: validRemote() },
    },
    {
      name: "remote: 0.10 after 1.0",
      messageId: "decreased",
      doc: major,
      lines: [lineOf(major, '"version"')],
      message: "to `0.10`",
      options: { base: withVersion(validRemote(), "1.0") },
    },
  ],
});
