/**
 * "Did you mean" among a document's own names (core/suggest.ts `Suggester`): the closest name, as for a fixed
 * list, within a bound on the characters compared for the whole document, so that a document of hostile size
 * (thousands of names, thousands of inputs that match none) is not compared each with each.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closest, levenshtein, Suggester, SUGGESTION_BUDGET } from "../../src/core/suggest.js";

describe("Suggester", () => {
  it("suggests what closest suggests, input after input, while the budget lasts", () => {
    const names = ["if_name_filter", "community", "device_label"];
    const near = new Suggester(names);
    expect(near.closest("if_names_filter")).toBe(closest("if_names_filter", names));
    expect(near.closest("if_names_filter")).toBe("if_name_filter");
    expect(near.didYouMean("comunity")).toBe(": did you mean `community`?");
    expect(near.didYouMean("unrelated_thing")).toBe("");
  });

  it("past the budget, no suggestion at all (never a worse one); an input it cannot afford costs nothing", () => {
    const names = ["alpha", "bravo"]; // 10 characters: an input of 5 costs 50
    const near = new Suggester(names, 120);
    expect(near.closest("alphq")).toBe("alpha"); // 50 spent, 70 left
    expect(near.closest("bravo-charlie-delta")).toBeUndefined(); // 190: more than is left, nothing spent
    expect(near.closest("bravp")).toBe("bravo"); // 50 spent, 20 left
    expect(near.closest("alphq")).toBeUndefined();
  });

  it("bounds a document of hostile size: 20,000 variables and 8,000 uses of other names", () => {
    const declared = Array.from({ length: 20_000 }, (_, i) => `variable_${i}`);
    const near = new Suggester(declared);
    const characters = declared.reduce((n, d) => n + d.length, 0);
    let suggested = 0;
    for (let i = 0; i < 8_000; i++) if (near.closest(`variable-${i}`) !== undefined) suggested++;
    // Each input of 14 characters or less is compared with every name: the budget affords this many.
    expect(suggested).toBeGreaterThan(0);
    expect(suggested).toBeLessThanOrEqual(Math.floor(SUGGESTION_BUDGET / (10 * characters)) + 1);
    expect(suggested).toBeLessThan(8_000);
  });
});

describe("closest", () => {
  /** Edit distance by its definition, recursively with a table (what levenshtein's two reused rows must give). */
  function distance(a: string, b: string): number {
    const d = Array.from({ length: a.length + 1 }, (_, i) =>
      Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
    );
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++)
        d[i]![j] = Math.min(
          d[i - 1]![j]! + 1,
          d[i]![j - 1]! + 1,
          d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
        );
    return d[a.length]![b.length]!;
  }
  /** closest as its rule says: one candidate the input is the start of, else the nearest within a third. */
  function expected(input: string, candidates: readonly string[]): string | undefined {
    if (input.length > 200) return undefined;
    const needle = input.toLowerCase();
    const extending = candidates.filter(
      (c) => c.toLowerCase().startsWith(needle) && c.length > needle.length,
    );
    if (needle.length >= 3 && extending.length === 1 && !candidates.some((c) => c.toLowerCase() === needle))
      return extending[0];
    let best: string | undefined;
    let bestDistance = Infinity;
    for (const c of candidates) {
      const d = distance(needle, c.toLowerCase());
      if (d < bestDistance) [best, bestDistance] = [c, d];
    }
    if (best === undefined) return undefined;
    return bestDistance <= Math.max(2, Math.floor(Math.max(input.length, best.length) / 3))
      ? best
      : undefined;
  }
  const name = fc.string({ unit: fc.constantFrom("a", "b", "A", "_", "İ", "ß", "x"), maxLength: 90 });

  it("gives the nearest candidate by the rule, whatever the lengths, case and candidates asked before", () => {
    fc.assert(
      fc.property(
        fc.array(name, { maxLength: 12 }),
        fc.array(name, { minLength: 1, maxLength: 6 }),
        (candidates, inputs) => {
          for (const input of inputs) {
            expect(closest(input, candidates), input).toBe(expected(input, candidates));
            for (const c of candidates) {
              const d = distance(input, c);
              expect(levenshtein(input, c)).toBe(d);
              // Bounded: the distance itself up to the bound, a number past the bound beyond it.
              for (const max of [0, 1, 3, d - 1, d])
                if (max >= 0) expect(levenshtein(input, c, max) > max, `${input} ${c} ${max}`).toBe(d > max);
              if (d <= 3) expect(levenshtein(input, c, 3)).toBe(d);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("answers by the rule when one list is asked about again and again, past what it remembers of it", () => {
    // A schema's lists live as long as the process: its answers are remembered, a bounded number of inputs.
    const candidates = ["activation", "activation_name_pattern", "className", "package", "install_requires"];
    const inputs = Array.from(
      { length: 700 },
      (_, i) => ["activaton", "pakage", `classname${i % 3}`, `x${i}`][i % 4]!,
    );
    for (const round of [1, 2])
      for (const input of inputs)
        expect(closest(input, candidates), `${input} (${round})`).toBe(expected(input, candidates));
  });
});
