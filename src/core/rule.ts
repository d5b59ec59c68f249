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

function metricsOf(metrics: unknown): MetricEntry[] {
  return arr(metrics).flatMap((m, index) =>
    (["timeseries", "statetimeseries"] as const).flatMap((kind) => {
      const spec = obj(get(m, kind));
      return spec ? [{ index, kind, spec, key: str(spec.key), pointer: `/metrics/${index}/${kind}` }] : [];
    }),
  );
}

function seriesOf(ui: unknown): SeriesEntry[] {
  return (["keycharts", "charts"] as const).flatMap((list) =>
    arr(get(ui, list)).flatMap((chart, i) =>
      arr(get(chart, "series")).map((series, j) => ({
        series,
        key: str(get(series, "key")),
        pointer: `/ui/${list}/${i}/series/${j}`,
      })),
    ),
  );
}

function alertsOf(metrics: unknown): Entry[] {
  return arr(metrics).flatMap((m, i) =>
    arr(get(m, "alert_settings")).map((value, index) => ({
      value,
      index,
      pointer: `/metrics/${i}/alert_settings/${index}`,
    })),
  );
}

/** The facts, each with the top-level member it is computed from. */
const FACT_MEMBER = {
  metrics: "metrics",
  series: "ui",
  keymetrics: "ui",
  alerts: "metrics",
  properties: "properties",
  configProperties: "configUI",
} as const;
type FactName = keyof typeof FACT_MEMBER;

/** A parsed descriptor and the structures rules walk; each list is built on first use and kept. */
export class DocumentFacts {
  private readonly cache: { [K in FactName]?: unknown } = {};

  /** The parsed document as it is (`value` is what rules see). */
  protected readonly doc: unknown;

  /**
   * @param like another version of the document (head, for its base): a fact whose member is the very same
   *   value there (a base parsed as an edit of head shares head's unchanged members) is taken from it
   */
  constructor(
    value: unknown,
    private readonly like?: DocumentFacts,
  ) {
    this.doc = value;
  }

  get value(): unknown {
    return this.doc;
  }

  /** A top-level member a fact is computed from (RuleContext notes it as read by the running rule). */
  protected member(key: string): unknown {
    return get(this.doc, key);
  }

  private fact<T>(name: FactName, build: (member: unknown) => T): T {
    const member = this.member(FACT_MEMBER[name]);
    if (this.cache[name] === undefined) {
      const like = this.like;
      this.cache[name] =
        like && typeof member === "object" && member !== null && get(like.doc, FACT_MEMBER[name]) === member
          ? like.fact(name, build)
          : build(member);
    }
    return this.cache[name] as T;
  }

  /** Every metric definition's timeseries or statetimeseries (both when an element holds both). */
  get metrics(): readonly MetricEntry[] {
    return this.fact("metrics", metricsOf);
  }

  /** The series of every chart, key charts first. */
  get series(): readonly SeriesEntry[] {
    return this.fact("series", seriesOf);
  }

  get keymetrics(): readonly KeyedEntry[] {
    return this.fact("keymetrics", (ui) => keyed(get(ui, "keymetrics"), "/ui/keymetrics"));
  }

  /** Every metric's alert settings, in document order. */
  get alerts(): readonly Entry[] {
    return this.fact("alerts", alertsOf);
  }

  /** The top-level `properties`. */
  get properties(): readonly KeyedEntry[] {
    return this.fact("properties", (properties) => keyed(properties, "/properties"));
  }

  /** The fields of `configUI.properties`. */
  get configProperties(): readonly KeyedEntry[] {
    return this.fact("configProperties", (configUI) =>
      keyed(get(configUI, "properties"), "/configUI/properties"),
    );
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

/**
 * What a rule read of its document while it ran (RuleContext with `track`): the top-level members its
 * facts come from, whether it read the document itself (`value`: then all of it counts as read), and which
 * other state (text, duplicates, variant, isNew, base, schema, …). No Proxy: one in the rules' reads would
 * make every property read of the shared helpers (`get`, `arr`) slower, for every review.
 */
export interface Reads {
  members: Set<string>;
  whole: boolean;
  state: Set<string>;
  /** It threw: what it would do elsewhere is not told by its reads. */
  threw: boolean;
}

/** What a rule sees: the document, its shared facts, and `report`. */
export class RuleContext<M extends string = string> extends DocumentFacts {
  private readonly state: DocumentState;
  /** The base version (change rules), with the same shared facts. */
  private readonly baseFacts: (DocumentFacts & { path: string }) | undefined;
  private pattern?: { value: ActivationPattern | undefined };
  private schema?: SchemaFinding[];
  private rule?: Rule;
  private out: RawFinding[] = [];
  /** Each rule's reads, when they are noted (`track`). */
  private readonly readsByRule: Map<Rule, Reads> | undefined;
  /** The running rule's reads. */
  private reads: Reads | undefined;

  /**
   * @param track note what each rule reads (readsSameIn tells whether it would report the same elsewhere)
   * @param like another version of the document, whose facts this one may share (DocumentFacts)
   */
  constructor(state: DocumentState, track = false, like?: DocumentFacts) {
    super(state.value, like);
    this.state = state;
    this.baseFacts =
      state.base && Object.assign(new DocumentFacts(state.base.value, this), { path: state.base.path });
    this.readsByRule = track ? new Map() : undefined;
  }

  private noted<T>(what: string, v: T): T {
    this.reads?.state.add(what);
    return v;
  }

  protected override member(key: string): unknown {
    this.reads?.members.add(key);
    return super.member(key);
  }

  override get value(): unknown {
    if (this.reads) this.reads.whole = true;
    return this.doc;
  }

  get path(): string {
    return this.noted("path", this.state.path);
  }
  get text(): string {
    return this.noted("text", this.state.text);
  }
  get parseError(): JsonSyntaxError | undefined {
    return this.noted("parseError", this.state.parseError);
  }
  get duplicates(): readonly DuplicateKey[] {
    return this.noted("duplicates", this.state.duplicates);
  }
  get variant(): Variant {
    return this.noted("variant", this.state.variant);
  }
  get isNew(): boolean | undefined {
    return this.noted("isNew", this.state.isNew);
  }
  get policy(): Policy {
    return this.noted("policy", this.state.policy);
  }
  /** The base version (change rules), with the same shared facts. */
  get base(): (DocumentFacts & { path: string }) | undefined {
    return this.noted("base", this.baseFacts);
  }
  get baseError(): string | undefined {
    return this.noted("baseError", this.state.baseError);
  }
  get oversize(): { size: number; limit: number } | undefined {
    return this.noted("oversize", this.state.oversize);
  }

  /** The host activation pattern, parsed once (remote plugins ignore it: neither compiled nor analysed). */
  get activationPattern(): ActivationPattern | undefined {
    const source = this.member("source");
    if (this.variant !== "host") return undefined;
    if (!this.pattern) {
      const pattern = str(get(source, "activation_name_pattern"));
      this.pattern = {
        value: pattern === undefined ? undefined : { pattern, result: parsePythonRegex(pattern) },
      };
    }
    return this.pattern.value;
  }

  /** The JSON Schema's findings (`schema.ts`), validated on first use: not at all when every rule reading them is off. */
  get schemaFindings(): readonly SchemaFinding[] {
    this.reads?.state.add("schema");
    return (this.schema ??= this.doc === undefined ? [] : validateSchema(this.doc, this.state.variant));
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
    const reads: Reads | undefined = this.readsByRule && {
      members: new Set(),
      whole: false,
      state: new Set(),
      threw: false,
    };
    if (reads) this.readsByRule?.set(rule, reads);
    this.reads = reads;
    try {
      (rule.check as (c: RuleContext) => void)(this as RuleContext);
    } catch (e) {
      if (reads) reads.threw = true;
      throw e;
    } finally {
      this.reads = undefined;
    }
    return this.out;
  }

  /**
   * True when `rule` ran here with its reads noted and read nothing that differs in `other`: being
   * deterministic, it reports there exactly what it reported here. Members compare by identity (a base
   * parsed as an edit of head shares head's unchanged values); the schema's findings never compare.
   */
  readsSameIn(rule: Rule, other: RuleContext): boolean {
    const reads = this.readsByRule?.get(rule);
    if (!reads || reads.threw || (reads.whole && this.doc !== other.doc)) return false;
    for (const key of reads.members) {
      if (
        !Object.is(get(this.doc, key), get(other.doc, key)) ||
        has(obj(this.doc), key) !== has(obj(other.doc), key)
      )
        return false;
    }
    for (const what of reads.state) {
      if (what === "duplicates") {
        if (this.state.duplicates.length || other.state.duplicates.length) return false;
      } else if (what === "base") {
        if (this.baseFacts || other.baseFacts) return false;
      } else if (what === "schema") {
        return false;
      } else if (
        !Object.is(this.state[what as keyof DocumentState], other.state[what as keyof DocumentState])
      ) {
        return false;
      }
    }
    return true;
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
