/**
 * `plugin-review audit`: the organisation's readiness for Extensions 2.0, against the fake GitHub (nock, every
 * request checked against GitHub's OpenAPI description). Repositories in each state (not started, in
 * progress, done), descriptors of each capability (`migrate` converts them fully, partly, not at all),
 * extension.yaml files beside their plugin.json and in its `extension/` subfolder, alone, outside the
 * configured `paths`, over `max_file_size` and not YAML, each reviewed and counted with its findings; what it costs in requests. Counts are worked out by hand from
 * what each repository holds; what each descriptor migrates to is src/migrate's to say (test/migrate/).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AuditReport, ReviewedRepository } from "../../../src/format/audit/report.js";
import { readiness } from "../../../src/migrate/migrate.js";
import { mainRun as run } from "../../cli/run.js";
import { text, validHost, validRemote } from "../../helpers.js";
import { liveParts, tokens as mdTokens, ZWSP } from "../../markdown.js";
import { FakeGitHub } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import { CONFIG, migrated, PMI, POOL, SNMP_EXTENSION, TOKEN } from "./organisation.js";

beforeEach(() => disableNetwork());
afterEach(() => {
  cleanup();
  delete process.env.GITHUB_TOKEN;
});

const HOST = text(validHost());
const REMOTE = text(validRemote());
const PYTHON_EXTENSION = migrated(HOST);

/**
 * The organisation `acme` (a person's token; the App installed on all repositories):
 * - `legacy`: `a/plugin.json` (Python host: partly), `b/plugin.json` (Python remote: partly): not started;
 * - `pairs`: `beside/plugin.json` with `beside/extension.yaml`, `sub/plugin.json` (JMX: fully) with
 *   `sub/extension/extension.yaml`, `lone/plugin.json` (PMI: not at all) alone: in progress;
 * - `migrated`: `x/extension/extension.yaml` (python), `snmp/extension.yaml`, `plain/extension.yaml` (no data
 *   source), `broken/extension.yaml` (not YAML, not even as Dynatrace reads it): done;
 * - `scoped`: `paths: [plugins/**\/plugin.json]`; `plugins/k/plugin.json` with `plugins/k/extension/
 *   extension.yaml`, and `vendor/sdk/extension.yaml`, which no configured path reaches: in progress;
 * - `globby`: `paths: ["**\/*.json", "**\/*.yaml"]`; `p/plugin.json` and `p/extension.yaml`, which is EF2's,
 *   never reviewed as a descriptor: in progress;
 * - `small`: `max_file_size: 200`; `big/plugin.json` and `big/extension.yaml` over it, read by neither;
 * - `halfway`: `p/plugin.json` (JMX) and `p/extension/extension.yaml`, which lost its one metric: in progress;
 * - `docs`: a README alone: no migration to speak of.
 * `withExtensions: false` leaves every extension.yaml out (what the audit costs without them).
 */
function organisation(withExtensions = true): FakeGitHub {
  const gh = new FakeGitHub([
    "listOrgRepos",
    "contents",
    "ref",
    "tree",
    "blob",
    "installationRepos",
    "orgInstallations",
  ]);
  gh.orgInstallations.push({ app_slug: "plugin-review", repository_selection: "all" });
  for (const r of ["legacy", "pairs", "migrated", "scoped", "globby", "small", "halfway", "docs"])
    gh.repo(`acme/${r}`);
  const ef2 = (repo: string, path: string, content: string) =>
    withExtensions ? gh.file(`acme/${repo}`, "HEAD", path, content) : gh;
  gh.file("acme/legacy", "HEAD", "a/plugin.json", HOST).file("acme/legacy", "HEAD", "b/plugin.json", REMOTE);
  gh.file("acme/pairs", "HEAD", "beside/plugin.json", HOST)
    .file("acme/pairs", "HEAD", "sub/plugin.json", POOL)
    .file("acme/pairs", "HEAD", "lone/plugin.json", PMI);
  ef2("pairs", "beside/extension.yaml", PYTHON_EXTENSION);
  ef2("pairs", "sub/extension/extension.yaml", migrated(POOL));
  ef2("migrated", "x/extension/extension.yaml", PYTHON_EXTENSION);
  ef2("migrated", "snmp/extension.yaml", SNMP_EXTENSION);
  ef2(
    "migrated",
    "plain/extension.yaml",
    'name: custom:acme.plain\nversion: 1.0.0\nminDynatraceVersion: "1.285"\nauthor:\n  name: Acme\n',
  );
  ef2("migrated", "broken/extension.yaml", "name: [custom:acme.broken\n");
  gh.file("acme/scoped", "HEAD", CONFIG, "paths: [plugins/**/plugin.json]\n").file(
    "acme/scoped",
    "HEAD",
    "plugins/k/plugin.json",
    HOST,
  );
  ef2("scoped", "plugins/k/extension/extension.yaml", PYTHON_EXTENSION);
  ef2("scoped", "vendor/sdk/extension.yaml", SNMP_EXTENSION);
  gh.file("acme/globby", "HEAD", CONFIG, 'paths: ["**/*.json", "**/*.yaml"]\n').file(
    "acme/globby",
    "HEAD",
    "p/plugin.json",
    HOST,
  );
  ef2("globby", "p/extension.yaml", PYTHON_EXTENSION);
  gh.file("acme/small", "HEAD", CONFIG, "max_file_size: 200\n").file(
    "acme/small",
    "HEAD",
    "big/plugin.json",
    HOST,
  );
  ef2("small", "big/extension.yaml", PYTHON_EXTENSION);
  gh.file("acme/halfway", "HEAD", "p/plugin.json", POOL);
  ef2(
    "halfway",
    "p/extension/extension.yaml",
    migrated(POOL).replace(/tech\.pool\.active/g, "tech.pool.busy"),
  );
  gh.file("acme/docs", "HEAD", "README.md", "# docs\n");
  process.env.GITHUB_TOKEN = TOKEN;
  return gh;
}

async function audit(...args: string[]): Promise<AuditReport> {
  const r = await run(["audit", "acme", "--format", "json", ...args]);
  expect([r.status, r.stderr]).toEqual([0, ""]);
  return JSON.parse(r.stdout) as AuditReport;
}

const repo = (report: AuditReport, name: string) =>
  report.repositories.find((r) => r.repository === `acme/${name}`) as ReviewedRepository;

/** What `migrate` says of a descriptor: the audit must say the same. */
const classified = (descriptor: string) => readiness(descriptor).migrate;

describe("audit: the organisation's readiness for Extensions 2.0", () => {
  it("tells each repository's migration, each descriptor's type and what migrate can do with it, and each extension's data source", async () => {
    const gh = organisation();
    const report = await audit();
    expect([classified(HOST), classified(REMOTE), classified(POOL), classified(PMI)]).toEqual([
      "partly",
      "partly",
      "fully",
      "not at all",
    ]);
    const states = Object.fromEntries(
      report.repositories.map((r) => [r.repository, (r as ReviewedRepository).migration]),
    );
    expect(states).toEqual({
      "acme/legacy": "not-started",
      "acme/pairs": "in-progress",
      "acme/migrated": "done",
      "acme/scoped": "in-progress",
      "acme/globby": "in-progress",
      "acme/small": "in-progress",
      "acme/halfway": "in-progress",
      "acme/docs": undefined,
    });

    const legacy = repo(report, "legacy");
    expect(legacy.files.map((f) => [f.path, f.readiness])).toEqual([
      ["a/plugin.json", { framework: "EF1", type: "python", variant: "host", ...readiness(HOST) }],
      ["b/plugin.json", { framework: "EF1", type: "python", variant: "remote", ...readiness(REMOTE) }],
    ]);
    // Partly: each item names the member not carried over and its line.
    expect(legacy.files[0]!.readiness!.items).toContainEqual(
      expect.objectContaining({
        member: "requiredAgentVersion",
        line: HOST.split("\n").findIndex((l) => l.includes('"requiredAgentVersion"')) + 1,
      }),
    );
    expect(legacy.extensions).toEqual([]);

    const pairs = repo(report, "pairs");
    expect(
      pairs.files.map((f) => [f.path, f.readiness?.type, f.readiness?.migrate, f.readiness?.extension]),
    ).toEqual([
      ["beside/plugin.json", "python", "partly", "beside/extension.yaml"],
      ["lone/plugin.json", "PMI", "not at all", undefined],
      ["sub/plugin.json", "JMX", "fully", "sub/extension/extension.yaml"],
      // Reviewed as a pull request touching them would have them: beside the plugin.json each replaces.
      ["beside/extension.yaml", undefined, undefined, undefined],
      ["sub/extension/extension.yaml", undefined, undefined, undefined],
    ]);
    // migrate's own output beside its plugin.json: nothing to find.
    expect(pairs.files.slice(3).map((f) => f.findings)).toEqual([[], []]);
    expect(pairs.files[1]!.readiness!.items).toEqual([
      { line: 4, text: expect.stringMatching(/^PMI plugins have no EF2 form/) },
    ]);
    // Each extension with its review's counts.
    const none = { errors: 0, warnings: 0, notices: 0, wouldFail: false };
    expect(pairs.extensions).toEqual([
      {
        path: "beside/extension.yaml",
        framework: "EF2",
        dataSource: "python",
        name: "custom:tech.python.demo",
        replaces: "beside/plugin.json",
        ...none,
      },
      {
        path: "sub/extension/extension.yaml",
        framework: "EF2",
        dataSource: "jmx",
        name: "custom:tech.pool",
        replaces: "sub/plugin.json",
        ...none,
      },
    ]);

    // EF2 only, no plugin.json anywhere: every extension.yaml is reviewed all the same.
    const done = repo(report, "migrated");
    expect(done.files.map((f) => [f.path, f.findings.map((x) => x.ruleId)])).toEqual([
      ["broken/extension.yaml", ["invalid-yaml"]],
      ["plain/extension.yaml", []],
      ["snmp/extension.yaml", []],
      ["x/extension/extension.yaml", []],
    ]);
    expect([done.descriptors, done.errors, done.wouldFail, done.failingDescriptors]).toEqual([4, 1, true, 1]);
    expect(done.extensions).toEqual([
      {
        path: "broken/extension.yaml",
        framework: "EF2",
        problem: "it is not valid YAML: unexpected end of the stream within a flow collection (line 2)",
        ...none,
        errors: 1,
        wouldFail: true,
      },
      { path: "plain/extension.yaml", framework: "EF2", name: "custom:acme.plain", ...none },
      {
        path: "snmp/extension.yaml",
        framework: "EF2",
        dataSource: "snmp",
        name: "custom:acme.router",
        ...none,
      },
      {
        path: "x/extension/extension.yaml",
        framework: "EF2",
        dataSource: "python",
        name: "custom:tech.python.demo",
        ...none,
      },
    ]);

    // Only the extension.yaml that a configured path reaches is the repository's EF2 extension.
    expect(repo(report, "scoped").extensions?.map((e) => [e.path, e.replaces])).toEqual([
      ["plugins/k/extension/extension.yaml", "plugins/k/plugin.json"],
    ]);
    // An extension.yaml is never reviewed as an EF1 descriptor, whatever `paths` says.
    const globby = repo(report, "globby");
    expect([
      globby.descriptors,
      globby.files.map((f) => [f.path, f.readiness?.framework]),
      globby.errors,
    ]).toEqual([
      2,
      [
        ["p/plugin.json", "EF1"],
        ["p/extension.yaml", undefined],
      ],
      0,
    ]);
    expect(globby.extensions?.map((e) => e.path)).toEqual(["p/extension.yaml"]);
    // Over max_file_size: read by neither, and said so; its type and capability are not guessed.
    const small = repo(report, "small");
    expect(small.files[0]!.readiness).toEqual({
      framework: "EF1",
      items: [{ text: `${HOST.length.toLocaleString("en-US")} bytes, over max_file_size (200)` }],
      extension: "big/extension.yaml",
    });
    expect(small.extensions).toEqual([
      {
        path: "big/extension.yaml",
        framework: "EF2",
        problem: `not read: ${PYTHON_EXTENSION.length.toLocaleString("en-US")} bytes, over max_file_size (200)`,
        replaces: "big/plugin.json",
        ...none,
        errors: 1, // file-too-large
        wouldFail: true,
      },
    ]);
    expect(repo(report, "docs").migration).toBeUndefined();
    // An extension.yaml that lost a metric of the plugin.json beside it: what a pull request touching it fails on.
    const halfway = repo(report, "halfway");
    const lost = halfway.files.find((f) => f.path === "p/extension/extension.yaml")!;
    expect(lost.findings.map((f) => f.ruleId)).toContain("migration-metric-missing");
    expect([lost.wouldFail, halfway.wouldFail, lost.readiness]).toEqual([true, true, undefined]);

    expect(report.readiness).toEqual({
      repositories: { done: 1, "in-progress": 5, "not-started": 1 },
      // legacy 2, pairs 3, scoped 1, globby 1, small 1, halfway 1
      descriptors: { total: 9, fully: 2, partly: 5, notAtAll: 1, unread: 1 },
      byType: [
        { type: "python", variant: "host", total: 4, fully: 0, partly: 4, notAtAll: 0, unread: 0 },
        { type: "JMX", variant: "host", total: 2, fully: 2, partly: 0, notAtAll: 0, unread: 0 },
        { type: "PMI", variant: "host", total: 1, fully: 0, partly: 0, notAtAll: 1, unread: 0 },
        { type: "python", variant: "remote", total: 1, fully: 0, partly: 1, notAtAll: 0, unread: 0 },
        { total: 1, fully: 0, partly: 0, notAtAll: 0, unread: 1 },
      ],
      extensions: {
        total: 10,
        byDataSource: [
          { dataSource: "python", extensions: 4 },
          { dataSource: "jmx", extensions: 2 },
          { dataSource: "unknown", extensions: 2 }, // not YAML; over max_file_size
          { dataSource: "none", extensions: 1 },
          { dataSource: "snmp", extensions: 1 },
        ],
        // broken (invalid-yaml), small (file-too-large), halfway (migration-metric-missing)
        errors: 3,
        warnings: 0,
        notices: 0,
        failing: 3,
      },
    });
    gh.assertClean();
  });

  it("costs one blob read per extension.yaml it finds, and nothing else", async () => {
    const route = (q: { method: string; path: string }) =>
      `${q.method} ${q.path.replace(/\/git\/(blobs|trees)\/[^/]+$/, "/git/$1/<sha>")}`;
    const without = organisation(false);
    await audit();
    const before = without.requests.map(route);
    without.assertClean();
    cleanup();
    disableNetwork();
    const gh = organisation();
    await audit();
    const after = gh.requests.map(route);
    const added = [...after];
    for (const r of before) added.splice(added.indexOf(r), 1);
    // pairs 2, migrated 4, scoped 1 (not vendor/sdk's), globby 1, halfway 1; small's is over
    // max_file_size: not read. Reviewing the paired ones costs nothing more: both files are read.
    expect(added.sort()).toEqual(
      ["pairs", "pairs", "globby", "migrated", "migrated", "migrated", "migrated", "scoped", "halfway"]
        .map((r) => `GET /repos/acme/${r}/git/blobs/<sha>`)
        .sort(),
    );
    expect(after.length).toBe(before.length + 9);
    gh.assertClean();
  });

  it("prints the migration in the text and Markdown reports: per repository, and every descriptor", async () => {
    const gh = organisation();
    const textOut = await run(["audit", "acme"]);
    expect(textOut.status).toBe(0);
    const section = textOut.stdout.slice(textOut.stdout.indexOf("Migration to Extensions 2.0: "));
    expect(section).toMatch(
      /^Migration to Extensions 2\.0: 1 repository done, 5 in progress, 1 not started; 9 EF1 descriptors \(migrate converts 2 fully, 5 partly, 1 not at all, 1 not read\); 10 EF2 extensions \(python 4, jmx 2, unknown 2, none 1, snmp 1\) with 3 errors$/m,
    );
    expect(section).toMatch(
      /^Repository +Migration +EF1 descriptors +Fully +Partly +Not at all +EF2 extensions +EF2 errors +EF2 warnings$/m,
    );
    expect(section).toMatch(/^acme\/pairs +in progress +3 +1 +1 +1 +2 +0 +0$/m);
    expect(section).toMatch(/^acme\/migrated +done +0 +0 +0 +0 +4 +1 +0$/m);
    expect(section).toMatch(/^acme\/legacy +not started +2 +0 +2 +0 +0 +0 +0$/m);
    expect(section).not.toMatch(/^acme\/docs/m);
    expect(section).toMatch(/^Total +9 +2 +5 +1 +10 +3 +0$/m);
    expect(section).toMatch(
      /^ {2}acme\/pairs\/sub\/plugin\.json: EF1 JMX host; migrate: fully; EF2 extension: sub\/extension\/extension\.yaml$/m,
    );
    expect(section).toMatch(
      /^ {2}acme\/pairs\/lone\/plugin\.json: EF1 PMI host; migrate: not at all \(PMI plugins have no EF2 form: .* \(line 4\)\)$/m,
    );
    expect(section).toMatch(
      /^ {2}acme\/legacy\/a\/plugin\.json: EF1 python host; migrate: partly \(not carried over: requiredAgentVersion \(line 5\), metrics\[0\]\.timeseries\.aggregation \(line \d+\), ui\.charts \(line \d+\)\)$/m,
    );
    expect(section).toMatch(/^ {2}acme\/migrated\/snmp\/extension\.yaml: EF2 snmp; no findings$/m);
    expect(section).toMatch(
      /^ {2}acme\/migrated\/broken\/extension\.yaml: EF2 \(unknown data source\) \(it is not valid YAML: .* \(line 2\)\); 1 error$/m,
    );
    expect(section).toMatch(
      /^ {2}acme\/small\/big\/plugin\.json: EF1 unknown; migrate: not read \([\d,]+ bytes, over max_file_size \(200\)\); EF2 extension: big\/extension\.yaml$/m,
    );

    const md = (await run(["audit", "acme", "--format", "markdown"])).stdout;
    const rows = tableRows(md);
    expect(md).toContain("#### Migration to Extensions 2.0");
    expect(rows).toContainEqual(["acme/pairs", "in progress", "3", "1", "1", "1", "2", "0", "0"]);
    expect(rows).toContainEqual(["acme/migrated", "done", "0", "0", "0", "0", "4", "1", "0"]);
    expect(rows).toContainEqual(["Total", "", "9", "2", "5", "1", "10", "3", "0"]);
    expect(rows).toContainEqual([
      "acme/pairs/sub/plugin.json",
      "EF1 JMX host",
      "1 error",
      "fully",
      "",
      "sub/extension/extension.yaml",
    ]);
    expect(rows).toContainEqual([
      "acme/pairs/sub/extension/extension.yaml",
      "EF2 jmx",
      "no findings",
      "–",
      "",
      "replaces sub/plugin.json",
    ]);
    gh.assertClean();
  });

  it("keeps what repositories hold inert in Markdown: paths, types as written and reasons", async () => {
    const gh = new FakeGitHub([
      "getRepo",
      "contents",
      "ref",
      "tree",
      "blob",
      "installationRepos",
      "orgInstallations",
    ]);
    gh.orgInstallations.push({ app_slug: "plugin-review", repository_selection: "all" });
    const folder = "@acme/admins [x](https://evil.example) <img src=x>";
    const type = "`PMI` @acme/admins #12 <b>x</b> | cell";
    gh.repo("acme/hostile")
      .file("acme/hostile", "HEAD", `${folder}/plugin.json`, text({ ...validHost(), type }))
      .file("acme/hostile", "HEAD", `${folder}/extension/extension.yaml`, "name: [x\n");
    process.env.GITHUB_TOKEN = TOKEN;
    const md = (await run(["audit", "acme", "--repo", "hostile", "--format", "markdown"])).stdout;
    expect(liveParts(md, { href: () => false })).toEqual([]);
    const rows = tableRows(md);
    const descriptor = rows.find((r) => r[0] === `acme/hostile/${folder}/plugin.json`)!;
    expect([descriptor[1], descriptor[3]]).toEqual([`EF1 ${type} host`, "not at all"]);
    expect(descriptor[4]).toContain(type); // why, quoting the type as written
    expect(rows.find((r) => r[0] === `acme/hostile/${folder}/extension/extension.yaml`)![5]).toBe(
      `replaces ${folder}/plugin.json`,
    );
    gh.assertClean();
  });
});

/** The cells of every table row of `md` as a reader sees them (rendered by a CommonMark/GFM parser). */
function tableRows(md: string): string[][] {
  const rows: string[][] = [];
  let row: string[] | undefined;
  for (const t of mdTokens(md)) {
    if (t.type === "tr_open") rows.push((row = []));
    else if (t.type === "tr_close") row = undefined;
    else if (row && t.type === "inline")
      row.push(
        (t.children ?? [])
          .filter((c) => c.type === "text" || c.type === "code_inline")
          .map((c) => c.content)
          .join("")
          .replace(ZWSP, ""),
      );
  }
  return rows;
}
