/**
 * What identify keeps beside a located finding (its identity, reused when it is matched with the base's
 * findings) and the labels a computation keeps for its arrays: reused only for the document they were
 * computed from, and seen by nothing else.
 */
import { describe, expect, it } from "vitest";
import { classify } from "../../src/core/baseline.js";
import { identify, identityKey } from "../../src/core/identity.js";
import type { Location, RawFinding } from "../../src/core/types.js";

const FILE = "plugin.json";

function finding(pointer: string): RawFinding {
  return {
    ruleId: "invalid-format",
    severity: "error",
    message: "not a valid metric key",
    messageId: "invalid",
    data: { value: "x" },
    pointer,
    target: "value",
  };
}

const nowhere = (fs: readonly RawFinding[]): Location[] =>
  fs.map(() => ({ line: 1, column: 1, endLine: 1, endColumn: 1 }));

const metrics = (...keys: string[]) => ({ metrics: keys.map((key) => ({ timeseries: { key } })) });

describe("the identity kept on a located finding", () => {
  it("is no member of it: its keys, symbols, JSON and copies are the finding's own", () => {
    const [located] = identify(metrics("a", "b"), FILE, [finding("/metrics/1/timeseries/key")], nowhere);
    expect(Reflect.ownKeys(located!)).toEqual(Object.keys(located!));
    expect(JSON.parse(JSON.stringify(located))).toEqual({ ...located });
    expect(Object.keys({ ...located })).toEqual(Object.keys(located!));
  });

  it("is reused only for the document it was computed from: another version's arrays name the place anew", () => {
    // Located in a document where element 1 is metric "b"; matched as the finding of a document where it is "c".
    const [located] = identify(metrics("a", "b"), FILE, [finding("/metrics/1/timeseries/key")], nowhere);
    const head = metrics("a", "c");
    const base = { value: head, findings: [finding("/metrics/1/timeseries/key")] };
    expect(classify(FILE, { value: head, findings: [located!] }, base).states).toEqual(["existing"]);
    // And the other way round: a base that has "b" there does not match it.
    const other = { value: metrics("a", "b"), findings: [finding("/metrics/1/timeseries/key")] };
    expect(classify(FILE, { value: head, findings: [located!] }, other).states).toEqual(["new"]);
  });

  it("is what identifying it again gives", () => {
    const doc = metrics("a", "b", "a");
    const raws = [finding("/metrics/0/timeseries/key"), finding("/metrics/2/timeseries/key")];
    const located = identify(doc, FILE, raws, nowhere);
    const base = { value: doc, findings: raws };
    expect(classify(FILE, { value: doc, findings: located }, base).states).toEqual(["existing", "existing"]);
    expect(identityKey(doc, FILE, raws[0]!)).not.toBe(identityKey(doc, FILE, raws[1]!));
  });
});

describe("the labels one computation keeps", () => {
  it("are those of each document's own arrays: head's and the base's are labelled apart", () => {
    // The same pointer, into arrays of different content in head and base: each named by its own array.
    const head = metrics("a", "b");
    const base = metrics("b", "a");
    const states = classify(
      FILE,
      { value: head, findings: [finding("/metrics/0/timeseries/key"), finding("/metrics/1/timeseries/key")] },
      { value: base, findings: [finding("/metrics/1/timeseries/key")] },
    ).states;
    // Base's element 1 is metric "a", head's element 0.
    expect(states).toEqual(["existing", "new"]);
  });
});
