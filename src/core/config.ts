/**
 * Configuration (`.github/plugin-review.yml`): parsing, validation against its own JSON Schema, and the
 * merge of organisation and repository layers with `locked` rules. Pure: text in, config or errors out.
 */
import { Ajv, type ErrorObject } from "ajv";
import picomatch from "picomatch";
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Range } from "yaml";
import configSchema from "../../schemas/plugin-review-config.schema.json" with { type: "json" };
import type { MigrationMap } from "./ef2/mapping.js";
import { compileNamePattern, widening, type Policy } from "./policy.js";
import { RULE_IDS, RULES_BY_ID } from "./rules/index.js";
import { didYouMean } from "./suggest.js";
import { LineIndex } from "./locate.js";
import { decodeUtf8 } from "./utf8.js";
import { SEVERITY_RANK, type ConfiguredSeverity, type Severity } from "./types.js";
import { appendErrorsInPlace } from "./ajv-code.js";

/** Where the configuration lives in a repository (the CLI's default, the App's default branch read). */
export const CONFIG_PATH = ".github/plugin-review.yml";

export type FailOn = Severity | "never";
export type ReviewMode = "comment" | "request-changes" | "none";
/** What findings already present in the base do (rules.md "New and existing findings"). */
export type ExistingMode = "report" | "fail" | "hide";

/** The policy's regular expressions: a plugin.json's name pattern and an extension.yaml's (rule policy-name). */
const NAME_PATTERNS = ["name_pattern", "extension_name_pattern"] as const;

/** Settings (not rules) that the organisation may list in `locked`: repositories may only make them stricter. */
export const LOCKABLE_SETTINGS = ["existing", "fail_on"] as const;
/** Strictness, from the loosest: a locked setting may only move up. */
const STRICTNESS = {
  existing: ["hide", "report", "fail"],
  fail_on: ["never", "error", "warning", "notice"],
} as const;

/** The configuration as written (after validation). */
export interface RawConfig {
  _extends?: string;
  paths?: string[];
  fail_on?: FailOn;
  review?: ReviewMode;
  rules?: Record<string, ConfiguredSeverity>;
  ignore?: { paths: string[]; rules?: string[] }[];
  policy?: {
    name_pattern?: string;
    extension_name_pattern?: string;
    technologies?: string[];
    process_types?: (string | number)[];
  };
  existing?: ExistingMode;
  locked?: string[];
  max_file_size?: number;
  max_extension_size?: number;
  max_descriptors?: number;
  max_total_size?: number;
  migration_map?: string;
}

export interface ResolvedConfig {
  paths: string[];
  failOn: FailOn;
  review: ReviewMode;
  rules: Record<string, ConfiguredSeverity>;
  ignore: { paths: string[]; rules?: string[] }[];
  policy: Policy;
  existing: ExistingMode;
  /** Locked rule ids and settings (`existing`, `fail_on`). */
  locked: string[];
  maxFileSize: number;
  /** An extension.yaml's own limit, within maxFileSize (analyse.ts takes the smaller of the two). */
  maxExtensionSize: number;
  /** The App's ceiling per review: changed descriptors reviewed, and bytes read (head and base together). */
  maxDescriptors: number;
  maxTotalSize: number;
  /** What the merge refused (a repository weakening a locked rule), to show users. */
  notes: string[];
  /**
   * The repository's migration map (`migration_map`): its path from the repository's root, and, once its
   * reader (the App's default branch, the CLI's working tree) has read it, the map (ef2/mapping.ts).
   */
  migrationMap?: { path: string; map?: MigrationMap };
}

/** EF1 descriptors and EF2 extensions, wherever they are (reviewed-paths.ts says what else `paths` reach). */
export const DEFAULT_PATHS = ["**/plugin.json", "**/extension.yaml"];
export const DEFAULT_MAX_FILE_SIZE = 5 * 1024 * 1024;
/**
 * An extension.yaml's own size limit (docs/configuration.md): a real one is tens of kilobytes (the largest
 * Dynatrace publishes, 274 KB), and YAML costs far more to read than JSON of its size. At most
 * MAX_EXTENSION_SIZE_BOUND, so that the worst file a configuration allows fits the App's analysis threads
 * and its Lambda worker (docs/security.md "Bounded work").
 */
export const DEFAULT_MAX_EXTENSION_SIZE = 1024 * 1024;
export const MAX_EXTENSION_SIZE_BOUND = 5 * 1024 * 1024;
/**
 * The App's ceiling per review (docs/configuration.md): past it the run fails, naming what was not
 * reviewed. A review holds a bounded batch of descriptors at a time whatever the ceiling; the ceiling
 * bounds its time, its requests and the findings it keeps.
 */
export const DEFAULT_MAX_DESCRIPTORS = 1000;
export const DEFAULT_MAX_TOTAL_SIZE = 50 * 1024 * 1024;

/** One problem of a configuration file, where it is (1-based) when it is known. */
export interface ConfigProblem {
  message: string;
  line?: number;
  column?: number;
}

const formatProblem = (p: ConfigProblem | string) =>
  typeof p === "string"
    ? p
    : `${p.line !== undefined ? `line ${p.line}, column ${p.column ?? 1}: ` : ""}${p.message}`;

/** An invalid configuration: every problem found, each with its line. `problems` are the formatted lines. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(
    readonly source: string,
    problems: readonly (ConfigProblem | string)[],
  ) {
    const lines = problems.map(formatProblem);
    super(`invalid configuration ${source}:\n${lines.map((p) => `  - ${p}`).join("\n")}`);
    this.problems = lines;
  }

  /** Several files' problems (the organisation's and the repository's) as one error. */
  static all(errors: readonly ConfigError[]): ConfigError {
    const [first, ...rest] = errors;
    if (!first) throw new Error("ConfigError.all needs an error");
    if (!rest.length) return first;
    const combined = new ConfigError(
      errors.map((e) => e.source).join(", "),
      errors.flatMap((e) => e.problems.map((p) => `${e.source}: ${p}`)),
    );
    combined.message = errors.map((e) => e.message).join("\n");
    return combined;
  }
}

type PathSegment = string | number;
/** Where a value (or, with `key`, its key) is in the file: 1-based line and column. */
type Locate = (path: readonly PathSegment[], key?: boolean) => { line: number; column: number } | undefined;

/** Which file a value of a configuration is in (one merged through `_extends` has two), and where. */
type Where = (
  path: readonly PathSegment[],
  key?: boolean,
) => { source: string; line: number; column: number } | undefined;

/** Each parsed configuration's positions (for notes about it), without widening RawConfig. */
const POSITIONS = new WeakMap<RawConfig, Where>();

const inFile =
  (source: string, locate: Locate): Where =>
  (path, key) => {
    const pos = locate(path, key);
    return pos && { source, ...pos };
  };

function locator(doc: Document, lines: LineCounter): Locate {
  return (path, key = false) => {
    let node: unknown = doc.contents;
    let at: Range | undefined = (node as { range?: Range } | null)?.range ?? undefined;
    for (const [i, seg] of path.entries()) {
      const last = i === path.length - 1;
      if (isMap(node)) {
        // The last of duplicate keys: the one whose value counts.
        const pair = node.items.findLast((p) => (isScalar(p.key) ? p.key.value : p.key) === seg);
        if (!pair) return undefined;
        const keyRange = (pair.key as { range?: Range } | null)?.range;
        if (last && key) {
          at = keyRange;
          break;
        }
        node = pair.value;
        // `rules:` with nothing after it: the key is the place.
        at = (node as { range?: Range } | null)?.range ?? keyRange;
      } else if (isSeq(node) && typeof seg === "number") {
        node = node.items[seg];
        at = (node as { range?: Range } | null)?.range;
      } else return undefined;
    }
    if (!at) return undefined;
    const { line, col } = lines.linePos(at[0]);
    return { line, column: col };
  };
}

let validateConfig: ReturnType<Ajv["compile"]> | undefined;

const pathOf = (instancePath: string): PathSegment[] =>
  instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));

/** A schema error as a problem: what and where (for an unknown key, the key itself). */
function describe(e: ErrorObject): { path: PathSegment[]; key: boolean; message: string } {
  const path = pathOf(e.instancePath);
  const where = path.length ? path.join(".") : "(top level)";
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "additionalProperties": {
      const known = Object.keys(((e.parentSchema as Record<string, unknown>)?.properties as object) ?? {});
      const key = String(p.additionalProperty);
      return {
        path: [...path, key],
        key: true,
        message: `${where}: unknown key \`${key}\`${didYouMean(key, known, { parenthesized: true })}`,
      };
    }
    case "enum":
      return {
        path,
        key: false,
        message: `${where}: ${JSON.stringify(e.data)} is not one of ${(p.allowedValues as string[]).join(", ")}`,
      };
    case "type":
      return { path, key: false, message: `${where}: must be ${String(p.type)}` };
    default:
      return { path, key: false, message: `${where}: ${e.message ?? e.keyword}` };
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): [string, number][] =>
  Array.isArray(v) ? v.flatMap((x, i) => (typeof x === "string" ? [[x, i] as [string, number]] : [])) : [];

/**
 * Every problem of a parsed configuration in one pass: the schema's, and the semantic ones (unknown rule ids
 * with a "did you mean", invalid globs and patterns) wherever the value has the right type, schema errors
 * elsewhere or not. Each with the path of the offending value.
 */
function findProblems(value: unknown): { path: PathSegment[]; key: boolean; message: string }[] {
  validateConfig ??= new Ajv({
    allErrors: true,
    code: { process: appendErrorsInPlace },
    verbose: true,
    allowUnionTypes: true,
  }).compile(configSchema);
  const problems = validateConfig(value) ? [] : (validateConfig.errors ?? []).map(describe);
  if (!isRecord(value)) return problems;
  const unknownId = (id: string, path: PathSegment[], key = false) => {
    if (!RULE_IDS.includes(id))
      problems.push({
        path,
        key,
        message: `${path.slice(0, -1).join(".")}: unknown rule id \`${id}\`${didYouMean(id, RULE_IDS, { parenthesized: true })}`,
      });
  };
  const glob = (g: string, path: PathSegment[]) => {
    if (!isValidGlob(g))
      problems.push({ path, key: false, message: `${path.slice(0, -1).join(".")}: invalid glob \`${g}\`` });
  };
  if (isRecord(value.rules)) for (const id of Object.keys(value.rules)) unknownId(id, ["rules", id], true);
  if (Array.isArray(value.ignore)) {
    value.ignore.forEach((entry: unknown, i) => {
      if (!isRecord(entry)) return;
      for (const [id, j] of strings(entry.rules)) unknownId(id, ["ignore", i, "rules", j]);
      for (const [g, j] of strings(entry.paths)) glob(g, ["ignore", i, "paths", j]);
    });
  }
  for (const [g, j] of strings(value.paths)) glob(g, ["paths", j]);
  for (const [id, j] of strings(value.locked))
    if (!(LOCKABLE_SETTINGS as readonly string[]).includes(id)) unknownId(id, ["locked", j]);
  for (const key of NAME_PATTERNS) {
    const pattern = isRecord(value.policy) ? value.policy[key] : undefined;
    if (typeof pattern !== "string") continue;
    try {
      compileNamePattern(pattern);
    } catch (e) {
      problems.push({
        path: ["policy", key],
        key: false,
        message: `policy.${key}: not a valid regular expression for the linear-time engine (RE2 syntax: no look-arounds or back-references): ${(e as Error).message}`,
      });
    }
  }
  return problems;
}

/** Checks a parsed YAML value; returns the problems (empty when valid), without positions. */
export function validateRawConfig(value: unknown): string[] {
  return findProblems(value).map((p) => p.message);
}

/**
 * The value without the parts that have problems, so that what is valid can still be merged (a repository's
 * refused loosening of a lock is reported with its other problems). Removing only shrinks: a few rounds
 * reach a value the schema accepts.
 */
function withoutProblems(value: unknown): {
  raw: RawConfig;
  original: (path: PathSegment[]) => PathSegment[];
} {
  const none = { raw: {}, original: (path: PathSegment[]) => path };
  if (!isRecord(value)) return none;
  let current: unknown = structuredClone(value);
  // Removing array items shifts the others: each object item remembers its index in the file.
  const indexInFile = new WeakMap<object, number>();
  const remember = (v: unknown): void => {
    if (Array.isArray(v))
      v.forEach((x, i) => (typeof x === "object" && x ? indexInFile.set(x, i) : 0, remember(x)));
    else if (isRecord(v)) Object.values(v).forEach(remember);
  };
  remember(current);
  for (let round = 0; round < 8; round++) {
    const problems = findProblems(current);
    if (!problems.length) {
      const raw = current as RawConfig;
      const original = (path: PathSegment[]) => {
        let node: unknown = raw;
        return path.map((seg) => {
          const item = (node as Record<PathSegment, unknown> | undefined)?.[seg];
          const mapped =
            Array.isArray(node) && typeof item === "object" && item ? indexInFile.get(item) : undefined;
          node = item;
          return mapped ?? seg;
        });
      };
      return { raw, original };
    }
    for (const { path } of problems) {
      if (!path.length) return none;
      let parent: unknown = current;
      for (const seg of path.slice(0, -1))
        parent = (parent as Record<PathSegment, unknown> | undefined)?.[seg];
      const last = path[path.length - 1] as PathSegment;
      // Array items are marked, then swept, so that the other problems' indices still hold this round.
      if (Array.isArray(parent)) parent[last as number] = GONE;
      else if (isRecord(parent)) delete parent[last];
    }
    current = sweep(current);
  }
  return none;
}

const GONE = Symbol("removed");
function sweep(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((x) => x !== GONE).map(sweep);
  if (isRecord(v)) for (const k of Object.keys(v)) v[k] = sweep(v[k]);
  return v;
}

/** picomatch turns a glob it cannot compile into a pattern that matches nothing, unless asked to throw. */
function isValidGlob(g: string): boolean {
  try {
    picomatch.makeRe(g, { debug: true, dot: true });
    return true;
  } catch {
    return false;
  }
}

/** A configuration file read: what is valid of it, and every problem with its line. */
export interface ReadConfig {
  /** The valid part (the whole file when there are no problems); positions kept for notes about it. */
  raw: RawConfig;
  problems: ConfigProblem[];
}

/** Byte order marks of the encodings a configuration is not in (UTF-32 first: its little-endian mark starts as UTF-16's). */
const OTHER_ENCODINGS: readonly [string, readonly number[]][] = [
  ["UTF-32", [0xff, 0xfe, 0x00, 0x00]],
  ["UTF-32", [0x00, 0x00, 0xfe, 0xff]],
  ["UTF-16", [0xff, 0xfe]],
  ["UTF-16", [0xfe, 0xff]],
];

/**
 * A configuration file's bytes as text: UTF-8 (a byte order mark allowed, as YAML allows it), as the App and
 * Probot read it. Anything else is a problem saying what the file is and where, never text that YAML reads as
 * something else ("must be object" for a UTF-16 file, or a Latin-1 `é` in a glob silently matching nothing).
 */
function configText(bytes: Uint8Array): { text: string } | { problem: ConfigProblem } {
  const bom = OTHER_ENCODINGS.find(([, mark]) => mark.every((b, i) => bytes[i] === b));
  if (bom)
    return { problem: { message: `the file is ${bom[0]} (its byte order mark says so): save it as UTF-8` } };
  const { text, badOffset } = decodeUtf8(bytes);
  if (badOffset !== undefined) {
    const byte = bytes[Buffer.byteLength(text.slice(0, badOffset), "utf8")] as number;
    return {
      problem: {
        message: `byte 0x${byte.toString(16).toUpperCase().padStart(2, "0")} is not UTF-8 (a file saved as Latin-1 or Windows-1252?): save it as UTF-8`,
        ...new LineIndex(text).position(badOffset),
      },
    };
  }
  const nul = text.indexOf("\0");
  if (nul >= 0)
    return {
      problem: {
        message: "a NUL character: a configuration is UTF-8 text (a UTF-16 file without a byte order mark?)",
        ...new LineIndex(text).position(nul),
      },
    };
  return { text };
}

/**
 * Parses and validates a YAML configuration, collecting every problem: YAML errors (when the file cannot be
 * read as YAML, nothing else can be said), then schema and semantic problems, each with its line. Given as
 * bytes (a file, a blob), its encoding is checked first.
 */
export function readConfig(input: string | Uint8Array, source: string): ReadConfig {
  let text: string;
  if (typeof input === "string") text = input;
  else {
    const decoded = configText(input);
    if ("problem" in decoded) return { raw: {}, problems: [decoded.problem] };
    text = decoded.text;
  }
  const lines = new LineCounter();
  let doc: Document;
  let parsed: unknown;
  try {
    doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter: lines });
    // A duplicate key is a problem, but the rest of the file is still readable (the last one wins).
    if (doc.errors.every((e) => e.code === "DUPLICATE_KEY")) parsed = doc.toJS() as unknown;
  } catch (e) {
    // The yaml library refuses alias expansion beyond its limit (a "billion laughs" file) here.
    return { raw: {}, problems: [{ message: `not readable as YAML: ${(e as Error).message}` }] };
  }
  const problems: ConfigProblem[] = doc.errors.map((e) => {
    const pos = e.linePos?.[0];
    const message = e.message.split("\n")[0] as string;
    return pos ? { message: message.replace(/ at line \d+, column \d+:?$/, ""), ...toPos(pos) } : { message };
  });
  if (doc.errors.length && parsed === undefined) return { raw: {}, problems };
  const value = parsed ?? {};
  const locate = locator(doc, lines);
  for (const p of findProblems(value)) problems.push({ message: p.message, ...locate(p.path, p.key) });
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  if (!problems.length) {
    POSITIONS.set(value as RawConfig, inFile(source, locate));
    return { raw: value as RawConfig, problems };
  }
  const { raw, original } = withoutProblems(value);
  POSITIONS.set(
    raw,
    inFile(source, (path, key) => locate(original([...path]), key)),
  );
  return { raw, problems };
}

const toPos = (p: { line: number; col: number }) => ({ line: p.line, column: p.col });

/** Parses and validates a YAML configuration (text or bytes). Throws ConfigError with every problem found. */
export function parseConfig(input: string | Uint8Array, source: string): RawConfig {
  const { raw, problems } = readConfig(input, source);
  if (problems.length) throw new ConfigError(source, problems);
  return raw;
}

/**
 * A repository file over the file it `_extends` (the repository wins; it cannot lock rules). Notes about the
 * result point into the repository's file where the value came from there, else into the extended one.
 */
export function extendConfig(base: RawConfig, repo: RawConfig): RawConfig {
  const merged: RawConfig = {
    ...base,
    ...repo,
    rules: { ...base.rules, ...repo.rules },
    locked: repo.locked ?? [],
  };
  const own = POSITIONS.get(repo);
  const inherited = POSITIONS.get(base);
  if (own) POSITIONS.set(merged, (path, key) => own(path, key) ?? inherited?.(path, key));
  return merged;
}

/** Where a value of a parsed configuration is in its file (1-based), when known. */
export function locateIn(
  config: RawConfig,
  path: readonly PathSegment[],
  key = true,
): { line: number; column: number } | undefined {
  const at = POSITIONS.get(config)?.(path, key);
  return at && { line: at.line, column: at.column };
}

/** "acme/plugins:.github/plugin-review.yml, line 4: " before a note about a value, when its file is known. */
function noteAt(config: RawConfig, path: PathSegment[], key = true): string {
  const at = POSITIONS.get(config)?.(path, key);
  return at ? `${at.source}, line ${at.line}: ` : "";
}

const POLICY_RULE = {
  name_pattern: "policy-name",
  extension_name_pattern: "policy-name",
  technologies: "unknown-technology",
  process_types: "unknown-process-type",
} as const;

/**
 * Locked with anything the organisation locks: when they report, the descriptor was not parsed and no other
 * rule judged it, so turning them off (or shrinking `max_file_size`) would turn every locked rule off.
 */
export const GATE_RULES = ["file-too-large", "invalid-json"] as const;

const code = (values: readonly unknown[]) => values.map((v) => `\`${String(v)}\``).join(", ");

/**
 * Merges the organisation's layer and the repository's (the repository wins). When the organisation locks
 * anything, the repository cannot narrow what is reviewed: its `paths` only add to the organisation's,
 * `max_file_size` does not go below the organisation's, and the gate rules are locked too. A locked rule's
 * severity cannot be lowered, it cannot be ignored, and its policy can only be narrowed; a locked setting
 * only made stricter. Whatever was not applied is said in `notes`, with its file and line.
 * `locked` is honoured only from the organisation layer.
 */
export function resolveConfig(layers: { org?: RawConfig; repo?: RawConfig } = {}): ResolvedConfig {
  const org = layers.org ?? {};
  const repo = layers.repo ?? {};
  const lockedSettings = [...new Set(org.locked ?? [])];
  const anyLock = lockedSettings.length > 0;
  // Rules and settings share the list; the rule merge below only looks at rules.
  const locked = [
    ...new Set([
      ...lockedSettings.filter((id) => !(LOCKABLE_SETTINGS as readonly string[]).includes(id)),
      ...(anyLock ? GATE_RULES : []),
    ]),
  ];
  const notes: string[] = [];
  if (org.migration_map !== undefined && layers.org !== undefined)
    notes.push(
      `${noteAt(org, ["migration_map"])}\`migration_map\` in the organisation's configuration has no effect: a migration map names one repository's plugins, so each repository names its own`,
    );
  if (repo.locked?.length && layers.org !== undefined) {
    notes.push(
      `${noteAt(repo, ["locked"])}\`locked\` in a repository's configuration has no effect; only the organisation's \`.github\` repository can lock rules`,
    );
  }
  const rules: Record<string, ConfiguredSeverity> = { ...(org.rules ?? {}) };
  for (const [id, sev] of Object.entries(repo.rules ?? {})) {
    if (locked.includes(id)) {
      const floor = org.rules?.[id] ?? defaultSeverityOf(id);
      if (SEVERITY_RANK[sev] < SEVERITY_RANK[floor]) {
        notes.push(
          `${noteAt(repo, ["rules", id])}rule \`${id}\` is locked by the organisation: the repository's \`${sev}\` was not applied`,
        );
        continue;
      }
    }
    rules[id] = sev;
  }
  const ignore = [...(org.ignore ?? [])];
  for (const [i, entry] of (repo.ignore ?? []).entries()) {
    if (!locked.length) {
      ignore.push(entry);
      continue;
    }
    const lockedHere = entry.rules ? entry.rules.filter((r) => locked.includes(r)) : locked;
    if (lockedHere.length)
      notes.push(
        `${noteAt(repo, ["ignore", i], false)}locked rule${lockedHere.length === 1 ? "" : "s"} ${code(lockedHere)} cannot be ignored by the repository`,
      );
    const rulesLeft = entry.rules
      ? entry.rules.filter((r) => !locked.includes(r))
      : RULE_IDS.filter((r) => !locked.includes(r));
    if (rulesLeft.length) ignore.push({ paths: entry.paths, rules: rulesLeft });
  }
  const policyRaw = { ...(org.policy ?? {}) } as NonNullable<RawConfig["policy"]>;
  for (const [k, v] of Object.entries(repo.policy ?? {}) as [keyof typeof POLICY_RULE, never][]) {
    const rule = POLICY_RULE[k];
    if (locked.includes(rule)) {
      // A pattern cannot be compared with another: only where the organisation set none does the repository's add a check.
      const pattern = k === "name_pattern" || k === "extension_name_pattern";
      const wider = pattern
        ? org.policy?.[k] !== undefined
          ? [v]
          : []
        : widening(k, v as (string | number)[], org.policy?.[k]);
      if (wider.length) {
        notes.push(
          pattern
            ? `${noteAt(repo, ["policy", k])}\`policy.${k}\` is set by the organisation and its rule \`${rule}\` is locked: the repository's value was not applied`
            : `${noteAt(repo, ["policy", k])}rule \`${rule}\` is locked by the organisation: the repository's \`policy.${k}\` allows ${code(wider)}, which ${org.policy?.[k] ? `the organisation's \`policy.${k}\`` : "the built-in list"} does not, and was not applied`,
        );
        continue;
      }
    }
    policyRaw[k] = v;
  }
  const policy: Policy = {};
  if (policyRaw.name_pattern !== undefined) policy.namePattern = compileNamePattern(policyRaw.name_pattern);
  if (policyRaw.extension_name_pattern !== undefined)
    policy.extensionNamePattern = compileNamePattern(policyRaw.extension_name_pattern);
  if (policyRaw.technologies) policy.technologies = policyRaw.technologies;
  if (policyRaw.process_types) policy.processTypes = policyRaw.process_types;
  /** A setting: the repository's value, unless the organisation locked it and the value is looser. */
  const setting = <K extends (typeof LOCKABLE_SETTINGS)[number]>(
    key: K,
    fallback: NonNullable<RawConfig[K]>,
  ): NonNullable<RawConfig[K]> => {
    const floor = org[key] ?? fallback;
    const wanted = repo[key];
    if (wanted === undefined) return floor;
    const order = STRICTNESS[key] as readonly string[];
    if (lockedSettings.includes(key) && order.indexOf(wanted) < order.indexOf(floor)) {
      notes.push(
        `${noteAt(repo, [key])}\`${key}\` is locked by the organisation at \`${floor}\`: the repository's looser \`${wanted}\` was not applied`,
      );
      return floor;
    }
    return wanted;
  };
  const orgPaths = org.paths ?? DEFAULT_PATHS;
  let paths = repo.paths ?? orgPaths;
  const notAdded = anyLock && repo.paths ? orgPaths.filter((p) => !repo.paths?.includes(p)) : [];
  if (notAdded.length) {
    notes.push(
      `${noteAt(repo, ["paths"])}under the organisation's locks, its \`paths\` ${code(notAdded)} are reviewed too: a repository's \`paths\` only add to them`,
    );
    paths = [...orgPaths, ...paths.filter((p) => !orgPaths.includes(p))];
  }
  const orgMaxFileSize = org.max_file_size ?? DEFAULT_MAX_FILE_SIZE;
  let maxFileSize = repo.max_file_size ?? orgMaxFileSize;
  if (anyLock && maxFileSize < orgMaxFileSize) {
    notes.push(
      `${noteAt(repo, ["max_file_size"])}under the organisation's locks, \`max_file_size\` cannot go below its ${orgMaxFileSize.toLocaleString("en-US")} bytes: the repository's \`${maxFileSize}\` was not applied`,
    );
    maxFileSize = orgMaxFileSize;
  }
  const orgMaxExtensionSize = org.max_extension_size ?? DEFAULT_MAX_EXTENSION_SIZE;
  let maxExtensionSize = repo.max_extension_size ?? orgMaxExtensionSize;
  if (anyLock && maxExtensionSize < orgMaxExtensionSize) {
    notes.push(
      `${noteAt(repo, ["max_extension_size"])}under the organisation's locks, \`max_extension_size\` cannot go below its ${orgMaxExtensionSize.toLocaleString("en-US")} bytes: the repository's \`${maxExtensionSize}\` was not applied`,
    );
    maxExtensionSize = orgMaxExtensionSize;
  }
  return {
    paths,
    failOn: setting("fail_on", "error"),
    review: repo.review ?? org.review ?? "comment",
    rules,
    ignore,
    policy,
    existing: setting("existing", "report"),
    locked: [...new Set([...lockedSettings, ...locked])],
    maxFileSize,
    maxExtensionSize,
    maxDescriptors: repo.max_descriptors ?? org.max_descriptors ?? DEFAULT_MAX_DESCRIPTORS,
    maxTotalSize: repo.max_total_size ?? org.max_total_size ?? DEFAULT_MAX_TOTAL_SIZE,
    notes,
    ...(repo.migration_map !== undefined ? { migrationMap: { path: repo.migration_map } } : {}),
  };
}

function defaultSeverityOf(id: string): Severity {
  return RULES_BY_ID.get(id)?.meta.defaultSeverity ?? "error";
}

/**
 * Matchers for `paths`-style globs; `dot: true` so `.github/…` and dot-folders match like other folders, and
 * `s` (dotAll) so that `*` and `**` match every character a name may hold: without it picomatch's `**` stops at
 * a line break, and a descriptor in a folder whose name has one (git and GitHub allow it) would never be reviewed.
 */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const m = picomatch(globs as string[], { dot: true, flags: "s" });
  return (p) => m(p.replace(/\\/g, "/").replace(/^\.\//, ""));
}
