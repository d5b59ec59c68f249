/**
 * Real before/after pairs (../shared/corpus/real-history/<plugin>/NN__<commit>.json, consecutive versions of 34
 * plugins): every consecutive pair goes through the change rules (base = older, head = newer). Nothing may throw;
 * version-not-bumped and version-decreased must fire exactly where an independent computation here (JSON.parse, a deep
 * equality and a numeric segment compare, none of them the product's) says they should. Prints the count of findings
 * per change rule. New and existing findings (rules.md): every finding the base alone already has at the same place,
 * saying the same, is existing; new + existing is every head finding, existing + fixed every base finding. Prints, for
 * each pair, how many findings are new, existing and fixed. Skipped when ../shared is absent (a fresh clone).
 */
import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, expect, it } from "vitest";
import { describeUnless, withoutShared } from "../helpers.js";
import { resolveConfig } from "../../src/core/config.js";
import { analyseDescriptors, type AnalysedFile } from "../../src/core/analyse.js";

const HISTORY = new URL("../../../shared/corpus/real-history/", import.meta.url);

const CHANGE_RULES = [
  "version-not-bumped",
  "version-decreased",
  "metric-group-changed",
  "plugin-renamed",
  "metric-removed",
  "metric-unit-changed",
  "metric-dimensions-changed",
  "property-removed",
  "base-invalid-json",
] as const;

interface Pair {
  id: string;
  baseFile: string;
  headFile: string;
  base: Uint8Array;
  head: Uint8Array;
}

interface Outcome {
  pair: Pair;
  error?: unknown;
  /** Change-rule findings by rule id. */
  counts: Map<string, number>;
  analysed?: AnalysedFile;
  /** The base reviewed alone (an existing file, no base of its own), when it parses. */
  baseAlone?: AnalysedFile;
}

function listPairs(): Pair[] {
  const pairs: Pair[] = [];
  for (const plugin of readdirSync(HISTORY).sort()) {
    const dir = new URL(`${plugin}/`, HISTORY);
    const versions = readdirSync(dir)
      .filter((f) => /^\d+__[0-9a-f]+\.json$/.test(f))
      .sort();
    for (let i = 1; i < versions.length; i++) {
      const baseFile = versions[i - 1]!;
      const headFile = versions[i]!;
      pairs.push({
        id: `${plugin} ${baseFile.slice(0, 2)}>${headFile.slice(0, 2)}`,
        baseFile: `${plugin}/${baseFile}`,
        headFile: `${plugin}/${headFile}`,
        base: readFileSync(new URL(baseFile, dir)),
        head: readFileSync(new URL(headFile, dir)),
      });
    }
  }
  return pairs;
}

// ---- the independent computation ------------------------------------------------------------------------------

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The parsed document, or undefined when the bytes are not strict JSON (a BOM stays and fails JSON.parse). */
function parse(bytes: Uint8Array): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(strictUtf8.decode(bytes)) as unknown };
  } catch {
    return undefined;
  }
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => Object.hasOwn(bo, k) && deepEqual((a as Record<string, unknown>)[k], bo[k]));
}

/** Segments as numbers, or undefined when the version is not dot-separated digits (then it has no numeric value). */
function segments(v: unknown): bigint[] | undefined {
  return typeof v === "string" && /^\d+(\.\d+)*$/.test(v) ? v.split(".").map((s) => BigInt(s)) : undefined;
}

/** Numeric segment compare, missing segments 0 (`1.9` < `1.10`, `2.1` = `2.1.0`); undefined when not comparable. */
function compareNumeric(a: unknown, b: unknown): number | undefined {
  const x = segments(a);
  const y = segments(b);
  if (!x || !y) return undefined;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i] ?? 0n;
    const q = y[i] ?? 0n;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

function name(doc: unknown): unknown {
  return doc !== null && typeof doc === "object" && !Array.isArray(doc)
    ? (doc as Record<string, unknown>).name
    : undefined;
}

function version(doc: unknown): unknown {
  return doc !== null && typeof doc === "object" && !Array.isArray(doc)
    ? (doc as Record<string, unknown>).version
    : undefined;
}

/** What rules.md says about the pair, computed without the product. */
function expectation(pair: Pair): {
  notBumped: boolean;
  decreased: boolean;
  baseInvalid: boolean;
  headInvalid: boolean;
} {
  const base = parse(pair.base);
  const head = parse(pair.head);
  if (!head) return { notBumped: false, decreased: false, baseInvalid: false, headInvalid: true };
  if (!base) return { notBumped: false, decreased: false, baseInvalid: true, headInvalid: false };
  const hv = version(head.value);
  const bv = version(base.value);
  // After a rename the other change rules stay silent: to the server it is a new plugin (rules.md).
  const renamed = name(head.value) !== name(base.value) && typeof name(head.value) === "string";
  if (renamed && typeof name(base.value) === "string")
    return { notBumped: false, decreased: false, baseInvalid: false, headInvalid: false };
  const cmp = compareNumeric(hv, bv);
  const sameVersion = cmp === undefined ? typeof hv === "string" && hv === bv : cmp === 0;
  return {
    notBumped: sameVersion && !deepEqual(head.value, base.value),
    decreased: cmp !== undefined && cmp < 0,
    baseInvalid: false,
    headInvalid: false,
  };
}

// ---- the tests --------------------------------------------------------------------------------------------------

describeUnless(withoutShared("corpus/real-history/"))(
  "real history, consecutive pairs through the change rules",
  () => {
    let outcomes: Outcome[] = [];

    beforeAll(() => {
      const config = resolveConfig();
      outcomes = listPairs().map((pair) => {
        const counts = new Map<string, number>();
        try {
          const [analysed] = analyseDescriptors(
            [{ path: pair.headFile, content: pair.head, base: { path: pair.baseFile, content: pair.base } }],
            config,
          );
          for (const f of analysed?.findings ?? []) {
            if ((CHANGE_RULES as readonly string[]).includes(f.ruleId))
              counts.set(f.ruleId, (counts.get(f.ruleId) ?? 0) + 1);
          }
          const outcome: Outcome = { pair, counts };
          if (analysed) outcome.analysed = analysed;
          if (parse(pair.base)) {
            const [alone] = analyseDescriptors(
              [{ path: pair.headFile, content: pair.base, isNew: false }],
              config,
            );
            if (alone) outcome.baseAlone = alone;
          }
          return outcome;
        } catch (error) {
          return { pair, counts, error };
        }
      });
      const table = CHANGE_RULES.map((rule) => ({
        rule,
        findings: outcomes.reduce((n, o) => n + (o.counts.get(rule) ?? 0), 0),
        pairs: outcomes.filter((o) => o.counts.has(rule)).length,
      }));
      const lines = [
        `change rules over ${outcomes.length} consecutive pairs of real history`,
        `${"rule".padEnd(28)}${"findings".padStart(9)}${"pairs".padStart(7)}`,
        ...table.map(
          (r) => `${r.rule.padEnd(28)}${String(r.findings).padStart(9)}${String(r.pairs).padStart(7)}`,
        ),
      ];
      console.log(lines.join("\n"));
      const states = outcomes.map((o) => ({ id: o.pair.id, ...baselineCounts(o) }));
      const sum = (k: "new" | "existing" | "fixed") => states.reduce((n, s) => n + s[k], 0);
      console.log(
        [
          `new / existing / fixed findings per pair (head compared with base): total ${sum("new")} new, ${sum("existing")} existing, ${sum("fixed")} fixed`,
          ...states.map(
            (s) => `  ${s.id.padEnd(100)} ${s.new} new, ${s.existing} existing, ${s.fixed} fixed`,
          ),
        ].join("\n"),
      );
    });

    function baselineCounts(o: Outcome): { new: number; existing: number; fixed: number } {
      const fs = o.analysed?.findings ?? [];
      return {
        new: fs.filter((f) => f.baseline === "new").length,
        existing: fs.filter((f) => f.baseline === "existing").length,
        fixed: o.analysed?.fixed ?? 0,
      };
    }

    const firing = (rule: string) => outcomes.filter((o) => o.counts.has(rule)).map((o) => o.pair.id);
    const where = (pred: (e: ReturnType<typeof expectation>) => boolean) =>
      outcomes.filter((o) => pred(expectation(o.pair))).map((o) => o.pair.id);

    it("examines every consecutive pair and nothing throws", () => {
      expect(outcomes.length).toBeGreaterThan(0);
      const versions = readdirSync(HISTORY).map((p) => readdirSync(new URL(`${p}/`, HISTORY)).length);
      expect(outcomes.length).toBe(versions.reduce((n, v) => n + v - 1, 0));
      expect(
        outcomes.filter((o) => o.error !== undefined).map((o) => `${o.pair.id}: ${String(o.error)}`),
      ).toEqual([]);
    });

    it("version-not-bumped fires exactly where the documents differ and the versions compare equal", () => {
      const expected = where((e) => e.notBumped);
      expect(expected.length).toBeGreaterThan(0);
      expect(firing("version-not-bumped")).toEqual(expected);
      for (const o of outcomes)
        if (o.counts.has("version-not-bumped")) expect(o.counts.get("version-not-bumped")).toBe(1);
    });

    it("version-decreased fires exactly where the head version is numerically lower", () => {
      const expected = where((e) => e.decreased);
      expect(expected.length).toBeGreaterThan(0);
      expect(firing("version-decreased")).toEqual(expected);
    });

    it("base-invalid-json fires exactly where the base is not strict JSON (and the head is)", () => {
      expect(firing("base-invalid-json")).toEqual(where((e) => e.baseInvalid));
    });

    it("a head that is not strict JSON gets no change findings", () => {
      const broken = outcomes.filter((o) => expectation(o.pair).headInvalid);
      for (const o of broken) expect([...o.counts.keys()], o.pair.id).toEqual([]);
    });

    it("every finding the base already had (an unchanged element, same rule and message) is existing; counts add up", () => {
      // A head that does not parse has only invalid-json (new); nothing can be said of the base's findings there.
      const compared = outcomes.filter((o) => o.analysed && o.baseAlone && parse(o.pair.head));
      expect(compared.length).toBeGreaterThan(0);
      let sameFindings = 0;
      for (const o of compared) {
        const head = o.analysed!.findings;
        const headDoc = parse(o.pair.head)?.value;
        const baseDoc = parse(o.pair.base)?.value;
        // Every head finding is classified once a base was compared.
        expect(
          head.every((f) => f.baseline === "new" || f.baseline === "existing"),
          o.pair.id,
        ).toBe(true);
        // Independently of the product's matching: a head finding is the base's when the base alone reports the same
        // rule and message (indices aside) at the same path inside a deep-equal element of the same top-level array
        // (or at the same pointer outside arrays). Each base finding vouches for one head finding.
        const used = new Set<number>();
        for (const f of head) {
          if ((CHANGE_RULES as readonly string[]).includes(f.ruleId)) continue;
          const match = o.baseAlone!.findings.findIndex(
            (g, i) => !used.has(i) && sameFinding(headDoc, f, baseDoc, g),
          );
          if (match === -1) continue;
          used.add(match);
          sameFindings++;
          expect(f.baseline, `${o.pair.id}: ${f.ruleId} ${f.pointer} ${f.message}`).toBe("existing");
        }
        // Each base finding is either still there (existing) or fixed.
        const c = baselineCounts(o);
        expect(c.existing + c.fixed, o.pair.id).toBe(o.baseAlone!.findings.length);
      }
      expect(sameFindings).toBeGreaterThan(0);
    });
  },
);

type F = { ruleId: string; pointer: string; message: string };

/** Same rule, message without indices, and place: same pointer, or the same path inside deep-equal array elements. */
function sameFinding(headDoc: unknown, f: F, baseDoc: unknown, g: F): boolean {
  if (f.ruleId !== g.ruleId) return false;
  const plain = (m: string) => m.replace(/\[\d+\]/g, "[]").replace(/line \d+/g, "line #");
  if (plain(f.message) !== plain(g.message)) return false;
  const fs = f.pointer.split("/");
  const gs = g.pointer.split("/");
  if (fs.length !== gs.length) return false;
  const at = fs.findIndex((s) => /^\d+$/.test(s));
  if (at === -1) return f.pointer === g.pointer;
  if (
    fs.slice(0, at).join("/") !== gs.slice(0, at).join("/") ||
    fs.slice(at + 1).join("/") !== gs.slice(at + 1).join("/")
  )
    return false;
  const element = (doc: unknown, segs: string[]) =>
    segs
      .slice(1, at + 1)
      .reduce<unknown>(
        (v, s) => (v && typeof v === "object" ? (v as Record<string, unknown>)[s] : undefined),
        doc,
      );
  return deepEqual(element(headDoc, fs), element(baseDoc, gs));
}
