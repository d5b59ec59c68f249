/**
 * `--fix` in an extension.yaml (src/core/fix.ts with src/core/yaml/edit.ts): a fix's replacement is written as
 * the file writes the value it replaces, the rest of the text stays byte for byte, and nothing is written that
 * YAML would read as another value than the fix's.
 */
import { describe, expect, it } from "vitest";
import { applyFixes, fixPasses } from "../../src/core/fix.js";
import type { RawFinding } from "../../src/core/types.js";

const at = (pointer: string, replacement: string, target?: "key"): RawFinding => ({
  ruleId: "version-not-bumped",
  severity: "error",
  message: "m",
  messageId: "m",
  pointer,
  target: target ?? "value",
  fix: { replacement, description: "d", ...(target ? { target } : {}) },
});

const yaml = (text: string, findings: RawFinding[]) => applyFixes(text, findings, "extension.yaml").text;

describe("applyFixes in YAML", () => {
  it("a plain version stays plain, a quoted one keeps its quotes, comments and line endings stay", () => {
    expect(yaml("name: custom:a\nversion: 1.2.3 # bumped by CI\n", [at("/version", '"1.2.4"')])).toBe(
      "name: custom:a\nversion: 1.2.4 # bumped by CI\n",
    );
    expect(yaml('version: "1.2.3"\r\nname: x\r\n', [at("/version", '"1.2.4"')])).toBe(
      'version: "1.2.4"\r\nname: x\r\n',
    );
    expect(yaml("version: '1.2.3'\n", [at("/version", '"1.2.4"')])).toBe("version: '1.2.4'\n");
    expect(yaml("version: '1.2.3'\n", [at("/version", `"it's"`)])).toBe("version: 'it''s'\n");
  });

  it("quotes what YAML would read as another value written plain", () => {
    // Plain `1.10` is the number 1.1, `true` a boolean, `a: b` a mapping, `x # y` the text `x`.
    for (const value of ["1.10", "true", "null", "a: b", "x # y", "[1]", "-", " padded"])
      expect(yaml("v: old\n", [at("/v", JSON.stringify(value))]), value).toBe(
        `v: ${JSON.stringify(value)}\n`,
      );
  });

  it("numbers and collections are written as JSON, which YAML reads alike; keys as names", () => {
    expect(yaml("a:\n  n: 1\n", [at("/a/n", "2")])).toBe("a:\n  n: 2\n");
    expect(yaml("list: [1, 2]\n", [at("/list", '["x"]')])).toBe('list: ["x"]\n');
    expect(yaml("displayName: x\n", [at("/displayName", '"displayname"', "key")])).toBe("displayname: x\n");
  });

  it("in a flow collection, a value that would end it is quoted", () => {
    expect(yaml("tags: [a, b]\n", [at("/tags/1", '"c,d"')])).toBe('tags: [a, "c,d"]\n');
  });

  it("leaves the text unchanged when it does not parse, or the fix is not JSON", () => {
    expect(applyFixes("version: [\n", [at("/version", '"1"')], "extension.yaml").applied).toEqual([]);
    expect(applyFixes("version: 1\n", [at("/version", "not json")], "extension.yaml").applied).toEqual([]);
  });

  it("fix passes read the kind of file from its path", () => {
    let text = "version: 1.0.0\n";
    const done = fixPasses(
      () => [
        {
          path: "e/extension.yaml",
          text,
          findings: text.includes("1.0.1") ? [] : [at("/version", '"1.0.1"')],
        },
      ],
      (_, t) => (text = t),
    );
    expect(text).toBe("version: 1.0.1\n");
    expect(done.get(0)).toMatchObject({ before: "version: 1.0.0\n", after: "version: 1.0.1\n", applied: 1 });
  });
});
