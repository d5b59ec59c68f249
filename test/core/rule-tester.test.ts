/** The rule tester (test/helpers.ts) and the runner's promise behind it: rules that are off never run. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { RULES_BY_ID } from "../../src/core/rules/index.js";
import { check, make, at, refuseDuplicateCases, text, validHost } from "../helpers.js";

/** The host example with two findings of different rules: a stacked line series and a HOST entity. */
const twoRules = make(validHost(), (d) => {
  d.entity = "HOST";
  at(d, "ui", "charts", 0, "series", 0).stacked = true;
});

describe("rule tester", () => {
  it("runs only the rule under test", () => {
    expect(new Set(check(twoRules).map((f) => f.ruleId))).toEqual(new Set(["stacked-line", "host-entity"]));
    expect(check(twoRules, { only: "stacked-line" }).map((f) => f.ruleId)).toEqual(["stacked-line"]);
    expect(check(twoRules, { only: "host-entity" }).map((f) => f.ruleId)).toEqual(["host-entity"]);
  });

  it("refuses an unknown rule id", () => {
    expect(() => check(twoRules, { only: "stacked-lines" })).toThrow("no rule `stacked-lines`");
  });

  it("refuses a case name given twice", () => {
    const doc = validHost();
    expect(() =>
      refuseDuplicateCases("x", {
        valid: [{ name: "a", doc }],
        invalid: [{ name: "a", doc: twoRules, lines: [1] }],
      }),
    ).toThrow('x: duplicate case name "a"');
  });

  it("refuses the same document with the same options twice, however it is written", () => {
    expect(() =>
      refuseDuplicateCases("x", {
        valid: [
          { name: "a", doc: validHost() },
          { name: "b", doc: text(validHost()) },
        ],
        invalid: [],
      }),
    ).toThrow('x: case "b" repeats another case');
    const options = { config: { rules: { "stacked-line": "warning" as const } } };
    expect(() =>
      refuseDuplicateCases("x", {
        valid: [
          { name: "a", doc: validHost() },
          { name: "b", doc: validHost(), options },
        ],
        invalid: [],
      }),
    ).not.toThrow();
  });
});

describe("rules that are off", () => {
  const stacked = RULES_BY_ID.get("stacked-line")!;
  afterEach(() => vi.restoreAllMocks());

  it("run when on, once per document", () => {
    const spy = vi.spyOn(stacked, "check");
    expect(check(twoRules).some((f) => f.ruleId === "stacked-line")).toBe(true);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it("never run when the configuration turns them off", () => {
    const spy = vi.spyOn(stacked, "check");
    expect(check(twoRules, { config: { rules: { "stacked-line": "off" } } }).map((f) => f.ruleId)).toEqual([
      "host-entity",
    ]);
    expect(spy).not.toHaveBeenCalled();
  });

  it("never run on a path the configuration ignores for them (or ignores whole)", () => {
    const spy = vi.spyOn(stacked, "check");
    const path = "legacy/plugin.json";
    const ignored = check(twoRules, {
      path,
      config: { ignore: [{ paths: ["legacy/**"], rules: ["stacked-line"] }] },
    });
    expect(ignored.map((f) => f.ruleId)).toEqual(["host-entity"]);
    expect(check(twoRules, { path, config: { ignore: [{ paths: ["legacy/**"] }] } })).toEqual([]);
    expect(spy).not.toHaveBeenCalled();
    check(twoRules, { path: "current/plugin.json", config: { ignore: [{ paths: ["legacy/**"] }] } });
    expect(spy).toHaveBeenCalledTimes(1);
  });
});
