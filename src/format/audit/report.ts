/**
 * What `plugin-review audit` reports: the model that src/github/audit/ collects and every format renders
 * (text.ts and the others here). It lives beside its renderers, not with the collecting, so that no format
 * depends on the code that talks to GitHub.
 */

export interface AuditFile {
  path: string;
  errors: number;
  warnings: number;
  notices: number;
  /** A pull request touching this descriptor would fail (a finding at `fail_on`, existing ones included). */
  wouldFail: boolean;
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
      /** Whether the App reads the organisation's configuration here (its reviews depend on it). */
      organisationPolicy?: OrganisationPolicyAccess;
      /** The configuration files used, in order (organisation, `_extends`, repository). */
      configuration: string[];
      failOn: string;
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
  /** The App's installation and what it sees (the organisation's configuration depends on it). */
  app?: AppAccess;
  repositories: AuditRepository[];
  totals: AuditTotals;
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
