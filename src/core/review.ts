/**
 * The runner: descriptor bytes in, located findings out. Parses, detects the variant, runs the rules the
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
import { locator, pointerLocator } from "./locate.js";
import { get, str } from "./guards.js";
import type { DocumentRule, Rule, SetRule } from "./rule.js";
import { RuleContext, type DocumentState } from "./rule-context.js";
import { formatMessage, toFinding } from "./rule-meta.js";
import { DOCUMENT_RULES, RULES_BY_ID, SET_RULES } from "./rules/index.js";
import type { FileFormat, Finding, RawFinding, Variant } from "./types.js";
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

export interface FileReview {
  path: string;
  /** The head text as parsed (decoded), for renderers that quote lines. */
  text: string;
  variant?: Variant;
  name?: string;
  findings: Finding[];
  /** When a base was compared (rules.md "New and existing findings"): how many base findings head no longer has. */
  fixed?: number;
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
  try {
    return context.run(rule);
  } catch (e) {
    return [internalError(rule, e)];
  }
}

/** What a rule reviews when it does not say (`meta.files`). */
const DESCRIPTORS: readonly FileFormat[] = ["plugin.json"];

/**
 * The document rules that can report on `path`, a file of `format`: rules of that kind of file, neither `off`
 * nor ignored for it. The others never run.
 */
function activeRules(path: string, config: ResolvedConfig, format: FileFormat): readonly DocumentRule[] {
  const ignored = config.ignore.filter((e) => matchesIgnore(e, path));
  if (ignored.some((e) => !e.rules)) return [];
  return DOCUMENT_RULES.filter(
    (r) =>
      (r.meta.files ?? DESCRIPTORS).includes(format) &&
      config.rules[r.meta.id] !== "off" &&
      !ignored.some((e) => e.rules?.includes(r.meta.id)),
  );
}

type Internal = FileReview & {
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
  );
  return active
    .filter((r) => r.meta.kind !== "change")
    .flatMap((r) => {
      const i = head ? head.rules.indexOf(r) : -1;
      return i >= 0 && head?.context.readsSameIn(r, context)
        ? (head.results[i] as RawFinding[])
        : runRule(r, context);
    });
}

export interface ReviewOptions {
  /**
   * Review a changed base in full: parse it whole and run every rule on it, as if head's results could not
   * be reused. Same findings, slower; tests hold the shortcuts against it.
   */
  fullBase?: boolean;
}

/** Reviews one descriptor (without set rules; see reviewDescriptors). */
export function reviewOne(
  input: DescriptorInput,
  config: ResolvedConfig,
  options: ReviewOptions = {},
): Internal {
  if (formatOf(input.path) === "extension.yaml") return reviewExtension(input, config);
  const head = load(input.content, config.maxFileSize, input.size);
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
      // An unchanged file: the base's own findings are head's (filled in below), so it is not reviewed twice.
      state.base = { value: state.value, path: input.base.path };
      baseline = { value: state.value, findings: [] };
      sameAsBase = true;
    } else if (input.base) {
      const base = loadBase(
        input.base.content,
        config.maxFileSize,
        input.base.size,
        options.fullBase ? undefined : head.parsed,
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
  const context = new RuleContext(state, reuse);
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
    );
  }
  // Positions only when there is something to locate (a few findings are found by scanning the text).
  const parsed = head.parsed?.ok ? head.parsed : undefined;
  const located = raw.length
    ? identify(state.value, input.path, raw, locator(head.text, parsed, raw.length))
    : [];
  const review: Internal = {
    path: input.path,
    format: "plugin.json",
    configPath,
    text: head.text,
    findings: applyConfig(configPath, located, config),
  };
  if (baseline) review.base = baseline;
  if (input.base || input.isNew === true) review.compared = true;
  if (state.value !== undefined) {
    review.value = state.value;
    review.parsed = parsed;
    review.variant = state.variant;
    const name = str(get(state.value, "name"));
    if (name !== undefined) review.name = name;
  }
  return review;
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
 * Reviews an EF2 extension.yaml: its own rules (YAML, version), and, beside the EF1 plugin.json it replaces,
 * the migration rules. Its base version, when the base has one, is reviewed against the same plugin.json, so
 * that what it already lacked is an existing finding, as in a descriptor (rules.md "New and existing findings").
 */
function reviewExtension(input: DescriptorInput, config: ResolvedConfig): Internal {
  const configPath = input.configPath ?? input.path;
  const active = activeRules(configPath, config, "extension.yaml");
  const ef1 = input.replaces && ef1Source(input.replaces, config);
  const readYaml = (content: string | Uint8Array, size?: number) =>
    load(content, config.maxFileSize, size, parseYaml);
  const rulesFor = (state: DocumentState) =>
    active.filter(
      (r) =>
        r.meta.kind === "parse" ||
        (state.value !== undefined && (r.meta.kind !== "migration" || state.ef1 !== undefined)),
    );
  const head = readYaml(input.content, input.size);
  const state = extensionState(input.path, head, config, ef1);
  if (input.isNew !== undefined) state.isNew = input.isNew;
  const context = new RuleContext(state);
  const raw = rulesFor(state).flatMap((r) => runRule(r, context));
  let baseline: Internal["base"];
  if (input.base && input.isNew !== true && state.value !== undefined) {
    if (sameText(input.base.content, head.text)) baseline = { value: state.value, findings: raw };
    else {
      const before = extensionState(input.path, readYaml(input.base.content, input.base.size), config, ef1);
      before.isNew = false;
      if (before.value !== undefined) {
        const there = new RuleContext(before);
        baseline = { value: before.value, findings: rulesFor(before).flatMap((r) => runRule(r, there)) };
      }
    }
  }
  const parsed = head.parsed?.ok ? head.parsed : undefined;
  const located = raw.length
    ? identify(state.value, input.path, raw, locator(head.text, parsed, raw.length, "yaml"))
    : [];
  const review: Internal = {
    path: input.path,
    format: "extension.yaml",
    configPath,
    text: head.text,
    findings: applyConfig(configPath, located, config),
  };
  if (baseline) review.base = baseline;
  if (input.base || input.isNew === true) review.compared = true;
  if (state.value !== undefined) {
    review.value = state.value;
    const name = str(get(state.value, "name"));
    if (name !== undefined) review.name = name;
  }
  return review;
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

/** Reviews descriptors checked together: each on its own, then the rules across them (duplicate-plugin-name). */
export function reviewDescriptors(
  inputs: readonly DescriptorInput[],
  config: ResolvedConfig,
  options: ReviewOptions = {},
): FileReview[] {
  const reviews = inputs.map((i) => reviewOne(i, config, options));
  // Set rules compare descriptors: an extension.yaml is none.
  const descriptors = reviews.filter((r) => r.format === "plugin.json");
  const members = descriptors.flatMap((r) =>
    r.value === undefined ? [] : [{ path: r.path, value: r.value }],
  );
  // The bases checked together too, so that a set finding the bases already had is existing.
  const baseMembers = descriptors.flatMap((r) => (r.base ? [{ path: r.path, value: r.base.value }] : []));
  for (const rule of SET_RULES) {
    if (config.rules[rule.meta.id] === "off") continue;
    const results = runSetRule(
      rule,
      members,
      descriptors.map((r) => r.path),
    );
    if (baseMembers.length) {
      for (const { path, finding } of runSetRule(rule, baseMembers, [])) {
        const review = descriptors.find((r) => r.path === path);
        if (review?.base)
          review.base.findings.push(...filterConfigured(review.configPath, [finding], config));
      }
    }
    for (const review of descriptors) {
      const mine = results.filter((x) => x.path === review.path).map((x) => x.finding);
      if (!mine.length) continue;
      const located = identify(
        review.value,
        review.path,
        mine,
        locator(review.text, review.parsed, mine.length),
      );
      review.findings = [...review.findings, ...applyConfig(review.configPath, located, config)].sort(
        byPosition,
      );
    }
  }
  return reviews.map((review) => {
    const { path, text, variant, name } = review;
    const { findings, fixed } = withBaseline(review, config);
    const r: FileReview = { path, text, findings };
    if (variant) r.variant = variant;
    if (name !== undefined) r.name = name;
    if (fixed !== undefined) r.fixed = fixed;
    return r;
  });
}

/**
 * Marks each finding new or existing when a base was compared (or the file is added: all new); change
 * rules only ever produce new findings. `existing: hide` leaves the existing ones out.
 */
function withBaseline(review: Internal, config: ResolvedConfig): { findings: Finding[]; fixed?: number } {
  if (!review.compared) return { findings: review.findings };
  const matchable = review.findings.filter((f) => !isChangeRule(f.ruleId));
  const { states, absent } = review.base
    ? classify(review.path, { value: review.value, findings: matchable }, review.base)
    : { states: matchable.map(() => "new" as const), absent: 0 };
  const state = new Map(matchable.map((f, i) => [f, states[i] ?? "new"]));
  const out: Finding[] = [];
  for (const f of review.findings) {
    const baseline = state.get(f) ?? "new";
    if (baseline === "existing" && config.existing === "hide") continue;
    out.push({ ...f, baseline });
  }
  return { findings: out, fixed: absent };
}
