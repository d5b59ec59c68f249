/**
 * The runner: descriptor bytes in, located findings out. Parses, detects the variant, runs the rules the
 * configuration leaves on for the path (a rule that is `off` or ignored there never runs; each rule is
 * isolated: one that throws becomes a finding, never a crash), locates the findings once, then applies
 * the configured severities. The schema is validated only when a rule asks for its findings.
 */
import { fails, globMatcher, type ResolvedConfig } from "./config.js";
import { parseJsonFast, type JsonNode, type ParseOutcome } from "./json/parse.js";
import { locateAll } from "./locate.js";
import { get, RuleContext, str, toFinding, type DocumentState, type Rule } from "./rule.js";
import { RULES } from "./rules/index.js";
import type { Finding, RawFinding, Variant } from "./types.js";
import { decodeUtf8, utf8Length } from "./utf8.js";

export interface DescriptorInput {
  /** Path as the user or the pull request names it; used in findings, `ignore` globs and messages. */
  path: string;
  content: string | Uint8Array;
  /** The file's version in the base, when it exists there (its old path when renamed). */
  base?: { path: string; content: string | Uint8Array; size?: number };
  /** True when the change adds the file; undefined when unknown. */
  isNew?: boolean;
  /** The file's real size in bytes when `content` was cut short (a reader stops past the size limit). */
  size?: number;
}

export interface FileReview {
  path: string;
  /** The head text as parsed (decoded), for renderers that quote lines. */
  text: string;
  variant?: Variant;
  name?: string;
  findings: Finding[];
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

function load(content: string | Uint8Array, maxSize: number, knownSize?: number): Loaded {
  const size = knownSize ?? (typeof content === "string" ? utf8Length(content, maxSize) : content.length);
  if (size > maxSize) return { text: "", size };
  if (typeof content === "string") return { text: content, size, parsed: parseJsonFast(content) };
  const { text, badOffset } = decodeUtf8(content);
  if (badOffset !== undefined) return { text, size, encodingError: badOffset };
  return { text, size, parsed: parseJsonFast(text) };
}

/** The base only needs its value (no positions): the engine's JSON.parse, after the same UTF-8 and size checks. */
function loadBase(
  content: string | Uint8Array,
  maxSize: number,
  knownSize?: number,
): { ok: true; value: unknown } | { ok: false; why: string } {
  const size = knownSize ?? (typeof content === "string" ? utf8Length(content, maxSize) : content.length);
  if (size > maxSize) return { ok: false, why: `is larger than max_file_size (${maxSize} bytes)` };
  let text: string;
  if (typeof content === "string") text = content;
  else {
    const d = decodeUtf8(content);
    if (d.badOffset !== undefined) return { ok: false, why: "is not UTF-8 text" };
    text = d.text;
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, why: "is not valid JSON" };
  }
}

/** Never a crash and never a silent green: a rule that throws fails the file visibly. */
function internalError(rule: Rule, e: unknown): RawFinding {
  return {
    ruleId: rule.meta.id,
    severity: "error",
    message: `internal error in rule ${rule.meta.id}: ${String(e)}; please report it`,
    pointer: "",
    target: "key",
  };
}

function runRule(rule: Rule, context: RuleContext): RawFinding[] {
  try {
    return context.run(rule);
  } catch (e) {
    return [internalError(rule, e)];
  }
}

/** The rules that can report on `path`: neither `off` nor ignored for it. The others never run. */
function activeRules(path: string, config: ResolvedConfig): readonly Rule[] {
  const ignored = config.ignore.filter((e) => matchesIgnore(e, path));
  if (ignored.some((e) => !e.rules)) return [];
  return RULES.filter(
    (r) => config.rules[r.meta.id] !== "off" && !ignored.some((e) => e.rules?.includes(r.meta.id)),
  );
}

type Internal = FileReview & { value?: unknown; parsed?: { root: JsonNode } | undefined };

/** Reviews one descriptor (without set rules; see reviewDescriptors). */
export function reviewOne(input: DescriptorInput, config: ResolvedConfig): Internal {
  const head = load(input.content, config.maxFileSize, input.size);
  const state: DocumentState = {
    path: input.path,
    text: head.text,
    duplicates: [],
    variant: "host",
    policy: config.policy,
  };
  if (input.isNew !== undefined) state.isNew = input.isNew;
  const active = activeRules(input.path, config);
  let rules = active.filter((r) => r.meta.kind === "parse");
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
    const changeRules = active.some((r) => r.meta.kind === "change");
    if (input.base && changeRules) {
      const base = loadBase(input.base.content, config.maxFileSize, input.base.size);
      if (base.ok) state.base = { value: base.value, path: input.base.path };
      else state.baseError = `\`${input.base.path}\` ${base.why}`;
    }
    const compare = state.base !== undefined || state.baseError !== undefined;
    rules = active.filter((r) => r.check && (r.meta.kind !== "change" || compare));
  }
  const context = new RuleContext(state);
  const raw = rules.flatMap((r) => runRule(r, context));
  // The tree of positions is built only when there is something to locate.
  const parsed = head.parsed?.ok ? head.parsed : undefined;
  const located = raw.length ? locateAll(head.text, parsed?.root, raw) : [];
  const review: Internal = {
    path: input.path,
    text: head.text,
    findings: applyConfig(input.path, located, config),
  };
  if (state.value !== undefined) {
    review.value = state.value;
    review.parsed = parsed;
    review.variant = state.variant;
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

/** Severity overrides, `off`, and `ignore` globs; then a stable order (line, column, rule id). */
export function applyConfig(path: string, findings: Finding[], config: ResolvedConfig): Finding[] {
  const ignored = config.ignore.filter((e) => matchesIgnore(e, path));
  const out: Finding[] = [];
  for (const f of findings) {
    const configured = config.rules[f.ruleId];
    if (configured === "off") continue;
    if (ignored.some((e) => !e.rules || e.rules.includes(f.ruleId))) continue;
    out.push(configured ? { ...f, severity: configured } : f);
  }
  return out.sort(byPosition);
}

/** Reviews descriptors checked together: each on its own, then the rules across them (duplicate-plugin-name). */
export function reviewDescriptors(inputs: readonly DescriptorInput[], config: ResolvedConfig): FileReview[] {
  const reviews = inputs.map((i) => reviewOne(i, config));
  const members = reviews.flatMap((r) => (r.value === undefined ? [] : [{ path: r.path, value: r.value }]));
  for (const rule of RULES) {
    if (!rule.checkSet || config.rules[rule.meta.id] === "off") continue;
    const results: { path: string; finding: RawFinding }[] = [];
    try {
      rule.checkSet({
        documents: members,
        report: (path, d) => results.push({ path, finding: toFinding(rule.meta, d) }),
      });
    } catch (e) {
      results.splice(
        0,
        results.length,
        ...reviews.map((r) => ({ path: r.path, finding: internalError(rule, e) })),
      );
    }
    for (const review of reviews) {
      const mine = results.filter((x) => x.path === review.path).map((x) => x.finding);
      if (!mine.length) continue;
      const located = locateAll(review.text, review.parsed?.root, mine);
      review.findings = [...review.findings, ...applyConfig(review.path, located, config)].sort(byPosition);
    }
  }
  return reviews.map(({ path, text, variant, name, findings }) => {
    const r: FileReview = { path, text, findings };
    if (variant) r.variant = variant;
    if (name !== undefined) r.name = name;
    return r;
  });
}

/** True when any finding reaches the configured failing level. */
export function hasFailures(reviews: readonly FileReview[], config: ResolvedConfig): boolean {
  return reviews.some((r) => r.findings.some((f) => fails(f.severity, config.failOn)));
}
