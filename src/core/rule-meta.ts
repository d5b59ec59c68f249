/**
 * What a rule declares (`meta`: its id, kind, severity and messages) and how what it reports becomes a
 * finding. Below the rule API (rule.ts) and the rule's context (rule-context.ts), which both need it.
 */
import type { FileFormat, Fix, MessageData, RawFinding, Severity, Suggestion, Target } from "./types.js";

/**
 * What a rule looks at: the file as read (`parse`: the only kind that runs when it did not parse), the
 * JSON Schema's findings (`schema`), one document (`document`), a document beside its base (`change`), an
 * EF2 extension.yaml beside the EF1 plugin.json it replaces (`migration`), or every descriptor checked
 * together (`set`: the one kind with `checkSet` instead of `check`, see rule.ts).
 */
export type RuleKind = "parse" | "schema" | "document" | "change" | "migration" | "set";

export interface RuleMeta<M extends string = string, K extends RuleKind = RuleKind> {
  id: string;
  kind: K;
  defaultSeverity: Severity;
  /** The files it checks: EF1 descriptors (`plugin.json`, when unsaid), EF2 extensions (`extension.yaml`), or both. */
  files?: readonly FileFormat[];
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
  /**
   * The place a finding is about is named by its data, not by its pointer, which only says where it is shown:
   * a migration finding is about an EF1 metric (its key is in the data), shown where the extension.yaml
   * should hold it, a place that moves as the file is edited. The identity leaves the pointer out (identity.ts).
   */
  placeInData?: true;
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
