/**
 * Configuration (`.github/plugin-review.yml`): parsing, validation against its own JSON Schema, and the
 * merge of organisation and repository layers with `locked` rules. Pure: text in, config or errors out.
 */
import { Ajv, type ErrorObject } from "ajv";
import picomatch from "picomatch";
import { RE2JS } from "re2js";
import { parseDocument } from "yaml";
import configSchema from "../../schemas/plugin-review-config.schema.json" with { type: "json" };
import { RULE_IDS, RULES_BY_ID } from "./rules/index.js";
import { didYouMean } from "./suggest.js";
import { SEVERITY_RANK, type ConfiguredSeverity, type Severity } from "./types.js";

/** Where the configuration lives in a repository (the CLI's default, the App's default branch read). */
export const CONFIG_PATH = ".github/plugin-review.yml";

export type FailOn = Severity | "never";
export type ReviewMode = "comment" | "request-changes" | "none";
/** What findings already present in the base do (rules.md "New and existing findings"). */
export type ExistingMode = "report" | "fail" | "hide";

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
  policy?: { name_pattern?: string; technologies?: string[]; process_types?: (string | number)[] };
  existing?: ExistingMode;
  locked?: string[];
  max_file_size?: number;
}

/** A compiled `policy.name_pattern` (linear-time: see compileNamePattern in config.ts). */
export interface NamePattern {
  source: string;
  test(s: string): boolean;
}

/** The policy part of the configuration that rules read. */
export interface Policy {
  namePattern?: NamePattern;
  technologies?: readonly string[];
  processTypes?: readonly (string | number)[];
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
  /** What the merge refused (a repository weakening a locked rule), to show users. */
  notes: string[];
}

export const DEFAULT_PATHS = ["**/plugin.json"];
export const DEFAULT_MAX_FILE_SIZE = 5 * 1024 * 1024;

export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`invalid configuration ${source}:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

let validateConfig: ReturnType<Ajv["compile"]> | undefined;

function describe(e: ErrorObject): string {
  const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, ".") : "(top level)";
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "additionalProperties": {
      const known = Object.keys(((e.parentSchema as Record<string, unknown>)?.properties as object) ?? {});
      const key = String(p.additionalProperty);
      return `${where}: unknown key \`${key}\`${didYouMean(key, known, { parenthesized: true })}`;
    }
    case "enum":
      return `${where}: ${JSON.stringify(e.data)} is not one of ${(p.allowedValues as string[]).join(", ")}`;
    case "type":
      return `${where}: must be ${String(p.type)}`;
    default:
      return `${where}: ${e.message ?? e.keyword}`;
  }
}

/** Checks a parsed YAML value; returns the problems (empty when valid). */
export function validateRawConfig(value: unknown): string[] {
  validateConfig ??= new Ajv({ allErrors: true, verbose: true, allowUnionTypes: true }).compile(configSchema);
  const problems: string[] = [];
  if (!validateConfig(value)) problems.push(...(validateConfig.errors ?? []).map(describe));
  if (problems.length) return problems;
  const c = value as RawConfig;
  const checkIds = (ids: string[], where: string) => {
    for (const id of ids) {
      if (!RULE_IDS.includes(id)) {
        problems.push(
          `${where}: unknown rule id \`${id}\`${didYouMean(id, RULE_IDS, { parenthesized: true })}`,
        );
      }
    }
  };
  checkIds(Object.keys(c.rules ?? {}), "rules");
  (c.ignore ?? []).forEach((entry, i) => {
    checkIds(entry.rules ?? [], `ignore.${i}.rules`);
    for (const g of entry.paths)
      if (!isValidGlob(g)) problems.push(`ignore.${i}.paths: invalid glob \`${g}\``);
  });
  for (const g of c.paths ?? []) if (!isValidGlob(g)) problems.push(`paths: invalid glob \`${g}\``);
  checkIds(
    (c.locked ?? []).filter((id) => !(LOCKABLE_SETTINGS as readonly string[]).includes(id)),
    "locked",
  );
  if (c.policy?.name_pattern !== undefined) {
    try {
      compileNamePattern(c.policy.name_pattern);
    } catch (e) {
      problems.push(
        `policy.name_pattern: not a valid regular expression for the linear-time engine (RE2 syntax: no look-arounds or back-references): ${(e as Error).message}`,
      );
    }
  }
  return problems;
}

function isValidGlob(g: string): boolean {
  try {
    picomatch(g);
    return true;
  } catch {
    return false;
  }
}

/**
 * `policy.name_pattern` comes from a configuration file anyone with write access to a repository may
 * edit, and runs in a process shared by every installation: it runs on RE2 (re2js, pure JavaScript),
 * whose matching time is linear in the input, so no pattern can backtrack catastrophically.
 */
export function compileNamePattern(pattern: string): NamePattern {
  const re = RE2JS.compile(pattern);
  return { source: pattern, test: (s) => re.test(s) };
}

/** Parses and validates YAML configuration text. Throws ConfigError with every problem found. */
export function parseConfig(text: string, source: string): RawConfig {
  let doc;
  let parsed: unknown;
  try {
    doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
    // The yaml library refuses alias expansion beyond its limit (a "billion laughs" file) here.
    if (!doc.errors.length) parsed = doc.toJS() as unknown;
  } catch (e) {
    throw new ConfigError(source, [`not readable as YAML: ${(e as Error).message}`]);
  }
  if (doc.errors.length) {
    throw new ConfigError(
      source,
      doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        return `${pos ? `line ${pos.line}, column ${pos.col}: ` : ""}${e.message.split("\n")[0]}`;
      }),
    );
  }
  const value = parsed ?? {};
  const problems = validateRawConfig(value);
  if (problems.length) throw new ConfigError(source, problems);
  return value as RawConfig;
}

const POLICY_RULE: Record<string, string> = {
  name_pattern: "policy-name",
  technologies: "unknown-technology",
  process_types: "unknown-process-type",
};

/**
 * Merges the organisation's layer and the repository's (the repository wins), except that a repository
 * can neither lower the severity of, ignore, nor replace the policy of a rule the organisation locked.
 * `locked` is honoured only from the organisation layer.
 */
export function resolveConfig(layers: { org?: RawConfig; repo?: RawConfig } = {}): ResolvedConfig {
  const org = layers.org ?? {};
  const repo = layers.repo ?? {};
  const lockedAll = [...new Set(org.locked ?? [])];
  // Rules and settings share the list; the rule merge below only looks at rules.
  const locked = lockedAll.filter((id) => !(LOCKABLE_SETTINGS as readonly string[]).includes(id));
  const notes: string[] = [];
  if (repo.locked?.length && layers.org !== undefined) {
    notes.push(
      "`locked` in a repository's configuration has no effect; only the organisation's `.github` repository can lock rules",
    );
  }
  const rules: Record<string, ConfiguredSeverity> = { ...(org.rules ?? {}) };
  for (const [id, sev] of Object.entries(repo.rules ?? {})) {
    if (locked.includes(id)) {
      const floor = org.rules?.[id] ?? defaultSeverityOf(id);
      if (SEVERITY_RANK[sev] < SEVERITY_RANK[floor]) {
        notes.push(
          `rule \`${id}\` is locked by the organisation: the repository's \`${sev}\` was not applied`,
        );
        continue;
      }
    }
    rules[id] = sev;
  }
  const ignore = [...(org.ignore ?? [])];
  for (const entry of repo.ignore ?? []) {
    if (!locked.length) {
      ignore.push(entry);
      continue;
    }
    const lockedHere = entry.rules ? entry.rules.filter((r) => locked.includes(r)) : locked;
    if (lockedHere.length)
      notes.push(
        `locked rule(s) ${lockedHere.map((r) => `\`${r}\``).join(", ")} cannot be ignored by the repository`,
      );
    const rulesLeft = entry.rules
      ? entry.rules.filter((r) => !locked.includes(r))
      : RULE_IDS.filter((r) => !locked.includes(r));
    if (rulesLeft.length) ignore.push({ paths: entry.paths, rules: rulesLeft });
  }
  const policyRaw = { ...(org.policy ?? {}) } as NonNullable<RawConfig["policy"]>;
  for (const [k, v] of Object.entries(repo.policy ?? {}) as [keyof typeof policyRaw, never][]) {
    const rule = POLICY_RULE[k];
    if (rule && locked.includes(rule) && org.policy?.[k] !== undefined) {
      notes.push(
        `\`policy.${k}\` is set by the organisation and its rule \`${rule}\` is locked: the repository's value was not applied`,
      );
      continue;
    }
    policyRaw[k] = v;
  }
  const policy: Policy = {};
  if (policyRaw.name_pattern !== undefined) policy.namePattern = compileNamePattern(policyRaw.name_pattern);
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
    if (lockedAll.includes(key) && order.indexOf(wanted) < order.indexOf(floor)) {
      notes.push(
        `\`${key}\` is locked by the organisation at \`${floor}\`: the repository's looser \`${wanted}\` was not applied`,
      );
      return floor;
    }
    return wanted;
  };
  return {
    paths: repo.paths ?? org.paths ?? DEFAULT_PATHS,
    failOn: setting("fail_on", "error"),
    review: repo.review ?? org.review ?? "comment",
    rules,
    ignore,
    policy,
    existing: setting("existing", "report"),
    locked: lockedAll,
    maxFileSize: repo.max_file_size ?? org.max_file_size ?? DEFAULT_MAX_FILE_SIZE,
    notes,
  };
}

function defaultSeverityOf(id: string): Severity {
  return RULES_BY_ID.get(id)?.meta.defaultSeverity ?? "error";
}

/** Does the configuration make a finding of this severity fail the check? */
export function fails(severity: Severity, failOn: FailOn): boolean {
  return failOn !== "never" && SEVERITY_RANK[severity] >= SEVERITY_RANK[failOn];
}

/** Does this finding decide the verdict? Existing ones only with `existing: fail` (never with `report`). */
export function findingFails(
  f: { severity: Severity; baseline?: "new" | "existing" },
  config: Pick<ResolvedConfig, "failOn" | "existing">,
): boolean {
  return fails(f.severity, config.failOn) && (f.baseline !== "existing" || config.existing === "fail");
}

/** An existing finding that is reported but does not count (`existing: report`): no comment, a notice annotation. */
export function isQuietExisting(
  f: { baseline?: "new" | "existing" },
  config: Pick<ResolvedConfig, "existing">,
): boolean {
  return f.baseline === "existing" && config.existing === "report";
}

/** Matchers for `paths`-style globs; `dot: true` so `.github/…` and dot-folders match like other folders. */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const m = picomatch(globs as string[], { dot: true });
  return (p) => m(p.replace(/\\/g, "/").replace(/^\.\//, ""));
}
