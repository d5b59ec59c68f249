/**
 * An extension.yaml of hostile size within `max_extension_size` (thousands of variables, metrics and feature
 * sets): the rules that compare its names look them up, and its "did you mean" suggestions stay within a bound
 * (core/suggest.ts), so that its review costs time linear in its size. Before, comparing each name with each
 * took minutes for such a file (a megabyte: 40 to 100 s per rule). Every finding is still said.
 */
import { describe, expect, it } from "vitest";
import { analyseDescriptors } from "../../../src/core/analyse.js";
import { resolveConfig } from "../../../src/core/config.js";

const HEADER = 'name: custom:demo.ext\nversion: 1.0.0\nminDynatraceVersion: "1.285"\nauthor:\n  name: me\n';
const PATH = "extension/extension.yaml";
const config = resolveConfig();
/** Each document is under `max_extension_size`: reviewed, not file-too-large. */
const within = (doc: string) => {
  expect(doc.length).toBeLessThan(config.maxExtensionSize);
  return doc;
};
const count = (findings: { ruleId: string }[], id: string) => findings.filter((f) => f.ruleId === id).length;
const repeat = (n: number, line: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => line(i)).join("");

describe("an extension.yaml of hostile size", () => {
  it("8,000 uses of variables none of 20,000 declares: each said, suggestions only within the bound", () => {
    const doc =
      HEADER +
      `vars:\n${repeat(20_000, (i) => `  - id: v${i}\n    type: text\n`)}` +
      "snmp:\n  - group: g\n    subgroups:\n      - subgroup: s\n        dimensions:\n" +
      repeat(8_000, (i) => `          - key: d${i}\n            value: var:w${i}\n`) +
      "        metrics:\n          - key: demo.a\n            value: oid:1\n";
    const [r] = analyseDescriptors([{ path: PATH, content: within(doc) }], config);
    const undeclared = r!.findings.filter((f) => f.ruleId === "var-undeclared");
    expect(undeclared).toHaveLength(8_000);
    expect(count(r!.findings, "var-unused")).toBe(20_000);
    const suggested = undeclared.filter((f) => / did you mean `v\d+`\?$/.test(f.message)).length;
    expect(suggested).toBeGreaterThan(0);
    expect(suggested).toBeLessThan(8_000);
  }, 60_000);

  it("5,000 metrics each with a feature set that differs from its group's in case: each said", () => {
    const doc =
      HEADER +
      "snmp:\n" +
      repeat(
        5_000,
        (i) =>
          `  - group: g${i}\n    featureSet: Set${i}\n    subgroups:\n      - subgroup: s\n        metrics:\n          - key: demo.a${i}\n            value: oid:1.${i}\n            featureSet: set${i}\n`,
      );
    const [r] = analyseDescriptors([{ path: PATH, content: within(doc) }], config);
    const undefinedSets = r!.findings.filter((f) => f.ruleId === "feature-set-undefined");
    expect(undefinedSets).toHaveLength(5_000);
    expect(undefinedSets[4_999]!.message).toContain("`set4999` is defined nowhere else, and `Set4999` is");
  }, 60_000);

  it("3,000 charts split 3,000 metrics of 6,000 dimensions by one they lack: each said, 20 of them listed", () => {
    const doc =
      HEADER +
      "snmp:\n  - group: g\n    dimensions:\n" +
      repeat(6_000, (i) => `      - key: k${i}\n        value: oid:1.${i}\n`) +
      "    subgroups:\n      - subgroup: s\n        metrics:\n" +
      repeat(3_000, (i) => `          - key: demo.a${i}\n            value: oid:1.${i}\n`) +
      "screens:\n  - entityType: x\n    chartsCards:\n      - key: c\n        charts:\n          - metrics:\n" +
      repeat(3_000, (i) => `              - metricSelector: demo.a${i}:splitBy("x${i}")\n`);
    const [r] = analyseDescriptors([{ path: PATH, content: within(doc) }], config);
    const unknown = r!.findings.filter((f) => f.ruleId === "unknown-dimension-reference");
    expect(unknown).toHaveLength(3_000);
    expect(unknown[2_999]!.message).toContain(
      "metric `demo.a2999` has no dimension `x2999` (its dimensions: `k0`, `k1`,",
    );
    expect(unknown[2_999]!.message).toContain("`k19` and 5,980 more): splitting or filtering");
  }, 60_000);

  it("10,000 metrics renamed and 10,000 made counts against the base: each said", () => {
    const source = (key: (i: number) => string, type: string) =>
      "snmp:\n  - group: g\n    subgroups:\n      - subgroup: s\n        metrics:\n" +
      repeat(10_000, (i) => `          - key: ${key(i)}\n            value: oid:1.${i}\n${type}`);
    const base = HEADER + source((i) => `demo.b${i}`, "");
    const renamed = HEADER.replace("1.0.0", "1.0.1") + source((i) => `demo.h${i}`, "");
    const counted =
      HEADER.replace("1.0.0", "1.0.1") + source((i) => `demo.b${i}.count`, "            type: count\n");
    const review = (content: string) =>
      analyseDescriptors(
        [{ path: PATH, content: within(content), base: { path: PATH, content: within(base) }, isNew: false }],
        config,
      )[0]!.findings;
    const afterRename = review(renamed);
    expect(
      afterRename.filter((f) => f.ruleId === "metric-removed" && / was renamed to /.test(f.message)),
    ).toHaveLength(10_000);
    const afterCount = review(counted);
    expect(count(afterCount, "metric-type-changed")).toBe(10_000);
    expect(count(afterCount, "metric-removed")).toBe(0);
  }, 60_000);

  it("60,000 members the schema does not know, in one mapping: each said on its own line", () => {
    const doc = HEADER + repeat(60_000, (i) => `k${i}: 1\n`);
    const [r] = analyseDescriptors([{ path: PATH, content: within(doc) }], config);
    const unknown = r!.findings.filter((f) => f.ruleId === "unknown-member");
    expect(unknown).toHaveLength(60_000);
    // The header's five lines come first: member `k<i>` is on line i + 6.
    expect(unknown.every((f, i) => f.line === i + 6 && f.column === 1)).toBe(true);
  }, 60_000);
});
