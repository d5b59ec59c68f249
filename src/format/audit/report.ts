/**
 * What `plugin-review audit` reports: the model that src/github/audit/ collects and every format renders
 * (text.ts and the others here). It lives beside its renderers, not with the collecting, so that no format
 * depends on the code that talks to GitHub.
 */
import type { FailOn } from "../../core/config.js";
import type { Severity, Variant } from "../../core/types.js";
import type { Readiness } from "../../migrate/migrate.js";
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
  /** Its framework and type, and what `plugin-review migrate` can do with it (absent in earlier reports). */
  readiness?: DescriptorReadiness;
}

/** What `migrate` can do with an EF1 descriptor: src/migrate's classification (`readiness()`), never another. */
export type MigrateCapability = Readiness["migrate"];

/**
 * An EF1 descriptor (`plugin.json`) on the way to Extensions 2.0: its type (`JMX`, `python`, or the `type` as
 * written, such as `PMI`), host or remote, what `migrate` can do with it, and the EF2 extension beside it.
 */
export interface DescriptorReadiness {
  framework: "EF1";
  /** `JMX` or `python`, else the descriptor's `type` as written; absent when it has none (or is not JSON). */
  type?: string;
  /** Host or remote (a `custom.remote.` name or a `CUSTOM_DEVICE` entity); absent when it is not JSON. */
  variant?: Variant;
  /** Fully, partly, or not at all; absent when the audit did not read the file (over `max_file_size`). */
  migrate?: MigrateCapability;
  /** Partly: what is not carried over; not at all: why; each with the descriptor's line. Unread: why. */
  items: Readiness["items"];
  /** The `extension.yaml` that replaces it: in its folder, or in its `extension/` subfolder. */
  extension?: string;
}

/** An EF2 extension (`extension.yaml`) in a reviewed repository. */
export interface AuditExtension {
  path: string;
  framework: "EF2";
  /** Its data source member (`jmx`, `python`, `snmp`, `sqlOracle`, …); absent when it has none. */
  dataSource?: string;
  /** Its `name` (`custom:…`), when it has one. */
  name?: string;
  /** The EF1 descriptor it replaces, when the repository still holds it (beside it, or one folder up). */
  replaces?: string;
  /**
   * Why its data source is not known, read as the review reads it: it is not YAML (not even as Dynatrace reads
   * it), not a mapping, not UTF-8, or over its size limit (`max_extension_size`, within `max_file_size`) and not read.
   */
  problem?: string;
  /**
   * Its review's findings by severity, and whether a pull request touching it would fail (its findings are
   * also its file's in `files`, and counted in the repository's); absent in earlier reports.
   */
  errors?: number;
  warnings?: number;
  notices?: number;
  wouldFail?: boolean;
}

/**
 * Where a repository stands in the migration to Extensions 2.0:
 * - `done`: EF2 extensions only, no EF1 descriptor left;
 * - `in-progress`: both, typically an `extension.yaml` beside the `plugin.json` it replaces (or in its
 *   `extension/` subfolder, as `migrate` writes it);
 * - `not-started`: EF1 descriptors and no EF2 extension.
 * A repository with neither has no migration to speak of (the member is absent).
 */
export type MigrationState = "done" | "in-progress" | "not-started";

/** The organisation's readiness, counted over the reviewed repositories. */
export interface ReadinessTotals {
  repositories: Record<MigrationState, number>;
  /** EF1 descriptors by what `migrate` can do (`unread`: over `max_file_size`, not classified). */
  descriptors: { total: number; fully: number; partly: number; notAtAll: number; unread: number };
  /** The same by type and variant (JMX host, python remote, PMI host…), most descriptors first. */
  byType: (Pick<DescriptorReadiness, "type" | "variant"> & ReadinessTotals["descriptors"])[];
  /**
   * EF2 extensions, and by data source (`none` when it has none, `unknown` when it could not be read); their
   * findings by severity, and how many a pull request could not change without fixing them (absent in earlier
   * reports).
   */
  extensions: {
    total: number;
    byDataSource: { dataSource: string; extensions: number }[];
    errors?: number;
    warnings?: number;
    notices?: number;
    failing?: number;
  };
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
      /** Its EF2 extensions (`extension.yaml`; absent in earlier reports). */
      extensions?: AuditExtension[];
      /** Where its migration to Extensions 2.0 stands; absent when it has neither EF1 nor EF2 files. */
      migration?: MigrationState;
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
  /** The migration to Extensions 2.0 across the reviewed repositories (absent in earlier reports). */
  readiness?: ReadinessTotals;
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

/** A descriptor's type for people, tables and charts: `JMX host`, `python remote`, `PMI host`, `unknown`. */
export function typeLabel(r: Pick<DescriptorReadiness, "type" | "variant">): string {
  return r.type === undefined && r.variant === undefined
    ? "unknown"
    : [r.type ?? "no type", r.variant].filter(Boolean).join(" ");
}

const capabilityKey = { fully: "fully", partly: "partly", "not at all": "notAtAll" } as const;

/** The readiness of the reviewed repositories: their migration states, their descriptors and extensions. */
export function readinessTotals(repos: readonly AuditRepository[]): ReadinessTotals {
  const counts = () => ({ total: 0, fully: 0, partly: 0, notAtAll: 0, unread: 0 });
  const t: ReadinessTotals = {
    repositories: { done: 0, "in-progress": 0, "not-started": 0 },
    descriptors: counts(),
    byType: [],
    extensions: { total: 0, byDataSource: [], errors: 0, warnings: 0, notices: 0, failing: 0 },
  };
  const ext = t.extensions as Required<ReadinessTotals["extensions"]>;
  type Of = ReadinessTotals["byType"][number];
  const byType = new Map<string, Of>();
  const bySource = new Map<string, number>();
  for (const r of repos) {
    if (r.status !== "reviewed") continue;
    if (r.migration) t.repositories[r.migration]++;
    for (const f of r.files) {
      const x = f.readiness;
      if (!x) continue;
      const label = typeLabel(x);
      let of = byType.get(label);
      if (!of) {
        of = {
          ...(x.type !== undefined ? { type: x.type } : {}),
          ...(x.variant ? { variant: x.variant } : {}),
          ...counts(),
        };
        byType.set(label, of);
      }
      const key = x.migrate ? capabilityKey[x.migrate] : "unread";
      for (const c of [t.descriptors, of]) {
        c.total++;
        c[key]++;
      }
    }
    for (const e of r.extensions ?? []) {
      ext.total++;
      ext.errors += e.errors ?? 0;
      ext.warnings += e.warnings ?? 0;
      ext.notices += e.notices ?? 0;
      if (e.wouldFail) ext.failing++;
      const source = e.dataSource ?? (e.problem ? "unknown" : "none");
      bySource.set(source, (bySource.get(source) ?? 0) + 1);
    }
  }
  t.byType = [...byType.values()].sort(
    (a, b) => b.total - a.total || typeLabel(a).localeCompare(typeLabel(b)),
  );
  t.extensions.byDataSource = [...bySource]
    .map(([dataSource, extensions]) => ({ dataSource, extensions }))
    .sort((a, b) => b.extensions - a.extensions || a.dataSource.localeCompare(b.dataSource));
  return t;
}

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
  /**
   * The earlier audit: the file as given, when it ran, its totals (the trend's first point) and its readiness
   * (when it has one: reports before plugin-review knew of Extensions 2.0 have none).
   */
  earlier: { file: string; auditedAt?: string; totals: AuditTotals; readiness?: ReadinessTotals };
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
