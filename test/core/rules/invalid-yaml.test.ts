import { describe, expect, it } from "vitest";
import { check, EF2, edit, EXTENSION, lineOf, migrating, MIGRATION, ruleTable } from "../../helpers.js";
import { MAX_YAML_DEPTH } from "../../../src/core/yaml/parse.js";

const { extension } = MIGRATION;
const YAML = { path: "extension/extension.yaml" };

const tabbed = edit(extension, "  groups:\n", "\tgroups:\n");
const unclosed = edit(extension, "        - JMX\n", "        - [JMX\n");
const twoDocuments = `${extension}---\nname: custom:other\n`;
/** An alias bomb: nine levels of nine aliases each, a billion strings when expanded. */
const bomb =
  "a: &a [x, x, x, x, x, x, x, x, x]\n" +
  "bcdefghi"
    .split("")
    .map((c, i) => {
      const prev = "abcdefghi"[i]!;
      return `${c}: &${c} [${Array(9).fill(`*${prev}`).join(", ")}]\n`;
    })
    .join("");
/** A calculated metric as a published extension writes it: its selector's lines start at its key's column. */
const snakeYaml = edit(
  EXTENSION,
  "metrics:\n  - key: example.router.uptime\n",
  "metrics:\n  - key: func:example.router.if.bytes\n    query:\n      metricSelector: '\n      (example.router.if.in.bytes.count)\n      +(example.router.if.out.bytes.count)'\n  - key: example.router.uptime\n",
);
const deep = `name: custom:deep\nversion: 1.0.0\nx: ${"[".repeat(100_000)}\n`;

ruleTable("invalid-yaml", {
  valid: [
    { name: "the migration example", doc: extension, options: YAML },
    { name: "beside the plugin.json it replaces", doc: extension, options: migrating() },
    {
      name: "anchors and a few aliases",
      doc: "name: custom:a\nversion: 1.0.0\nx: &x [1]\ny: *x\n",
      options: YAML,
    },
    {
      name: "a plugin.json is never read as YAML",
      doc: '{\n  "name": 1,\n}\n',
      options: { path: "plugin.json" },
    },
  ],
  invalid: [
    {
      name: "a quoted value's lines no deeper than its key: read as Dynatrace (SnakeYAML) reads it, with a warning",
      doc: snakeYaml,
      options: EF2,
      lines: [lineOf(snakeYaml, "metricSelector: '")],
      messageId: "snakeYaml",
      severity: "warning",
      message:
        "not valid YAML 1.2: a quoted value's continuation lines are not indented more than its key; Dynatrace's parser (SnakeYAML) reads it, but editors and other YAML tools refuse the file: indent the value's lines more than its key",
    },
    {
      name: "a tab as indentation, at the tab",
      doc: tabbed,
      options: YAML,
      lines: [lineOf(tabbed, "\tgroups:")],
      messageId: "syntax",
      message: "not valid YAML: tab characters must not be used in indentation",
      severity: "error",
    },
    {
      name: "an unclosed flow sequence",
      doc: unclosed,
      options: YAML,
      lines: [lineOf(unclosed, "[JMX") + 1],
      messageId: "syntax",
      message: /^not valid YAML: /,
    },
    {
      name: "two documents, at the second",
      doc: twoDocuments,
      options: YAML,
      lines: [lineOf(twoDocuments, "---")],
      messageId: "syntax",
      message: "not valid YAML: a second document begins here; an extension.yaml holds one",
    },
    {
      name: "an alias bomb is refused, at the alias that takes the values its aliases stand for past the bound",
      doc: bomb,
      options: YAML,
      lines: [6],
      messageId: "syntax",
      message: "not valid YAML: the aliases stand for more than 100,000 values in all; write the values out",
    },
    {
      name: "nesting beyond the limit is refused before the YAML parser recurses into it",
      doc: deep,
      options: YAML,
      lines: [3],
      messageId: "syntax",
      message: `not valid YAML: nested more than ${MAX_YAML_DEPTH} levels deep`,
    },
  ],
});

describe("invalid-yaml: no other rule runs on a file that does not parse", () => {
  it("reports the parse error alone, beside the plugin.json it replaces too", () => {
    expect(check(unclosed, migrating()).map((f) => f.ruleId)).toEqual(["invalid-yaml"]);
  });
});
