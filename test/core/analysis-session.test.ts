/**
 * A review of many descriptors in bounded memory (core/analyse.ts AnalysisSession): fed a batch at a time, it
 * finds exactly what reviewing them all at once finds, the set rules (duplicate-plugin-name) across
 * batches and the baseline of their findings included, and keeps of each descriptor its findings, not its
 * text.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveConfig, type RawConfig } from "../../src/core/config.js";
import { analyseDescriptors, AnalysisSession, type DescriptorInput } from "../../src/core/analyse.js";
import { text, validHost } from "../helpers.js";

type Json = Record<string, unknown>;

/** A descriptor named `name` (undefined: no name), with a finding of its own when `broken`. */
function descriptor(name: string | undefined, broken: boolean): string {
  const d: Json = { ...validHost() };
  if (name === undefined) delete d.name;
  else d.name = name;
  if (broken) delete d.metricGroup;
  return text(d);
}

const NAMES = ["custom.python.a", "custom.python.b", "custom.python.c", undefined] as const;

/** A descriptor of the change: its head, and its base unless added (or its head is not JSON). */
const arbInput = (i: number) =>
  fc
    .record({
      name: fc.constantFrom(...NAMES),
      baseName: fc.option(fc.constantFrom(...NAMES), { nil: null }),
      broken: fc.boolean(),
      unreadable: fc.boolean(),
      renamedFrom: fc.boolean(),
    })
    .map((x): DescriptorInput => {
      const path = `p${i}/plugin.json`;
      const input: DescriptorInput = {
        path,
        content: x.unreadable && i % 3 === 0 ? "{ not json" : descriptor(x.name, x.broken),
        isNew: x.baseName === null,
      };
      if (x.baseName !== null)
        input.base = {
          path: x.renamedFrom ? `old${i}/plugin.json` : path,
          content: descriptor(x.baseName, false),
        };
      return input;
    });

const arbInputs = fc
  .integer({ min: 1, max: 9 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => arbInput(i))));

const arbConfig = fc.record({
  existing: fc.constantFrom("report", "hide", "fail"),
  rules: fc.constantFrom({}, { "duplicate-plugin-name": "warning" }, { "duplicate-plugin-name": "off" }),
}) as fc.Arbitrary<RawConfig>;

/** The session fed `inputs` in batches of `size`. */
function batched(inputs: readonly DescriptorInput[], config: RawConfig, size: number) {
  const session = new AnalysisSession(resolveConfig({ repo: config }));
  for (let i = 0; i < inputs.length; i += size) session.add(inputs.slice(i, i + size));
  return session.finish();
}

/** analyseDescriptors' result without the texts (what the session does not keep). */
function atOnce(inputs: readonly DescriptorInput[], config: RawConfig) {
  return analyseDescriptors(inputs, resolveConfig({ repo: config })).map(({ text: _, ...r }) => r);
}

describe("AnalysisSession: descriptors reviewed a batch at a time", () => {
  it("finds what reviewing them all at once finds, whatever the batches (set rules and baseline included)", () => {
    fc.assert(
      fc.property(arbInputs, arbConfig, fc.integer({ min: 1, max: 4 }), (inputs, config, size) => {
        expect(batched(inputs, config, size)).toEqual(atOnce(inputs, config));
      }),
      { numRuns: 150 },
    );
  });

  it("a name shared across batches: new where the change made it, existing where the bases shared it too, fixed where it left", () => {
    const config = resolveConfig();
    const a = descriptor("custom.python.a", false);
    const session = new AnalysisSession(config);
    // Batch 1: x already shared its name with y in the base; batch 2: y, and z which takes the name now.
    session.add([{ path: "x/plugin.json", content: a, base: { path: "x/plugin.json", content: a } }]);
    session.add([
      { path: "y/plugin.json", content: a, base: { path: "y/plugin.json", content: a } },
      { path: "z/plugin.json", content: a, isNew: true },
      // w shared it in the base and no longer does.
      {
        path: "w/plugin.json",
        content: descriptor("custom.python.w", false),
        base: { path: "w/plugin.json", content: a },
      },
    ]);
    const [x, y, z, w] = session.finish();
    const dup = (r: typeof x) => r!.findings.filter((f) => f.ruleId === "duplicate-plugin-name");
    // `"name": …` is line 2 of a pretty-printed descriptor: the finding is placed on it, as a whole review places it.
    expect(dup(x).map((f) => [f.line, f.column])).toEqual([[2, 11]]);
    expect(dup(z).map((f) => f.baseline)).toEqual(["new"]);
    // The message names the others; the identity leaves them out, so x's and y's findings are existing.
    expect(dup(x).map((f) => f.baseline)).toEqual(["existing"]);
    expect(dup(y).map((f) => f.baseline)).toEqual(["existing"]);
    expect(w!.fixed).toBe(1);
    expect(dup(w)).toEqual([]);
  });

  it("keeps findings and the lines their edits quote, never a descriptor's text", () => {
    const big = { ...validHost(), description: "x".repeat(1_000_000), version: "1.0.0" };
    const session = new AnalysisSession(resolveConfig());
    const texts = session.add([
      {
        path: "p/plugin.json",
        content: text(big),
        base: { path: "p/plugin.json", content: text({ ...big, metricGroup: "tech.other" }) },
      },
    ]);
    expect(texts[0]!.length).toBeGreaterThan(1_000_000);
    const [r] = session.finish();
    // version-not-bumped, with its fix: the version's line is kept for the suggestion, nothing else.
    expect(r!.findings.map((f) => f.ruleId)).toContain("version-not-bumped");
    expect([...r!.lines.values()]).toContain('  "version": "1.0.0",');
    for (const line of r!.lines.values()) expect(line.length).toBeLessThan(200);
    expect(r).not.toHaveProperty("text");
    expect(JSON.stringify({ ...r, lines: [...r!.lines] }).length).toBeLessThan(20_000);
  });
});
