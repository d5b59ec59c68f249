import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { childPointer } from "../../../src/core/json/pointer.js";
import { scanPointers, seekPointers } from "../../../src/core/json/scan.js";

/** Every place in `v` (its pointer), and beside each container a missing member, an index past its end and a step into a scalar. */
function pointers(v: unknown, at = ""): string[] {
  const out = [at, childPointer(at, "no such member"), childPointer(at, "01"), childPointer(at, "0")];
  if (Array.isArray(v)) {
    out.push(childPointer(at, v.length));
    v.forEach((x, i) => out.push(...pointers(x, childPointer(at, i))));
  } else if (typeof v === "object" && v !== null) {
    for (const [k, x] of Object.entries(v)) out.push(...pointers(x, childPointer(at, k)));
  }
  return out;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** seekPointers' answers are scanPointers': all pointers at once, in reverse, and each alone. */
function expectSame(text: string, name: string, every = 1): number {
  const value: unknown = JSON.parse(text);
  const all = pointers(value);
  for (const ps of [all, [...all].reverse()]) {
    const sought = seekPointers(text, value, ps);
    // Undefined only when it gave up (then the caller scans): never an answer of its own.
    if (sought) expect(sought, name).toEqual(scanPointers(text, ps));
  }
  // Each alone (a pointer's search starts where nothing before it was placed), and with another (one search
  // starts where the other's ended): one in `every`.
  for (const [i, p] of all.entries()) {
    if (i % every) continue;
    for (const ps of [[p], [p, all[(i * 7 + 3) % all.length] as string]]) {
      const sought = seekPointers(text, value, ps);
      expect(sought, `${name} ${ps.join(" ")}`).toBeDefined();
      expect(sought, `${name} ${ps.join(" ")}`).toEqual(scanPointers(text, ps));
    }
  }
  return all.length;
}

/**
 * Names that trip a search for `"name"`: repeated at every level, array indexes (which the value lists first),
 * names a closing quote may be followed by, names that need an escape, and the empty one.
 */
const NAMES = [
  "a",
  "b",
  "key",
  "0",
  "7",
  "10",
  "01",
  ":x",
  " a",
  "}",
  ",",
  "",
  'q"q',
  "b\\s",
  "é😀",
  "__proto__",
];

/** A JSON value whose objects keep their members in the order written (`members`): array indexes may come last. */
type Written = null | boolean | number | string | Written[] | { members: [string, Written][] };

/** JSON text of `v`, written with random whitespace and random `\u` escapes (`bits` decides each choice). */
function write(v: Written, bits: () => boolean): string {
  const ws = () => (bits() ? "" : bits() ? " " : bits() ? "\n  " : "\r\n\t");
  const str = (s: string) =>
    '"' +
    [...s]
      .map((c) => {
        if (c === '"' || c === "\\") return "\\" + c;
        if (c.length === 1 && bits() && bits()) return "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");
        return c;
      })
      .join("") +
    '"';
  if (Array.isArray(v)) return "[" + ws() + v.map((x) => write(x, bits)).join(ws() + "," + ws()) + ws() + "]";
  if (typeof v === "object" && v !== null)
    return (
      "{" +
      ws() +
      v.members.map(([k, x]) => str(k) + ws() + ":" + ws() + write(x, bits)).join(ws() + "," + ws()) +
      ws() +
      "}"
    );
  return typeof v === "string" ? str(v) : JSON.stringify(v);
}

describe("seekPointers (placing pointers with the help of the text's value)", () => {
  it("finds what scanPointers finds in real descriptors, examples and a text full of escapes", () => {
    const tricky =
      ' \n{"a\\"b": {"x": "]}\\\\", "y" : [ [] , {}, "\\"", -1.5e3, true, null ] },\r\n' +
      '\t"\\u0041": {"":[{"k":"}{"}]}, "c/d~e": 0, "\\\\": false, "é😀": "Größe", "k": {"k": [[{"k": 1}], {"k": 2}]}\n}\n ';
    const texts: [string, string][] = [["tricky", tricky]];
    // The shipped examples (every JSON file below examples/ that parses: some carry mistakes on purpose) are
    // always there; the real corpus beside the clone only when it is (docs/development.md).
    const examples = readdirSync("examples", { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".json"))
      .sort();
    for (const f of examples) {
      const text = readFileSync(join("examples", f), "utf8");
      if (parses(text)) texts.push([f, text]);
    }
    const corpus = "../shared/corpus/real";
    if (existsSync(corpus))
      for (const f of readdirSync(corpus).filter((n) => n.endsWith(".json")))
        texts.push([f, readFileSync(join(corpus, f), "utf8")]);
    const compared = new Map<string, number>();
    for (const [name, text] of texts) compared.set(name, expectSame(text, name, name === "tricky" ? 1 : 17));
    // Real descriptors were compared, not only the tricky text, with or without the corpus.
    const fromExamples = examples.reduce((n, f) => n + (compared.get(f) ?? 0), 0);
    expect(fromExamples).toBeGreaterThan(1000);
  });

  it("finds what scanPointers finds in random documents, names and escapes", () => {
    const { value } = fc.letrec<{ value: Written }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constantFrom<Written>(null, true, 0, -1.5e3, "a", "key", '"a":', "}]"),
        fc.array(tie("value"), { maxLength: 4 }),
        fc
          .uniqueArray(fc.tuple(fc.constantFrom(...NAMES), tie("value")), {
            selector: ([k]) => k,
            maxLength: 5,
          })
          .map((members) => ({ members })),
      ),
    }));
    fc.assert(
      fc.property(value, fc.infiniteStream(fc.boolean()), (v, stream) => {
        const it = stream[Symbol.iterator]();
        const text = write(v, () => it.next().value as boolean);
        expectSame(text, text);
      }),
      { numRuns: 400 },
    );
  });

  it("places a member found by its name among others of that name at every level", () => {
    const text = '{"k": {"k": [{"k": 1}, [{"k": 2}, {"j": 0, "k": 3}]]}, "j": {"k": 4}}';
    const value: unknown = JSON.parse(text);
    const [inner, last, deep] = seekPointers(text, value, ["/k/k/1/1/k", "/j/k", "/k/k/1/0"]) ?? [];
    expect(text.slice(inner!.start, inner!.start + 1)).toBe("3");
    expect(text.slice(last!.keyStart, last!.keyEnd)).toBe('"k"');
    expect(text.slice(last!.start, last!.start + 1)).toBe("4");
    expect(text.slice(deep!.start, deep!.start + 8)).toBe('{"k": 2}');
  });

  it("does not take a closing quote for an opening one", () => {
    // `", "` followed by `:` occurs first where "a" ends, before the string ": x": no member is named so there.
    expectSame('{"l": ["a", ": x"], ", ": 1, " :": ["b" ,":"]}', "after a closing quote");
  });

  it("does not take the value's order of members for the text's when a name is an array index", () => {
    // JSON.parse's value lists "0" first, the text last: "0" is not the first name of its kind in the text.
    for (const text of [
      '{"a": {"0": 1}, "0": 2}',
      '{"a": {"0": [{"a": 1}]}, "0": {"a": 2}}',
      '[{"a": 1}, {"b": {"a": 0}, "0": 2}]',
    ])
      expectSame(text, text);
  });
});
