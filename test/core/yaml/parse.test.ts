/**
 * The YAML parse of an extension.yaml (src/core/yaml/parse.ts): JSON's outcome shape, and hostile input refused
 * or read in bounded work. No timing is asserted: the test timeout guards against a hang (the inputs below take
 * minutes, or the heap, without the guards).
 */
import { describe, expect, it } from "vitest";
import { MAX_YAML_DEPTH, MAX_YAML_TOKENS, parseYaml } from "../../../src/core/yaml/parse.js";

describe("parseYaml", () => {
  it("gives the value toJS gives, the tree of offsets and no duplicates for a plain document", () => {
    const r = parseYaml("name: custom:x\nversion: 1.10\nlist:\n  - key: a\n");
    expect(r.ok && r.value).toEqual({ name: "custom:x", version: 1.1, list: [{ key: "a" }] });
    expect(r.ok && r.root.kind).toBe("object");
    expect(r.ok && r.duplicates).toEqual([]);
  });

  it("reports duplicate keys with both offsets, the last one kept as in the value", () => {
    const text = "a: 1\nb:\n  c: 1\n  c: 2\n";
    const r = parseYaml(text);
    expect(r.ok && r.value).toEqual({ a: 1, b: { c: 2 } });
    expect(r.ok && r.duplicates).toEqual([
      {
        objectPointer: "/b",
        key: "c",
        keyStart: text.lastIndexOf("c:"),
        keyEnd: text.lastIndexOf("c:") + 1,
        firstKeyStart: text.indexOf("c:"),
      },
    ]);
  });

  it("finds duplicates among 40,000 keys of one mapping in linear work (the package's own check is quadratic)", () => {
    const keys = Array.from({ length: 40_000 }, (_, i) => `  k${i}: ${i}`);
    const r = parseYaml(`m:\n${keys.join("\n")}\n  k7: again\n`);
    expect(r.ok && r.duplicates.map((d) => d.key)).toEqual(["k7"]);
  });

  it("refuses nesting deeper than the limit before the parser's recursion, at the first collection too deep", () => {
    const r = parseYaml(`x: ${"[".repeat(200_000)}`);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toEqual({
      message: `nested more than ${MAX_YAML_DEPTH} levels deep`,
      offset: 3 + MAX_YAML_DEPTH - 1,
      end: 3 + MAX_YAML_DEPTH,
    });
    const block = Array.from({ length: 300 }, (_, i) => `${" ".repeat(i)}a:`).join("\n");
    expect(parseYaml(block).ok).toBe(false);
    expect(parseYaml(`${"- ".repeat(300)}x`).ok).toBe(false);
    expect(parseYaml(`${"- ".repeat(MAX_YAML_DEPTH - 1)}x`).ok).toBe(true);
  });

  it("refuses an alias bomb instead of expanding it", () => {
    const levels = "abcdefghij".split("");
    const text = levels
      .map((c, i) =>
        i === 0
          ? `a: &a [x, x, x, x, x, x, x, x, x, x]`
          : `${c}: &${c} [${Array(10)
              .fill(`*${levels[i - 1]}`)
              .join(", ")}]`,
      )
      .join("\n");
    const r = parseYaml(text);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toMatch(/^the aliases stand for more than 100,000 values in all/);
  });

  it("still refuses what the package's own alias guard refuses within the bounds of aliases and their values", () => {
    // Eleven aliases of one anchor: the package counts each use of an anchor times the aliases inside it.
    const text = `a: &a [&b x, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n${Array.from({ length: 11 }, (_, i) => `c${i}: *a`).join("\n")}\n`;
    const r = parseYaml(text);
    expect(!r.ok && r.error.message).toMatch(/^its aliases could not be expanded: /);
  });

  it("counts the tokens as it reads them and stops at the bound, whatever the size of the text", () => {
    const under = `[${"1,".repeat(MAX_YAML_TOKENS / 2 - 2)}1]`;
    expect(parseYaml(under).ok).toBe(true);
    const over = `${under.slice(0, -1)},1,1,1]`;
    const r = parseYaml(over);
    expect(!r.ok && r.error.message).toMatch(/^more than 250,000 YAML tokens/);
    // Refused where the bound is reached, never after reading the rest.
    expect(!r.ok && r.error.offset).toBeLessThan(over.length);
  });

  it("reads YAML 1.2 whatever a directive would make of it: 1.1's booleans and merge keys never apply", () => {
    expect(parseYaml("%YAML 1.2\n---\na: yes\n")).toMatchObject({ ok: true, value: { a: "yes" } });
    for (const text of ["%YAML 1.1\n---\na: yes\n", "%YAML 1.1\n---\nb: &b {k: v}\nm:\n  <<: *b\n"]) {
      const r = parseYaml(text);
      expect(!r.ok && r.error).toEqual({
        message: expect.stringMatching(/^`%YAML 1\.1`/),
        offset: 0,
        end: 9,
      });
    }
  });

  it("says where an error is, and never throws on garbage", () => {
    const r = parseYaml("a: [1, 2\nb: 3\n");
    expect(r.ok).toBe(false);
    for (const junk of [
      "\u0000",
      "%YAML 9.9\n---\na",
      "? [a, b]\n: c\n",
      "!!binary ~",
      "a: *missing\n",
      "\uFEFFa: 1",
    ]) {
      const out = parseYaml(junk);
      if (!out.ok) expect(out.error.end).toBeGreaterThanOrEqual(out.error.offset);
    }
  });
});
