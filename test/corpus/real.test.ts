/**
 * The real-world corpus (../shared/corpus/real/, 45 descriptors from public repositories): each file checked alone
 * gives exactly the rule ids of the expectation table, never throws, and locates every finding inside the file.
 * The bracketed counts of a reason are the number of findings of that rule. Skipped when ../shared is absent
 * (a fresh clone), so that the suite stays green without the corpus: each file is then reported as skipped.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { describeUnless, withoutShared } from "../helpers.js";
import { resolveConfig } from "../../src/core/config.js";
import { analyseDescriptors, type AnalysedFile } from "../../src/core/analyse.js";
import { EXPECTED_REAL } from "./expected-real.js";

const CORPUS = new URL("../../../shared/corpus/real/", import.meta.url);
const exists = existsSync(CORPUS);

// Without the corpus the expectation table names the files, so that each one is reported as skipped.
const files = exists
  ? readdirSync(CORPUS)
      .filter((f) => f.endsWith(".json"))
      .sort()
  : Object.keys(EXPECTED_REAL).sort();

/** The findings a reason counts: the sum of its bracketed counts (`… [2] and … [4]`, not `metrics[2]`), if any. */
function countedIn(reason: string): number | undefined {
  const counts = [...reason.matchAll(/ \[(\d+)\]/g)].map((m) => Number(m[1]));
  return counts.length ? counts.reduce((a, b) => a + b, 0) : undefined;
}

/** Lines of the file as the tool counts them: split at LF, a CR before it belongs to the break; columns are code points. */
function lineLengths(text: string): number[] {
  return text.split("\n").map((l) => [...l.replace(/\r$/, "")].length);
}

describeUnless(withoutShared("corpus/real/"))("real corpus, each file alone", () => {
  it("the expectation table covers exactly the files present", () => {
    expect(Object.keys(EXPECTED_REAL).sort()).toEqual(files);
  });

  it("every expectation is sorted, unique, and explains each rule", () => {
    for (const [file, e] of Object.entries(EXPECTED_REAL)) {
      expect(e.rules, file).toEqual([...new Set(e.rules)].sort());
      expect(Object.keys(e.reasons).sort(), file).toEqual(e.rules);
    }
  });

  it.each(files)("%s", (file) => {
    const bytes = readFileSync(new URL(file, CORPUS));
    let analysed: AnalysedFile[] = [];
    expect(() => {
      analysed = analyseDescriptors([{ path: file, content: bytes }], resolveConfig());
    }).not.toThrow();
    expect(analysed).toHaveLength(1);
    const result = analysed[0]!;
    const found = [...new Set(result.findings.map((f) => f.ruleId))].sort();
    expect(found).toEqual(EXPECTED_REAL[file]?.rules);
    for (const [rule, reason] of Object.entries(EXPECTED_REAL[file]?.reasons ?? {})) {
      const counted = countedIn(reason);
      if (counted !== undefined)
        expect(result.findings.filter((f) => f.ruleId === rule).length, `${rule}: ${reason}`).toBe(counted);
    }
    const lengths = lineLengths(result.text);
    for (const f of result.findings) {
      const where = `${f.ruleId} at ${f.pointer} (${f.line}:${f.column})`;
      expect(f.line, where).toBeGreaterThanOrEqual(1);
      expect(f.column, where).toBeGreaterThanOrEqual(1);
      expect(f.line, where).toBeLessThanOrEqual(lengths.length);
      expect(f.column, where).toBeLessThanOrEqual(lengths[f.line - 1]! + 1);
      expect(f.endLine, where).toBeGreaterThanOrEqual(f.line);
      expect(f.endLine, where).toBeLessThanOrEqual(lengths.length);
      if (f.endLine === f.line) expect(f.endColumn, where).toBeGreaterThanOrEqual(f.column);
    }
  });
});
