/**
 * The rule API (after ESLint): a rule is metadata (`meta`, with its messages) and a `check(context)` that
 * reports findings through `context.report({ pointer, messageId, data, fix })`. What a rule sees is its
 * context (rule-context.ts: the document and its shared facts); schema rules are made by `schemaRule`
 * (schema-rule.ts). A rule must never throw, whatever the input: values are `unknown` and are read
 * through the guards (guards.ts; a rule that throws becomes an internal-error finding, see review.ts).
 */
import type { RuleContext, SetContext } from "./rule-context.js";
import type { Fix, MessageData, RawFinding, Severity, Suggestion, Target } from "./types.js";

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
  /**
   * Data keys that say where rather than what: indices, paths with indices, line numbers, sizes, hints that
   * depend on neighbours ("did you mean" another element's key). They are left out of the finding's
   * identity (identity.ts), so that moving other elements changes nothing.
   */
  positionalData?: readonly string[];
  /**
   * Data keys that quote the name of the element or value the finding is about (a metric's key, the
   * offending value): part of the identity, but set aside when grouping repeated findings into one problem.
   */
  nameData?: readonly string[];
  /** The rule reports fixes: safe mechanical edits that `--fix` applies (as ESLint's `meta.fixable`). */
  fixable?: "code";
  /** The rule reports suggestions: guesses offered to the author, never applied by `--fix`. */
  hasSuggestions?: true;
  docs: { url: string };
}

/** What a rule reports: where (a JSON pointer), which message, and optionally a fix or suggestions. */
export interface ReportDescriptor<M extends string = string> {
  /** RFC 6901 pointer into the head document; may name a missing member (nearest ancestor is used). */
  pointer: string;
  messageId: M;
  data?: MessageData;
  /** The member's name or its value (default). */
  target?: Target;
  /** Exact offsets when the pointer alone is ambiguous (duplicate keys, parse errors). */
  range?: { start: number; end: number };
  /** This finding's severity when it differs from `meta.defaultSeverity` (configuration still overrides it). */
  severity?: Severity;
  /** A safe mechanical edit (`meta.fixable`). */
  fix?: Fix;
  /** Guesses, each with its edit (`meta.hasSuggestions`). */
  suggest?: Suggestion[];
}

export interface Rule<M extends string = string> {
  meta: RuleMeta<M>;
  /** Document and change rules (and the parse rules). */
  check?(context: RuleContext<M>): void;
  /** Set rules: run once over every descriptor checked together. */
  checkSet?(context: SetContext<M>): void;
}

/** Templates split at their placeholders (literal, name, literal, …), once per template. */
const compiled = new Map<string, string[]>();

/** `{{name}}` placeholders of a message template filled from `data`; a missing one is a bug in the rule. */
export function formatMessage(template: string, data: MessageData = {}): string {
  let parts = compiled.get(template);
  if (!parts) {
    parts = template.split(/\{\{(\w+)\}\}/);
    compiled.set(template, parts);
  }
  let out = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    const v = data[name];
    if (v === undefined) throw new Error(`message data lacks \`${name}\``);
    out += String(v) + (parts[i + 1] as string);
  }
  return out;
}

export function toFinding(meta: RuleMeta, d: ReportDescriptor): RawFinding {
  const template = (meta.messages as Record<string, string>)[d.messageId];
  if (template === undefined) throw new Error(`rule ${meta.id} has no message \`${d.messageId}\``);
  // As ESLint: a rule says up front whether it fixes or suggests, so that its docs and `--fix` can tell.
  if (d.fix && !meta.fixable) throw new Error(`rule ${meta.id} reports a fix without \`meta.fixable\``);
  if (d.suggest?.length && !meta.hasSuggestions)
    throw new Error(`rule ${meta.id} reports suggestions without \`meta.hasSuggestions\``);
  const f: RawFinding = {
    ruleId: meta.id,
    severity: d.severity ?? meta.defaultSeverity,
    message: formatMessage(template, d.data),
    messageId: d.messageId,
    pointer: d.pointer,
    target: d.target ?? "value",
  };
  if (d.data) f.data = d.data;
  if (d.range) f.range = d.range;
  if (d.fix) f.fix = d.fix;
  if (d.suggest?.length) f.suggestions = d.suggest;
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
