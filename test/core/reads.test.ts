/**
 * Base reuse stays safe for every rule, present and future: a rule must read its document only through its
 * context (rule-context.ts), which notes what it read, so that the runner may take the base's findings of a
 * rule from head's whenever `readsSameIn` says the rule read nothing that differs. Held here dynamically
 * (every rule, over generated documents: change each top-level member; whenever `readsSameIn` says the
 * reads are the same, the findings must be too) and statically (what a rule file may import and touch).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/core/config.js";
import { get, isObj } from "../../src/core/guards.js";
import { detectVariant } from "../../src/core/analyse.js";
import { defineRule, type DocumentRule } from "../../src/core/rule.js";
import { RuleContext, type DocumentState } from "../../src/core/rule-context.js";
import { DOCUMENT_RULES } from "../../src/core/rules/index.js";
import { ROOT } from "../helpers.js";
import { exampleSamples, generatedDocuments, random } from "./generate.js";

const POLICY = resolveConfig({
  repo: {
    policy: { name_pattern: "^custom\\.python\\.", technologies: ["JAVA"], process_types: ["JAVA", 10] },
  },
}).policy;

function state(value: unknown, policy = POLICY): DocumentState {
  return {
    path: "plugin.json",
    text: JSON.stringify(value, null, 2),
    value,
    duplicates: [],
    variant: detectVariant(value),
    isNew: false,
    policy,
  };
}

const docs = generatedDocuments(exampleSamples(), 2, 16).map((s) => JSON.parse(s.text) as unknown);
const objects = docs.filter(isObj);

/** Each top-level member's values over the documents (computed once: every rule asks for them). */
const valuesOf = new Map<string, unknown[]>();

/** Other values for a top-level member: its values in other documents, an empty one, and none at all. */
function alternatives(key: string, next: () => number): unknown[] {
  let seen = valuesOf.get(key);
  if (!seen) valuesOf.set(key, (seen = objects.map((d) => get(d, key)).filter((v) => v !== undefined)));
  const others = [0, 1, 2].map(() => seen[Math.floor(next() * seen.length)]);
  return [...others, [], {}, "x", undefined];
}

interface Outcome {
  /** Pairs where `readsSameIn` allowed reuse and a member really differed. */
  compared: number;
  /** Where reuse would have given other findings than running the rule. */
  violations: string[];
}

/**
 * For each document and each top-level member (present or not), another version with only that member
 * changed; every rule given runs on each version, which is built once and shared by the rules as the runner
 * shares a document's context among its rules (each rule's reads are noted apart).
 */
function checkReads(
  rules: readonly DocumentRule[],
  documents: readonly unknown[],
  seed: number,
): Map<DocumentRule, Outcome> {
  const next = random(seed);
  const out = new Map(rules.map((r): [DocumentRule, Outcome] => [r, { compared: 0, violations: [] }]));
  const keys = [...new Set(objects.flatMap((d) => Object.keys(d)))].sort();
  for (const doc of documents) {
    if (!isObj(doc)) continue;
    const head = new RuleContext(state(doc), true);
    const findings = new Map(rules.map((r) => [r, JSON.stringify(head.run(r))]));
    for (const key of keys) {
      for (const value of alternatives(key, next)) {
        if (Object.is(value, get(doc, key))) continue;
        const other: Record<string, unknown> = { ...doc, [key]: value };
        if (value === undefined) delete other[key];
        const there = new RuleContext(state(other));
        for (const rule of rules) {
          if (!head.readsSameIn(rule, there)) continue;
          const outcome = out.get(rule)!;
          outcome.compared++;
          const again = JSON.stringify(there.run(rule));
          if (again !== findings.get(rule))
            outcome.violations.push(`${key} := ${JSON.stringify(value)?.slice(0, 60)}`);
        }
      }
    }
  }
  return out;
}

describe("rules read their document only through their context", () => {
  const documentRules = DOCUMENT_RULES;
  let outcomes: Map<DocumentRule, Outcome>;
  beforeAll(() => {
    outcomes = checkReads(documentRules, docs, 7);
  });

  it.each(documentRules.map((r) => [r.meta.id, r] as const))("%s: same reads, same findings", (_id, rule) => {
    expect(outcomes.get(rule)!.violations).toEqual([]);
  });

  it("the check is about something: most rules are reused somewhere, over many members", () => {
    const compared = checkReads(documentRules, docs.slice(0, 30), 3);
    const outcomes = documentRules.map((r) => compared.get(r)!.compared);
    expect(outcomes.filter((n) => n > 0).length).toBeGreaterThan(documentRules.length / 3);
    expect(outcomes.reduce((a, b) => a + b, 0)).toBeGreaterThan(1000);
  });

  it("catches a rule that reads the document behind its context's back", () => {
    // It reads the metrics through the context (noted), then the name from the document itself (not noted).
    const sneaky = defineRule({
      meta: {
        id: "sneaky",
        kind: "document",
        defaultSeverity: "error",
        description: "",
        messages: { m: "{{n}}" },
      },
      check(context) {
        const doc = (context as unknown as { doc: unknown }).doc;
        if (context.metrics.length)
          context.report({ pointer: "", messageId: "m", data: { n: String(get(doc, "name")) } });
      },
    });
    expect(checkReads([sneaky], docs.slice(0, 10), 1).get(sneaky)!.violations.length).toBeGreaterThan(0);
  });
});

describe("rule files (static)", () => {
  const dir = join(ROOT, "src", "core", "rules");
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts") && f !== "index.ts");
  /** What a rule may import: nothing that holds or parses a document on its own. */
  const ALLOWED = new Set([
    "../guards.js",
    "../rule.js",
    "../schema-rule.js",
    "../facts.js",
    "../suggest.js",
    "../quote.js",
    "../compare.js",
    "../ef2/names.js",
    "../ef2/placeholders.js",
    "../ef2/extension.js",
    "../ef2/selector.js",
    "../ef2/activation.js",
    "../ef2/changes.js",
    "../ef2/package.js",
    "../policy.js",
    "../json/pointer.js",
    "../locate.js",
    "../python-regex/backtracking.js",
    "../reference/known-process-types.js",
    "../reference/known-technologies.js",
  ]);

  it.each(files)("%s imports only helpers that hold no document", (file) => {
    const source = readFileSync(join(dir, file), "utf8");
    const imports = [...source.matchAll(/from "([^"]+)"/g)].map((m) => m[1] as string);
    expect(imports.filter((i) => !ALLOWED.has(i))).toEqual([]);
  });

  it.each(files)("%s keeps no state between runs and does not reach behind its context", (file) => {
    const source = readFileSync(join(dir, file), "utf8");
    // Module-level `let` could carry one document's values into another's review.
    expect(source).not.toMatch(/^(export )?let /m);
    // Casting the context is how one would read its private document.
    expect(source).not.toMatch(/context as /);
    expect(source).not.toMatch(/\.doc\b/);
  });
});
