/**
 * `plugin-review audit <org>`: where an organisation stands before it turns a policy on. For every
 * repository (or the named ones) it loads the configuration the App would use there (review/load-config.ts:
 * organisation file, repository file, `_extends`, locks), lists the default branch's tree recursively, and
 * reviews every descriptor as the App would review a pull request that touches it under `existing: fail`
 * (every finding counts, not only new ones). The EF2 extensions (`extension.yaml`) are reviewed alike, each
 * compared with the plugin.json it replaces when one is beside it (the migration rules), and counted, with their
 * findings, in the organisation's readiness for Extensions 2.0 (readiness.ts).
 *
 * Read-only by construction: the Octokit refuses anything but GET requests and GraphQL queries before
 * they leave the process. Rate limits are honoured by the throttling and retry plugins; repositories and
 * descriptors are read a few at a time. A repository that cannot be read is reported, never fatal.
 */
import { analyseDescriptors, sizeLimit, type DescriptorInput } from "../../core/analyse.js";
import { fails } from "../../core/verdict.js";
import { findingFields } from "../../format/json.js";
import { countFindings } from "../../format/summary.js";
import { loadConfig, type ConfigReader, type OrganisationConfig } from "../review/load-config.js";
import { mapLimit } from "../api/map-limit.js";
import { describeRequestError, httpStatus } from "../api/errors.js";
import { tokenOctokit, type Octokit } from "../api/octokit/octokit.js";
import { restConfigReader } from "../api/rest/gateway.js";
import { isExtensionPath, reviewedPathMatcher } from "../../core/ef2/pairing.js";
import {
  descriptorReadiness,
  extensionOf,
  extensionRead,
  overLimit,
  pairMigration,
  reviewedExtensions,
  withFindings,
} from "./readiness.js";
import {
  readinessTotals,
  totals,
  type AppAccess,
  type AuditExtension,
  type AuditFile,
  type AuditReport,
  type AuditRepository,
  type OrganisationPolicyAccess,
} from "../../format/audit/report.js";

/** The App's slug when `--app` does not name another (app.yml's name). */
export const DEFAULT_APP_SLUG = "plugin-review";
/** Repositories reviewed at once, and descriptors read at once within one: bounded, as GitHub asks. */
export const REPO_CONCURRENCY = 3;
const FILE_CONCURRENCY = 4;

export interface AuditOptions {
  org: string;
  /** Only these repositories (names within the organisation); all of them when empty. */
  repos?: readonly string[];
  /** The App's slug, to find its installation among the organisation's (default `plugin-review`). */
  app?: string;
  /** Called as each repository is done (for a progress line). */
  onProgress?: (done: number, total: number, repository: string) => void;
  /** The plugin-review version running it, recorded in the report. */
  version?: string;
}

/** An Octokit for the audit: token auth, throttling and retries, and nothing but reads (api/octokit/). */
export function auditOctokit(token: string, baseUrl: string, warn: (message: string) => void): Octokit {
  return tokenOctokit({ token, baseUrl, userAgent: "plugin-review-audit", warn, writes: "refuse" });
}

interface RepoInfo {
  name: string;
  full_name: string;
  archived?: boolean;
  disabled?: boolean;
  default_branch?: string;
  html_url: string;
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
async function auditRepository(
  octokit: Octokit,
  reader: ConfigReader,
  repo: RepoInfo,
  access: AppAccess,
  orgRepositoryVisible: () => Promise<boolean>,
): Promise<AuditRepository> {
  const [owner, name] = [repo.owner.login, repo.name];
  const id = repo.full_name;
  if (repo.archived) return { repository: id, status: "skipped", reason: "archived" };
  if (repo.disabled) return { repository: id, status: "skipped", reason: "disabled" };
  const branch = repo.default_branch;
  if (!branch) return { repository: id, status: "skipped", reason: "empty repository" };
  const ownerType = repo.owner.type ?? "Organization";
  const seesOrg = appSees(access, ".github");
  let loaded;
  try {
    // The configuration the App would use: without the organisation's file where it cannot read it.
    loaded = await loadConfig(reader, owner, name, ownerType, new Map(), {
      ...(seesOrg === false
        ? { orgUnreadable: true }
        : ownerType === "Organization"
          ? { orgRepositoryVisible }
          : {}),
    });
  } catch (e) {
    return {
      repository: id,
      status: "unreadable",
      reason: describeRequestError(e, "reading the configuration"),
    };
  }
  const policy =
    ownerType === "Organization" && name !== ".github"
      ? { organisationPolicy: policyAccess(access, name, loaded.organisation) }
      : {};
  if (!loaded.ok)
    return {
      repository: id,
      status: "invalid-configuration",
      reason: loaded.error,
      url: repo.html_url,
      wouldFail: true,
      ...policy,
    };
  const config = loaded.config;
  let commit: string;
  let tree;
  try {
    // The branch's commit first, then its tree: descriptors and links are all of that one commit, even
    // when a push lands meanwhile.
    commit = (await octokit.rest.git.getRef({ owner, repo: name, ref: `heads/${branch}` })).data.object.sha;
    tree = (await octokit.rest.git.getTree({ owner, repo: name, tree_sha: commit, recursive: "1" })).data;
  } catch (e) {
    // GitHub answers 409 "Git Repository is empty." for a repository without commits.
    if (httpStatus(e) === 409) return { repository: id, status: "skipped", reason: "empty repository" };
    return {
      repository: id,
      status: "unreadable",
      reason: describeRequestError(e, `reading the tree of ${branch}`),
    };
  }
  const isReviewed = reviewedPathMatcher(config.paths);
  const blobs = tree.tree.filter(
    (t): t is typeof t & { path: string; sha: string } =>
      t.type === "blob" && typeof t.path === "string" && typeof t.sha === "string",
  );
  // An extension.yaml is EF2's, never reviewed as an EF1 descriptor (whatever glob `paths` holds).
  const entries = blobs.filter((t) => !isExtensionPath(t.path) && isReviewed(t.path));
  const ef2 = blobs.filter((t) => isExtensionPath(t.path) && isReviewed(t.path));
  let inputs: DescriptorInput[];
  let extensionFiles: DescriptorInput[];
  try {
    // Descriptors and extensions alike, a few at a time. An extension.yaml over its own limit
    // (max_extension_size, when the smaller) is not downloaded: neither the review nor the readiness reads it.
    const extensionLimit = sizeLimit(config, true).limit;
    const toRead = [
      ...entries.map((entry) => ({ entry, limit: config.maxFileSize })),
      ...ef2.map((entry) => ({ entry, limit: extensionLimit })),
    ];
    const read = await mapLimit(toRead, FILE_CONCURRENCY, ({ entry, limit }) =>
      readDescriptor(octokit, owner, name, entry, limit),
    );
    inputs = read.slice(0, entries.length);
    extensionFiles = read.slice(entries.length);
  } catch (e) {
    return { repository: id, status: "unreadable", reason: describeRequestError(e, "reading a descriptor") };
  }
  // The extension.yaml files as a pull request touching them would be reviewed, each with its plugin.json;
  // each one's name and data source from the review's own read of it (no second parse, and never another reading).
  const readExtensions = new Map<string, AuditExtension>();
  const analysed = analyseDescriptors([...inputs, ...reviewedExtensions(inputs, extensionFiles)], config, {
    onRead: (path, read) => {
      if (isExtensionPath(path)) readExtensions.set(path, extensionRead(path, read, config));
    },
  });
  // Another tool's extension.yaml (core/ef2/extension-document.ts) is neither a descriptor nor an extension.
  const others = new Set(analysed.filter((r) => r.notAnExtension).map((r) => r.path));
  const descriptorsAndExtensions = analysed.filter((r) => !r.notAnExtension);
  const sizes = new Map(inputs.flatMap((i) => (i.size !== undefined ? [[i.path, i.size]] : [])));
  const reviewedFiles: AuditFile[] = descriptorsAndExtensions.map((r) => {
    const c = countFindings(r.findings);
    const size = sizes.get(r.path);
    return {
      path: r.path,
      errors: c.error,
      warnings: c.warning,
      notices: c.notice,
      // Under `existing: fail` every finding counts, not only the ones a pull request adds.
      wouldFail: r.findings.some((f) => fails(f.severity, config.failOn)),
      findings: r.findings.map(findingFields),
      ...(isExtensionPath(r.path)
        ? {}
        : {
            readiness: descriptorReadiness(
              r,
              size !== undefined ? overLimit(size, config.maxFileSize) : undefined,
            ),
          }),
    };
  });
  const byPath = new Map(reviewedFiles.map((f) => [f.path, f]));
  const { files, extensions, migration } = pairMigration(
    reviewedFiles,
    extensionFiles
      .filter((f) => !others.has(f.path))
      // Read as the review read it (the same limit, check and parse): the two never disagree on what it is.
      .map((f) => withFindings(readExtensions.get(f.path) ?? extensionOf(f, config), byPath.get(f.path))),
  );
  const sum = (k: "errors" | "warnings" | "notices") => files.reduce((n, f) => n + f[k], 0);
  const failing = files.filter((f) => f.wouldFail).length;
  return {
    repository: id,
    status: "reviewed",
    url: repo.html_url,
    defaultBranch: branch,
    commit,
    ...policy,
    configuration: loaded.sources,
    failOn: config.failOn,
    descriptors: files.length,
    errors: sum("errors"),
    warnings: sum("warnings"),
    notices: sum("notices"),
    wouldFail: failing > 0,
    failingDescriptors: failing,
    files,
    extensions,
    ...(migration ? { migration } : {}),
    ...(tree.truncated ? { truncated: true } : {}),
  };
}

/** One file through the blob API (any size up to 100 MB); over `limit` (its kind's, in bytes), only its size. */
async function readDescriptor(
  octokit: Octokit,
  owner: string,
  repo: string,
  entry: { path: string; sha: string; size?: number },
  limit: number,
): Promise<DescriptorInput> {
  if ((entry.size ?? 0) > limit) {
    return { path: entry.path, content: new Uint8Array(), size: entry.size as number };
  }
  const { data } = await octokit.rest.git.getBlob({ owner, repo, file_sha: entry.sha });
  const bytes = Buffer.from(data.content, data.encoding === "base64" ? "base64" : "utf8");
  return { path: entry.path, content: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
}

/** Whether the installation sees a repository: true, false, or undefined when unknown. */
function appSees(access: AppAccess, name: string): boolean | undefined {
  if (access.installed === false) return false;
  if (access.repositories === "all") return true;
  return access.repositories ? access.repositories.includes(name) : undefined;
}

function policyAccess(
  access: AppAccess,
  name: string,
  org: OrganisationConfig | undefined,
): OrganisationPolicyAccess {
  if (appSees(access, name) === false)
    return { state: "app-not-installed", detail: "the App does not review this repository" };
  if (org?.state === "absent") return { state: "none" };
  const sees = appSees(access, ".github");
  if (sees === true) return org?.state === "read" ? { state: "read" } : { state: "none" };
  if (sees === false)
    return {
      state: "not-read",
      detail: `the App's installation cannot see ${org?.repository ?? ".github"}: its checks apply this repository's configuration alone`,
    };
  return { state: "unknown", detail: access.detail };
}

/**
 * What the App's installation sees. With the installation's own token (GitHub's `ghs_` tokens, as a workflow
 * gets from the App) the audit reads exactly what the App reads: its repositories are listed. With a person's
 * token, an organisation owner's can list the organisation's installations and tell "all repositories" from
 * "selected ones", but not which. Anything else: unknown, said why.
 */
export async function appAccess(octokit: Octokit, org: string, app: string): Promise<AppAccess> {
  try {
    const first = await octokit.request("GET /installation/repositories", { per_page: 100 });
    const selection = (first.data as { repository_selection?: string }).repository_selection;
    if (selection === "all")
      return {
        app,
        source: "installation-token",
        installed: true,
        repositories: "all",
        detail: "the token's installation sees all repositories",
      };
    const names = (
      (await octokit.paginate("GET /installation/repositories", { per_page: 100 })) as { name: string }[]
    ).map((r) => r.name);
    return {
      app,
      source: "installation-token",
      installed: true,
      repositories: names,
      detail: `the token's installation sees ${names.length} selected repositories`,
    };
  } catch (e) {
    const status = httpStatus(e);
    if (status !== 401 && status !== 403) throw e;
    // Not an installation's token: the organisation's installations, if this token may list them.
  }
  let installations;
  try {
    installations = (await octokit.paginate("GET /orgs/{org}/installations", {
      org,
      per_page: 100,
    })) as { app_slug: string; repository_selection: string }[];
  } catch (e) {
    const status = httpStatus(e);
    if (status !== 401 && status !== 403 && status !== 404) throw e;
    return {
      app,
      detail: `this token can list neither the installation's repositories nor ${org}'s installations (an organisation owner's token can; the App's installation token tells exactly)`,
    };
  }
  const mine = installations.find((i) => i.app_slug === app);
  if (!mine)
    return {
      app,
      source: "organisation-installations",
      installed: false,
      detail: `the App \`${app}\` is not installed in ${org} (another slug? use --app)`,
    };
  if (mine.repository_selection === "all")
    return {
      app,
      source: "organisation-installations",
      installed: true,
      repositories: "all",
      detail: "installed on all repositories",
    };
  return {
    app,
    source: "organisation-installations",
    installed: true,
    detail: `installed on selected repositories, which a person's token cannot list: make sure ${org}/.github is one of them, or audit with the App's installation token`,
  };
}

/** Audits the organisation. Throws only when the organisation's repositories cannot be listed at all. */
export async function auditOrganization(octokit: Octokit, opts: AuditOptions): Promise<AuditReport> {
  const startedAt = new Date().toISOString();
  const listed = await repositories(octokit, opts.org, opts.repos ?? []);
  const access = await appAccess(octokit, opts.org, opts.app ?? DEFAULT_APP_SLUG);
  const reader = restConfigReader(octokit);
  // Whether this token sees `<org>/.github`: from the listing of all repositories, else asked once.
  let visible: Promise<boolean> | undefined;
  const orgRepositoryVisible = () =>
    (visible ??= listed.some((r) => r.full_name === `${opts.org}/.github` && !("error" in r))
      ? Promise.resolve(true)
      : (opts.repos ?? []).length === 0
        ? Promise.resolve(false)
        : reader.repositoryVisible({ owner: opts.org, repo: ".github" }));
  let done = 0;
  const results = await mapLimit(listed, REPO_CONCURRENCY, async (repo): Promise<AuditRepository> => {
    let result: AuditRepository;
    if ("error" in repo) result = { repository: repo.full_name, status: "unreadable", reason: repo.error };
    else {
      try {
        result = await auditRepository(octokit, reader, repo, access, orgRepositoryVisible);
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
  return {
    organization: opts.org,
    auditedAt: startedAt,
    // Beside the organisation: fingerprints compare within one plugin-review's identity scheme.
    ...(opts.version ? { version: opts.version } : {}),
    app: access,
    repositories: results,
    totals: totals(results),
    readiness: readinessTotals(results),
  };
}
