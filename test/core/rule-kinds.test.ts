/**
 * Rule kinds are a tagged union (rule.ts): a `set` rule has `checkSet` and no `check`, every other kind
 * `check` and no `checkSet`. A rule without the method its kind needs, or with the other one, does not
 * compile: each `@ts-expect-error` below fails `npm run typecheck` the day such a rule compiles. Written
 * anyway (JavaScript, casts), defineRule refuses it when the rule's module loads.
 */
import { describe, expect, it } from "vitest";
import { defineRule, isSetRule, ruleDocsUrl } from "../../src/core/rule.js";
import { DOCUMENT_RULES, RULES, SET_RULES } from "../../src/core/rules/index.js";

const meta = { id: "kinds", defaultSeverity: "error", description: "", messages: { m: "{{n}}" } } as const;

describe("rule kinds", () => {
  it("a rule of each kind defines the method of its kind, and is told apart by its tag", () => {
    const document = defineRule({
      meta: { ...meta, kind: "document" },
      check(context) {
        context.report({ pointer: "", messageId: "m", data: { n: 1 } });
      },
    });
    const set = defineRule({
      meta: { ...meta, kind: "set" },
      checkSet(context) {
        context.report("plugin.json", { pointer: "", messageId: "m", data: { n: 2 } });
      },
    });
    expect(isSetRule(document)).toBe(false);
    expect(isSetRule(set)).toBe(true);
    expect(document.meta.docs.url).toBe(ruleDocsUrl("kinds"));
    expect(set.meta.docs.url).toBe(ruleDocsUrl("kinds"));
  });

  it("a set rule without checkSet, or with check, does not compile (and does not load)", () => {
    expect(() =>
      // @ts-expect-error: a set rule needs checkSet
      defineRule({ meta: { ...meta, kind: "set" } }),
    ).toThrow("rule kinds: a `set` rule needs `checkSet`");
    expect(() =>
      // @ts-expect-error: a set rule has no check
      defineRule({ meta: { ...meta, kind: "set" }, check() {} }),
    ).toThrow("rule kinds: a `set` rule needs `checkSet`");
    expect(() =>
      defineRule({
        meta: { ...meta, kind: "set" },
        checkSet() {},
        // @ts-expect-error: a set rule has no check, even beside its checkSet
        check() {},
      }),
    ).toThrow("rule kinds: a `set` rule has no `check`");
  });

  it.each(["parse", "schema", "document", "change", "migration"] as const)(
    "a %s rule without check, or with checkSet, does not compile (and does not load)",
    (kind) => {
      expect(() =>
        // @ts-expect-error: a rule of this kind needs check
        defineRule({ meta: { ...meta, kind } }),
      ).toThrow(`rule kinds: a \`${kind}\` rule needs \`check\``);
      expect(() =>
        // @ts-expect-error: a rule of this kind has no checkSet
        defineRule({ meta: { ...meta, kind }, checkSet() {} }),
      ).toThrow(`rule kinds: a \`${kind}\` rule needs \`check\``);
      expect(() =>
        defineRule({
          meta: { ...meta, kind },
          check() {},
          // @ts-expect-error: a rule of this kind has no checkSet, even beside its check
          checkSet() {},
        }),
      ).toThrow(`rule kinds: a \`${kind}\` rule has no \`checkSet\``);
    },
  );

  it("the registry splits the catalog by kind, each rule with its own method only", () => {
    expect(SET_RULES.map((r) => r.meta.id)).toEqual(
      RULES.filter((r) => r.meta.kind === "set").map((r) => r.meta.id),
    );
    expect(SET_RULES.map((r) => r.meta.id)).toEqual(["duplicate-plugin-name"]);
    expect(DOCUMENT_RULES.map((r) => r.meta.id)).toEqual(
      RULES.filter((r) => r.meta.kind !== "set").map((r) => r.meta.id),
    );
    for (const r of SET_RULES)
      expect([typeof r.checkSet, typeof r.check], r.meta.id).toEqual(["function", "undefined"]);
    for (const r of DOCUMENT_RULES)
      expect([typeof r.check, typeof r.checkSet], r.meta.id).toEqual(["function", "undefined"]);
  });
});
