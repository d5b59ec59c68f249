/**
 * The rule API (after ESLint): a rule is metadata (`meta`, with its messages) and a `check(context)` that
 * reports findings through `context.report({ pointer, messageId, data, fix })`. What a rule sees is its
 * context (rule-context.ts: the document and its shared facts); schema rules are made by `schemaRule`
 * (schema-rule.ts). A rule must never throw, whatever the input: values are `unknown` and are read
 * through the guards (guards.ts; a rule that throws becomes an internal-error finding, see review.ts).
 */
import type { RuleContext, SetContext } from "./rule-context.js";
import type { Fix, RawFinding, Severity, Target } from "./types.js";

export type RuleKind = "parse" | "schema" | "document" | "change" | "set";

/** Where a rule's documentation lives (links in SARIF, check runs, review comments and `meta.docs.url`). */
export const DOCS_BASE = "https://github.com/plugin-review/plugin-review/blob/main/docs/rules/";

export function ruleDocsUrl(ruleId: string): string {
  return `${DOCS_BASE}${ruleId}.md`;
}

export interface RuleMeta<M extends string = string> {
  id: string;
  kind: RuleKind;
  defaultSeverity: Severity;
  /** One sentence: what the rule reports. Used in SARIF and docs. */
  description: string;
  /** Message templates by id; `{{name}}` is replaced by `data.name` of the report. */
  messages: Record<M, string>;
  docs: { url: string };
}

/** What a rule reports: where (a JSON pointer), which message, and optionally a fix. */
export interface ReportDescriptor<M extends string = string> {
  /** RFC 6901 pointer into the head document; may name a missing member (nearest ancestor is used). */
  pointer: string;
  messageId: M;
  data?: Record<string, string | number>;
  /** The member's name or its value (default). */
  target?: Target;
  /** Exact offsets when the pointer alone is ambiguous (duplicate keys, parse errors). */
  range?: { start: number; end: number };
  /** This finding's severity when it differs from `meta.defaultSeverity` (configuration still overrides it). */
  severity?: Severity;
  fix?: Fix;
}

export interface Rule<M extends string = string> {
  meta: RuleMeta<M>;
  /** Document and change rules (and the parse rules). */
  check?(context: RuleContext<M>): void;
  /** Set rules: run once over every descriptor checked together. */
  checkSet?(context: SetContext<M>): void;
}

/** `{{name}}` placeholders of a message template filled from `data`; a missing one is a bug in the rule. */
export function formatMessage(template: string, data: Record<string, string | number> = {}): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const v = data[name];
    if (v === undefined) throw new Error(`message data lacks \`${name}\``);
    return String(v);
  });
}

export function toFinding(meta: RuleMeta, d: ReportDescriptor): RawFinding {
  const template = (meta.messages as Record<string, string>)[d.messageId];
  if (template === undefined) throw new Error(`rule ${meta.id} has no message \`${d.messageId}\``);
  const f: RawFinding = {
    ruleId: meta.id,
    severity: d.severity ?? meta.defaultSeverity,
    message: formatMessage(template, d.data),
    pointer: d.pointer,
    target: d.target ?? "value",
  };
  if (d.range) f.range = d.range;
  if (d.fix) f.fix = d.fix;
  return f;
}

/** A rule as written in its file: everything but `meta.docs`, which follows from the id. */
export interface RuleDefinition<M extends string> {
  meta: Omit<RuleMeta<M>, "docs">;
  check?(context: RuleContext<M>): void;
  checkSet?(context: SetContext<M>): void;
}

export function defineRule<M extends string>(definition: RuleDefinition<M>): Rule<M> {
  return { ...definition, meta: { ...definition.meta, docs: { url: ruleDocsUrl(definition.meta.id) } } };
}
