/** The failing results GitHub has not taken yet, by commit: where another pull request's pass looks. */
import { describe, expect, it } from "vitest";
import { UnwrittenFailures } from "../../../../src/github/review/check-run/unwritten.js";

const C = "acme/plugins@" + "c".repeat(40);
const D = "acme/plugins@" + "d".repeat(40);

describe("UnwrittenFailures", () => {
  it("names the other pull requests of a commit whose failing results are unwritten, until they are written", () => {
    const unwritten = new UnwrittenFailures();
    unwritten.add(C, 7);
    unwritten.add(C, 9);
    unwritten.add(D, 8);
    expect(unwritten.others(C, 8)).toEqual([7, 9]);
    expect(unwritten.others(C, 7)).toEqual([9]);
    expect(unwritten.others(D, 8)).toEqual([]);
    unwritten.written(C, 7);
    expect(unwritten.others(C, 8)).toEqual([9]);
    unwritten.written(C, 9);
    unwritten.written(C, 9);
    expect(unwritten.others(C, 8)).toEqual([]);
  });

  it("forgets the commit added least recently past its bound", () => {
    const unwritten = new UnwrittenFailures(2);
    const E = "acme/plugins@" + "e".repeat(40);
    unwritten.add(C, 7);
    unwritten.add(D, 8);
    unwritten.add(C, 9); // C is the latest again
    unwritten.add(E, 10);
    expect(unwritten.others(D, 1)).toEqual([]);
    expect(unwritten.others(C, 1)).toEqual([7, 9]);
    expect(unwritten.others(E, 1)).toEqual([10]);
  });
});
