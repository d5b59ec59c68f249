/**
 * What `plugin-review audit` reports: the model that src/github/audit/ collects and every format renders
 * (text.ts and the others here). It lives beside its renderers, not with the collecting, so that no format
 * depends on the code that talks to GitHub.
 */
import type { FailOn } from "../../core/config.js";
import type { Severity } from "../../core/types.js";
import type { FindingFields } from "../json.js";

/** One finding of a descriptor: `check --format json`'s finding, less `file` (the descriptor's `path`). */
export interface AuditFinding extends FindingFields {
  /** With `--compare`, in a repository reviewed by both audits: was it in the earlier one? */
  baseline?: "new" | "existing";
}

export interface AuditFile {
  path: string;
  errors: number;
  warnings: number;
  notices: number;
  /** A pull request touching this descriptor would fail (a finding at `fail_on`, existing ones included). */
  wouldFail: boolean;
  /** Every finding, in the order of the descriptor's review. */
  findings: AuditFinding[];
}

/**
 * Whether the App's installation reads the organisation's configuration (`<org>/.github`) for a repository,
 * as far as the audit's token can tell:
 * - `read`: the installation sees `.github` (installed on all repositories, or on `.github` among others);
 * - `not-read`: it does not: its checks here apply the repository's configuration alone (and fail, where the
 *   deployment requires the organisation's configuration);
 * - `none`: the organisation has no configuration file to read;
 * - `app-not-installed`: the App does not review this repository at all;
 * - `unknown`: the token cannot tell (a person's token sees neither the installation's repositories nor,
 *   without an owner's rights, the organisation's installations).
 */
export interface OrganisationPolicyAccess {
  state: "read" | "not-read" | "none" | "app-not-installed" | "unknown";
  detail?: string;
}

export type AuditRepository =
  | {
      repository: string;
      status: "reviewed";
      /** The repository's page (`html_url`: `https://<host>/<owner>/<repo>`, GitHub Enterprise Server too). */
      url: string;
      defaultBranch: string;
      /** The default branch's commit that was audited: the tree, the descriptors and every link are of it. */
      commit: string;
      /** Whether the App reads the organisation's configuration here (its reviews depend on it). */
      organisationPolicy?: OrganisationPolicyAccess;
      /** The configuration files used, in order (organisation, `_extends`, repository). */
      configuration: string[];
      failOn: FailOn;
      descriptors: number;
      errors: number;
      warnings: number;
      notices: number;
      wouldFail: boolean;
      failingDescriptors: number;
      files: AuditFile[];
      /** Set when GitHub cut the tree short (over 100,000 entries): descriptors may be missing. */
      truncated?: boolean;
    }
  | { repository: string; status: "skipped"; reason: string }
  | {
      repository: string;
      status: "invalid-configuration";
      reason: string;
      url?: string;
      wouldFail: true;
      organisationPolicy?: OrganisationPolicyAccess;
    }
  | { repository: string; status: "unreadable"; reason: string };

export interface AuditTotals {
  repositories: number;
  reviewed: number;
  skipped: number;
  unreadable: number;
  invalidConfiguration: number;
  descriptors: number;
  errors: number;
  warnings: number;
  notices: number;
  /** Repositories where a pull request touching a descriptor would fail (invalid configurations included). */
  wouldFail: number;
  failingDescriptors: number;
}

/** What the audit learnt about the App's installation in the organisation. */
export interface AppAccess {
  /** The App's slug (`--app`). */
  app: string;
  /** How it was learnt: the token is the installation's own, or the organisation's list of installations. */
  source?: "installation-token" | "organisation-installations";
  installed?: boolean;
  /** The repositories the installation sees: all of them, or these names; undefined when unknown. */
  repositories?: "all" | string[];
  /** Why it is unknown, or what is known, in words. */
  detail: string;
}

export interface AuditReport {
  organization: string;
  /** When the audit ran (ISO 8601, UTC). */
  auditedAt?: string;
  /** The plugin-review version that ran it (fingerprints are comparable within one identity scheme). */
  version?: string;
  /** The App's installation and what it sees (the organisation's configuration depends on it). */
  app?: AppAccess;
  repositories: AuditRepository[];
  totals: AuditTotals;
  /** With `--compare <earlier.json>`: what changed since that audit (compare.ts). */
  comparison?: AuditComparison;
}

export function totals(repos: readonly AuditRepository[]): AuditTotals {
  const t: AuditTotals = {
    repositories: repos.length,
    reviewed: 0,
    skipped: 0,
    unreadable: 0,
    invalidConfiguration: 0,
    descriptors: 0,
    errors: 0,
    warnings: 0,
    notices: 0,
    wouldFail: 0,
    failingDescriptors: 0,
  };
  for (const r of repos) {
    if (r.status === "skipped") t.skipped++;
    else if (r.status === "unreadable") t.unreadable++;
    else if (r.status === "invalid-configuration") {
      t.invalidConfiguration++;
      t.wouldFail++;
    } else {
      t.reviewed++;
      t.descriptors += r.descriptors;
      t.errors += r.errors;
      t.warnings += r.warnings;
      t.notices += r.notices;
      t.failingDescriptors += r.failingDescriptors;
      if (r.wouldFail) t.wouldFail++;
    }
  }
  return t;
}

export type ReviewedRepository = Extract<AuditRepository, { status: "reviewed" }>;

export const reviewed = (report: AuditReport): ReviewedRepository[] =>
  report.repositories.filter((r): r is ReviewedRepository => r.status === "reviewed");

/** A web URL from GitHub, only when it is one (http or https): anything else is never made a link. */
export function webUrl(url: string | undefined): string | undefined {
  return url && /^https?:\/\/[^\s"'<>\\]+$/.test(url) ? url.replace(/\/+$/, "") : undefined;
}

/**
 * A descriptor's line at the audited commit: `https://<host>/<owner>/<repo>/blob/<sha>/<path>#L<line>`, each
 * path segment percent-encoded (a path may hold spaces, `#`, `?` or `%`). Undefined without a web URL.
 */
export function blobUrl(
  repo: { url?: string; commit?: string },
  path: string,
  line?: number,
): string | undefined {
  const base = webUrl(repo.url);
  if (!base || !repo.commit || !/^[0-9a-f]{7,64}$/i.test(repo.commit)) return undefined;
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  return `${base}/blob/${repo.commit}/${encoded}${line ? `#L${line}` : ""}`;
}

/** Findings per rule (errors, warnings, notices), most findings first, then by rule id. */
export interface RuleTally {
  ruleId: string;
  error: number;
  warning: number;
  notice: number;
  total: number;
  /** Repositories with at least one finding of the rule. */
  repositories: number;
}

export function findingsByRule(report: AuditReport): RuleTally[] {
  const by = new Map<string, RuleTally & { repos: Set<string> }>();
  for (const r of reviewed(report))
    for (const f of r.files)
      for (const x of f.findings) {
        let t = by.get(x.ruleId);
        if (!t) {
          t = {
            ruleId: x.ruleId,
            error: 0,
            warning: 0,
            notice: 0,
            total: 0,
            repositories: 0,
            repos: new Set(),
          };
          by.set(x.ruleId, t);
        }
        t[x.severity]++;
        t.total++;
        t.repos.add(r.repository);
      }
  return [...by.values()]
    .map(({ repos, ...t }) => ({ ...t, repositories: repos.size }))
    .sort((a, b) => b.total - a.total || a.ruleId.localeCompare(b.ruleId));
}

/** Something's findings by severity, as the report counts them (a repository, a file, the totals). */
type Tallied = { errors: number; warnings: number; notices: number };

/** Its findings of every severity. */
export const findingCount = (x: Tallied): number => x.errors + x.warnings + x.notices;

/** Its counts keyed by severity. */
export const bySeverity = (x: Tallied): Record<Severity, number> => ({
  error: x.errors,
  warning: x.warnings,
  notice: x.notices,
});

/** The reviewed repositories with findings, most first (errors, then all), then by name. */
export function repositoriesByFindings(report: AuditReport): ReviewedRepository[] {
  const total = findingCount;
  return reviewed(report)
    .filter((r) => total(r) > 0)
    .sort((a, b) => b.errors - a.errors || total(b) - total(a) || a.repository.localeCompare(b.repository));
}

/** An audit's time for people: `2026-05-04 09:30 UTC` (the JSON keeps ISO 8601). */
export function auditTime(iso: string | undefined): string {
  return iso && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso)
    ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
    : "an unknown date";
}

// ---- What `--compare` found (compare.ts computes it) ----

/** A finding that was fixed or is new, with where it is (or was): its link is at that audit's commit. */
export interface ComparedFinding extends AuditFinding {
  repository: string;
  path: string;
  url?: string;
}

export interface ChangeTally {
  fixed: number;
  new: number;
}

export interface AuditComparison {
  /** The earlier audit: the file as given, when it ran, and its totals (the trend's first point). */
  earlier: { file: string; auditedAt?: string; totals: AuditTotals };
  /** Repositories reviewed by both audits: the ones compared. */
  compared: number;
  fixed: ComparedFinding[];
  new: ComparedFinding[];
  /** Findings in both audits. */
  unchanged: number;
  byRule: (ChangeTally & { ruleId: string })[];
  byRepository: (ChangeTally & { repository: string })[];
  /** Repositories reviewed by only one of the audits, and why: their findings are neither fixed nor new. */
  notCompared: { repository: string; reason: string }[];
}
