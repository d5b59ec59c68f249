/**
 * `--fix` in the core: byte-exact tables per fixable rule (before text → after text, with CRLF, tabs and
 * no final newline), what is never applied, a property test over the real corpus with injected fixable
 * mistakes, and fuzzing that no set of fixes turns valid JSON into invalid JSON.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/core/config.js";
import { applyFixes, fixDescriptors, fixPasses, unifiedDiff } from "../../src/core/fix.js";
import { analyseDescriptors, type DescriptorInput } from "../../src/core/analyse.js";
import type { RawFinding } from "../../src/core/types.js";
import { check, describeUnless, text, validHost, withoutShared } from "../helpers.js";

/** Reviews `head` (against `base` when given) and fixes until nothing more applies, as `--fix` does. */
function fix(head: string, base?: string): string {
  const input: DescriptorInput = {
    path: "plugin.json",
    content: head,
    ...(base !== undefined ? { base: { path: "plugin.json", content: base }, isNew: false } : {}),
  };
  const fixed = fixDescriptors([input], resolveConfig());
  return fixed.get(input)?.after ?? head;
}

const host = validHost();
/** The valid example with its formatting replaced: `indent` per level, `eol` line breaks, optional final newline. */
function styled(doc: unknown, indent: string, eol: string, finalNewline: boolean): string {
  return JSON.stringify(doc, null, indent).replace(/\n/g, eol) + (finalNewline ? eol : "");
}
const STYLES = [
  { name: "LF, two spaces, final newline", indent: "  ", eol: "\n", final: true },
  { name: "CRLF, tabs, final newline", indent: "\t", eol: "\r\n", final: true },
  { name: "LF, four spaces, no final newline", indent: "    ", eol: "\n", final: false },
  { name: "CRLF, two spaces, no final newline", indent: "  ", eol: "\r\n", final: false },
];

function metricWith(spec: Record<string, unknown>) {
  const doc = structuredClone(host) as { metrics: { timeseries: Record<string, unknown> }[] };
  doc.metrics[0]!.timeseries = { ...doc.metrics[0]!.timeseries, ...spec };
  return doc;
}
const unit0 = (host as { metrics: { timeseries: { unit: string } }[] }).metrics[0]!.timeseries.unit;
const otherUnit = unit0 === "Count" ? "Second" : "Count";

interface Case {
  rule: string;
  /** [base document or undefined, head document, expected fixed document] */
  docs: () => [unknown, unknown, unknown];
}

const CASES: Case[] = [
  {
    rule: "version-not-bumped",
    docs: () => {
      const head = { ...host, requiredAgentVersion: "1.300" };
      return [host, head, { ...head, version: nextOf(String(host.version)) }];
    },
  },
  {
    rule: "metric-group-changed",
    docs: () => {
      const base = { ...host, metricGroup: "acme.group", version: "1.2.0" };
      const head = { ...base, metricGroup: "acme.other", version: "1.3.0" };
      return [base, head, { ...head, metricGroup: "acme.group" }];
    },
  },
  {
    rule: "metric-unit-changed",
    docs: () => {
      const base = { ...metricWith({ unit: unit0 }), version: "1.2.0" };
      const head = { ...metricWith({ unit: otherUnit }), version: "1.3.0" };
      return [base, head, { ...metricWith({ unit: unit0 }), version: "1.3.0" }];
    },
  },
  {
    rule: "invalid-value (case only)",
    docs: () => [undefined, metricWith({ unit: "percent" }), metricWith({ unit: "Percent" })],
  },
  {
    rule: "unknown-member (case only, the known member absent)",
    docs: () => {
      const fixed = metricWith({});
      const ts = fixed.metrics[0]!.timeseries;
      // Same member order: the name is renamed in place.
      const head = structuredClone(fixed);
      head.metrics[0]!.timeseries = Object.fromEntries(
        Object.entries(ts).map(([k, v]) => [k === "displayname" ? "displayName" : k, v]),
      );
      return [undefined, head, fixed];
    },
  },
];

/** A finding whose fix replaces the value at `pointer` with `replacement`. */
function fixAt(replacement: string, pointer: string): RawFinding {
  return {
    ruleId: "metric-unit-changed",
    severity: "error",
    message: "m",
    messageId: "m",
    pointer,
    target: "value",
    fix: { replacement, description: "d" },
  };
}

function nextOf(v: string): string {
  const parts = v.split(".").map(Number);
  parts[parts.length - 1]! += 1;
  return parts.join(".");
}

describe("applyFixes: one table per fixable rule, byte-exact in every formatting", () => {
  for (const c of CASES) {
    describe(c.rule, () => {
      it.each(STYLES)("$name", ({ indent, eol, final }) => {
        const [base, head, want] = c.docs();
        const before = styled(head, indent, eol, final);
        const after = fix(before, base === undefined ? undefined : styled(base, indent, eol, final));
        expect(after).not.toBe(before);
        expect(after).toBe(styled(want, indent, eol, final));
        // Nothing of the fixed kind is left.
        const left = check(after, base === undefined ? {} : { base: styled(base, indent, eol, final) });
        expect(left.filter((f) => f.fix)).toEqual([]);
      });
    });
  }

  it("keeps odd formatting outside the edited token byte for byte", () => {
    const before = '{"name" :"custom.python.demo_plugin",\t"version":\r\n  "1.2"  ,"type":"python"}';
    const base = '{"name":"custom.python.demo_plugin","version":"1.2","type":"python","x":1}';
    const v = fix(before, base);
    expect(v).toBe('{"name" :"custom.python.demo_plugin",\t"version":\r\n  "1.3"  ,"type":"python"}');
  });

  it("renames a key written with escapes to the plain known name", () => {
    const doc = metricWith({});
    const before = text(doc).replace('"displayname"', '"display\\u004eame"'); // `displayName`: a case slip
    const after = fix(before);
    expect(after).toBe(text(doc));
  });
});

describe("applyFixes: what is never applied", () => {
  it("does not rename a misspelt member: the likely name is a suggestion", () => {
    const fixed = metricWith({});
    const head = structuredClone(fixed);
    head.metrics[0]!.timeseries = Object.fromEntries(
      Object.entries(fixed.metrics[0]!.timeseries).map(([k, v]) => [
        k === "displayname" ? "dispalyname" : k,
        v,
      ]),
    );
    const before = text(head);
    const [f] = check(before).filter((x) => x.ruleId === "unknown-member");
    expect(f!.fix).toBeUndefined();
    expect(f!.suggestions).toEqual([
      { replacement: '"displayname"', description: "rename to `displayname`", target: "key" },
    ]);
    expect(fix(before)).toBe(before);
  });

  it("neither fixes nor suggests renaming a member when the known member is there too (it would duplicate a key)", () => {
    for (const name of ["dispalyname", "displayName"]) {
      const before = text(metricWith({ [name]: "Other" }));
      const findings = check(before).filter((f) => f.ruleId === "unknown-member");
      expect(findings).toHaveLength(1);
      expect(findings[0]!.fix).toBeUndefined();
      expect(findings[0]!.suggestions).toBeUndefined();
      expect(fix(before)).toBe(before);
    }
  });

  it("does not apply a closest value that is a guess (edit distance), only a case-only one", () => {
    const before = text(metricWith({ unit: "Percnt" }));
    const f = check(before).find((x) => x.ruleId === "invalid-value");
    expect(f?.fix).toBeUndefined();
    expect(f?.suggestions?.map((e) => e.replacement)).toEqual(['"Percent"']);
    expect(fix(before)).toBe(before);
  });

  it("applies one of two overlapping edits, never both", () => {
    const before = '{"a": "x", "b": 1}';
    const f = (replacement: string, pointer = "/a") => fixAt(replacement, pointer);
    expect(applyFixes(before, [f('"y"'), f('"z"'), f("2", "/b")]).text).toBe('{"a": "y", "b": 2}');
  });

  it("leaves the text unchanged when an edit would make it invalid JSON, or it does not parse", () => {
    const bad: RawFinding = {
      ruleId: "version-not-bumped",
      severity: "error",
      message: "m",
      messageId: "m",
      pointer: "/a",
      target: "value",
      fix: { replacement: '"x" , "y"', description: "d" },
    };
    expect(applyFixes('{"a": 1}', [bad])).toEqual({ text: '{"a": 1}', applied: [] });
    expect(applyFixes('{"a": 1', [{ ...bad, fix: { replacement: "2", description: "d" } }]).applied).toEqual(
      [],
    );
  });

  it("does not rename two members of one object to the same name", () => {
    const rename = (pointer: string): RawFinding => ({
      ruleId: "unknown-member",
      severity: "warning",
      message: "m",
      messageId: "m",
      pointer,
      target: "key",
      fix: { replacement: '"c"', description: "d", target: "key" },
    });
    const r = applyFixes('{"a": 1, "b": 2}', [rename("/a"), rename("/b")]);
    expect(r.text).toBe('{"c": 1, "b": 2}');
  });
});

describe("fix passes: fixes that undo or redo each other", () => {
  const f = fixAt;
  /** Passes over one text whose findings `fixesOf` gives, as fixDescriptors runs them over reviews. */
  function run(start: string, fixesOf: (doc: { u: unknown; v: unknown }) => RawFinding[]) {
    let current = start;
    const passes: string[] = [];
    const result = fixPasses(
      () => [{ text: current, findings: fixesOf(JSON.parse(current) as { u: unknown; v: unknown }) }],
      (i, t) => {
        expect(i).toBe(0);
        passes.push(t);
        current = t;
      },
    );
    return { current, passes, fixed: result.get(0) };
  }

  it("stops when a text comes back, and counts only the fixes that survive", () => {
    // Two fixes that disagree ("a" → "b", "b" → "a") and one that does not (1 → 2).
    const r = run('{"u": "a", "v": 1}', (d) => [
      f(JSON.stringify(d.u === "a" ? "b" : "a"), "/u"),
      ...(d.v === 1 ? [f("2", "/v")] : []),
    ]);
    expect(r.passes).toEqual(['{"u": "b", "v": 2}', '{"u": "a", "v": 2}']);
    expect(r.fixed).toEqual({ before: '{"u": "a", "v": 1}', after: '{"u": "a", "v": 2}', applied: 1 });
  });

  it("counts a value fixed again by a later pass once, and a longer replacement moves later fixes", () => {
    const r = run('{"u": "a", "v": 1}', (d) =>
      d.u === "a" ? [f('"bbbb"', "/u")] : d.u === "bbbb" ? [f('"c"', "/u"), f("2", "/v")] : [],
    );
    expect(r.passes).toEqual(['{"u": "bbbb", "v": 1}', '{"u": "c", "v": 2}']);
    expect(r.fixed).toEqual({ before: '{"u": "a", "v": 1}', after: '{"u": "c", "v": 2}', applied: 2 });
  });
});

describe("unifiedDiff", () => {
  it("prints hunks with context, CR kept, and the no-final-newline marker", () => {
    const before = '{\r\n  "a": 1,\r\n  "b": 2\r\n}';
    const after = '{\r\n  "a": 1,\r\n  "b": 3\r\n}';
    expect(unifiedDiff("a/p.json", "b/p.json", before, after, 1)).toBe(
      [
        "--- a/p.json",
        "+++ b/p.json",
        "@@ -2,3 +2,3 @@",
        '   "a": 1,\r',
        '-  "b": 2\r',
        '+  "b": 3\r',
        " }",
        "\\ No newline at end of file",
        "",
      ].join("\n"),
    );
    expect(unifiedDiff("a", "b", "x\n", "x\n")).toBe("");
  });
});

// ---- property tests ---------------------------------------------------------------------------------

const CORPUS = new URL("../../../shared/corpus/real/", import.meta.url);
const corpus = existsSync(CORPUS)
  ? readdirSync(CORPUS)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .flatMap((f) => {
        try {
          return [
            { file: f, doc: JSON.parse(readFileSync(new URL(f, CORPUS), "utf8")) as Record<string, unknown> },
          ];
        } catch {
          return []; // a corpus file that is not JSON has nothing to fix
        }
      })
  : [];

type Mistake = "version" | "group" | "unit" | "unitCase" | "memberCase";

/** Injects the chosen mistakes into a copy of `doc`; returns the head and the pointers a fix must clear. */
function inject(doc: Record<string, unknown>, mistakes: Set<Mistake>) {
  const head = structuredClone(doc);
  const pointers: string[] = [];
  const ts = (Array.isArray(head.metrics) ? head.metrics : [])
    .map((m, i) => ({ i, t: (m as { timeseries?: Record<string, unknown> })?.timeseries }))
    .find((x) => x.t && typeof x.t.unit === "string" && typeof x.t.key === "string");
  if (mistakes.has("group")) head.metricGroup = `${String(doc.metricGroup ?? doc.name)}.moved`;
  if (ts?.t && mistakes.has("unit")) ts.t.unit = ts.t.unit === "Count" ? "Second" : "Count";
  if (ts?.t && mistakes.has("unitCase") && /[A-Z]/.test(String(ts.t.unit))) {
    ts.t.unit = String(ts.t.unit).toLowerCase();
    pointers.push(`/metrics/${ts.i}/timeseries/unit`);
  }
  if (ts?.t && mistakes.has("memberCase") && typeof ts.t.displayname === "string") {
    const entries = Object.entries(ts.t).map(([k, v]) => [k === "displayname" ? "displayName" : k, v]);
    (head.metrics as unknown[])[ts.i] = {
      ...(head.metrics as object[])[ts.i],
      timeseries: Object.fromEntries(entries),
    };
    pointers.push(`/metrics/${ts.i}/timeseries/displayName`);
  }
  // The descriptor changed: without a bump, version-not-bumped fires (when the version is numeric).
  if (!mistakes.has("version")) head.version = `${String(doc.version)}.1`;
  return { head, pointers };
}

describeUnless(withoutShared("corpus/real/"))(
  "--fix on real descriptors with injected mistakes (property)",
  () => {
    it("the output parses and no finding of the fixed kinds remains", () => {
      const mistake = fc.constantFrom<Mistake>("version", "group", "unit", "unitCase", "memberCase");
      let fixedRuns = 0;
      let runs = 0;
      fc.assert(
        fc.property(
          fc.constantFrom(...corpus),
          fc.uniqueArray(mistake, { minLength: 1, maxLength: 5 }),
          fc.constantFrom(...STYLES),
          ({ doc }, chosen, style) => {
            const { head, pointers } = inject(doc, new Set(chosen));
            const base = styled(doc, style.indent, style.eol, style.final);
            const before = styled(head, style.indent, style.eol, style.final);
            const after = fix(before, base);
            runs++;
            if (after !== before) fixedRuns++;
            expect(() => JSON.parse(after) as unknown).not.toThrow();
            const [review] = analyseDescriptors(
              [
                {
                  path: "plugin.json",
                  content: after,
                  base: { path: "plugin.json", content: base },
                  isNew: false,
                },
              ],
              resolveConfig(),
            );
            const left = review!.findings.filter(
              (f) =>
                ["version-not-bumped", "metric-group-changed", "metric-unit-changed"].includes(f.ruleId) ||
                pointers.includes(f.pointer) ||
                (f.ruleId === "unknown-member" && f.fix !== undefined),
            );
            // version-not-bumped without a fix (a non-numeric version) is not mechanical: left to the author.
            expect(left.filter((f) => f.fix !== undefined || pointers.includes(f.pointer))).toEqual([]);
            // Only the edited tokens changed: line structure is untouched.
            expect(after.split("\n").length).toBe(before.split("\n").length);
          },
        ),
        { numRuns: 150 },
      );
      // The property is about fixing: most runs must have had something to fix (not a vacuous pass).
      expect(fixedRuns).toBeGreaterThan(runs * 0.8);
    });
  },
);

describe("fuzzing: fixes never turn valid JSON into invalid JSON", () => {
  const pointerOf = (path: (string | number)[]) =>
    path.map((s) => "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("");

  /** Every pointer into a value (so that fixes land on real members and items). */
  function pointers(v: unknown, path: (string | number)[] = [], out: string[] = []): string[] {
    out.push(pointerOf(path));
    if (Array.isArray(v)) v.forEach((x, i) => pointers(x, [...path, i], out));
    else if (v && typeof v === "object")
      for (const [k, x] of Object.entries(v)) pointers(x, [...path, k], out);
    return out;
  }

  it("holds for random documents, formatting and fixes (valid or not, keys or values)", () => {
    const replacement = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string().map((s) => JSON.stringify(s)),
      fc.string(), // often not JSON at all
      fc.constantFrom('"a", "b": 1', "}", '"x"', "[", "1 2", ""),
    );
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.constantFrom(...STYLES),
        fc.array(
          fc.record({
            pick: fc.nat(),
            replacement,
            target: fc.constantFrom<"key" | "value">("key", "value"),
            rule: fc.constantFrom(
              "version-not-bumped",
              "unknown-member",
              "invalid-value",
              "metric-unit-changed",
            ),
          }),
          { maxLength: 6 },
        ),
        (value, style, fixes) => {
          const before = styled(value, style.indent, style.eol, style.final);
          const all = pointers(value);
          const findings: RawFinding[] = fixes.map((f) => ({
            ruleId: f.rule,
            severity: "error",
            message: "fuzz",
            messageId: "fuzz",
            pointer: all[f.pick % all.length] as string,
            target: f.target,
            fix: { replacement: f.replacement, description: "fuzz", target: f.target },
          }));
          const { text: after, applied } = applyFixes(before, findings);
          expect(() => JSON.parse(after) as unknown).not.toThrow();
          if (!applied.length) expect(after).toBe(before);
        },
      ),
      { numRuns: 500 },
    );
  });
});
