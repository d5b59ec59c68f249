import { describe, expect, it } from "vitest";
import { check, ruleTable, validHost, validRemote, text, edit, EF2, EXTENSION } from "../../helpers.js";

const host = validHost();
const bumped = { ...validHost(), version: "1.3.0" };

ruleTable("base-invalid-json", {
  valid: [
    {
      name: "extension.yaml: a base that is valid YAML",
      doc: EXTENSION,
      options: { ...EF2, base: EXTENSION.replace("displayName: Uptime", "displayName: Up") },
    },
    { name: "no base (a plain check)", doc: host },
    { name: "a valid base equal to head", doc: host, options: { base: validHost() } },
    { name: "a valid base with another version", doc: bumped, options: { base: validHost() } },
    { name: "a valid base formatted differently", doc: host, options: { base: JSON.stringify(validHost()) } },
    { name: "the remote variant with a valid base", doc: validRemote(), options: { base: validRemote() } },
    {
      name: "a base with duplicate keys still parses",
      doc: host,
      options: {
        base: edit(text(validHost()), '"version": "1.2.0",', '"version": "1.2.0",\n  "version": "1.2.0",'),
      },
    },
  ],
  invalid: [
    {
      name: "extension.yaml: a base that is not YAML",
      doc: EXTENSION,
      options: {
        ...EF2,
        base: EXTENSION.replace("  groups", "\tgroups").replace("author:\n", "author: [\n"),
      },
      lines: [1],
      messageId: "unreadableExtension",
      message: /is not valid YAML, so the change rules were not applied \(version bump, name, metric keys/,
    },
    {
      name: "base `{ not json`",
      messageId: "unreadable",
      doc: host,
      lines: [1],
      message: /base version `plugin\.json` is not valid JSON/,
      severity: "notice",
      options: { base: "{ not json" },
    },
    {
      name: "base with a trailing comma",
      messageId: "unreadable",
      doc: bumped,
      lines: [1],
      message: /change rules were not applied/,
      options: { base: edit(text(validHost()), '"PYTHON"\n  ]', '"PYTHON",\n  ]') },
    },
    {
      name: "base with a BOM",
      doc: host,
      lines: [1],
      options: { base: "\uFEFF" + text(validHost()) },
      messageId: "unreadable",
    },
    { name: "empty base", doc: validRemote(), lines: [1], options: { base: "" }, messageId: "unreadable" },
    {
      name: "named with the base path",
      messageId: "unreadable",
      doc: host,
      lines: [1],
      message: /`descriptors\/demo\/plugin\.json`/,
      options: { base: "{ not json", path: "descriptors/demo/plugin.json" },
    },
    {
      name: "base over max_file_size",
      messageId: "unreadable",
      doc: host,
      lines: [1],
      message: /base version `plugin\.json` is larger than max_file_size/,
      options: {
        base: text(validHost()) + " ".repeat(9000),
        config: { max_file_size: text(validHost()).length + 100 },
      },
    },
    {
      name: "severity can be raised",
      messageId: "unreadable",
      doc: host,
      lines: [1],
      severity: "warning",
      options: { base: "{ not json", config: { rules: { "base-invalid-json": "warning" } } },
    },
  ],
});

describe("base-invalid-json", () => {
  it("the change rules are then skipped: an unchanged version is not reported", () => {
    const ids = check(host, { base: "{ not json" }).map((f) => f.ruleId);
    expect(ids).toEqual(["base-invalid-json"]);
  });

  it("is not reported when the head itself does not parse (invalid-json is the only finding)", () => {
    expect(check("{ not json", { base: "{ not json" }).map((f) => f.ruleId)).toEqual(["invalid-json"]);
  });

  it("an extension.yaml's message names what its change rules compare, not a plugin.json's metricGroup", () => {
    const base = EXTENSION.replace("author:\n", "author: [\n");
    const found = check(EXTENSION, { ...EF2, base });
    expect(found.map((f) => f.ruleId)).toEqual(["base-invalid-json"]);
    expect(found[0]!.message).not.toMatch(/metricGroup|descriptor|plugin/);
  });

  it("can be turned off", () => {
    expect(check(host, { base: "{ not json", config: { rules: { "base-invalid-json": "off" } } })).toEqual(
      [],
    );
  });
});
