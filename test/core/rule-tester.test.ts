/** The rule tester (test/helpers.ts) and the runner's promise behind it: rules that are off never run. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { RULES_BY_ID } from "../../src/core/rules/index.js";
import {
  assertInvalidCase,
  at,
  check,
  edit,
  make,
  refuseDuplicateCases,
  set,
  text,
  validHost,
} from "../helpers.js";

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
        invalid: [{ name: "a", doc: twoRules, lines: [1], messageId: "noEffect" }],
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

describe("rule tester: what it checks of an invalid case (as ESLint's RuleTester)", () => {
  const bumpLine = (doc: string) => doc.split("\n").findIndex((l) => l.includes('"version"')) + 1;
  const changed = make(validHost(), (d) => {
    d.requiredAgentVersion = "1.300";
  });
  const bump = {
    name: "version",
    doc: changed,
    lines: [bumpLine(changed)],
    messageId: "notBumpedNext",
    options: { base: validHost() },
    output: edit(changed, '"version": "1.2.0"', '"version": "1.2.1"'),
  };
  const typo = set(validHost(), ["metrics", 1, "timeseries"], "aggeragation", "avg");
  const misspelt = {
    name: "misspelt",
    doc: typo,
    lines: [typo.split("\n").findIndex((l) => l.includes("aggeragation")) + 1],
    messageId: "unknownNear",
    suggestions: [
      [{ desc: "rename to `aggregation`", output: edit(typo, '"aggeragation"', '"aggregation"') }],
    ],
  };

  it("passes a case that says everything right", () => {
    assertInvalidCase("version-not-bumped", bump);
    assertInvalidCase("unknown-member", misspelt);
  });

  it("fails on a wrong message id or wrong data", () => {
    expect(() => assertInvalidCase("version-not-bumped", { ...bump, messageId: "notBumped" })).toThrow();
    expect(() => assertInvalidCase("version-not-bumped", { ...bump, data: { next: "1.3.0" } })).toThrow();
  });

  it("requires the output when there is a fix, and refuses one when there is none", () => {
    const { output: _, ...noOutput } = bump;
    expect(() => assertInvalidCase("version-not-bumped", noOutput)).toThrow(/give the `output`/);
    expect(() => assertInvalidCase("version-not-bumped", { ...bump, output: changed })).toThrow();
    expect(() => assertInvalidCase("unknown-member", { ...misspelt, output: typo })).toThrow(/no `output`/);
  });

  it("requires the suggestions with their descriptions and outputs, and refuses them when there are none", () => {
    const { suggestions: _, ...none } = misspelt;
    expect(() => assertInvalidCase("unknown-member", none)).toThrow(/give them/);
    const wrongDesc = [[{ desc: "rename it", output: misspelt.suggestions[0]![0]!.output }]];
    expect(() => assertInvalidCase("unknown-member", { ...misspelt, suggestions: wrongDesc })).toThrow();
    expect(() =>
      assertInvalidCase("version-not-bumped", { ...bump, suggestions: misspelt.suggestions }),
    ).toThrow(/no `suggestions`/);
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
