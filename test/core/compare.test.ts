/**
 * Version arithmetic of the change rules (compare.ts): versions compare segment by segment as numbers, leading
 * zeros set aside, missing segments being 0.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareVersions } from "../../src/core/compare.js";

/** The definition as rules.md states it, written plainly: numbers of any length, compared as such. */
function byNumbers(a: string, b: string): number {
  const as = a.split(".");
  const bs = b.split(".");
  for (let i = 0; i < Math.max(as.length, bs.length); i++) {
    const x = BigInt(as[i] ?? "0");
    const y = BigInt(bs[i] ?? "0");
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

const segment = fc.stringMatching(/^[0-9]{1,25}$/);
const version = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => s.join("."));

describe("compareVersions", () => {
  it.each([
    ["1.9", "1.10", -1],
    ["2.1", "2.1.0", 0],
    ["01.007", "1.7", 0],
    ["1.000", "1", 0],
    ["1.0.1", "1", 1],
    ["99999999999999999999", "100000000000000000000", -1],
  ])("%s beside %s is %d", (a, b, sign) => {
    expect(compareVersions(a, b)).toBe(sign);
    expect(compareVersions(b, a)).toBe(-sign || 0);
  });

  it("orders any versions of dot-separated digits as their numbers do, leading zeros and all", () => {
    fc.assert(
      fc.property(version, version, (a, b) => {
        expect(compareVersions(a, b)).toBe(byNumbers(a, b));
      }),
      { numRuns: 2000 },
    );
  });
});
