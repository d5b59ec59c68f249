/**
 * The analysis (the core's pure check; "review" is the App's process on GitHub around it): bytes of a
 * descriptor or an extension in, located findings out, on one path for both (formats.ts: a parser per
 * format into the same located tree; `meta.files`: the rules of each kind). Parses, runs the rules the
 * configuration leaves on for the path (a rule that is `off` or ignored there never runs; each rule is
 * isolated: one that throws becomes a finding, never a crash), locates the findings once, then applies
 * the configured severities. The schema is validated only when a rule asks for its findings.
 */
import { classify } from "./baseline.js";
import { identify } from "./identity.js";
import { globMatcher, type ResolvedConfig } from "./config.js";
import type { Ef1Source } from "./ef2/migration.js";
import { basePackage, extensionPackage, type ExtensionFiles } from "./ef2/package.js";
import { hasPlaceholder } from "./ef2/placeholders.js";
import { isExtensionDocument } from "./ef2/extension-document.js";
import { formatOf } from "./ef2/pairing.js";
import { detectVariant, FORMATS, load, loadBase, sameText, unread, type Loaded } from "./formats.js";
import { parseJsonFast, type DuplicateKey, type JsonNode } from "./json/parse.js";
import { LineIndex, locateAll, pointerLocator, type Locatable } from "./locate.js";
import { get, isObj, str } from "./guards.js";
import { escapeSegment } from "./json/pointer.js";
import type { DocumentRule, Rule, SetRule } from "./rule.js";
import { RuleContext, type DocumentState, type SetMember } from "./rule-context.js";
import { formatMessage, toFinding } from "./rule-meta.js";
import { DOCUMENT_RULES, RULES_BY_ID, SET_RULES } from "./rules/index.js";
import type { FileFormat, Finding, Location, RawFinding, Target, Variant } from "./types.js";
import { timed, type AnalysisTiming } from "./timing.js";
import { quote } from "./quote.js";

export interface DescriptorInput {
  /** Path in the repository, as the pull request names it: the finding's identity, messages, set rules. */
  path: string;
  /**
   * The path the configuration's `paths` and `ignore` globs read, when it differs from `path`: relative to
   * the folder holding a nested configuration's `.github/` (the CLI and the editor find those).
   */
  configPath?: string;
  content: string | Uint8Array;
  /**
   * The file's version in the base, when it exists there (its old path when renamed). `configPath`: the path
   * the configuration's `ignore` globs read at the base, when it differs from head's (a renamed file's old
   * path): a finding the base's review ignored there was never seen, so it is not existing.
   */
  base?: { path: string; content: string | Uint8Array; size?: number; configPath?: string };
  /** True when the change adds the file; undefined when unknown. */
  isNew?: boolean;
  /** The file's real size in bytes when `content` was cut short (a reader stops past the size limit). */
  size?: number;
  /** `size` is only a lower bound: a pipe read no further than the limit and a byte holds at least that much. */
  sizeIsLowerBound?: boolean;
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
  /**
   * An extension.yaml: the files of its extension, as the caller listed and read them (ef2/package.ts), for
   * the rules that check what it references (the Python module's folder, the activation schema) and the
   * version rule (a referenced file changed). Without it, those checks are not made.
   */
  files?: ExtensionFiles;
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
  /**
   * An extension.yaml that is another tool's file (ef2/extension-document.ts), head and base: no rule ran, and
   * callers leave it out of what they report as reviewed, saying so (NOT_AN_EXTENSION).
   */
  notAnExtension?: true;
}

/** A file's analysis with the head text as parsed (decoded), for renderers and `--fix` (analyseDescriptors). */
export interface AnalysedFile extends FileFindings {
  text: string;
}

export { detectVariant };

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

function runRule(rule: DocumentRule, context: RuleContext): readonly RawFinding[] {
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

/**
 * Which of the active rules run on a document: `unparsed` (it did not parse) the parse rules; `alone` (no base)
 * no change rule; `compared` every change rule; `renamed` (to the server another plugin) plugin-renamed of
 * them; `base` (the base's own findings) the same as `compared`, the change rules being skipped by the caller.
 * The migration rules only beside an EF1 source (`ef1`). Once per list of active rules (a configuration's).
 */
type Selection = "unparsed" | "alone" | "compared" | "renamed" | "base";
function ruleSelection(
  active: readonly DocumentRule[],
  selection: Selection,
  ef1: boolean,
): readonly DocumentRule[] {
  let byKey = selections.get(active);
  if (!byKey) selections.set(active, (byKey = new Map()));
  const key = `${selection}:${ef1}`;
  let rules = byKey.get(key);
  if (!rules) {
    rules = active.filter((r) => {
      const { kind, id } = r.meta;
      if (selection === "unparsed") return kind === "parse";
      if (kind === "migration" && !ef1) return false;
      if (kind !== "change") return true;
      return (
        selection === "compared" ||
        selection === "base" ||
        (selection === "renamed" && id === "plugin-renamed")
      );
    });
    byKey.set(key, rules);
  }
  return rules;
}
const selections = new WeakMap<readonly DocumentRule[], Map<string, readonly DocumentRule[]>>();

/** The ids of a list of rules, once per list. */
function idsOf(rules: readonly DocumentRule[]): ReadonlySet<string> {
  let ids = idSets.get(rules);
  if (!ids) idSets.set(rules, (ids = new Set(rules.map((r) => r.meta.id))));
  return ids;
}
const idSets = new WeakMap<readonly DocumentRule[], ReadonlySet<string>>();

type Internal = AnalysedFile & {
  format: FileFormat;
  configPath: string;
  value?: unknown;
  parsed?: { root: JsonNode; duplicates: readonly DuplicateKey[] } | undefined;
  /**
   * The base's value and its own findings, when it was compared; `shared`: the rules whose base findings are
   * head's own finding objects (not run again on the base: baseline.ts matches them without identifying them).
   */
  base?: { value: unknown; findings: RawFinding[]; shared?: ReadonlySet<string> };
  /** The path the base's `ignore` globs read (DescriptorInput's `base.configPath`), when it differs. */
  baseConfigPath?: string;
  /** Set when a base was compared or the change adds the file: findings get a baseline state. */
  compared?: boolean;
  /** Where the set rules may report (`setPlaces`), located in the findings' own scan of the text. */
  placed?: { places: readonly Locatable[]; at: Location[] };
};

/** Both names are strings and differ (when plugin-renamed fires). */
function isRenamed(head: unknown, base: unknown): boolean {
  const before = str(get(base, "name"));
  const after = str(get(head, "name"));
  // A build template's name (`<%=extensionName%>`) is the build's to write, not a rename.
  return (
    before !== undefined &&
    after !== undefined &&
    before !== after &&
    !hasPlaceholder(before) &&
    !hasPlaceholder(after)
  );
}

const isChangeRule = (id: string) => RULES_BY_ID.get(id)?.meta.kind === "change";

/**
 * The base's own findings (the same active rules, no change or set rules, no positions), to match head's.
 * A rule that read nothing the base has otherwise (`readsSameIn`) is not run again: its head findings are
 * the base's (test/core/base-reuse.test.ts holds this against running every rule on the base).
 */
function baseFindings(
  state: DocumentState,
  active: readonly DocumentRule[],
  head?: {
    context: RuleContext;
    rules: readonly DocumentRule[];
    results: readonly (readonly RawFinding[])[];
  },
  timing?: AnalysisTiming,
): { findings: RawFinding[]; shared: Set<string> } {
  const context = new RuleContext(state, false, head?.context, timing);
  const out: RawFinding[] = [];
  const shared = new Set<string>();
  // Head's rules are `active`'s (the catalog's) order: each is looked for after the last one found, not
  // through a map built per file. One not found there (in another order) is run again: the same findings.
  let next = 0;
  for (const r of active) {
    if (r.meta.kind === "change") continue;
    const i = head ? head.rules.indexOf(r, next) : -1;
    if (i >= 0) next = i + 1;
    let results: readonly RawFinding[];
    if (i >= 0 && head?.context.readsSameIn(r, context, i)) {
      results = head.results[i] as readonly RawFinding[];
      shared.add(r.meta.id);
    } else results = runRule(r, context);
    for (const f of results) out.push(f);
  }
  return { findings: out, shared };
}

export interface AnalysisOptions {
  /**
   * Analyse a changed base in full: parse it whole and run every rule on it, as if head's results could not
   * be reused. Same findings, slower; tests hold the shortcuts against it.
   */
  fullBase?: boolean;
  /** Where the time goes, by rule and step (`TIMING=1`): collected here when given. */
  timing?: AnalysisTiming;
  /**
   * Each file's head as the analysis read it (size, UTF-8, parse), for a caller that reads more of it than its
   * findings (the audit: an extension's name and data source), so that no file is parsed twice.
   */
  onRead?: (path: string, read: Loaded) => void;
}

/**
 * What an extension.yaml's rules read beside its text: the EF1 plugin.json it replaces (the migration rules),
 * the files of its extension (ef2/package.ts), and, from its parse, its tree and a lenient read.
 */
function extensionFacts(
  state: DocumentState,
  parsed: { root?: JsonNode; lenient?: DocumentState["lenientRead"] },
  ef1: Ef1Source | undefined,
  input: DescriptorInput,
  config: ResolvedConfig,
  base = false,
): void {
  if (parsed.root) state.tree = parsed.root;
  if (parsed.lenient) state.lenientRead = parsed.lenient;
  if (ef1) state.ef1 = ef1;
  if (!input.files) return;
  // The base's findings from the base's files: head's would make a file broken by the change an existing finding.
  const pkg = base
    ? basePackage(input.path, input.files, config.maxFileSize)
    : extensionPackage(input.path, input.files, config.maxFileSize);
  if (pkg) state.package = pkg;
}

/**
 * A file's size limit: `max_file_size`, or for an extension.yaml its own (`max_extension_size`) when that is the
 * smaller (YAML costs far more to read than JSON of its size; the readers download no file past max_file_size).
 */
export function sizeLimit(
  config: Pick<ResolvedConfig, "maxFileSize" | "maxExtensionSize">,
  extension: boolean,
): { limit: number; setting: "max_extension_size" | "max_file_size" } {
  return extension && config.maxExtensionSize <= config.maxFileSize
    ? { limit: config.maxExtensionSize, setting: "max_extension_size" }
    : { limit: config.maxFileSize, setting: "max_file_size" };
}

/**
 * Analyses one file (without set rules; see analyseDescriptors), of either kind, on one path: its format's
 * parser gives the value and the tree of offsets (formats.ts), the rules of its kind run (`meta.files`), the
 * base is compared when there is one (a renamed document only by plugin-renamed: to the server it is another),
 * and the base's own findings are matched with head's (rules that read nothing the base has otherwise are not
 * run on it again).
 */
export function analyseOne(
  input: DescriptorInput,
  config: ResolvedConfig,
  options: AnalysisOptions = {},
  setMembers?: readonly string[],
): Internal {
  const { timing } = options;
  const format = FORMATS[formatOf(input.path)];
  const extension = format.keepsTree;
  const size = sizeLimit(config, extension);
  const head = timed(timing, "step", "parse", () =>
    load(input.content, size.limit, input.size, format.parse),
  );
  options.onRead?.(input.path, head);
  const configPath = input.configPath ?? input.path;
  const base = input.base;
  if (
    extension &&
    !saysExtension(
      head,
      base &&
        (() =>
          timed(timing, "step", "parse base", () => load(base.content, size.limit, base.size, format.parse))),
    )
  ) {
    const { path } = input;
    return {
      path,
      format: format.name,
      configPath,
      text: head.text,
      lines: new Map(),
      findings: [],
      notAnExtension: true,
    };
  }
  const state: DocumentState = {
    path: input.path,
    text: head.text,
    duplicates: [],
    variant: "host",
    policy: config.policy,
  };
  if (extension) state.format = format.name;
  if (input.isNew !== undefined) state.isNew = input.isNew;
  const active = activeRules(configPath, config, format.name);
  // The rules the base's review ran on the base: a renamed file's old path may have been ignored there.
  const baseConfigPath = input.base?.configPath ?? configPath;
  const activeAtBase =
    baseConfigPath === configPath ? active : activeRules(baseConfigPath, config, format.name);
  const ef1 = extension && input.replaces ? ef1Source(input.replaces, config) : undefined;
  let rules: readonly DocumentRule[] | undefined;
  let baseline: Internal["base"];
  let sameAsBase = false;
  let changedBase: DocumentState | undefined;
  if (!head.parsed) {
    if (head.encodingError !== undefined) {
      state.parseError = { message: format.notUtf8, offset: head.encodingError, end: head.encodingError + 1 };
    } else {
      state.oversize = {
        size: head.size,
        ...size,
        ...(input.sizeIsLowerBound ? { sizeIsLowerBound: true } : {}),
      };
    }
  } else if (!head.parsed.ok) {
    state.parseError = head.parsed.error;
  } else {
    state.value = head.parsed.value;
    state.duplicates = head.parsed.duplicates;
    state.variant = format.variant(state.value);
    if (extension) extensionFacts(state, head.parsed, ef1, input, config);
    // The base is read for the change rules and for its own findings (new and existing findings).
    if (input.base && input.isNew !== true && !input.files && sameText(input.base.content, head.text)) {
      // An unchanged file: the base's own findings are head's (filled in below), so it is not analysed twice.
      // Not an extension with its files: those may have changed beside it.
      state.base = { value: state.value, path: input.base.path };
      baseline = { value: state.value, findings: [] };
      sameAsBase = true;
    } else if (input.base) {
      const headParsed = options.fullBase ? undefined : head.parsed;
      const baseInput = input.base;
      const base = timed(timing, "step", "parse base", () =>
        loadBase(format, baseInput.content, size.limit, baseInput.size, headParsed),
      );
      if (base.ok && extension && !isExtensionDocument(base.value)) {
        // Another tool's extension.yaml at the base (ef2/extension-document.ts): its review left it out, so
        // nothing of it was reviewed: the extension is reviewed as added, every finding new.
        state.isNew = true;
      } else if (base.ok) {
        state.base = { value: base.value, path: input.base.path };
        // Its own findings once head's are known (filled in below: the rules that read only what both share are not run again).
        baseline = { value: base.value, findings: [] };
        changedBase = {
          path: input.path,
          text: base.text,
          value: base.value,
          duplicates: base.duplicates,
          variant: format.variant(base.value),
          isNew: false,
          policy: config.policy,
        };
        if (extension) {
          changedBase.format = format.name;
          extensionFacts(changedBase, base, ef1, input, config, true);
        }
      } else state.baseError = `${quote(input.base.path)} ${base.why}`;
    }
    const compare = state.base !== undefined || state.baseError !== undefined;
    // To the server a renamed plugin is a new plugin: only plugin-renamed compares it with the old one (rules.md).
    const renamed = state.base !== undefined && isRenamed(state.value, state.base.value);
    rules = ruleSelection(
      active,
      compare ? (renamed ? "renamed" : "compared") : "alone",
      state.ef1 !== undefined,
    );
  }
  rules ??= ruleSelection(active, "unparsed", false);
  const reuse = changedBase !== undefined && !options.fullBase;
  const context = new RuleContext(state, reuse, undefined, timing);
  const results = rules.map((r) => runRule(r, context));
  // Concatenated in a loop: Array.prototype.flat cost more here than most rules do.
  const raw: RawFinding[] = [];
  for (const found of results) for (const f of found) raw.push(f);
  if (sameAsBase && baseline) {
    const ranAtBase = idsOf(activeAtBase);
    baseline.findings = raw.filter((f) => !isChangeRule(f.ruleId) && ranAtBase.has(f.ruleId));
    // Head's very findings: every rule's are shared.
    baseline.shared = ranAtBase;
  }
  if (changedBase && baseline) {
    const migration = ruleSelection(activeAtBase, "base", changedBase.ef1 !== undefined);
    ({ findings: baseline.findings, shared: baseline.shared } = baseFindings(
      changedBase,
      migration,
      reuse ? { context, rules, results } : undefined,
      timing,
    ));
  }
  // Positions only when there is something to locate (a few findings are found by scanning the text).
  const parsed = head.parsed?.ok ? head.parsed : undefined;
  // The set rules' places (AnalysisSession.hold) in the same scan of the text as the findings, not a second one.
  const places = setMembers && setPlaces(state.value === undefined ? NO_MEMBERS : setMembers);
  let placed: Internal["placed"];
  const locate = (fs: readonly Locatable[]): Location[] => {
    if (!places) return locateAll(head.text, parsed, fs, format.locate);
    const at = locateAll(head.text, parsed, fs.length ? [...fs, ...places] : places, format.locate);
    placed = { places, at: fs.length ? at.slice(fs.length) : at };
    return at;
  };
  const located = raw.length
    ? identify(state.value, input.path, raw, locate, timing)
    : places
      ? (timed(timing, "step", "locate", () => locate([])), [])
      : [];
  const analysed: Internal = {
    path: input.path,
    format: format.name,
    configPath,
    text: head.text,
    lines: new Map(),
    findings: applyConfig(configPath, located, config),
  };
  if (baseline) analysed.base = baseline;
  if (placed) analysed.placed = placed;
  if (baseline && baseConfigPath !== configPath) analysed.baseConfigPath = baseConfigPath;
  if (input.base || input.isNew === true) analysed.compared = true;
  if (state.value !== undefined) {
    analysed.value = state.value;
    analysed.parsed = parsed;
    if (!extension) analysed.variant = state.variant;
    const name = str(get(state.value, "name"));
    if (name !== undefined) analysed.name = name;
  }
  return analysed;
}

/** The EF1 plugin.json an extension.yaml replaces, read as a base is (size, UTF-8, JSON). */
function ef1Source(replaces: NonNullable<DescriptorInput["replaces"]>, config: ResolvedConfig): Ef1Source {
  const { path } = replaces;
  const status = replaces.status ?? "kept";
  const map = config.migrationMap?.map;
  const loaded = load(replaces.content, config.maxFileSize, replaces.size, parseJsonFast);
  const problem = unread(loaded, config.maxFileSize) ?? (loaded.parsed?.ok ? undefined : "is not valid JSON");
  const parsed = loaded.parsed;
  if (problem !== undefined || !parsed?.ok)
    return { path, problem, status, line: () => 1, ...(map ? { map } : {}) };
  let where: ReturnType<typeof pointerLocator> | undefined;
  return {
    path,
    value: parsed.value,
    status,
    ...(map ? { map } : {}),
    line: (pointer) => (where ??= pointerLocator(loaded.text, parsed.root))(pointer).line,
  };
}

/**
 * Is an extension.yaml to be reviewed as an extension? When head says it is one; when head says it is not, only
 * if the base said it was (a change that takes away what made it one is reviewed, and told); when head cannot
 * be read as YAML (or is too large), unless the base was plainly another tool's file: a file that does not
 * parse may be an extension, and a broken one must not pass.
 */
function saysExtension(head: Loaded, base: (() => Loaded) | undefined): boolean {
  const says = (l: Loaded) => (l.parsed?.ok ? isExtensionDocument(l.parsed.value) : undefined);
  const now = says(head);
  if (now === true) return true;
  const before = base && says(base());
  return now === false ? before === true : before !== false;
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
  documents: readonly SetMember[],
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
  // Once per configuration, not once per analysis (a caller analyses one file at a time).
  let on = setRulesByConfig.get(config);
  if (!on) {
    const rules = SET_RULES.filter((r) => config.rules[r.meta.id] !== "off");
    on = { rules, members: [...new Set(rules.flatMap((r) => r.meta.members))] };
    setRulesByConfig.set(config, on);
  }
  return on;
}
const setRulesByConfig = new WeakMap<
  ResolvedConfig,
  { rules: readonly SetRule[]; members: readonly string[] }
>();

/** The members of a document the set rules read (rule.ts SetRule): a small object, whatever the document. */
function project(value: unknown, members: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isObj(value)) for (const m of members) if (Object.hasOwn(value, m)) out[m] = value[m];
  return out;
}

const placeKey = (target: Target, pointer: string) => `${target}:${pointer}`;

const NO_MEMBERS: readonly string[] = [];

/**
 * Where the set rules may report in a document: its start, then each member they read, key and value. Once
 * per list of members (a configuration's).
 */
function setPlaces(members: readonly string[]): readonly Locatable[] {
  let places = placesByMembers.get(members);
  if (!places) {
    const out: Locatable[] = [{ pointer: "", target: "key" }];
    for (const m of members)
      for (const target of ["key", "value"] as const) out.push({ pointer: `/${escapeSegment(m)}`, target });
    placesByMembers.set(members, (places = out));
  }
  return places;
}
const placesByMembers = new WeakMap<readonly string[], readonly Locatable[]>();

/**
 * What an analysed descriptor keeps until the analysis ends: its findings (with their baseline once the set
 * rules' are in), the lines its edits quote, and for the set rules only the members they read of head and
 * base, and where those members are in head. Never its text, bytes or parsed tree.
 */
interface Held {
  file: FileFindings;
  configPath: string;
  /** The path the base's `ignore` globs read, when it differs (a renamed file's old path). */
  baseConfigPath?: string;
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
      const analysed = timed(timing, "step", "other", () =>
        analyseOne(input, this.config, this.options, this.setMembersOf(input.path)),
      );
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
    const member = (h: Held, value: Record<string, unknown>): SetMember => ({
      path: h.file.path,
      format: formatOf(h.file.path),
      value,
    });
    const allMembers = withValue.map((h) => member(h, h.set!.value));
    // The bases checked together too, so that a set finding the bases already had is existing.
    const allBaseMembers = withValue.flatMap((h) => (h.set!.base ? [member(h, h.set!.base)] : []));
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
      // A rule compares the documents of its kinds of file alone (`meta.files`).
      const files = rule.meta.files ?? DESCRIPTORS;
      const members = allMembers.filter((m) => files.includes(m.format));
      const baseMembers = allBaseMembers.filter((m) => files.includes(m.format));
      // A set rule compares documents with each other (rule.ts SetRule): one alone, head's or base's, gives it
      // nothing to compare.
      if (members.length < 2 && baseMembers.length < 2) continue;
      const paths = this.held.filter((h) => files.includes(formatOf(h.file.path))).map((h) => h.file.path);
      for (const { path, finding } of runSetRule(rule, members, paths))
        for (const h of byPath.get(path) ?? []) of(h).head.push(finding);
      if (baseMembers.length < 2) continue;
      for (const { path, finding } of runSetRule(rule, baseMembers, []))
        for (const h of byPath.get(path) ?? [])
          if (h.set?.base)
            of(h).base.push(...filterConfigured(h.baseConfigPath ?? h.configPath, [finding], config));
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

  /** The members whose places the set rules need of a file at `path` (hold), or undefined when none run on it. */
  private setMembersOf(path: string): readonly string[] | undefined {
    return this.setRulesCompare(FORMATS[formatOf(path)].name) ? this.setRules.members : undefined;
  }

  /** Set rules compare the documents of their kind (`meta.files`): a descriptor's name is not an extension's. */
  private setRulesCompare(format: FileFormat): boolean {
    return this.setRules.rules.some((r) => (r.meta.files ?? DESCRIPTORS).includes(format));
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
    if (analysed.notAnExtension) out.notAnExtension = true;
    const held: Held = { file: out, configPath: analysed.configPath, compared: analysed.compared === true };
    if (analysed.baseConfigPath !== undefined) held.baseConfigPath = analysed.baseConfigPath;
    if (!this.setRulesCompare(analysed.format)) return held;
    // Where the set rules may report (their members, the document's start): located with the findings
    // (analyseOne), or else now, while the text is here, in one scan that stops at the last member.
    let places: readonly Locatable[];
    let located: Location[];
    if (analysed.placed) ({ places, at: located } = analysed.placed);
    else {
      const scanned = setPlaces(analysed.value === undefined ? NO_MEMBERS : this.setRules.members);
      places = scanned;
      located = timed(this.options.timing, "step", "locate", () =>
        locateAll(analysed.text, analysed.parsed, scanned, FORMATS[analysed.format].locate),
      );
    }
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
  // Each file's text put on the session's own result objects, not on copies of them (the session is done).
  return session.finish().map((r, i) => Object.assign(r, { text: texts[i] as string }));
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
  file: {
    compared: boolean;
    value: unknown;
    base?: { value: unknown; findings: RawFinding[]; shared?: ReadonlySet<string> };
  },
): { findings: Finding[]; fixed?: number } {
  if (!file.compared) return { findings: [...findings] };
  const matchable = findings.filter((f) => !isChangeRule(f.ruleId));
  const { states, absent } = file.base
    ? classify(path, { value: file.value, findings: matchable }, file.base)
    : { states: undefined, absent: 0 };
  const out: Finding[] = [];
  let i = 0;
  for (const f of findings) {
    // `matchable` is `findings` without the change rules', in the same order: its i-th is the next of them.
    const baseline = (matchable[i] === f ? states?.[i++] : undefined) ?? "new";
    if (baseline === "existing" && config.existing === "hide") continue;
    // Marked in place, not copied: the findings are this analysis's own objects (identify made them), and a
    // copy of each (a spread) cost more than the matching.
    f.baseline = baseline;
    out.push(f);
  }
  return { findings: out, fixed: absent };
}
