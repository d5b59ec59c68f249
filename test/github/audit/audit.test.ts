/**
 * `plugin-review audit <org>` against the stateful fake GitHub (nock, every request checked against
 * GitHub's OpenAPI description): several repositories, an organisation file with a lock, `_extends`,
 * archived, empty and unreadable repositories, and an invalid configuration. Counts are worked out by hand
 * below from what each descriptor holds; only GET requests may reach the fake.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runAudit } from "../../../src/cli/audit.js";
import type {
  AuditReport,
  AuditRepository,
  OrganisationPolicyAccess,
} from "../../../src/format/audit/report.js";
import { auditOctokit } from "../../../src/github/audit/collect.js";
import { mainRun } from "../../cli/run.js";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub, type Route } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";

const CONFIG = ".github/plugin-review.yml";

beforeEach(() => disableNetwork());
afterEach(() => {
  cleanup();
  delete process.env.GITHUB_TOKEN;
});

const run = mainRun;

/**
 * The organisation `acme`:
 * - `.github`: the organisation file makes `unknown-member` an error and locks it; no descriptors.
 * - `plugins`: `a/plugin.json` clean; `b/plugin.json` with a misspelt member (1 unknown-member: an error by
 *   the locked organisation rule, although the repository file turns it off); a README that is no descriptor.
 * - `remote`: `_extends: shared`, whose file sets `fail_on: warning`; one descriptor with an unknown process
 *   type (1 warning), so it would fail.
 * - `shared`: the extended configuration, no descriptors.
 * - `quiet`: one descriptor with the same warning, default `fail_on: error`: it would not fail.
 * - `old` archived, `void` empty (skipped); `secret` answers 403 for its tree (unreadable);
 *   `broken` has an invalid configuration.
 */
function organisation(routes: Route[] = ["listOrgRepos", "contents", "tree", "blob"], appAccess = true) {
  // The token is a person's (not the installation's); the organisation lists the App's installation.
  // Each reviewed repository's default branch is read as a reference (its commit), then as a tree.
  const read: Route[] = routes.includes("tree") ? [...routes, "ref"] : routes;
  const gh = new FakeGitHub(appAccess ? [...read, "installationRepos", "orgInstallations"] : read);
  gh.orgInstallations.push({ app_slug: "plugin-review", repository_selection: "all" });
  const host = validHost();
  const warned = text({ ...host, processTypeNames: ["PYTHN"] });
  for (const r of [".github", "plugins", "remote", "shared", "quiet", "secret", "broken"])
    gh.repo(`acme/${r}`);
  gh.repo("acme/old", { archived: true }).repo("acme/void", { empty: true });
  gh.file("acme/.github", "HEAD", CONFIG, "rules:\n  unknown-member: error\nlocked: [unknown-member]\n")
    .file("acme/plugins", "HEAD", CONFIG, "rules:\n  unknown-member: off\n")
    .file("acme/plugins", "HEAD", "a/plugin.json", text(host))
    .file(
      "acme/plugins",
      "HEAD",
      "b/plugin.json",
      text({ ...host, name: "custom.python.b", metricGroupp: "x" }),
    )
    .file("acme/plugins", "HEAD", "README.md", "# plugins\n")
    .file("acme/remote", "HEAD", CONFIG, "_extends: shared\n")
    .file("acme/shared", "HEAD", CONFIG, "fail_on: warning\n")
    .file("acme/remote", "HEAD", "p/plugin.json", warned)
    .file("acme/quiet", "HEAD", "plugin.json", warned)
    .file("acme/old", "HEAD", "plugin.json", "{")
    .file("acme/secret", "HEAD", "plugin.json", warned)
    .file("acme/broken", "HEAD", CONFIG, "fail_on: sometimes\n")
    .fail("GET", /^\/repos\/acme\/secret\/git\/trees\//, 403, 1, { message: "Resource not accessible" });
  process.env.GITHUB_TOKEN = "ghp_audit_token_not_real";
  return gh;
}

describe("plugin-review audit", () => {
  it("reviews every repository with its configuration; the JSON counts match the ones worked out by hand", async () => {
    const gh = organisation();
    const r = await run(["audit", "acme", "--format", "json"]);
    expect(r.stderr).toBe(""); // no progress line: stderr is not a terminal here
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as AuditReport;
    const by = Object.fromEntries(report.repositories.map((x) => [x.repository, x]));
    expect(report.organization).toBe("acme");
    expect(Object.keys(by).sort()).toEqual(
      ["broken", ".github", "old", "plugins", "quiet", "remote", "secret", "shared", "void"]
        .map((n) => `acme/${n}`)
        .sort(),
    );
    expect(by["acme/plugins"]).toMatchObject({
      status: "reviewed",
      configuration: ["acme/.github:.github/plugin-review.yml", "acme/plugins:.github/plugin-review.yml"],
      descriptors: 2,
      errors: 1, // the locked rule stays an error although the repository turns it off
      warnings: 0,
      wouldFail: true,
      failingDescriptors: 1,
      files: [
        { path: "a/plugin.json", errors: 0, warnings: 0, notices: 0, wouldFail: false },
        { path: "b/plugin.json", errors: 1, warnings: 0, notices: 0, wouldFail: true },
      ],
    });
    // Installed on all repositories (an owner's token lists the installation): the App reads the policy.
    expect(report.app).toMatchObject({ app: "plugin-review", installed: true, repositories: "all" });
    expect(by["acme/plugins"]).toMatchObject({ organisationPolicy: { state: "read" } });
    expect(by["acme/remote"]).toMatchObject({
      status: "reviewed",
      failOn: "warning", // from the file it extends
      descriptors: 1,
      errors: 0,
      warnings: 1,
      wouldFail: true,
    });
    expect(by["acme/quiet"]).toMatchObject({
      status: "reviewed",
      failOn: "error",
      warnings: 1,
      wouldFail: false,
    });
    expect(by["acme/.github"]).toMatchObject({ status: "reviewed", descriptors: 0, wouldFail: false });
    expect(by["acme/old"]).toEqual({ repository: "acme/old", status: "skipped", reason: "archived" });
    expect(by["acme/void"]).toEqual({
      repository: "acme/void",
      status: "skipped",
      reason: "empty repository",
    });
    expect(by["acme/secret"]).toMatchObject({ status: "unreadable" });
    expect((by["acme/secret"] as { reason: string }).reason).toMatch(/GitHub answered 403/);
    expect(by["acme/broken"]).toMatchObject({ status: "invalid-configuration", wouldFail: true });
    expect(report.totals).toEqual({
      repositories: 9,
      reviewed: 5, // .github, plugins, remote, shared, quiet
      skipped: 2,
      unreadable: 1,
      invalidConfiguration: 1,
      descriptors: 4, // plugins 2, remote 1, quiet 1
      errors: 1,
      warnings: 2,
      notices: 0,
      wouldFail: 3, // plugins, remote, broken
      failingDescriptors: 2,
    });
    // Read-only: nothing but GET reached GitHub, and every request was one GitHub accepts.
    expect(gh.requests.length).toBeGreaterThan(0);
    expect(gh.requests.filter((q) => q.method !== "GET")).toEqual([]);
    gh.assertClean();
  });

  it("prints a text table per repository with the totals, and notes what it skipped or could not read", async () => {
    organisation();
    const r = await run(["audit", "acme"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^plugin-review audit of acme: 5 repositories reviewed, 2 skipped, 1 unreadable, 1 with an invalid configuration$/m,
    );
    expect(r.stdout).toMatch(
      /^Repository +Descriptors +Errors +Warnings +PR would fail \(existing: fail\) +Org policy read by the App$/m,
    );
    expect(r.stdout).toMatch(/^acme\/plugins +2 +1 +0 +yes \(1 descriptor\) +yes$/m);
    expect(r.stdout).toMatch(/^acme\/quiet +1 +0 +1 +no +yes$/m);
    expect(r.stdout).toMatch(/^acme\/broken +– +– +– +yes \(invalid configuration\) +yes$/m);
    expect(r.stdout).toMatch(/^The App `plugin-review`: installed on all repositories\.$/m);
    expect(r.stdout).toMatch(/^Total +4 +1 +2 +3 of 6 repositories$/m);
    expect(r.stdout).toMatch(/^ {2}acme\/plugins\/b\/plugin\.json: 1 error, 0 warnings$/m);
    expect(r.stdout).toMatch(/^acme\/old: skipped \(archived\)$/m);
    expect(r.stdout).toMatch(/^acme\/void: skipped \(empty repository\)$/m);
    expect(r.stdout).toMatch(/^acme\/secret: could not be read: .*403/m);
  });

  it("prints Markdown to paste into an issue", async () => {
    organisation();
    const r = await run(["audit", "acme", "--format", "markdown"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^### plugin-review audit of acme/);
    expect(r.stdout).toContain(
      "| Repository | Descriptors | Errors | Warnings | PR would fail (existing: fail) | Org policy read by the App |",
    );
    expect(r.stdout).toContain("| acme/plugins | 2 | 1 | 0 | yes (1 descriptor) | yes |");
    expect(r.stdout).toContain("| **Total** | **4** | **1** | **2** | **3 of 6 repositories** |  |");
    expect(r.stdout).toContain("- acme/old: skipped (archived)");
  });

  it("audits only the --repo ones, reporting one that does not exist", async () => {
    const gh = organisation(["getRepo", "contents", "tree", "blob"]);
    const r = await run(["audit", "acme", "--repo", "quiet", "--repo", "nope", "--format", "json"]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.repositories.map((x) => [x.repository, x.status])).toEqual([
      ["acme/quiet", "reviewed"],
      ["acme/nope", "unreadable"],
    ]);
    expect(report.totals).toMatchObject({
      repositories: 2,
      reviewed: 1,
      descriptors: 1,
      warnings: 1,
      wouldFail: 0,
    });
    expect(gh.count("GET", /^\/orgs\/acme\/repos/)).toBe(0);
    expect(gh.requests.every((q) => q.method === "GET")).toBe(true);
    gh.assertClean();
  });

  it("draws a progress line on stderr only when it is a terminal, and clears it", async () => {
    organisation();
    let stderr = "";
    let stdout = "";
    const status = await runAudit(
      { org: "acme", repos: [], format: "json" },
      {
        stdout: (s) => void (stdout += s),
        stderr: (s) => void (stderr += s),
        env: { GITHUB_TOKEN: "ghp_audit_token_not_real" },
        stderrIsTTY: true,
      },
    );
    expect(status).toBe(0);
    const CLEAR = "\r\u001b[2K"; // back to the start of the line, and erase it
    expect(stderr.startsWith(`${CLEAR}[1/9] acme/`)).toBe(true);
    expect(stderr).toContain(`${CLEAR}[9/9] acme/`);
    expect(stderr.endsWith(CLEAR)).toBe(true);
    expect(stdout).not.toMatch(/\[\d\/9\]/);
  });

  it("exits 2 without a token, for an organisation it cannot list, and on bad usage", async () => {
    const none = await run(["audit", "acme"]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/set GITHUB_TOKEN/);
    const gh = organisation(["listOrgRepos"], false);
    const missing = await run(["audit", "nobody"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/listing the repositories of nobody: GitHub answered 404/);
    expect(missing.stderr).not.toContain("ghp_audit_token_not_real");
    gh.assertClean();
    expect((await run(["audit", "acme", "--format", "sarif"])).status).toBe(2);
    expect((await run(["audit"])).status).toBe(2);
  });

  it("waits and retries when GitHub answers with a secondary rate limit", async () => {
    const gh = organisation(["getRepo", "contents", "tree", "blob"]);
    gh.fail(
      "GET",
      /^\/repos\/acme\/quiet\/git\/trees\//,
      403,
      1,
      { message: "You have exceeded a secondary rate limit" },
      {
        "retry-after": "1",
      },
    );
    const r = await run(["audit", "acme", "--repo", "quiet", "--format", "json"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/secondary rate limit on GET .*: retrying in 1 s/);
    expect((JSON.parse(r.stdout) as AuditReport).totals).toMatchObject({
      reviewed: 1,
      descriptors: 1,
      warnings: 1,
    });
    expect(gh.count("GET", /\/git\/trees\//)).toBe(2);
    gh.assertClean();
  });

  it("refuses to write: a request other than GET or a GraphQL query never leaves the process", async () => {
    const gh = new FakeGitHub(["listOrgRepos"]);
    gh.repo("acme/x");
    const octokit = auditOctokit("ghp_audit_token_not_real", "https://api.github.com", () => {});
    await expect(octokit.rest.issues.create({ owner: "acme", repo: "x", title: "t" })).rejects.toThrow(
      /read-only: refused POST/,
    );
    await expect(octokit.graphql("mutation { x }")).rejects.toThrow(/read-only: refused POST/);
    await octokit.rest.repos.listForOrg({ org: "acme" });
    expect(gh.requests.map((q) => q.method)).toEqual(["GET"]);
    gh.assertClean();
  });
});

describe("plugin-review audit: does the App's installation read the organisation's configuration?", () => {
  const repoOf = (report: AuditReport, name: string) =>
    report.repositories.find((x) => x.repository === `acme/${name}`) as AuditRepository & {
      organisationPolicy?: OrganisationPolicyAccess;
    };

  it("with the App's installation token on selected repositories without .github: not read, and reviewed as the App does", async () => {
    const fake = organisation(["listOrgRepos", "contents", "tree", "blob", "installationRepos"], false);
    fake.repositorySelection = "selected";
    fake.hidden.add("acme/.github");
    process.env.GITHUB_TOKEN = "ghs_installation_token_not_real";
    const r = await run(["audit", "acme", "--format", "json"]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.app).toMatchObject({ source: "installation-token", installed: true });
    // The App cannot read the organisation's lock: `plugins` turns unknown-member off and nothing fails there.
    expect(repoOf(report, "plugins")).toMatchObject({
      organisationPolicy: { state: "not-read" },
      configuration: ["acme/plugins:.github/plugin-review.yml"],
      errors: 0,
      wouldFail: false,
    });
    const text = await run(["audit", "acme"]);
    expect(text.stdout).toMatch(/^acme\/plugins +2 +0 +0 +no +NO$/m);
    expect(text.stdout).toMatch(
      /repositories reviewed without the organisation's configuration: the App cannot read acme\/\.github\. Install it there/,
    );
    fake.assertClean();
  });

  it("with a person's token: tells what it can (not installed; selected repositories; cannot list installations)", async () => {
    const cases: [string, (gh: FakeGitHub) => void, OrganisationPolicyAccess["state"], RegExp][] = [
      [
        "not installed",
        (gh) => (gh.orgInstallations.length = 0),
        "app-not-installed",
        /is not installed in acme/,
      ],
      [
        "selected repositories",
        (gh) => (gh.orgInstallations[0]!.repository_selection = "selected"),
        "unknown",
        /selected repositories, which a person's token cannot list/,
      ],
      [
        "cannot list installations",
        (gh) => gh.fail("GET", /^\/orgs\/acme\/installations/, 403, 1, { message: "Must have admin rights" }),
        "unknown",
        /can list neither the installation's repositories nor acme's installations/,
      ],
    ];
    for (const [, arrange, state, detail] of cases) {
      const gh = organisation(["getRepo", "contents", "tree", "blob"]);
      arrange(gh);
      const r = await run(["audit", "acme", "--repo", "plugins", "--format", "json"]);
      const report = JSON.parse(r.stdout) as AuditReport;
      expect(repoOf(report, "plugins").organisationPolicy?.state).toBe(state);
      expect(report.app?.detail).toMatch(detail);
      gh.assertClean();
      cleanup();
      disableNetwork();
    }
  });

  it("--app names the App's slug among the organisation's installations", async () => {
    const gh = organisation(["getRepo", "contents", "tree", "blob"]);
    gh.orgInstallations[0]!.app_slug = "acme-plugin-review";
    const other = JSON.parse(
      (await run(["audit", "acme", "--repo", "plugins", "--format", "json"])).stdout,
    ) as AuditReport;
    expect(repoOf(other, "plugins").organisationPolicy?.state).toBe("app-not-installed");
    const named = JSON.parse(
      (await run(["audit", "acme", "--repo", "plugins", "--app", "acme-plugin-review", "--format", "json"]))
        .stdout,
    ) as AuditReport;
    expect(repoOf(named, "plugins").organisationPolicy?.state).toBe("read");
    gh.assertClean();
  });
});
