/**
 * "Did you mean" among a document's own names (core/suggest.ts `Suggester`): the closest name, as for a fixed
 * list, within a bound on the characters compared for the whole document, so that a document of hostile size
 * (thousands of names, thousands of inputs that match none) is not compared each with each.
 */
import { describe, expect, it } from "vitest";
import { closest, Suggester, SUGGESTION_BUDGET } from "../../src/core/suggest.js";

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
