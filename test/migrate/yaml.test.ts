/**
 * extension.yaml as migrate writes it (src/migrate/yaml.ts): toYaml's text reads back as the value written, by
 * readYaml (the check before writing) and by a full YAML parser under YAML 1.2 and 1.1 alike, for any value of the
 * shapes migrate writes (fast-check); readYaml reads nothing that a YAML reader would take otherwise.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readYaml, toYaml, type YamlValue } from "../../src/migrate/yaml.js";

// Keys are migrate's own words: never one a YAML 1.1 reader takes for something else (`on`, `y`; the yaml
// package's YAML 1.1 even reads `E0` as a number), which readYaml refuses.
const key = fc
  .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/)
  .filter((k) => !/^(y|n|yes|no|on|off|true|false|null)$/i.test(k))
  .filter((k) => Object.keys(parse(`${k}: 1\n`, { version: "1.1" }) as object)[0] === k);
const scalar = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "yes",
    "No",
    "on",
    "OFF",
    "null",
    "~",
    "y",
    "true",
    "1.10",
    "0x1F",
    "1e3",
    ": x",
    "a #b",
    "-",
    "é",
  ),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => Number.isFinite(d)),
);
const value: fc.Arbitrary<YamlValue> = fc.letrec<{ v: YamlValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    scalar,
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(key, tie("v"), { maxKeys: 4 }),
  ),
})).v;
const doc = fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 });

describe("toYaml and readYaml", () => {
  it("writes an item of a sequence however many lines it has (a subgroup of 300,000 metrics), not a crash", () => {
    const text = toYaml({ subgroups: [{ metrics: Array.from({ length: 300_000 }, (_, i) => i) }] });
    expect(text.startsWith("subgroups:\n  - metrics:\n      - 0\n")).toBe(true);
    expect(text).toContain("\n      - 299999");
    expect(text.trimEnd().split("\n")).toHaveLength(300_002);
  });

  it("any value reads back as written, by readYaml and by a YAML 1.2 and a YAML 1.1 parser", () => {
    fc.assert(
      fc.property(doc, (v) => {
        const text = toYaml(v);
        const expected = JSON.parse(JSON.stringify(v)) as unknown;
        expect(parse(text, { version: "1.2" })).toEqual(expected);
        expect(parse(text, { version: "1.1" })).toEqual(expected);
        expect(readYaml(text)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ["a YAML 1.1 boolean written plainly", "a: yes\n"],
    ["a null", "a: ~\n"],
    ["a number YAML 1.1 reads as text", "a: 1e+21\n"],
    ["an octal YAML 1.1 reads as a number", "a: 017\n"],
    ["a key twice", "a: x\na: y\n"],
    ["a wrong indent", "a:\n   b: x\n"],
    ["a tab", "a:\n\tb: x\n"],
    ["a flow mapping", "a: {b: c}\n"],
    ["an anchor", "a: &x b\n"],
    ["no final line feed", "a: b"],
    ["a comment", "a: b # c\n"],
    ["a key YAML 1.1 reads as a boolean", "y: b\n"],
    ["an unterminated quote", 'a: "b\n'],
  ])("reads nothing of %s", (_, text) => {
    expect(readYaml(text)).toBeUndefined();
  });

  it("reads the block forms toYaml writes", () => {
    const text =
      'name: custom:x\nmetrics:\n  - key: a.b\n    metadata:\n      unit: Count\n  - "yes"\nempty: []\nnone: {}\nnum: -1.5\n';
    expect(readYaml(text)).toEqual({
      name: "custom:x",
      metrics: [{ key: "a.b", metadata: { unit: "Count" } }, "yes"],
      empty: [],
      none: {},
      num: -1.5,
    });
  });
});
