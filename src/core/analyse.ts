/**
 * The analysis (the core's pure check; "review" is the App's process on GitHub around it): descriptor bytes
 * in, located findings out. Parses, detects the variant, runs the rules the
 * configuration leaves on for the path (a rule that is `off` or ignored there never runs; each rule is
 * isolated: one that throws becomes a finding, never a crash), locates the findings once, then applies
 * the configured severities. The schema is validated only when a rule asks for its findings.
 */
import { classify } from "./baseline.js";
import { identify } from "./identity.js";
import { globMatcher, type ResolvedConfig } from "./config.js";
import type { Ef1Source } from "./ef2/migration.js";
import { formatOf } from "./ef2/pairing.js";
import {
  parseEdited,
  parseJsonFast,
  type DuplicateKey,
  type JsonNode,
  type ParseOutcome,
} from "./json/parse.js";
import { LineIndex, locateAll, pointerLocator, type Locatable } from "./locate.js";
import { get, isObj, str } from "./guards.js";
import { escapeSegment } from "./json/pointer.js";
import type { DocumentRule, Rule, SetRule } from "./rule.js";
import { RuleContext, type DocumentState } from "./rule-context.js";
import { formatMessage, toFinding } from "./rule-meta.js";
import { DOCUMENT_RULES, RULES_BY_ID, SET_RULES } from "./rules/index.js";
import type { FileFormat, Finding, Location, RawFinding, Target, Variant } from "./types.js";
import { timed, type AnalysisTiming } from "./timing.js";
import { decodeUtf8, utf8Length } from "./utf8.js";
import { parseYaml } from "./yaml/parse.js";

export interface DescriptorInput {
  /** Path in the repository, as the pull request names it: the finding's identity, messages, set rules. */
  path: string;
  /**
   * The path the configuration's `paths` and `ignore` globs read, when it differs from `path`: relative to
   * the folder holding a nested configuration's `.github/` (the CLI and the editor find those).
   */
  configPath?: string;
  content: string | Uint8Array;
  /** The file's version in the base, when it exists there (its old path when renamed). */
  base?: { path: string; content: string | Uint8Array; size?: number };
  /** True when the change adds the file; undefined when unknown. */
  isNew?: boolean;
  /** The file's real size in bytes when `content` was cut short (a reader stops past the size limit). */
  size?: number;
  /**
   * An extension.yaml (ef2/pairing.ts): the EF1 plugin.json it replaces, as the base holds it, and what the
   * change does with that file (`kept` when unknown). Its metrics are what the migration rules compare with.
   */
  replaces?: {
    path: string;
    content: string | Uint8Array;
    size?: number;
    status?: Ef1Source["status"];
  };
}

/** A file's analysis as an analysis of many descriptors keeps it (AnalysisSession): its findings, not its text. */
export interface FileFindings {
  path: string;
  /**
   * The head's lines that hold a finding with a fix or a suggestion (at most QUOTED_LINE_MAX characters
   * each), for renderers that show the edited line; never the whole text, which an analysis does not keep.
   */
  lines: ReadonlyMap<number, string>;
  variant?: Variant;
  name?: string;
  findings: Finding[];
  /** When a base was compared (rules.md "New and existing findings"): how many base findings head no longer has. */
  fixed?: number;
}

/** A file's analysis with the head text as parsed (decoded), for renderers and `--fix` (analyseDescriptors). */
export interface AnalysedFile extends FileFindings {
  text: string;
}

/** Remote when the name starts with `custom.remote.` or the entity with `CUSTOM_DEVICE` (rules.md "Variant"). */
export function detectVariant(doc: unknown): Variant {
  const name = str(get(doc, "name"));
  const entity = str(get(doc, "entity"));
  return name?.startsWith("custom.remote.") || entity?.startsWith("CUSTOM_DEVICE") ? "remote" : "host";
}

interface Loaded {
  text: string;
  parsed?: ParseOutcome;
  size: number;
  encodingError?: number;
}

function load(
  content: string | Uint8Array,
  maxSize: number,
  knownSize?: number,
  parse: (text: string) => ParseOutcome = parseJsonFast,
): Loaded {
  const size = knownSize ?? (typeof content === "string" ? utf8Length(content, maxSize) : content.length);
  if (size > maxSize) return { text: "", size };
  if (typeof content === "string") return { text: content, size, parsed: parse(content) };
  const { text, badOffset } = decodeUtf8(content);
  if (badOffset !== undefined) return { text, size, encodingError: badOffset };
  return { text, size, parsed: parse(text) };
}

/**
 * The base needs its value and duplicate keys (for its own findings), never positions: the engine's
 * JSON.parse plus a scan, after the same UTF-8 and size checks. When it differs from head inside one
 * top-level member, only that member is parsed (parseEdited) and the others are head's own values.
 */
function loadBase(
  content: string | Uint8Array,
  maxSize: number,
  knownSize: number | undefined,
  head: ParseOutcome | undefined,
): { ok: true; value: unknown; text: string; duplicates: DuplicateKey[] } | { ok: false; why: string } {
  const size = knownSize ?? (typeof content === "string" ? utf8Length(content, maxSize) : content.length);
  if (size > maxSize) return { ok: false, why: `is larger than max_file_size (${maxSize} bytes)` };
  let text: string;
  if (typeof content === "string") text = content;
  else {
    const d = decodeUtf8(content);
    if (d.badOffset !== undefined) return { ok: false, why: "is not UTF-8 text" };
    text = d.text;
  }
  const edited = head && parseEdited(head, text);
  if (edited) return { ok: true, value: edited.value, text, duplicates: edited.duplicates };
  const parsed = parseJsonFast(text);
  if (parsed.ok) return { ok: true, value: parsed.value, text, duplicates: parsed.duplicates };
  try {
    // Strict JSON beyond the nesting limit: still comparable, without findings of its own.
    return { ok: true, value: JSON.parse(text) as unknown, text, duplicates: [] };
  } catch {
    return { ok: false, why: "is not valid JSON" };
  }
}

/** The base's bytes or text equal head's decoded text (a file the change leaves as it is). */
function sameText(base: string | Uint8Array, head: string): boolean {
  if (typeof base === "string") return base === head;
  // Equal texts have between 1 and 3 UTF-8 bytes per UTF-16 unit: decode only then.
  if (base.length < head.length || base.length > 3 * head.length) return false;
  const d = decodeUtf8(base);
  return d.badOffset === undefined && d.text === head;
}

/** The message of a rule that threw (no rule declares it: it is the runner's). */
export const INTERNAL_ERROR = "internalError";

/** Never a crash and never a silent green: a rule that throws fails the file visibly. */
function internalError(rule: Rule, e: unknown): RawFinding {
  const data = { rule: rule.meta.id, error: String(e) };
  return {
    ruleId: rule.meta.id,
    severity: "error",
    message: formatMessage("internal error in rule {{rule}}: {{error}}; please report it", data),
    messageId: INTERNAL_ERROR,
    data,
    pointer: "",
    target: "key",
  };
}

function runRule(rule: DocumentRule, context: RuleContext): RawFinding[] {
  const { timing } = context;
  try {
    return timing ? timing.measure("rule", rule.meta.id, () => context.run(rule)) : context.run(rule);
  } catch (e) {
    return [internalError(rule, e)];
  }
}

/** What a rule checks when it does not say (`meta.files`). */
const DESCRIPTORS: readonly FileFormat[] = ["plugin.json"];

/**
 * The document rules that can report on `path`, a file of `format`: rules of that kind of file, neither `off`
 * nor ignored for it. The others never run.
 */
function activeRules(path: string, config: ResolvedConfig, format: FileFormat): readonly DocumentRule[] {
  const ignored = config.ignore.filter((e) => matchesIgnore(e, path));
  if (ignored.some((e) => !e.rules)) return [];
  // Without an ignore entry for the file (the usual case), the same for every file of its kind: once per configuration.
  let byFormat = activeByConfig.get(config);
  if (!ignored.length && byFormat?.has(format)) return byFormat.get(format) as readonly DocumentRule[];
  const active = DOCUMENT_RULES.filter(
    (r) =>
      (r.meta.files ?? DESCRIPTORS).includes(format) &&
      config.rules[r.meta.id] !== "off" &&
      !ignored.some((e) => e.rules?.includes(r.meta.id)),
  );
  if (!ignored.length) {
    if (!byFormat) activeByConfig.set(config, (byFormat = new Map()));
    byFormat.set(format, active);
  }
  return active;
}
const activeByConfig = new WeakMap<ResolvedConfig, Map<FileFormat, readonly DocumentRule[]>>();

type Internal = AnalysedFile & {
  format: FileFormat;
  configPath: string;
  value?: unknown;
  parsed?: { root: JsonNode; duplicates: readonly DuplicateKey[] } | undefined;
  /** The base's value and its own findings, when it was compared. */
  base?: { value: unknown; findings: RawFinding[] };
  /** Set when a base was compared or the change adds the file: findings get a baseline state. */
  compared?: boolean;
};

/** Both names are strings and differ (when plugin-renamed fires). */
function isRenamed(head: unknown, base: unknown): boolean {
  const before = str(get(base, "name"));
  const after = str(get(head, "name"));
  return before !== undefined && after !== undefined && before !== after;
}

const isChangeRule = (id: string) => RULES_BY_ID.get(id)?.meta.kind === "change";

/**
 * The base's own findings (the same active rules, no change or set rules, no positions), to match head's.
 * A rule that read nothing the base has otherwise (`readsSameIn`) is not run again: its head findings are
 * the base's (test/core/base-reuse.test.ts holds this against running every rule on the base).
 */
function baseFindings(
  loaded: { value: unknown; text: string; duplicates: DuplicateKey[] },
  path: string,
  active: readonly DocumentRule[],
  config: ResolvedConfig,
  head?: { context: RuleContext; rules: readonly DocumentRule[]; results: readonly RawFinding[][] },
  timing?: AnalysisTiming,
): RawFinding[] {
  const context = new RuleContext(
    {
      path,
      text: loaded.text,
      value: loaded.value,
      duplicates: loaded.duplicates,
      variant: detectVariant(loaded.value),
      isNew: false,
      policy: config.policy,
    },
    false,
    head?.context,
    timing,
  );
  const ran = new Map(head?.rules.map((r, i) => [r, i]));
  const out: RawFinding[] = [];
  for (const r of active) {
    if (r.meta.kind === "change") continue;
    const i = ran.get(r);
    const results =
      i !== undefined && head?.context.readsSameIn(r, context)
        ? (head.results[i] as RawFinding[])
        : runRule(r, context);
    for (const f of results) out.push(f);
  }
  return out;
}

export interface AnalysisOptions {
  /**
   * Analyse a changed base in full: parse it whole and run every rule on it, as if head's results could not
   * be reused. Same findings, slower; tests hold the shortcuts against it.
   */
  fullBase?: boolean;
  /** Where the time goes, by rule and step (`TIMING=1`): collected here when given. */
  timing?: AnalysisTiming;
}

/** Analyses one descriptor (without set rules; see analyseDescriptors). */
export function analyseOne(
  input: DescriptorInput,
  config: ResolvedConfig,
  options: AnalysisOptions = {},
): Internal {
  const { timing } = options;
  if (formatOf(input.path) === "extension.yaml") return analyseExtension(input, config, timing);
  const head = timed(timing, "step", "parse", () => load(input.content, config.maxFileSize, input.size));
  const state: DocumentState = {
    path: input.path,
    text: head.text,
    duplicates: [],
    variant: "host",
    policy: config.policy,
  };
  if (input.isNew !== undefined) state.isNew = input.isNew;
  const configPath = input.configPath ?? input.path;
  const active = activeRules(configPath, config, "plugin.json");
  let rules = active.filter((r) => r.meta.kind === "parse");
  let baseline: Internal["base"];
  let sameAsBase = false;
  let changedBase: Parameters<typeof baseFindings>[0] | undefined;
  if (!head.parsed) {
    if (head.encodingError !== undefined) {
      state.parseError = {
        message: "the file is not valid UTF-8 text (JSON must be UTF-8)",
        offset: head.encodingError,
        end: head.encodingError + 1,
      };
    } else {
      state.oversize = { size: head.size, limit: config.maxFileSize };
    }
  } else if (!head.parsed.ok) {
    state.parseError = head.parsed.error;
  } else {
    state.value = head.parsed.value;
    state.duplicates = head.parsed.duplicates;
    state.variant = detectVariant(state.value);
    // The base is read for the change rules and for its own findings (new and existing findings).
    if (input.base && input.isNew !== true && sameText(input.base.content, head.text)) {
      // An unchanged file: the base's own findings are head's (filled in below), so it is not analysed twice.
      state.base = { value: state.value, path: input.base.path };
      baseline = { value: state.value, findings: [] };
      sameAsBase = true;
    } else if (input.base) {
      const headParsed = options.fullBase ? undefined : head.parsed;
      const base = timed(timing, "step", "parse base", () =>
        loadBase(input.base!.content, config.maxFileSize, input.base!.size, headParsed),
      );
      if (base.ok) {
        state.base = { value: base.value, path: input.base.path };
        // Its own findings once head's are known (filled in below: the rules that read only what both share are not run again).
        baseline = { value: base.value, findings: [] };
        changedBase = base;
      } else state.baseError = `\`${input.base.path}\` ${base.why}`;
    }
    const compare = state.base !== undefined || state.baseError !== undefined;
    // To the server a renamed plugin is a new plugin: only plugin-renamed compares it with the old one (rules.md).
    const renamed = state.base !== undefined && isRenamed(state.value, state.base.value);
    rules = active.filter(
      (r) => r.meta.kind !== "change" || (compare && (!renamed || r.meta.id === "plugin-renamed")),
    );
  }
  const reuse = changedBase !== undefined && !options.fullBase;
  const context = new RuleContext(state, reuse, undefined, timing);
  const results = rules.map((r) => runRule(r, context));
  const raw = results.flat();
  if (sameAsBase && baseline) baseline.findings = raw.filter((f) => !isChangeRule(f.ruleId));
  if (changedBase && baseline) {
    baseline.findings = baseFindings(
      changedBase,
      input.path,
      active,
      config,
      reuse ? { context, rules, results } : undefined,
      timing,
    );
  }
  // Positions only when there is something to locate (a few findings are found by scanning the text).
  const parsed = head.parsed?.ok ? head.parsed : undefined;
  const located = raw.length
    ? identify(state.value, input.path, raw, (fs) => locateAll(head.text, parsed, fs), timing)
    : [];
  const analysed: Internal = {
    path: input.path,
    format: "plugin.json",
    configPath,
    text: head.text,
    lines: new Map(),
    findings: applyConfig(configPath, located, config),
  };
  if (baseline) analysed.base = baseline;
  if (input.base || input.isNew === true) analysed.compared = true;
  if (state.value !== undefined) {
    analysed.value = state.value;
    analysed.parsed = parsed;
    analysed.variant = state.variant;
    const name = str(get(state.value, "name"));
    if (name !== undefined) analysed.name = name;
  }
  return analysed;
}

/** Why a file could not be read as text of at most `maxSize` bytes (the base's reasons, loadBase's). */
function unread(loaded: Loaded, maxSize: number): string | undefined {
  if (loaded.parsed) return undefined;
  return loaded.encodingError !== undefined
    ? "is not UTF-8 text"
    : `is larger than max_file_size (${maxSize} bytes)`;
}

/** The EF1 plugin.json an extension.yaml replaces, read as a base is (size, UTF-8, JSON). */
function ef1Source(replaces: NonNullable<DescriptorInput["replaces"]>, config: ResolvedConfig): Ef1Source {
  const { path } = replaces;
  const status = replaces.status ?? "kept";
  const loaded = load(replaces.content, config.maxFileSize, replaces.size);
  const problem = unread(loaded, config.maxFileSize) ?? (loaded.parsed?.ok ? undefined : "is not valid JSON");
  const parsed = loaded.parsed;
  if (problem !== undefined || !parsed?.ok) return { path, problem, status, line: () => 1 };
  let where: ReturnType<typeof pointerLocator> | undefined;
  return {
    path,
    value: parsed.value,
    status,
    line: (pointer) => (where ??= pointerLocator(loaded.text, parsed.root))(pointer).line,
  };
}

/** What the runner knows of an extension.yaml's text (and of the EF1 descriptor it replaces) before rules run. */
function extensionState(
  path: string,
  loaded: Loaded,
  config: ResolvedConfig,
  ef1: Ef1Source | undefined,
): DocumentState {
  const state: DocumentState = {
    path,
    text: loaded.text,
    duplicates: [],
    variant: "host",
    policy: config.policy,
  };
  if (!loaded.parsed) {
    if (loaded.encodingError !== undefined)
      state.parseError = {
        message: "the file is not valid UTF-8 text (an extension.yaml must be UTF-8)",
        offset: loaded.encodingError,
        end: loaded.encodingError + 1,
      };
    else state.oversize = { size: loaded.size, limit: config.maxFileSize };
  } else if (!loaded.parsed.ok) {
    state.parseError = loaded.parsed.error;
  } else {
    state.value = loaded.parsed.value;
    state.duplicates = loaded.parsed.duplicates;
    state.tree = loaded.parsed.root;
    if (ef1) state.ef1 = ef1;
  }
  return state;
}

/**
 * Analyses an EF2 extension.yaml: its own rules (YAML, version), and, beside the EF1 plugin.json it replaces,
 * the migration rules. Its base version, when the base has one, is analysed against the same plugin.json, so
 * that what it already lacked is an existing finding, as in a descriptor (rules.md "New and existing findings").
 */
function analyseExtension(input: DescriptorInput, config: ResolvedConfig, timing?: AnalysisTiming): Internal {
  const configPath = input.configPath ?? input.path;
  const active = activeRules(configPath, config, "extension.yaml");
  const ef1 = input.replaces && ef1Source(input.replaces, config);
  const readYaml = (content: string | Uint8Array, size?: number) =>
    timed(timing, "step", "parse", () => load(content, config.maxFileSize, size, parseYaml));
  const rulesFor = (state: DocumentState) =>
    active.filter(
      (r) =>
        r.meta.kind === "parse" ||
        (state.value !== undefined && (r.meta.kind !== "migration" || state.ef1 !== undefined)),
    );
  const head = readYaml(input.content, input.size);
  const state = extensionState(input.path, head, config, ef1);
  if (input.isNew !== undefined) state.isNew = input.isNew;
  const context = new RuleContext(state, false, undefined, timing);
  const raw = rulesFor(state).flatMap((r) => runRule(r, context));
  let baseline: Internal["base"];
  if (input.base && input.isNew !== true && state.value !== undefined) {
    if (sameText(input.base.content, head.text)) baseline = { value: state.value, findings: raw };
    else {
      const before = extensionState(input.path, readYaml(input.base.content, input.base.size), config, ef1);
      before.isNew = false;
      if (before.value !== undefined) {
        const there = new RuleContext(before, false, undefined, timing);
        baseline = { value: before.value, findings: rulesFor(before).flatMap((r) => runRule(r, there)) };
      }
    }
  }
  const parsed = head.parsed?.ok ? head.parsed : undefined;
  const located = raw.length
    ? identify(state.value, input.path, raw, (fs) => locateAll(head.text, parsed, fs, "yaml"), timing)
    : [];
  const analysed: Internal = {
    path: input.path,
    format: "extension.yaml",
    configPath,
    text: head.text,
    lines: new Map(),
    findings: applyConfig(configPath, located, config),
  };
  if (baseline) analysed.base = baseline;
  if (input.base || input.isNew === true) analysed.compared = true;
  if (state.value !== undefined) {
    analysed.value = state.value;
    const name = str(get(state.value, "name"));
    if (name !== undefined) analysed.name = name;
  }
  return analysed;
}

const byPosition = (a: Finding, b: Finding) =>
  a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId);

/** Compiled `ignore` globs, once per configuration entry rather than once per file. */
const ignoreMatchers = new WeakMap<object, (path: string) => boolean>();
function matchesIgnore(entry: ResolvedConfig["ignore"][number], path: string): boolean {
  let m = ignoreMatchers.get(entry);
  if (!m) {
    m = globMatcher(entry.paths);
    ignoreMatchers.set(entry, m);
  }
  return m(path);
}

/** Severity overrides, `off`, and `ignore` globs. */
function filterConfigured<T extends RawFinding>(path: string, findings: T[], config: ResolvedConfig): T[] {
  const ignored = config.ignore.filter((e) => matchesIgnore(e, path));
  const out: T[] = [];
  for (const f of findings) {
    const configured = config.rules[f.ruleId];
    if (configured === "off") continue;
    if (ignored.some((e) => !e.rules || e.rules.includes(f.ruleId))) continue;
    out.push(configured ? { ...f, severity: configured } : f);
  }
  return out;
}

/** Severity overrides, `off`, and `ignore` globs; then a stable order (line, column, rule id). */
export function applyConfig(path: string, findings: Finding[], config: ResolvedConfig): Finding[] {
  return filterConfigured(path, findings, config).sort(byPosition);
}

/** A set rule over some documents; a rule that throws reports an internal error on each of `paths`. */
function runSetRule(
  rule: SetRule,
  documents: { path: string; value: unknown }[],
  paths: readonly string[],
): { path: string; finding: RawFinding }[] {
  const results: { path: string; finding: RawFinding }[] = [];
  try {
    rule.checkSet({
      documents,
      report: (path, d) => results.push({ path, finding: toFinding(rule.meta, d) }),
    });
  } catch (e) {
    return paths.map((path) => ({ path, finding: internalError(rule, e) }));
  }
  return results;
}

/** A line of a file quoted beside a finding (a suggested edit) at most this long; longer ones are not kept. */
export const QUOTED_LINE_MAX = 20_000;

/**
 * A copy of `s` that holds nothing else: V8 keeps the string a slice was cut from, so a line cut from a
 * file's text would keep the whole text alive as long as the line.
 */
const own = (s: string): string => JSON.parse(JSON.stringify(s)) as string;

/** The set rules on in this configuration, and the top-level members they read. */
function setRulesOn(config: ResolvedConfig): { rules: readonly SetRule[]; members: readonly string[] } {
  const rules = SET_RULES.filter((r) => config.rules[r.meta.id] !== "off");
  return { rules, members: [...new Set(rules.flatMap((r) => r.meta.members))] };
}

/** The members of a document the set rules read (rule.ts SetRule): a small object, whatever the document. */
function project(value: unknown, members: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isObj(value)) for (const m of members) if (Object.hasOwn(value, m)) out[m] = value[m];
  return out;
}

const placeKey = (target: Target, pointer: string) => `${target}:${pointer}`;

/**
 * What an analysed descriptor keeps until the analysis ends: its findings (with their baseline once the set
 * rules' are in), the lines its edits quote, and for the set rules only the members they read of head and
 * base, and where those members are in head. Never its text, bytes or parsed tree.
 */
interface Held {
  file: FileFindings;
  configPath: string;
  compared: boolean;
  /** For the set rules: head's members (when head parsed), base's (when compared), where they are. */
  set?: { value: Record<string, unknown>; base?: Record<string, unknown>; at: Map<string, Location> };
  /** Where an internal error of a set rule is placed (the document's start), when set rules are on. */
  root?: Location;
}

/**
 * An analysis of descriptors checked together, in bounded memory: `add` analyses some (each on its own, as
 * `analyseOne`, marking its findings new or existing) and keeps of each only what `Held` says; `finish`
 * runs the set rules (duplicate-plugin-name) over every descriptor added, on the members they read, and
 * returns every file's findings. The inputs given to `add` (bytes, texts, trees) are not kept: a caller
 * that reads descriptors a batch at a time holds one batch at a time. The result is exactly
 * `analyseDescriptors` of all the inputs at once (test/core/analysis-session.test.ts).
 */
export class AnalysisSession {
  private readonly held: Held[] = [];
  private readonly setRules: ReturnType<typeof setRulesOn>;

  constructor(
    private readonly config: ResolvedConfig,
    private readonly options: AnalysisOptions = {},
  ) {
    this.setRules = setRulesOn(config);
  }

  /**
   * Analyses these descriptors now (without set rules), keeping only what the rest of the analysis needs.
   * Returns their head texts as parsed, in order, for a caller that shows them (the session keeps none).
   */
  add(inputs: Iterable<DescriptorInput>): string[] {
    const texts: string[] = [];
    const { timing } = this.options;
    for (const input of inputs) {
      // "other": the runner's own time, outside the steps and rules measured inside it.
      const analysed = timed(timing, "step", "other", () => analyseOne(input, this.config, this.options));
      this.held.push(timed(timing, "step", "other", () => this.hold(analysed)));
      texts.push(analysed.text);
    }
    return texts;
  }

  /** The set rules across everything added, then every file's findings, in the order added. */
  finish(): FileFindings[] {
    return timed(this.options.timing, "step", "set rules", () => this.finishSet());
  }

  private finishSet(): FileFindings[] {
    const { config } = this;
    const withValue = this.held.filter((h) => h.set);
    const members = withValue.map((h) => ({ path: h.file.path, value: h.set!.value }));
    // The bases checked together too, so that a set finding the bases already had is existing.
    const baseMembers = withValue.flatMap((h) =>
      h.set!.base ? [{ path: h.file.path, value: h.set!.base }] : [],
    );
    const found = new Map<Held, { head: RawFinding[]; base: RawFinding[] }>();
    const of = (h: Held) => {
      let f = found.get(h);
      if (!f) found.set(h, (f = { head: [], base: [] }));
      return f;
    };
    // A path given twice (the CLI named one file twice) gets its findings on each of its analyses.
    const byPath = new Map<string, Held[]>();
    for (const h of this.held) byPath.set(h.file.path, [...(byPath.get(h.file.path) ?? []), h]);
    for (const rule of this.setRules.rules) {
      const paths = this.held.map((h) => h.file.path);
      for (const { path, finding } of runSetRule(rule, members, paths))
        for (const h of byPath.get(path) ?? []) of(h).head.push(finding);
      if (!baseMembers.length) continue;
      for (const { path, finding } of runSetRule(rule, baseMembers, []))
        for (const h of byPath.get(path) ?? [])
          if (h.set?.base) of(h).base.push(...filterConfigured(h.configPath, [finding], config));
    }
    for (const [h, { head, base }] of found) {
      const value = h.set?.value ?? {};
      const located = identify(value, h.file.path, head, (fs) => fs.map((f) => placeOf(h, f)));
      const findings = applyConfig(h.configPath, located, config);
      const { findings: marked, fixed } = withBaseline(h.file.path, findings, config, {
        compared: h.compared,
        value,
        ...(h.set?.base ? { base: { value: h.set.base, findings: base } } : {}),
      });
      if (marked.length) h.file.findings = [...h.file.findings, ...marked].sort(byPosition);
      if (fixed) h.file.fixed = (h.file.fixed ?? 0) + fixed;
    }
    return this.held.map((h) => h.file);
  }

  private hold(analysed: Internal): Held {
    const { config } = this;
    const { findings, fixed } = timed(this.options.timing, "step", "baseline", () =>
      withBaseline(analysed.path, analysed.findings, config, {
        compared: analysed.compared === true,
        value: analysed.value,
        ...(analysed.base ? { base: analysed.base } : {}),
      }),
    );
    const edited = findings.filter((f) => (f.fix ?? f.suggestions?.[0]) && f.line === f.endLine);
    const lines = new Map<number, string>();
    if (edited.length) {
      const index = new LineIndex(analysed.text);
      for (const { line } of edited) {
        const text = lines.has(line) ? undefined : index.lineText(line);
        if (text !== undefined && text.length <= QUOTED_LINE_MAX) lines.set(line, own(text));
      }
    }
    const out: FileFindings = { path: analysed.path, lines, findings };
    if (analysed.variant) out.variant = analysed.variant;
    if (analysed.name !== undefined) out.name = analysed.name;
    if (fixed !== undefined) out.fixed = fixed;
    const held: Held = { file: out, configPath: analysed.configPath, compared: analysed.compared === true };
    // Set rules compare descriptors: an extension.yaml is none.
    if (!this.setRules.rules.length || analysed.format !== "plugin.json") return held;
    // Where the set rules may report (their members, the document's start), while the text is here: one scan
    // that stops at the last member (the document's start is line 1, whatever follows it).
    const members = analysed.value === undefined ? [] : this.setRules.members;
    const places: Locatable[] = [{ pointer: "", target: "key" }];
    for (const m of members)
      for (const target of ["key", "value"] as const)
        places.push({ pointer: `/${escapeSegment(m)}`, target });
    const located = timed(this.options.timing, "step", "locate", () =>
      locateAll(analysed.text, analysed.parsed, places),
    );
    held.root = located[0] as Location;
    if (analysed.value !== undefined) {
      const at = new Map<string, Location>();
      places.forEach((p, i) => i > 0 && at.set(placeKey(p.target, p.pointer), located[i] as Location));
      held.set = { value: project(analysed.value, this.setRules.members), at };
      if (analysed.base) held.set.base = project(analysed.base.value, this.setRules.members);
    }
    return held;
  }
}

const START: Location = { line: 1, column: 1, endLine: 1, endColumn: 1 };

/** Where a set rule's finding is: at its member (rule.ts SetRule), or the document's start (the root too). */
function placeOf(h: Held, f: RawFinding): Location {
  const member = /^\/[^/]*/.exec(f.pointer)?.[0] ?? "";
  return h.set?.at.get(placeKey(f.target, member)) ?? h.root ?? START;
}

/** Analyses descriptors checked together: each on its own, then the rules across them (duplicate-plugin-name). */
export function analyseDescriptors(
  inputs: readonly DescriptorInput[],
  config: ResolvedConfig,
  options: AnalysisOptions = {},
): AnalysedFile[] {
  const session = new AnalysisSession(config, options);
  const texts = session.add(inputs);
  return session.finish().map((r, i) => ({ ...r, text: texts[i] as string }));
}

/**
 * Marks each finding new or existing when a base was compared (or the file is added: all new); change
 * rules only ever produce new findings. `existing: hide` leaves the existing ones out. Findings are matched
 * only with base findings of their own rule (identity.ts), so a file's document findings and its set
 * findings are marked apart, each against the base's of the same rules.
 */
function withBaseline(
  path: string,
  findings: readonly Finding[],
  config: ResolvedConfig,
  file: { compared: boolean; value: unknown; base?: { value: unknown; findings: RawFinding[] } },
): { findings: Finding[]; fixed?: number } {
  if (!file.compared) return { findings: [...findings] };
  const matchable = findings.filter((f) => !isChangeRule(f.ruleId));
  const { states, absent } = file.base
    ? classify(path, { value: file.value, findings: matchable }, file.base)
    : { states: matchable.map(() => "new" as const), absent: 0 };
  const state = new Map(matchable.map((f, i) => [f, states[i] ?? "new"]));
  const out: Finding[] = [];
  for (const f of findings) {
    const baseline = state.get(f) ?? "new";
    if (baseline === "existing" && config.existing === "hide") continue;
    out.push({ ...f, baseline });
  }
  return { findings: out, fixed: absent };
}
