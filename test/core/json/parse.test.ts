import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_DEPTH,
  parseEdited,
  parseJson,
  parseJsonFast,
  type ParseOutcome,
} from "../../../src/core/json/parse.js";

function errorAt(text: string) {
  const r = parseJson(text);
  if (r.ok) throw new Error(`expected a syntax error for ${JSON.stringify(text)}`);
  return r.error;
}

describe("parseJson", () => {
  it("returns what JSON.parse returns for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (v, pretty) => {
        const t = JSON.stringify(v, null, pretty ? 2 : undefined);
        const r = parseJson(t);
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.value).toEqual(JSON.parse(t));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps `__proto__` as an own member, like JSON.parse", () => {
    const r = parseJson('{"__proto__": {"polluted": true}}');
    expect(r.ok && Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(r.ok && Object.keys(r.value as object)).toEqual(["__proto__"]);
  });

  it.each([
    ["BOM", "\uFEFF{}", 0, /byte order mark/],
    ["line comment", '{\n  // note\n  "a": 1\n}', 4, /comments are not allowed/],
    ["block comment", '{ /* x */ "a": 1 }', 2, /comments are not allowed/],
    ["trailing comma in object", '{"a": 1,\n}', 7, /trailing comma/],
    ["trailing comma in array", "[1, 2, ]", 5, /trailing comma/],
    ["NaN", '{"a": NaN}', 6, /NaN is not a JSON value/],
    ["Infinity", '{"a": -Infinity}', 6, /-Infinity is not a JSON value/],
    ["truncated object", '{"a": 1', 7, /unexpected end of file.*truncated/],
    ["truncated string", '{"a": "abc', 6, /unterminated string/],
    ["single quotes", "{'a': 1}", 1, /double quotes/],
    ["empty file", "", 0, /empty/],
    ["only whitespace", "  \n ", 4, /empty/],
    ["leading zero", "[01]", 1, /leading zeros/],
    ["bad escape", '["\\q"]', 2, /invalid escape \\q/],
    ["raw newline in string", '["a\nb"]', 3, /line break inside a string/],
    ["control character", '["a\u0001"]', 3, /control character U\+0001/],
    ["garbage after value", "{} {}", 3, /after the end of the JSON value/],
    ["missing colon", '{"a" 1}', 5, /expected `:`/],
    ["missing comma", '{"a": 1 "b": 2}', 8, /expected `,` or `}`/],
    ["unquoted key", "{a: 1}", 1, /member name in double quotes/],
    ["misspelt literal", "[tru]", 4, /expected `true`/],
    ["NUL byte", "\u0000", 0, /control character U\+0000/],
  ])("%s: points at the first offending character", (_name, input, offset, message) => {
    const e = errorAt(input);
    expect(e.offset).toBe(offset);
    expect(e.message).toMatch(message);
    expect(e.end).toBeGreaterThanOrEqual(Math.min(offset + 1, input.length));
  });

  it("reports every duplicate key with both positions", () => {
    const t = '{"a": 1, "b": {"c": 1, "c": 2}, "a": 3}';
    const r = parseJson(t);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual(JSON.parse(t));
    expect(
      r.duplicates.map((d) => [d.objectPointer, d.key, t.slice(d.keyStart, d.keyEnd), d.firstKeyStart]),
    ).toEqual([
      ["/b", "c", '"c"', 15],
      ["", "a", '"a"', 1],
    ]);
  });

  it("escapes pointer segments of duplicate keys' objects (RFC 6901)", () => {
    const r = parseJson('{"a/b~": {"x": 1, "x": 2}}');
    expect(r.ok && r.duplicates[0]?.objectPointer).toBe("/a~1b~0");
  });

  it(`refuses nesting deeper than ${MAX_DEPTH} levels without overflowing the stack`, () => {
    expect(parseJson("[".repeat(MAX_DEPTH) + "]".repeat(MAX_DEPTH)).ok).toBe(true);
    const e = errorAt("[".repeat(100_000));
    expect(e.message).toMatch(/nesting deeper than/);
    expect(e.offset).toBe(MAX_DEPTH);
  });

  it("never throws, whatever the input", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (s) => {
        const r = parseJson(s);
        if (!r.ok) {
          expect(r.error.offset).toBeGreaterThanOrEqual(0);
          expect(r.error.offset).toBeLessThanOrEqual(s.length);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("agrees with JSON.parse on whether mangled JSON is valid", () => {
    const mangle = fc.tuple(
      fc.jsonValue(),
      fc.nat(),
      fc.constantFrom("", ",", "}", "]", '"', "\\", "/", "0", " ", "NaN"),
    );
    fc.assert(
      fc.property(mangle, ([v, at, insert]) => {
        const t = JSON.stringify(v) ?? "null";
        const i = at % (t.length + 1);
        const mangled = t.slice(0, i) + insert + t.slice(i);
        let native = true;
        try {
          JSON.parse(mangled);
        } catch {
          native = false;
        }
        expect(parseJson(mangled).ok).toBe(native);
      }),
      { numRuns: 1000 },
    );
  });
});

/** What a parse outcome says, with the lazy tree of positions read out. */
function outcome(r: ParseOutcome): unknown {
  return r.ok ? { value: r.value, root: r.root, duplicates: r.duplicates } : { error: r.error };
}

describe("parseJsonFast", () => {
  const json = fc
    .tuple(fc.jsonValue(), fc.boolean())
    .map(([v, pretty]) => JSON.stringify(v, null, pretty ? 2 : 0));
  /** A member written twice, somewhere inside other JSON (JSON.parse keeps the last). */
  const duplicated = fc
    .tuple(fc.string({ maxLength: 6 }), fc.jsonValue(), fc.jsonValue(), fc.jsonValue())
    .map(([k, a, b, rest]) => {
      const key = JSON.stringify(k);
      return `[${JSON.stringify(rest)}, {${key}: ${JSON.stringify(a)}, "other": 0, ${key}: ${JSON.stringify(b)}}]`;
    });
  const mangled = fc
    .tuple(json, fc.nat(), fc.constantFrom(",", "}", "]", '"', "\\", "0", "NaN", "\u0001"))
    .map(([t, at, insert]) => t.slice(0, at % (t.length + 1)) + insert + t.slice(at % (t.length + 1)));

  it("gives the same value, tree of positions, duplicates and errors as parseJson", () => {
    fc.assert(
      fc.property(fc.oneof(json, duplicated, mangled), (t) => {
        expect(outcome(parseJsonFast(t))).toEqual(outcome(parseJson(t)));
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses nesting deeper than MAX_DEPTH as parseJson does, although JSON.parse accepts it", () => {
    const deep = "[".repeat(MAX_DEPTH + 1) + "]".repeat(MAX_DEPTH + 1);
    expect(() => JSON.parse(deep)).not.toThrow();
    expect(outcome(parseJsonFast(deep))).toEqual(outcome(parseJson(deep)));
    expect(parseJsonFast(deep).ok).toBe(false);
    // Even in a member JSON.parse drops (a duplicate key's first value): the text nests that deep.
    const dropped = `{"a": ${deep}, "a": 1}`;
    expect(parseJsonFast(dropped).ok).toBe(false);
    expect(outcome(parseJsonFast(dropped))).toEqual(outcome(parseJson(dropped)));
  });

  it("finds duplicate keys whatever `:` the strings hold, written or escaped (\\u003a)", () => {
    const texts = [
      // `:` in a dropped value's string, in kept strings, in keys.
      '{"a": "x", "a": "y:z"}',
      '{"url": "http://h:1", "a": 1, "a": "b:c"}',
      '{"k:1": "v:2", "k:1": "v:2"}',
      // A `:` written as \u003a in a kept key makes up for a dropped member in the count of `:`s.
      '{"a\\u003a": 1, "b": 1, "b": 2}',
      '{"x": "\\u003a", "y": [1, {"z": 0, "z": 1}]}',
      // A `:` in a string right after a quote (the string's own, an escaped one), as a member's `:` follows its
      // key's; members' `:`s after whitespace.
      '{"a": ":x", "a": 1}',
      '{"a" \n\t: "\\":", "a"\r\n: 1}',
      '{"s": "a:b", "t": "c:d", "a": 1, "a": 2}',
    ];
    for (const t of texts) {
      const fast = parseJsonFast(t);
      expect(fast.ok && fast.duplicates.length, t).toBe(1);
      expect(outcome(fast), t).toEqual(outcome(parseJson(t)));
    }
    for (const t of [
      '{"a\\u003a": 1, "b": 1}',
      '{"url": "http://h:1", "b": {"c": "d:e"}}',
      '{"a" : ":x", "b"\n: "\\":"}',
    ]) {
      const fast = parseJsonFast(t);
      expect(fast.ok && fast.duplicates.length, t).toBe(0);
      expect(outcome(fast), t).toEqual(outcome(parseJson(t)));
    }
  });
});

describe("parseEdited", () => {
  /** A root object (keys as people and generators write them: escapes, `__proto__`, integer-like). */
  const root = fc
    .tuple(
      fc.dictionary(
        fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom("__proto__", "1", 'a"b', "x\\", "é")),
        fc.jsonValue({ maxDepth: 3 }),
        { minKeys: 1, maxKeys: 6 },
      ),
      fc.boolean(),
    )
    .map(([v, pretty]) => JSON.stringify(v, null, pretty ? 2 : 0));
  /** JSON text a member's value may become: any value, one with a key written twice, or broken text. */
  const valueText = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.tuple(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })).map(([k, v]) => {
      const key = JSON.stringify(k);
      return ` {${key}: ${JSON.stringify(v)}, "o": [{${key}: 1, ${key}: 2}], ${key}: 0} `;
    }),
    fc.constantFrom(
      "",
      "1 2",
      '"a", "b": 1',
      "[",
      "}",
      '"\\u00',
      "[".repeat(MAX_DEPTH) + "]".repeat(MAX_DEPTH),
    ),
  );

  /** The same as parsing the edited text in full, whenever the shortcut applies. */
  function check(head: string, text: string): boolean {
    const edited = parseEdited(parseJsonFast(head), text);
    if (!edited) return false;
    const full = parseJsonFast(text);
    expect(full.ok).toBe(true);
    if (!full.ok) return true;
    expect(JSON.stringify(edited.value)).toBe(JSON.stringify(full.value));
    expect(edited.value).toEqual(full.value);
    expect(Object.getPrototypeOf(edited.value)).toBe(Object.prototype);
    expect(edited.duplicates).toEqual(full.duplicates);
    return true;
  }

  it("parses a member's new value alone and gives exactly the full parse's value and duplicate keys", () => {
    let applied = 0;
    fc.assert(
      fc.property(root, fc.nat(), valueText, (head, which, replacement) => {
        const tree = parseJson(head);
        if (!tree.ok || tree.root.kind !== "object") return;
        const member = tree.root.members[which % tree.root.members.length]!;
        const text = head.slice(0, member.value.start) + replacement + head.slice(member.value.end);
        // One JSON value in place of another, in a valid text whose head has no duplicate keys.
        const oneValue = (() => {
          try {
            JSON.parse(replacement);
            return true;
          } catch {
            return false;
          }
        })();
        const valid =
          oneValue &&
          parseJsonFast(text).ok &&
          !(parseJsonFast(head) as { duplicates: unknown[] }).duplicates.length;
        if (check(head, text)) applied++;
        // That always takes the shortcut.
        else if (valid && text !== head) expect.fail(`not applied: ${JSON.stringify([head, text])}`);
      }),
      { numRuns: 1500 },
    );
    expect(applied).toBeGreaterThan(500);
  });

  it("random insertions and deletions anywhere: the full parse's result, or none", () => {
    fc.assert(
      fc.property(
        root,
        fc.nat(),
        fc.nat({ max: 3 }),
        fc.constantFrom("", " ", "1", '"', ",", ":", "{", "}", "]", "\\", '"k": 0,'),
        (head, at, cut, insert) => {
          const i = at % (head.length + 1);
          check(head, head.slice(0, i) + insert + head.slice(i + cut));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("is not applied across members, to a root that is not an object, or to a head with duplicate keys", () => {
    const head = '{"a": 1, "b": [1, 2], "c": "x"}';
    expect(parseEdited(parseJsonFast(head), '{"a": 2, "b": [1, 2], "c": "y"}')).toBeUndefined();
    expect(parseEdited(parseJsonFast(head), '{"a": 1, "b": [1, 2], "d": "x"}')).toBeUndefined();
    expect(parseEdited(parseJsonFast(head), head)).toBeUndefined();
    expect(parseEdited(parseJsonFast("[1, 2]"), "[1, 3]")).toBeUndefined();
    expect(parseEdited(parseJsonFast('{"a": 1, "a": 2}'), '{"a": 1, "a": 3}')).toBeUndefined();
    const edited = parseEdited(parseJsonFast(head), '{"a": 1, "b": [1, 2, {"k": 1, "k": 2}], "c": "x"}');
    expect(edited?.value).toEqual({ a: 1, b: [1, 2, { k: 2 }], c: "x" });
    expect(edited?.duplicates).toEqual([
      { objectPointer: "/b/2", key: "k", keyStart: 30, keyEnd: 33, firstKeyStart: 22 },
    ]);
  });

  it("shares the members it did not parse with head's value", () => {
    const head = parseJsonFast('{"version": "1.0", "metrics": [{"timeseries": {"key": "m"}}]}');
    const edited = parseEdited(head, '{"version": "1.1", "metrics": [{"timeseries": {"key": "m"}}]}');
    expect(edited?.value.version).toBe("1.1");
    expect(edited?.value.metrics).toBe((head as { value: { metrics: unknown } }).value.metrics);
  });

  it("parses an array member's edited element alone, sharing the other elements with head's", () => {
    const head = parseJsonFast(
      '{"v": 1, "metrics": [{"key": "a"}, {"key": "b", "unit": "Count"}, {"key": "c"}]}',
    );
    const text =
      '{"v": 1, "metrics": [{"key": "a"}, {"key": "b", "unit": "Second", "unit": "x"}, {"key": "c"}]}';
    const edited = parseEdited(head, text);
    const full = parseJsonFast(text);
    expect(full.ok && edited?.value).toEqual(full.ok && full.value);
    expect(edited?.duplicates).toEqual(full.ok && full.duplicates);
    expect(edited?.duplicates[0]?.objectPointer).toBe("/metrics/1");
    const before = (head as { value: { metrics: unknown[] } }).value.metrics;
    const after = edited?.value.metrics as unknown[];
    expect(after).not.toBe(before);
    expect(after[0]).toBe(before[0]);
    expect(after[2]).toBe(before[2]);
  });

  it("an array element replaced by any text: the full parse's result, or none", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 5 }),
        fc.nat(),
        valueText,
        fc.boolean(),
        (items, which, replacement, pretty) => {
          const head = JSON.stringify({ a: 1, list: items, z: [0] }, null, pretty ? 2 : 0);
          const tree = parseJson(head);
          if (!tree.ok || tree.root.kind !== "object") return;
          const list = tree.root.members[1]!.value;
          if (list.kind !== "array") return;
          const el = list.items[which % list.items.length]!;
          check(head, head.slice(0, el.start) + replacement + head.slice(el.end));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
