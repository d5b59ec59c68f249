import { describe, expect, it } from "vitest";
import { check, EF2, edit, EXTENSION, lineOf, migrating, MIGRATION, ruleTable } from "../../helpers.js";
import {
  MAX_ALIAS_NODES,
  MAX_ALIASES,
  MAX_YAML_DEPTH,
  MAX_YAML_NODES,
} from "../../../src/core/yaml/snakeyaml.js";

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
/** A metric's tags as a flow list whose second line starts at its key's column. */
const flowTags = edit(
  EXTENSION,
  "      unit: Second\n",
  "      unit: Second\n      tags: [router,\n      snmp]\n",
);
/** A tag list's items quoted over two lines, past their `- `: valid YAML 1.2. */
const quotedItems = edit(
  EXTENSION,
  "      unit: Second\n",
  '      unit: Second\n      tags:\n        - "router\n          uptime"\n',
);
const deep = `name: custom:deep\nversion: 1.0.0\nx: ${"[".repeat(100_000)}\n`;
/**
 * The issue's second stall: under YAML 1.1 each merge key copies the map it names (99 of them over a 1.5 MB
 * map took 25 s and 900 MB). Small here: the directive is refused before anything after it is read.
 */
const yaml11Merge = `%YAML 1.1\n---\n${extension}base: &b\n  k: v\n${Array.from({ length: 99 }, (_, i) => `m${i}:\n  <<: *b\n`).join("")}`;
/** The same merge keys without the directive: YAML 1.2 would read a member named `<<`. */
const mergeKey = `${extension}base: &b\n  k: v\nmerged:\n  <<: *b\n  j: w\n`;
/** One flow sequence past the node bound: 4.5 MB of it took 5 s and 510 MB before the bound. */
const flowSequence = `name: custom:flow\nversion: 1.0.0\nx: [${"1,".repeat(MAX_YAML_NODES)}1]\n`;
/** More aliases than the bound, each of one value. */
const manyAliases = `name: custom:a\nversion: 1.0.0\nv: &v 1\nw: &w 2\nl:\n${"  - *v\n  - *w\n".repeat(MAX_ALIASES / 2)}  - *v\n`;
/** Aliases that stand for more values than the bound: 60 of a list of 2,000. */
const wideAliases = `name: custom:a\nversion: 1.0.0\nl: &l [${"1, ".repeat(2_000)}1]\n${Array.from({ length: 60 }, (_, i) => `a${i}: *l`).join("\n")}\n`;

/** A tag on a mapping whose members follow on their own lines, the next member after a blank line. */
const pythonObject = "name: custom:a\nversion: 1.0.0\nx: !!python/object:os.system\n  a: 1\n  b: 2\n\nc: 3\n";

ruleTable("invalid-yaml", {
  valid: [
    { name: "the migration example", doc: extension, options: YAML },
    { name: "a quoted sequence item over lines past its `- `", doc: quotedItems, options: EF2 },
    { name: "beside the plugin.json it replaces", doc: extension, options: migrating() },
    {
      name: "anchors and a few aliases",
      doc: "name: custom:a\nversion: 1.0.0\nx: &x [1]\ny: *x\n",
      options: YAML,
    },
    {
      name: "a %YAML 1.2 directive",
      doc: `%YAML 1.2\n---\n${extension}`,
      options: YAML,
    },
    {
      name: "a quoted `<<` key is a member's name, in every YAML version",
      doc: `${extension}x:\n  "<<": 1\n`,
      options: YAML,
    },
    {
      name: "as many aliases as the bound",
      doc: `name: custom:a\nversion: 1.0.0\nv: &v 1\nw: &w 2\nl:\n${"  - *v\n  - *w\n".repeat(MAX_ALIASES / 2)}`,
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
      name: "a flow list's lines no deeper than its key: read as Dynatrace reads it, with a warning",
      doc: flowTags,
      options: EF2,
      lines: [lineOf(flowTags, "tags: [router,")],
      messageId: "snakeYaml",
      severity: "warning",
      message:
        "not valid YAML 1.2: a flow collection's (`[…]`, `{…}`) continuation lines are not indented more than its key; Dynatrace's parser (SnakeYAML) reads it, but editors and other YAML tools refuse the file: indent the value's lines more than its key",
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
      message: `not valid YAML: the aliases stand for more than ${MAX_ALIAS_NODES.toLocaleString("en-US")} values in all; write the values out`,
    },
    {
      name: "a %YAML 1.1 directive (merge keys, 1.1's booleans) is refused at the directive, before the rest is read",
      doc: yaml11Merge,
      options: YAML,
      lines: [1],
      messageId: "syntax",
      message:
        "not valid YAML: `%YAML 1.1`: plugin-review reads an extension.yaml as YAML 1.2, the version Dynatrace documents; remove the directive",
    },
    {
      name: "a merge key, at the key",
      doc: mergeKey,
      options: YAML,
      lines: [lineOf(mergeKey, "<<")],
      messageId: "syntax",
      message:
        "not valid YAML: a merge key (`<<`): plugin-review reads YAML 1.2, which has none; write the members out",
    },
    {
      name: "a flow sequence past the node bound, where the bound is reached",
      doc: flowSequence,
      options: YAML,
      lines: [3],
      messageId: "syntax",
      message: /^not valid YAML: more than 250,000 YAML values \(keys, values, collections\)/,
    },
    {
      name: "more aliases than the bound, at the first one past it",
      doc: manyAliases,
      options: YAML,
      lines: [6 + MAX_ALIASES],
      messageId: "syntax",
      message: `not valid YAML: more than ${MAX_ALIASES} aliases (\`*name\`); write the values out`,
    },
    {
      name: "aliases of a long list, at the one that takes what they stand for past the bound",
      doc: wideAliases,
      options: YAML,
      lines: [4 + Math.floor(MAX_ALIAS_NODES / 2_002)],
      messageId: "syntax",
      message: /^not valid YAML: the aliases stand for more than 100,000 values in all/,
    },
    {
      name: "an alias inside the node it names",
      doc: "name: custom:a\nversion: 1.0.0\nx: &x\n  y: *x\n",
      options: YAML,
      lines: [4],
      messageId: "syntax",
      message: "not valid YAML: the alias `*x` is inside the node it names (a value that holds itself)",
    },
    {
      name: "a key that is a sequence",
      doc: "name: custom:a\nversion: 1.0.0\n? [a, b]\n: c\n",
      options: YAML,
      lines: [3],
      messageId: "syntax",
      message:
        "not valid YAML: a key that is a mapping or a sequence; the keys of an extension.yaml are names",
    },
    {
      name: "a tag on a mapping (a Python object), at the tag, not at the mapping's end",
      doc: pythonObject,
      options: YAML,
      lines: [lineOf(pythonObject, "!!python/object")],
      messageId: "syntax",
      message:
        "not valid YAML: the tag `!!python/object:os.system` names a type an extension.yaml cannot hold (it holds text, numbers, booleans, lists and mappings): remove the tag",
    },
    {
      name: "a local tag on a value, at the tag",
      doc: "name: custom:a\nversion: 1.0.0\nx: !Ref\n  y\n",
      options: YAML,
      lines: [3],
      messageId: "syntax",
      message:
        "not valid YAML: the tag `!Ref` names a type an extension.yaml cannot hold (it holds text, numbers, booleans, lists and mappings): remove the tag",
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

describe("invalid-yaml: a tag", () => {
  it("is placed on the tag itself, after a byte order mark too", () => {
    for (const doc of [
      "name: custom:a\nversion: 1.0.0\nx: !!binary aGVsbG8=\n",
      "\uFEFFname: custom:a\nversion: 1.0.0\nx: !!binary aGVsbG8=\n",
    ]) {
      const [f] = check(doc, YAML).filter((x) => x.ruleId === "invalid-yaml");
      expect([f?.line, f?.column, f?.endLine, f?.endColumn]).toEqual([3, 4, 3, 12]);
      expect(f?.message).toContain("the tag `!!binary`");
    }
  });
});
