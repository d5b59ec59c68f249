/**
 * The rule API (after ESLint): a rule is metadata (`meta`, with its messages: rule-meta.ts) and a
 * `check(context)` that reports findings through `context.report({ pointer, messageId, data, fix })`. What a
 * rule sees is its context (rule-context.ts: the document and its shared facts); schema rules are made by
 * `schemaRule` (schema-rule.ts). A rule must never throw, whatever the input: values are `unknown` and are
 * read through the guards (guards.ts; a rule that throws becomes an internal-error finding, see analyse.ts).
 */
import type { RuleContext, SetContext } from "./rule-context.js";

export type { RuleContext };
import type { RuleKind, RuleMeta } from "./rule-meta.js";

/** Where a rule's documentation lives (links in SARIF, check runs, review comments and `meta.docs.url`). */
export const DOCS_BASE = "https://github.com/plugin-review/plugin-review/blob/main/docs/rules/";

export function ruleDocsUrl(ruleId: string): string {
  return `${DOCS_BASE}${ruleId}.md`;
}

/** The kinds of the rules that run on one document at a time (with `check`). */
export type DocumentKind = Exclude<RuleKind, "set">;

/** A parse, schema, document or change rule: `check` runs on each document. */
export interface DocumentRule<M extends string = string> {
  meta: RuleMeta<M, DocumentKind>;
  check(context: RuleContext<M>): void;
  checkSet?: never;
}

/**
 * A set rule: `checkSet` runs once over every descriptor checked together. It names the top-level members
 * it reads (`meta.members`): the runner keeps only those of each descriptor until every one is analysed
 * (an analysis holds its descriptors a bounded number at a time, analyse.ts AnalysisSession), and it reports at
 * those members (a finding deeper in one is placed at the member; its fix is offered with no line). It
 * compares descriptors with each other: over fewer than two it is not run.
 */
export interface SetRule<M extends string = string> {
  meta: RuleMeta<M, "set"> & { members: readonly string[] };
  checkSet(context: SetContext<M>): void;
  check?: never;
}

/**
 * A rule, tagged by `meta.kind`: a set rule has `checkSet` and no `check`, every other kind `check` and no
 * `checkSet`; a rule with the wrong method, or both, does not compile (test/core/rule-kinds.test.ts).
 */
export type Rule<M extends string = string> = DocumentRule<M> | SetRule<M>;

/** The tag read (TypeScript narrows a union by its own members, not by `meta.kind`). */
export function isSetRule(rule: Rule): rule is SetRule {
  return rule.meta.kind === "set";
}

/** A rule as written in its file: everything but `meta.docs`, which follows from the id. */
export type RuleDefinition<R extends Rule<string>> = Omit<R, "meta"> & { meta: Omit<R["meta"], "docs"> };

export function defineRule<M extends string>(definition: RuleDefinition<DocumentRule<M>>): DocumentRule<M>;
export function defineRule<M extends string>(definition: RuleDefinition<SetRule<M>>): SetRule<M>;
export function defineRule<M extends string>(
  definition: RuleDefinition<DocumentRule<M>> | RuleDefinition<SetRule<M>>,
): Rule<M> {
  const { id, kind } = definition.meta;
  const set = kind === "set";
  // The types refuse these already; this is for JavaScript and casts, so that the runner never has to guess.
  if (typeof (set ? definition.checkSet : definition.check) !== "function")
    throw new Error(`rule ${id}: a \`${kind}\` rule needs \`${set ? "checkSet" : "check"}\``);
  if ((set ? definition.check : definition.checkSet) !== undefined)
    throw new Error(`rule ${id}: a \`${kind}\` rule has no \`${set ? "check" : "checkSet"}\``);
  // The same kind as the definition's (TypeScript does not follow a union through the spread).
  return {
    ...definition,
    meta: { ...definition.meta, docs: { url: ruleDocsUrl(definition.meta.id) } },
  } as Rule<M>;
}
