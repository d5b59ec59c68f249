import { describe, expect, it } from "vitest";
import { analyseDescriptors } from "../../src/core/analyse.js";
import { resolveConfig } from "../../src/core/config.js";
import { RULE_IDS } from "../../src/core/rules/index.js";
import { AnalysisTiming } from "../../src/core/timing.js";
import { formatTiming, timingRows } from "../../src/format/timing.js";
import { text, validHost } from "../helpers.js";

/** A clock that moves only when told: each measured span takes what the test says. */
function manualClock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe("AnalysisTiming", () => {
  it("counts a step measured inside a rule as the step's, not the rule's", () => {
    const clock = manualClock();
    const timing = new AnalysisTiming(clock.now);
    timing.measure("rule", "slow-rule", () => {
      clock.advance(2);
      timing.measure("step", "schema validation", () => clock.advance(5));
      clock.advance(1);
    });
    timing.measure("rule", "slow-rule", () => clock.advance(1));
    timing.measure("rule", "quick-rule", () => clock.advance(0.5));
    expect(timing.results()).toEqual([
      { kind: "step", name: "schema validation", ms: 5, runs: 1 },
      { kind: "rule", name: "slow-rule", ms: 4, runs: 2 },
      { kind: "rule", name: "quick-rule", ms: 0.5, runs: 1 },
    ]);
    expect(timing.total).toBe(9.5);
  });

  it("keeps the time of a rule that throws", () => {
    const clock = manualClock();
    const timing = new AnalysisTiming(clock.now);
    expect(() =>
      timing.measure("rule", "broken", () => {
        clock.advance(3);
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(timing.results()).toEqual([{ kind: "rule", name: "broken", ms: 3, runs: 1 }]);
  });

  it("sees every rule that ran and the steps of a review with its base", () => {
    const timing = new AnalysisTiming();
    const head = validHost();
    const base = { ...head, version: "0.0.1" };
    analyseDescriptors(
      [{ path: "plugin.json", content: text(head), base: { path: "plugin.json", content: text(base) } }],
      resolveConfig(),
      { timing },
    );
    const names = timing.results().map((e) => `${e.kind}:${e.name}`);
    for (const step of ["parse", "parse base", "schema validation", "baseline", "set rules", "other"])
      expect(names).toContain(`step:${step}`);
    const rules = timing.results().filter((e) => e.kind === "rule");
    // Every document and change rule of plugin.json runs on a valid descriptor with a base.
    expect(rules.length).toBeGreaterThan(RULE_IDS.length / 2);
    for (const r of rules) expect(RULE_IDS).toContain(r.name);
  });
});

describe("formatTiming", () => {
  const timing = () => {
    const clock = manualClock();
    const t = new AnalysisTiming(clock.now);
    const spans: [string, string, number][] = [
      ["step", "parse", 12],
      ["rule", "unknown-metric-reference", 30.5],
      ["step", "schema validation", 40],
      ["rule", "alert-placeholder", 17.25],
    ];
    for (const [kind, name, ms] of spans) t.measure(kind as "rule" | "step", name, () => clock.advance(ms));
    return t;
  };

  it("prints ESLint's TIMING table: the slowest first, steps in parentheses, each with its share", () => {
    expect(formatTiming(timing())).toBe(
      [
        "Rule                     | Time (ms) | Relative",
        ":------------------------|----------:|--------:",
        "(schema validation)      |    40.000 |    40.1%",
        "unknown-metric-reference |    30.500 |    30.6%",
        "alert-placeholder        |    17.250 |    17.3%",
        "(parse)                  |    12.000 |    12.0%",
        "Total: 99.750 ms; 2 rules ran, 47.750 ms (47.9%); steps in parentheses",
        "",
      ].join("\n"),
    );
  });

  it("shows as many rows as asked", () => {
    const lines = formatTiming(timing(), 2).split("\n");
    expect(lines.slice(2, 4).map((l) => l.split(" |")[0]!.trim())).toEqual([
      "(schema validation)",
      "unknown-metric-reference",
    ]);
    expect(lines[4]).toMatch(/^Total: 99\.750 ms; 2 rules ran/);
  });

  it("reads TIMING as ESLint does: all, a number above 10, else 10; nothing when unset, empty, 0 or false", () => {
    expect(timingRows("1")).toBe(10);
    expect(timingRows("true")).toBe(10);
    expect(timingRows("5")).toBe(10);
    expect(timingRows("25")).toBe(25);
    expect(timingRows("ALL")).toBe(Number.POSITIVE_INFINITY);
    for (const off of [undefined, "", "0", "false"]) expect(timingRows(off)).toBeUndefined();
  });
});
