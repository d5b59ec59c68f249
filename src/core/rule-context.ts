/**
 * What a rule sees while it runs: the document, its shared facts (facts.ts), the runner's state (text,
 * duplicate keys, variant, base, policy, schema findings) and `report`. With `track`, the context notes what
 * each rule read, so that the runner can tell whether a rule would report the same on another version of
 * the document (the base) without running it again: `readsSameIn`. That shortcut is only sound when rules
 * read the document through this context (test/core/reads.test.ts holds every rule to it).
 */
import { activationFacts, type ActivationSchemaRead } from "./ef2/activation.js";
import type { ExtensionFacts } from "./ef2/extension.js";
import { migrationOf, type Ef1Source, type Migration } from "./ef2/migration.js";
import type { ExtensionPackage } from "./ef2/package.js";
import { DocumentFacts } from "./facts.js";
import { get, has, obj, str } from "./guards.js";
import type { DuplicateKey, JsonNode, JsonSyntaxError } from "./json/parse.js";
import { scanPointers, skipValue } from "./json/scan.js";
import { resolvePointer } from "./locate.js";
import type { Policy } from "./policy.js";
import { parsePythonRegex, type ParseResult } from "./python-regex/parse.js";
import { toFinding, type ReportDescriptor, type RuleMeta } from "./rule-meta.js";
import {
  compileSchema,
  validateActivationSchema,
  validateParts,
  type SchemaFinding,
  type SchemaValidation,
} from "./schema.js";
import { timed, type AnalysisTiming } from "./timing.js";
import type { FileFormat, RawFinding, Variant } from "./types.js";

/** What the runner knows about the head text before any rule runs. */
export interface DocumentState {
  path: string;
  /** What kind of file it is (`plugin.json` when unsaid): which schema and which rules apply. */
  format?: FileFormat;
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
  /**
   * Set when the file is over the size limit and was not parsed: `max_file_size`'s, or an extension.yaml's
   * own (`setting`: max_extension_size) when that is the smaller.
   */
  oversize?: {
    size: number;
    limit: number;
    setting?: "max_extension_size" | "max_file_size";
    /** Read from a pipe no further than the limit and a byte: its size is at least `size`, not known. */
    sizeIsLowerBound?: boolean;
  };
  /**
   * An extension.yaml that YAML 1.2 refuses but Dynatrace's parser reads (yaml/snakeyaml.ts): where, and why.
   * It parsed (`value` is what Dynatrace reads); invalid-yaml warns.
   */
  lenientRead?: JsonSyntaxError;
  /** An extension.yaml's tree of offsets (YAML writes what its value does not keep: `1.10` is the number 1.1). */
  tree?: JsonNode;
  /** An extension.yaml: the files beside it, as the caller read them (ef2/package.ts). */
  package?: ExtensionPackage;
  /** An extension.yaml: the EF1 plugin.json it replaces, as the base holds it (the migration rules' reference). */
  ef1?: Ef1Source;
}

/** The host activation pattern and its parse, shared by invalid-regex and slow-regex. */
export interface ActivationPattern {
  pattern: string;
  result: ParseResult;
}

/**
 * What a rule may read of the runner's state besides the document (RuleContext with `track`), a bit each, so
 * that noting a read allocates nothing. No Proxy: one in the rules' reads would make every property read of
 * the shared helpers (`get`, `arr`) slower, for every analysis.
 */
const STATE_READS = [
  "package",
  "path",
  "text",
  "parseError",
  "lenientRead",
  "duplicates",
  "variant",
  "format",
  "isNew",
  "policy",
  "base",
  "baseError",
  "oversize",
  "ef1",
  "schema",
  "ownSchema",
] as const;
type StateRead = (typeof STATE_READS)[number];
const STATE = Object.fromEntries(STATE_READS.map((what, i) => [what, 1 << i])) as Record<StateRead, number>;
const STATE_MASK = (1 << STATE_READS.length) - 1;
/** A rule's own schema findings differ rule by rule: not known once per other version (stateDiffersIn). */
const OWN_SCHEMA = STATE.ownSchema;
/** It read the document itself (then all of it counts as read). */
const WHOLE = 1 << 16;
/** It threw: what it would do elsewhere is not told by its reads. */
const THREW = 1 << 17;

/**
 * A rule that runs on one document, as its context sees it: rule.ts's DocumentRule, which is written in
 * terms of RuleContext, so it is named here by its shape rather than imported (no import cycle).
 */
export interface DocumentCheck {
  readonly meta: RuleMeta;
  check(context: RuleContext): void;
}

/** What a rule sees: the document, its shared facts, and `report`. */
export class RuleContext<M extends string = string> extends DocumentFacts {
  private readonly state: DocumentState;
  /** The base version (change rules), with the same shared facts. */
  private readonly baseFacts: (DocumentFacts & { path: string }) | undefined;
  private pattern?: { value: ActivationPattern | undefined };
  private schema?: SchemaValidation | undefined;
  /** Each schema rule's findings, by rule id. */
  private readonly ownSchema = new Map<string, readonly SchemaFinding[]>();
  /** Another version's context (head's, for its base): what it validated is not validated again. */
  private readonly likeContext: RuleContext | undefined;
  private migrated?: { value: Migration | undefined };
  private activation: { head?: ActivationSchemaRead[]; base?: ActivationSchemaRead[] } = {};
  private rule?: DocumentCheck;
  private out: RawFinding[] = [];
  /**
   * What each rule read, when reads are noted (`track`), in the order the rules ran: the rule, its bits
   * (STATE, WHOLE, THREW) and the top-level members it read (each once; undefined until it reads one).
   * Parallel lists rather than an object and two lists per rule: most of a review's rules read little.
   */
  private readonly ran: DocumentCheck[] | undefined;
  private readonly bits: number[] = [];
  private readonly membersRead: (string[] | undefined)[] = [];
  /** The running rule's place in `ran`; -1 when its reads are not noted. */
  private at = -1;

  /**
   * @param track note what each rule reads (readsSameIn tells whether it would report the same elsewhere)
   * @param like another version of the document, whose facts this one may share (DocumentFacts)
   * @param timing where the time goes (`TIMING=1`): the shared steps a rule's reads start are timed apart
   */
  constructor(
    state: DocumentState,
    track = false,
    like?: DocumentFacts,
    readonly timing?: AnalysisTiming,
  ) {
    super(state.value, like, timing);
    this.state = state;
    this.likeContext = like instanceof RuleContext ? like : undefined;
    this.baseFacts =
      state.base &&
      Object.assign(new DocumentFacts(state.base.value, this, timing), { path: state.base.path });
    this.ran = track ? [] : undefined;
  }

  private noted<T>(what: StateRead, v: T): T {
    this.mark(STATE[what]);
    return v;
  }

  /** Notes a read (a bit of STATE, or WHOLE) of the running rule, when reads are noted. */
  private mark(bit: number): void {
    const at = this.at;
    if (at >= 0) this.bits[at] = (this.bits[at] as number) | bit;
  }

  /**
   * A top-level member of the document, noted as read: a rule that reads its document only so is run again on
   * the base only when one of the members it read differs there (readsSameIn), where `value` counts as all.
   */
  override member(key: string): unknown {
    const at = this.at;
    if (at >= 0) {
      const read = this.membersRead[at];
      if (!read) this.membersRead[at] = [key];
      else if (!read.includes(key)) read.push(key);
    }
    return super.member(key);
  }

  override get value(): unknown {
    this.mark(WHOLE);
    return this.doc;
  }

  /** The extension's account reads the whole document. */
  override get extension(): ExtensionFacts {
    this.mark(WHOLE);
    return super.extension;
  }

  /** What the caller says of the files beside an extension.yaml (ef2/package.ts), when it says anything. */
  get package(): ExtensionPackage | undefined {
    return this.noted("package", this.state.package);
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
  get lenientRead(): JsonSyntaxError | undefined {
    return this.noted("lenientRead", this.state.lenientRead);
  }
  get duplicates(): readonly DuplicateKey[] {
    return this.noted("duplicates", this.state.duplicates);
  }
  get variant(): Variant {
    return this.noted("variant", this.state.variant);
  }
  /** The kind of file: a rule that applies to both (`meta.files`) reads it where they differ. */
  get format(): FileFormat {
    return this.noted("format", this.state.format ?? "plugin.json");
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
  get oversize(): DocumentState["oversize"] {
    return this.noted("oversize", this.state.oversize);
  }

  /** The host activation pattern, parsed once (remote plugins ignore it: neither compiled nor analysed). */
  get activationPattern(): ActivationPattern | undefined {
    const source = this.member("source");
    if (this.variant !== "host") return undefined;
    if (!this.pattern) {
      const pattern = str(get(source, "activation_name_pattern"));
      this.pattern = {
        value:
          pattern === undefined
            ? undefined
            : { pattern, result: timed(this.timing, "step", "regex parse", () => parsePythonRegex(pattern)) },
      };
    }
    return this.pattern.value;
  }

  /**
   * An extension.yaml beside the EF1 plugin.json it replaces: each EF1 metric and what became of it in the
   * extension (ef2/migration.ts), computed once for the migration rules; undefined for any other file.
   */
  get migration(): Migration | undefined {
    const ef1 = this.noted("ef1", this.state.ef1);
    const doc = this.value;
    if (!ef1 || doc === undefined) return undefined;
    this.migrated ??= { value: timed(this.timing, "step", "migration", () => migrationOf(doc, ef1)) };
    return this.migrated.value;
  }

  /**
   * The activation schemas python.activation names (head's, or with `base` the base's), read from the files
   * the caller passed, parsed and checked against Dynatrace's format once.
   */
  activationSchemas(base = false): readonly ActivationSchemaRead[] {
    const pkg = this.package;
    const facts = base ? this.base?.extension : this.extension;
    if (!facts) return [];
    const cached = this.activation[base ? "base" : "head"];
    if (cached) return cached;
    const out = facts.activations.map((a): ActivationSchemaRead => {
      const read = pkg?.read(a.path, base);
      if (!read) return { ...a, unread: true };
      if ("problem" in read) return { ...a, problem: read.problem };
      let value: unknown;
      try {
        value = JSON.parse(read.text) as unknown;
      } catch (e) {
        return { ...a, problem: `is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
      }
      return { ...a, value, facts: activationFacts(value), problems: validateActivationSchema(value) };
    });
    this.activation[base ? "base" : "head"] = out;
    return out;
  }

  /**
   * The text of the value a pointer names, as written (`1.10`, where the parsed value is the number 1.1);
   * undefined when it names nothing. A JSON text has no tree kept: it is scanned for that one pointer (only
   * without duplicate keys, where the scan and JSON.parse agree on which member is meant).
   */
  source(pointer: string): string | undefined {
    const text = this.noted("text", this.state.text);
    const tree = this.state.tree;
    if (tree) {
      const { node, fallback } = resolvePointer(tree, pointer);
      return fallback ? undefined : text.slice(node.start, node.end);
    }
    if (this.state.format !== undefined || this.doc === undefined || this.state.duplicates.length)
      return undefined;
    const [found] = scanPointers(text, [pointer]);
    return !found || found.fallback ? undefined : text.slice(found.start, skipValue(text, found.start));
  }

  /**
   * The JSON Schema's findings (`schema.ts`), validated on first use: not at all when every rule reading them
   * is off. Of a base, the parts that are head's very values are head's (validateParts).
   */
  get schemaFindings(): readonly SchemaFinding[] {
    this.noted("schema", undefined);
    return this.validation()?.findings ?? [];
  }

  private validation(): SchemaValidation | undefined {
    if (this.schema || this.doc === undefined) return this.schema;
    const doc = this.doc;
    const { variant, format } = this.state;
    const like = this.likeContext?.schema;
    // Compiling (once per process) is timed apart from validating (once per document).
    if (this.timing) timed(this.timing, "step", "schema compilation", () => compileSchema(variant, format));
    this.schema = timed(this.timing, "step", "schema validation", () =>
      validateParts(doc, variant, format, like),
    );
    return this.schema;
  }

  /** Schema findings that `schema.ts` classified with the running rule's id. */
  get ownSchemaFindings(): readonly SchemaFinding[] {
    this.noted("ownSchema", undefined);
    return this.schemaOf(this.rule?.meta.id);
  }

  /** The schema findings classified with a rule's id, in order (kept: readsSameIn compares them). */
  private schemaOf(id: string | undefined): readonly SchemaFinding[] {
    if (id === undefined) return [];
    const all = this.validation()?.findings;
    // A valid document (the usual case): no list per rule.
    if (!all?.length) return NO_SCHEMA_FINDINGS;
    let own = this.ownSchema.get(id);
    if (!own) {
      own = all.filter((f) => f.ruleId === id);
      this.ownSchema.set(id, own);
    }
    return own;
  }

  report(d: ReportDescriptor<M>): void {
    const meta = (this.rule as DocumentCheck).meta;
    const finding = toFinding(meta, d);
    // Most rules report nothing: their list is made at their first report.
    if (this.out === NO_FINDINGS) this.out = [finding];
    else this.out.push(finding);
  }

  /** Runs one rule over this document (the runner's entry; rules call `report`). */
  run(rule: DocumentCheck): readonly RawFinding[] {
    this.rule = rule;
    this.out = NO_FINDINGS;
    const ran = this.ran;
    let at = -1;
    if (ran) {
      at = ran.length;
      ran.push(rule);
      this.bits.push(0);
      this.membersRead.push(undefined);
    }
    this.at = at;
    try {
      rule.check(this);
    } catch (e) {
      this.mark(THREW);
      throw e;
    } finally {
      this.at = -1;
    }
    return this.out;
  }

  /**
   * The last version compared with (readsSameIn): the top-level members that differ there, and which state
   * reads (bits of STATE) are known to read the same there or not (`known`), and of those, which differ.
   */
  private differing?: { other: RuleContext; members: ReadonlySet<string>; known: number; differs: number };

  /**
   * The top-level members whose value (by identity) or presence differs in `other`: computed once per other
   * version, not once per rule and member read (a member neither version has reads the same in both).
   */
  private differingIn(other: RuleContext): NonNullable<RuleContext["differing"]> {
    if (this.differing?.other === other) return this.differing;
    const mine = obj(this.doc);
    const theirs = obj(other.doc);
    const members = new Set<string>();
    for (const doc of [mine, theirs])
      if (doc)
        for (const key of Object.keys(doc))
          if (!Object.is(get(mine, key), get(theirs, key)) || has(mine, key) !== has(theirs, key))
            members.add(key);
    this.differing = { other, members, known: 0, differs: 0 };
    return this.differing;
  }

  /**
   * Of the state reads `bits` (but a rule's own schema findings), those that differ in `other`: each told once
   * per other version, however many rules read it.
   */
  private stateDiffersIn(other: RuleContext, bits: number): number {
    const differing = this.differingIn(other);
    for (let unknown = bits & ~differing.known & ~OWN_SCHEMA; unknown; unknown &= unknown - 1) {
      const bit = unknown & -unknown;
      if (this.readsOtherwise(STATE_READS[31 - Math.clz32(bit)] as StateRead, other))
        differing.differs |= bit;
      differing.known |= bit;
    }
    return bits & differing.differs;
  }

  /** Whether a read of the state `what` (not `ownSchema`) may read otherwise in `other`. */
  private readsOtherwise(what: StateRead, other: RuleContext): boolean {
    if (what === "duplicates") return this.state.duplicates.length > 0 || other.state.duplicates.length > 0;
    if (what === "base") return this.baseFacts !== undefined || other.baseFacts !== undefined;
    // The same findings, each the very object (validateParts shares them between versions): the same report.
    if (what === "schema") return !sameFindings(this.schemaFindings, other.schemaFindings);
    return !Object.is(this.state[what as keyof DocumentState], other.state[what as keyof DocumentState]);
  }

  /**
   * True when `rule` ran here with its reads noted and read nothing that differs in `other`: being
   * deterministic, it reports there exactly what it reported here. Members compare by identity (a base
   * parsed as an edit of head shares head's unchanged values), and so do schema findings (a base's are
   * head's very findings where its parts are head's values). `at`: where the caller knows the rule ran
   * (its place among the rules run here), which saves looking for it.
   */
  readsSameIn(rule: DocumentCheck, other: RuleContext, at = this.ran?.lastIndexOf(rule) ?? -1): boolean {
    if (at < 0 || this.ran?.[at] !== rule) return false;
    const bits = this.bits[at] as number;
    if (bits & THREW || (bits & WHOLE && this.doc !== other.doc)) return false;
    const members = this.membersRead[at];
    if (members) {
      const differing = this.differingIn(other).members;
      for (const key of members) if (differing.has(key)) return false;
    }
    if (bits & STATE_MASK && this.stateDiffersIn(other, bits & STATE_MASK)) return false;
    return !(bits & OWN_SCHEMA) || sameFindings(this.schemaOf(rule.meta.id), other.schemaOf(rule.meta.id));
  }
}

/** Two lists of the very same findings, in order. */
function sameFindings(mine: readonly SchemaFinding[], theirs: readonly SchemaFinding[]): boolean {
  return mine.length === theirs.length && mine.every((f, i) => f === theirs[i]);
}

/**
 * What a rule that reported nothing returns: one shared empty list (frozen: nothing may add to it), not a list
 * per rule and document.
 */
const NO_FINDINGS = Object.freeze([]) as unknown as RawFinding[];
const NO_SCHEMA_FINDINGS: readonly SchemaFinding[] = Object.freeze([]);

/** A descriptor checked together with others (set rules). */
export interface SetMember {
  path: string;
  /** Its kind of file: a rule with both in `meta.files` compares each kind apart (a name is one kind's). */
  format: FileFormat;
  /** The document's top-level members that the rule names in `meta.members` (an object, whatever the root). */
  value: unknown;
}

export interface SetContext<M extends string = string> {
  documents: readonly SetMember[];
  report(path: string, d: ReportDescriptor<M>): void;
}
