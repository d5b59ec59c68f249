/**
 * The rule API (after ESLint): a rule is metadata (`meta`, with its messages) and a `check(context)` that
 * reports findings through `context.report({ pointer, messageId, data, fix })`. The context gives the
 * parsed document and shared facts (metrics, chart series, alert settings, properties, the activation
 * pattern), each computed lazily once per document, so that rules walking the same structures do not
 * walk them again. A rule must never throw, whatever the input: values are `unknown` and are read
 * through the guards below (a rule that throws becomes an internal-error finding, see review.ts).
 */
import type { DuplicateKey, JsonSyntaxError } from "./json/parse.js";
import { parsePythonRegex, type ParseResult } from "./python-regex/parse.js";
import { validateSchema, type SchemaFinding } from "./schema.js";
import type { Fix, RawFinding, Severity, Target, Variant } from "./types.js";

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

/** The policy part of the configuration that rules read. */
/** A compiled `policy.name_pattern` (linear-time: see compileNamePattern in config.ts). */
export interface NamePattern {
  source: string;
  test(s: string): boolean;
}

export interface Policy {
  namePattern?: NamePattern;
  technologies?: readonly string[];
  processTypes?: readonly (string | number)[];
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

/** The strings of a list (a metric's `dimensions`, say), skipping anything else. */
export function strings(v: unknown): string[] {
  return arr(v).filter((d): d is string => typeof d === "string");
}

// ---- shared facts, computed lazily once per document ---------------------------------------------------

export interface MetricEntry {
  /** Index in `metrics`. */
  index: number;
  kind: "timeseries" | "statetimeseries";
  /** The timeseries/statetimeseries object. */
  spec: Obj;
  key?: string;
  pointer: string;
}

/** A series of a chart in `ui.keycharts` (first) or `ui.charts`. */
export interface SeriesEntry {
  series: unknown;
  key?: string;
  pointer: string;
}

/** An element of `ui.keymetrics`, `metrics[i].alert_settings`, `properties` or `configUI.properties`. */
export interface Entry {
  value: unknown;
  index: number;
  pointer: string;
}

/** An element that names something by its `key` member (a key metric, a property). */
export interface KeyedEntry extends Entry {
  key?: string;
}

function keyed(list: unknown, pointer: string): KeyedEntry[] {
  return arr(list).map((value, index) => ({
    value,
    index,
    key: str(get(value, "key")),
    pointer: `${pointer}/${index}`,
  }));
}

/** A parsed descriptor and the structures rules walk; each list is built on first use and kept. */
export class DocumentFacts {
  private cache: {
    metrics?: MetricEntry[];
    series?: SeriesEntry[];
    keymetrics?: KeyedEntry[];
    alerts?: Entry[];
    properties?: KeyedEntry[];
    configProperties?: KeyedEntry[];
  } = {};

  constructor(readonly value: unknown) {}

  /** Every metric definition's timeseries or statetimeseries (both when an element holds both). */
  get metrics(): readonly MetricEntry[] {
    return (this.cache.metrics ??= arr(get(this.value, "metrics")).flatMap((m, index) =>
      (["timeseries", "statetimeseries"] as const).flatMap((kind) => {
        const spec = obj(get(m, kind));
        return spec ? [{ index, kind, spec, key: str(spec.key), pointer: `/metrics/${index}/${kind}` }] : [];
      }),
    ));
  }

  /** The series of every chart, key charts first. */
  get series(): readonly SeriesEntry[] {
    return (this.cache.series ??= (["keycharts", "charts"] as const).flatMap((list) =>
      arr(get(get(this.value, "ui"), list)).flatMap((chart, i) =>
        arr(get(chart, "series")).map((series, j) => ({
          series,
          key: str(get(series, "key")),
          pointer: `/ui/${list}/${i}/series/${j}`,
        })),
      ),
    ));
  }

  get keymetrics(): readonly KeyedEntry[] {
    return (this.cache.keymetrics ??= keyed(get(get(this.value, "ui"), "keymetrics"), "/ui/keymetrics"));
  }

  /** Every metric's alert settings, in document order. */
  get alerts(): readonly Entry[] {
    return (this.cache.alerts ??= arr(get(this.value, "metrics")).flatMap((m, i) =>
      arr(get(m, "alert_settings")).map((value, index) => ({
        value,
        index,
        pointer: `/metrics/${i}/alert_settings/${index}`,
      })),
    ));
  }

  /** The top-level `properties`. */
  get properties(): readonly KeyedEntry[] {
    return (this.cache.properties ??= keyed(get(this.value, "properties"), "/properties"));
  }

  /** The fields of `configUI.properties`. */
  get configProperties(): readonly KeyedEntry[] {
    return (this.cache.configProperties ??= keyed(
      get(get(this.value, "configUI"), "properties"),
      "/configUI/properties",
    ));
  }
}

/** What the runner knows about the head text before any rule runs. */
export interface DocumentState {
  path: string;
  text: string;
  /** Present when the text parsed. */
  value?: unknown;
  parseError?: JsonSyntaxError;
  duplicates: DuplicateKey[];
  variant: Variant;
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

/** The host activation pattern and its parse, shared by invalid-regex and slow-regex. */
export interface ActivationPattern {
  pattern: string;
  result: ParseResult;
}

/** What a rule sees: the document, its shared facts, and `report`. */
export class RuleContext<M extends string = string> extends DocumentFacts {
  readonly path: string;
  readonly text: string;
  readonly parseError: JsonSyntaxError | undefined;
  readonly duplicates: readonly DuplicateKey[];
  readonly variant: Variant;
  readonly isNew: boolean | undefined;
  readonly policy: Policy;
  /** The base version (change rules), with the same shared facts. */
  readonly base: (DocumentFacts & { path: string }) | undefined;
  readonly baseError: string | undefined;
  readonly oversize: { size: number; limit: number } | undefined;
  private pattern?: { value: ActivationPattern | undefined };
  private schema?: SchemaFinding[];
  private rule?: Rule;
  private out: RawFinding[] = [];

  constructor(state: DocumentState) {
    super(state.value);
    this.path = state.path;
    this.text = state.text;
    this.parseError = state.parseError;
    this.duplicates = state.duplicates;
    this.variant = state.variant;
    this.isNew = state.isNew;
    this.policy = state.policy;
    this.base = state.base && Object.assign(new DocumentFacts(state.base.value), { path: state.base.path });
    this.baseError = state.baseError;
    this.oversize = state.oversize;
  }

  /** The host activation pattern, parsed once (remote plugins ignore it: neither compiled nor analysed). */
  get activationPattern(): ActivationPattern | undefined {
    if (!this.pattern) {
      const pattern =
        this.variant === "host" ? str(get(get(this.value, "source"), "activation_name_pattern")) : undefined;
      this.pattern = {
        value: pattern === undefined ? undefined : { pattern, result: parsePythonRegex(pattern) },
      };
    }
    return this.pattern.value;
  }

  /** The JSON Schema's findings (`schema.ts`), validated on first use: not at all when every rule reading them is off. */
  get schemaFindings(): readonly SchemaFinding[] {
    return (this.schema ??= this.value === undefined ? [] : validateSchema(this.value, this.variant));
  }

  /** Schema findings that `schema.ts` classified with the running rule's id. */
  get ownSchemaFindings(): SchemaFinding[] {
    const id = this.rule?.meta.id;
    return this.schemaFindings.filter((f) => f.ruleId === id);
  }

  report(d: ReportDescriptor<M>): void {
    const meta = (this.rule as Rule).meta;
    this.out.push(toFinding(meta, d));
  }

  /** Runs one rule over this document (the runner's entry; rules call `report`). */
  run(rule: Rule): RawFinding[] {
    this.rule = rule;
    this.out = [];
    (rule.check as (c: RuleContext) => void)(this as RuleContext);
    return this.out;
  }
}

/** A descriptor checked together with others (set rules). */
export interface SetMember {
  path: string;
  value: unknown;
}

export interface SetContext<M extends string = string> {
  documents: readonly SetMember[];
  report(path: string, d: ReportDescriptor<M>): void;
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

/**
 * A structural rule: it reports the schema findings that `schema.ts` classified with its id, so the
 * JSON Schema stays the single source of structure. The schema's fixes (closest allowed value, renames) go along.
 */
export function schemaRule(meta: Omit<RuleMeta<"schema">, "docs" | "messages">): Rule<"schema"> {
  return defineRule({
    meta: { ...meta, messages: { schema: "{{message}}" } },
    check(context) {
      for (const f of context.ownSchemaFindings) {
        context.report({
          pointer: f.pointer,
          messageId: "schema",
          data: { message: f.message },
          target: f.target,
          ...(f.fix ? { fix: f.fix } : {}),
        });
      }
    },
  });
}
