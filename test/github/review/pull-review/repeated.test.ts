import { describe, expect, it } from "vitest";
import { problemKey } from "../../../../src/core/identity.js";
import { reviewEntries } from "../../../../src/github/review/pull-review/repeated.js";
import { at, check, make, validHost } from "../../../helpers.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The host example with `n` more metrics whose displayname equals their key (one problem each time). */
function sameNames(n: number, change: (d: Json) => void = () => {}): string {
  return make(validHost(), (d: Json) => {
    for (let i = 0; i < n; i++)
      d.metrics.push({ timeseries: { key: `m${i}`, unit: "Count", displayname: `m${i}` } });
    change(d);
  });
}

describe("repeated findings", () => {
  it("one problem: same rule, message id and data once positions and quoted names are set aside", () => {
    const doc = make(validHost(), (d: Json) => {
      at(d, "ui", "charts", 0, "series", 0).metricExplanation = "a";
      at(d, "ui", "keycharts", 0, "series", 0).metricExplanation = "b";
      at(d, "ui", "charts", 0, "series", 0).colour = "#fff";
    });
    const found = check(doc).filter((f) => f.ruleId === "unknown-member");
    const named = (member: string) => found.filter((f) => f.data?.member === member);
    const [inChart, inKeychart] = named("metricExplanation");
    const [colour] = named("colour");
    if (!inChart || !inKeychart || !colour) throw new Error(`unexpected findings ${JSON.stringify(found)}`);
    // The same misspelling in two series (other places, positional data): one problem.
    expect(inChart.data?.where).not.toBe(inKeychart.data?.where);
    expect(problemKey(inChart)).toBe(problemKey(inKeychart));
    // Another member is another problem.
    expect(problemKey(colour)).not.toBe(problemKey(inChart));
    expect(problemKey({ ...inChart, ruleId: "invalid-format" })).not.toBe(problemKey(inChart));
  });

  it("four metrics whose displayname equals their own key are one problem listing four lines", () => {
    const findings = check(sameNames(4)).filter((f) => f.ruleId === "displayname-equals-key");
    expect(new Set(findings.map((f) => f.data?.key))).toEqual(new Set(["m0", "m1", "m2", "m3"]));
    const entries = reviewEntries("p/plugin.json", findings);
    expect(entries).toEqual([
      expect.objectContaining({
        kind: "repeated",
        findings,
        fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      }),
    ]);
  });

  it("more than three of one problem become one entry at the first; three or fewer stay apart", () => {
    const doc = sameNames(4, (d) => {
      for (let i = 0; i < 3; i++) d.metrics.push({ timeseries: { key: `n${i}`, unit: "Count" } });
    });
    const findings = check(doc).filter((f) => f.ruleId !== "unknown-metric-reference");
    const entries = reviewEntries("p/plugin.json", findings);
    const lines = (ruleId: string) => findings.filter((f) => f.ruleId === ruleId).map((f) => f.line);
    expect(entries.map((e) => (e.kind === "one" ? e.finding.line : e.findings.map((x) => x.line)))).toEqual([
      lines("displayname-equals-key"),
      ...lines("required-member"),
    ]);
  });

  it("a repeated problem keeps its fingerprint when its findings move", () => {
    const fp = (doc: string) => {
      const [entry] = reviewEntries(
        "p/plugin.json",
        check(doc).filter((f) => f.ruleId === "displayname-equals-key"),
      );
      return entry?.kind === "repeated" ? entry.fingerprint : undefined;
    };
    const moved = sameNames(4, (d) => d.metrics.unshift(d.metrics.pop()));
    expect(fp(moved)).toBeDefined();
    expect(fp(moved)).toBe(fp(sameNames(4)));
  });
});
