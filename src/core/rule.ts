/**
 * The shape of a rule (after ESLint: metadata + a pure check). A rule receives the parsed documents and
 * returns raw findings (pointer-based); it must never throw, whatever the input: values are `unknown`
 * and are read through the guards below.
 */
import type { DuplicateKey, JsonSyntaxError } from "./json/parse.js";
import { parsePythonRegex, type ParseResult } from "./python-regex/parse.js";
import type { SchemaFinding } from "./schema.js";
import type { RawFinding, Severity, Variant } from "./types.js";

export type RuleKind = "parse" | "schema" | "document" | "change" | "set";

export interface RuleMeta {
  id: string;
  kind: RuleKind;
  defaultSeverity: Severity;
  /** One sentence: what the rule reports. Used in SARIF and docs. */
  description: string;
}

/** The policy part of the configuration that rules read. */
export interface Policy {
  namePattern?: RegExp;
  technologies?: readonly string[];
  processTypes?: readonly (string | number)[];
}

export interface DocumentContext {
  path: string;
  text: string;
  /** Present when the text parsed. */
  value?: unknown;
  parseError?: JsonSyntaxError;
  duplicates: DuplicateKey[];
  variant: Variant;
  schemaFindings: SchemaFinding[];
  /** True when the change adds the file (no base exists); undefined when unknown (plain CLI run). */
  isNew?: boolean;
  policy: Policy;
  /** Base document for change rules (parsed), when the file exists in the base. */
  base?: { value: unknown; path: string };
  /** Why the base could not be read, when it exists (`path` and reason: not JSON, not UTF-8, too large). */
  baseError?: string;
  /** Set when the file is over the size limit and was not parsed. */
  oversize?: { size: number; limit: number };
}

export interface SetMember {
  path: string;
  value: unknown;
}

export interface Rule {
  meta: RuleMeta;
  /** Document and change rules. */
  check?(ctx: DocumentContext): RawFinding[];
  /** Set rules: run once over every descriptor checked together; findings are keyed by path. */
  checkSet?(docs: readonly SetMember[]): { path: string; finding: RawFinding }[];
}

// ---- guards for reading untrusted values -------------------------------------------------------------

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function obj(v: unknown): Obj | undefined {
  return isObj(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export function has(o: Obj | undefined, key: string): boolean {
  return o !== undefined && Object.prototype.hasOwnProperty.call(o, key);
}

/** Own member of an object (never an inherited one such as `constructor`). */
export function get(o: unknown, key: string): unknown {
  return isObj(o) && Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

export interface MetricEntry {
  index: number;
  kind: "timeseries" | "statetimeseries";
  /** The timeseries/statetimeseries object. */
  spec: Obj;
  key?: string;
  pointer: string;
}

/** Every metric definition's timeseries or statetimeseries (both when an element holds both). */
export function metricEntries(doc: unknown): MetricEntry[] {
  const out: MetricEntry[] = [];
  arr(get(doc, "metrics")).forEach((m, index) => {
    for (const kind of ["timeseries", "statetimeseries"] as const) {
      const spec = obj(get(m, kind));
      if (spec) out.push({ index, kind, spec, key: str(spec.key), pointer: `/metrics/${index}/${kind}` });
    }
  });
  return out;
}

export function finding(
  meta: RuleMeta,
  pointer: string,
  message: string,
  extra: Partial<RawFinding> = {},
): RawFinding {
  return { ruleId: meta.id, severity: meta.defaultSeverity, message, pointer, target: "value", ...extra };
}

/**
 * A structural rule: it reports the schema findings that `schema.ts` classified with its id, so the
 * JSON Schema stays the single source of structure. A closest allowed value becomes a suggested fix.
 */
export function schemaRule(meta: RuleMeta): Rule {
  return {
    meta,
    check(ctx) {
      return ctx.schemaFindings
        .filter((f) => f.ruleId === meta.id)
        .map((f) =>
          finding(meta, f.pointer, f.message, {
            target: f.target,
            ...(f.fix ? { fix: f.fix } : {}),
          }),
        );
    },
  };
}

/** The host activation pattern and its parse, shared by invalid-regex and slow-regex (parsed once per text). */
let lastPattern: { pattern: string; result: ParseResult } | undefined;

export function activationPattern(
  ctx: DocumentContext,
): { pattern: string; result: ParseResult } | undefined {
  // Remote plugins ignore the pattern (ignored-member says so); it is neither compiled nor analysed.
  if (ctx.variant !== "host") return undefined;
  const pattern = str(get(get(ctx.value, "source"), "activation_name_pattern"));
  if (pattern === undefined) return undefined;
  if (lastPattern?.pattern !== pattern) lastPattern = { pattern, result: parsePythonRegex(pattern) };
  return lastPattern;
}
