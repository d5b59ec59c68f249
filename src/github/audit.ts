/**
 * `plugin-review audit <org>`: where an organisation stands before it turns a policy on. For every
 * repository (or the named ones) it loads the configuration the App would use there (load-config.ts:
 * organisation file, repository file, `_extends`, locks), lists the default branch's tree recursively, and
 * reviews every descriptor as the App would review a pull request that touches it under `existing: fail`
 * (every finding counts, not only new ones).
 *
 * Read-only by construction: the Octokit refuses anything but GET requests and GraphQL queries before
 * they leave the process. Rate limits are honoured by the throttling and retry plugins; repositories and
 * descriptors are read a few at a time. A repository that cannot be read is reported, never fatal.
 */
import { fails, globMatcher, type ResolvedConfig } from "../core/config.js";
import { reviewDescriptors, type DescriptorInput } from "../core/review.js";
import { countFindings } from "../format/summary.js";
import { loadConfig } from "./load-config.js";
import { mapLimit } from "./map-limit.js";
import { describeRequestError, httpStatus } from "./errors.js";
import { tokenOctokit } from "./octokit.js";
import type { Octokit } from "./types.js";

/** Repositories reviewed at once, and descriptors read at once within one: bounded, as GitHub asks. */
export const REPO_CONCURRENCY = 3;
const FILE_CONCURRENCY = 4;

export interface AuditFile {
  path: string;
  errors: number;
  warnings: number;
  notices: number;
  /** A pull request touching this descriptor would fail (a finding at `fail_on`, existing ones included). */
  wouldFail: boolean;
}

export type AuditRepository =
  | {
      repository: string;
      status: "reviewed";
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
  | { repository: string; status: "invalid-configuration"; reason: string; wouldFail: true }
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

export interface AuditReport {
  organization: string;
  repositories: AuditRepository[];
  totals: AuditTotals;
}

export interface AuditOptions {
  org: string;
  /** Only these repositories (names within the organisation); all of them when empty. */
  repos?: readonly string[];
  /** Called as each repository is done (for a progress line). */
  onProgress?: (done: number, total: number, repository: string) => void;
}

/** An Octokit for the audit: token auth, throttling and retries, and nothing but reads (octokit.ts). */
export function auditOctokit(token: string, baseUrl: string, warn: (message: string) => void): Octokit {
  return tokenOctokit({ token, baseUrl, userAgent: "plugin-review-audit", warn, writes: "refuse" });
}

interface RepoInfo {
  name: string;
  full_name: string;
  archived?: boolean;
  disabled?: boolean;
  default_branch?: string;
  size?: number;
  owner: { login: string; type?: string };
}

/** The repositories to audit: the named ones (each read, so a typo is reported), or all of the organisation's. */
async function repositories(
  octokit: Octokit,
  org: string,
  names: readonly string[],
): Promise<(RepoInfo | { full_name: string; error: string })[]> {
  if (names.length) {
    return mapLimit(names, REPO_CONCURRENCY, async (name) => {
      try {
        return (await octokit.rest.repos.get({ owner: org, repo: name })).data as RepoInfo;
      } catch (e) {
        return { full_name: `${org}/${name}`, error: describeRequestError(e, `reading ${org}/${name}`) };
      }
    });
  }
  const all = (await octokit.paginate(octokit.rest.repos.listForOrg, {
    org,
    type: "all",
    per_page: 100,
  })) as RepoInfo[];
  return all.sort((a, b) => a.full_name.localeCompare(b.full_name));
}

/** Reviews every descriptor of one repository's default branch with the configuration the App would use. */
async function auditRepository(octokit: Octokit, repo: RepoInfo): Promise<AuditRepository> {
  const [owner, name] = [repo.owner.login, repo.name];
  const id = repo.full_name;
  if (repo.archived) return { repository: id, status: "skipped", reason: "archived" };
  if (repo.disabled) return { repository: id, status: "skipped", reason: "disabled" };
  const branch = repo.default_branch;
  if (!branch) return { repository: id, status: "skipped", reason: "empty repository" };
  let loaded;
  try {
    loaded = await loadConfig(octokit, owner, name, repo.owner.type ?? "Organization");
  } catch (e) {
    return {
      repository: id,
      status: "unreadable",
      reason: describeRequestError(e, "reading the configuration"),
    };
  }
  if (!loaded.ok)
    return { repository: id, status: "invalid-configuration", reason: loaded.error, wouldFail: true };
  const config = loaded.config;
  let tree;
  try {
    tree = (await octokit.rest.git.getTree({ owner, repo: name, tree_sha: branch, recursive: "1" })).data;
  } catch (e) {
    // GitHub answers 409 "Git Repository is empty." for a repository without commits.
    if (httpStatus(e) === 409) return { repository: id, status: "skipped", reason: "empty repository" };
    return {
      repository: id,
      status: "unreadable",
      reason: describeRequestError(e, `reading the tree of ${branch}`),
    };
  }
  const isDescriptor = globMatcher(config.paths);
  const entries = tree.tree.filter(
    (t): t is typeof t & { path: string; sha: string } =>
      t.type === "blob" && typeof t.path === "string" && typeof t.sha === "string" && isDescriptor(t.path),
  );
  let inputs: DescriptorInput[];
  try {
    inputs = await mapLimit(entries, FILE_CONCURRENCY, (t) =>
      readDescriptor(octokit, owner, name, t, config),
    );
  } catch (e) {
    return { repository: id, status: "unreadable", reason: describeRequestError(e, "reading a descriptor") };
  }
  const reviews = reviewDescriptors(inputs, config);
  const files: AuditFile[] = reviews.map((r) => {
    const c = countFindings(r.findings);
    return {
      path: r.path,
      errors: c.error,
      warnings: c.warning,
      notices: c.notice,
      // Under `existing: fail` every finding counts, not only the ones a pull request adds.
      wouldFail: r.findings.some((f) => fails(f.severity, config.failOn)),
    };
  });
  const sum = (k: "errors" | "warnings" | "notices") => files.reduce((n, f) => n + f[k], 0);
  const failing = files.filter((f) => f.wouldFail).length;
  return {
    repository: id,
    status: "reviewed",
    configuration: loaded.sources,
    failOn: config.failOn,
    descriptors: files.length,
    errors: sum("errors"),
    warnings: sum("warnings"),
    notices: sum("notices"),
    wouldFail: failing > 0,
    failingDescriptors: failing,
    files,
    ...(tree.truncated ? { truncated: true } : {}),
  };
}

/** One descriptor through the blob API (any size up to 100 MB); over max_file_size, only its size. */
async function readDescriptor(
  octokit: Octokit,
  owner: string,
  repo: string,
  entry: { path: string; sha: string; size?: number },
  config: ResolvedConfig,
): Promise<DescriptorInput> {
  if ((entry.size ?? 0) > config.maxFileSize) {
    return { path: entry.path, content: new Uint8Array(), size: entry.size as number };
  }
  const { data } = await octokit.rest.git.getBlob({ owner, repo, file_sha: entry.sha });
  const bytes = Buffer.from(data.content, data.encoding === "base64" ? "base64" : "utf8");
  return { path: entry.path, content: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
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

/** Audits the organisation. Throws only when the organisation's repositories cannot be listed at all. */
export async function auditOrganization(octokit: Octokit, opts: AuditOptions): Promise<AuditReport> {
  const listed = await repositories(octokit, opts.org, opts.repos ?? []);
  let done = 0;
  const results = await mapLimit(listed, REPO_CONCURRENCY, async (repo): Promise<AuditRepository> => {
    let result: AuditRepository;
    if ("error" in repo) result = { repository: repo.full_name, status: "unreadable", reason: repo.error };
    else {
      try {
        result = await auditRepository(octokit, repo);
      } catch (e) {
        // Whatever goes wrong in one repository (a parse of GitHub's answer, a network error) stays there.
        result = {
          repository: repo.full_name,
          status: "unreadable",
          reason: describeRequestError(e, "auditing"),
        };
      }
    }
    opts.onProgress?.(++done, listed.length, result.repository);
    return result;
  });
  return { organization: opts.org, repositories: results, totals: totals(results) };
}
