/**
 * `plugin-review audit`'s other formats against the fake organisation of organisation.ts (nock, every
 * request checked against GitHub's OpenAPI description): the JSON's findings and commits, one SARIF file per
 * repository with `check`'s rule ids, fingerprints and help links, CSV rows, the HTML page's escaping of
 * what repositories hold, and `--compare` with an earlier audit's JSON. The page in a real browser is
 * audit-html.test.ts; the SARIF files through Microsoft's validator, test/format/sarif-multitool.test.ts.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { main } from "../../../src/cli/main.js";
import type { AuditFinding, AuditReport, ReviewedRepository } from "../../../src/format/audit/report.js";
import { cli, ensureBuilt, mainRun as run } from "../../cli/run.js";
import { itUnless, MORE_THAN_NPM_CI, ROOT, text, validHost } from "../../helpers.js";
import { FakeGitHub } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import { validateRequest } from "../openapi.js";
import { acme, demoDescriptor, fixOneAddOne, MISSPELT, TOKEN } from "./organisation.js";
import { ZWSP } from "../../markdown.js";

let dir = "";
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-audit-formats-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => disableNetwork());
afterEach(() => {
  cleanup();
  delete process.env.GITHUB_TOKEN;
});

const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

async function auditJson(...args: string[]): Promise<AuditReport> {
  const r = await run(["audit", "acme", "--format", "json", ...args]);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as AuditReport;
}

const repoOf = (report: AuditReport, name: string) =>
  report.repositories.find((r) => r.repository === `acme/${name}`) as ReviewedRepository;

const lineOf = (source: string, needle: string) =>
  source.split("\n").findIndex((l) => l.includes(needle)) + 1;

/** A git work tree holding `files`, as a user's clone of the repository would (for `check`). */
function clone(name: string, files: Record<string, string>): string {
  const root = join(dir, name);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  expect(spawnSync("git", ["init", "-q"], { cwd: root }).status).toBe(0);
  return root;
}

/** Every finding of the report, with its repository and path. */
function findings(report: AuditReport): (AuditFinding & { repository: string; path: string })[] {
  return report.repositories.flatMap((r) =>
    r.status === "reviewed"
      ? r.files.flatMap((f) => f.findings.map((x) => ({ ...x, repository: r.repository, path: f.path })))
      : [],
  );
}

describe("audit --format json: each finding, and the commit it was found at", () => {
  it("keeps check's fields per finding, and each repository's web URL, branch and commit; counts agree", async () => {
    const gh = acme();
    const report = await auditJson();
    expect(report.auditedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(report.version).toBe(VERSION);
    const plugins = repoOf(report, "plugins");
    expect(plugins).toMatchObject({
      url: "https://github.com/acme/plugins",
      defaultBranch: "main",
      commit: gh.headCommit("acme/plugins"),
    });
    const line = lineOf(demoDescriptor(), `"${MISSPELT}"`);
    expect(plugins.files.find((f) => f.path === "demo/plugin.json")?.findings).toEqual([
      {
        ruleId: "unknown-member",
        severity: "error", // the organisation's locked rule
        message: `unknown member \`${MISSPELT}\`: did you mean \`metricGroup\`?`,
        messageId: expect.any(String),
        pointer: `/${MISSPELT}`,
        line,
        column: 3,
        endLine: line,
        endColumn: 3 + `"${MISSPELT}"`.length,
        fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
    // The counts per descriptor are the findings' own.
    for (const r of report.repositories)
      if (r.status === "reviewed")
        for (const f of r.files) {
          const count = (s: string) => f.findings.filter((x) => x.severity === s).length;
          expect([f.errors, f.warnings, f.notices]).toEqual([
            count("error"),
            count("warning"),
            count("notice"),
          ]);
        }
    // The fingerprint is check's for the same file at the same path of a clone of the repository.
    const local = clone("plugins", { "demo/plugin.json": demoDescriptor() });
    const checked = cli(["check", "--no-config", "--format", "json", "demo/plugin.json"], local);
    expect((JSON.parse(checked.stdout) as { fingerprint: string }[]).map((f) => f.fingerprint)).toEqual(
      plugins.files.find((f) => f.path === "demo/plugin.json")!.findings.map((f) => f.fingerprint),
    );
    gh.assertClean();
  });

  it("on GitHub Enterprise Server, a repository's URL is on the server's host", async () => {
    const gh = acme({ baseUrl: "https://ghe.example.com/api/v3" });
    const report = await auditJson("--api-url", "https://ghe.example.com/api/v3");
    expect(repoOf(report, "plugins").url).toBe("https://ghe.example.com/acme/plugins");
    const csv = await run([
      "audit",
      "acme",
      "--api-url",
      "https://ghe.example.com/api/v3",
      "--format",
      "csv",
    ]);
    const demo = parseCsv(csv.stdout).find((r) => r[1] === "demo/plugin.json" && r[7] !== "")!;
    expect(demo[12]).toBe(
      `https://ghe.example.com/acme/plugins/blob/${gh.headCommit("acme/plugins")}/demo/plugin.json#L${lineOf(demoDescriptor(), MISSPELT)}`,
    );
    gh.assertClean();
  });
});

/** RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, CRLF and doubled quotes. */
function parseCsv(s: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && s[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else if (c === "\n" || c === "\r") throw new Error(`a bare line break at ${i}: not RFC 4180`);
    else field += c;
  }
  expect(field, "the last line ends with CRLF").toBe("");
  expect(row).toEqual([]);
  return rows;
}

describe("audit --format csv", () => {
  it("one row per finding, and one per descriptor and extension with its readiness, under a header, RFC 4180; every cell from a repository safe from formula injection", async () => {
    const gh = acme();
    // Paths that a spreadsheet would run as formulas, and a member name with a quote, a comma and a line break.
    gh.repo("acme/sheets");
    const hostileMember = 'a,"b"\nc';
    for (const p of ['=HYPERLINK("https://example.com")', "+1", "-1", "@SUM(A1)"])
      gh.file("acme/sheets", "HEAD", `${p}/plugin.json`, text({ ...validHost(), [hostileMember]: 1 }));
    // A `type` as written lands in the readiness's cells: a formula there stays text too.
    const formula = "=cmd|' /C calc'!A0";
    gh.file("acme/sheets", "HEAD", "typed/plugin.json", text({ ...validHost(), type: formula }));
    const report = await auditJson();
    const r = await run(["audit", "acme", "--format", "csv"]);
    expect(r.status).toBe(0);
    const [header, ...rows] = parseCsv(r.stdout);
    expect(header).toEqual([
      "repository",
      "path",
      "line",
      "column",
      "end_line",
      "end_column",
      "severity",
      "rule_id",
      "message",
      "would_fail",
      "fingerprint",
      "commit",
      "url",
      "framework",
      "type",
      "variant",
      "migrate",
      "migrate_detail",
      "migration",
    ]);
    for (const row of rows) expect(row.length).toBe(header!.length);
    // A finding's row names its rule; a descriptor's or extension's own row has no finding cells.
    const findingRows = rows.filter((x) => x[7] !== "");
    const fileRows = rows.filter((x) => x[7] === "");
    const all = findings(report);
    expect(findingRows.length).toBe(all.length);
    expect(all.length).toBe(report.totals.errors + report.totals.warnings + report.totals.notices);
    for (const x of fileRows) expect(x.slice(2, 11)).toEqual(Array(9).fill(""));
    const files = report.repositories.flatMap((x) =>
      x.status === "reviewed"
        ? [...x.files.filter((f) => f.readiness), ...(x.extensions ?? [])].map(
            (f) => `${x.repository} ${f.path}`,
          )
        : [],
    );
    expect(fileRows.map((x) => `${x[0]} ${x[1]}`).sort()).toEqual(
      files.map((f) => f.replace(/ ([=+\-@])/, " '$1")).sort(),
    );
    const demo = findingRows.find((x) => x[1] === "demo/plugin.json")!;
    const plugins = repoOf(report, "plugins");
    const line = lineOf(demoDescriptor(), MISSPELT);
    expect(demo).toEqual([
      "acme/plugins",
      "demo/plugin.json",
      String(line),
      "3",
      String(line),
      String(3 + MISSPELT.length + 2),
      "error",
      "unknown-member",
      `unknown member \`${MISSPELT}\`: did you mean \`metricGroup\`?`,
      "yes",
      plugins.files.find((f) => f.path === "demo/plugin.json")!.findings[0]!.fingerprint,
      plugins.commit,
      `https://github.com/acme/plugins/blob/${plugins.commit}/demo/plugin.json#L${line}`,
      "EF1",
      "python",
      "host",
      "partly",
      "", // the detail is on the descriptor's own row
      "not started",
    ]);
    // The descriptors' own rows: every item of what is lost, or why not, with its line.
    const jmx = repoOf(report, "jmx-plugins");
    const row = (repo: string, path: string) => fileRows.find((x) => x[0] === repo && x[1] === path)!;
    expect(row("acme/jmx-plugins", "was/plugin.json")).toEqual([
      "acme/jmx-plugins",
      "was/plugin.json",
      ...Array(9).fill(""),
      jmx.commit,
      `https://github.com/acme/jmx-plugins/blob/${jmx.commit}/was/plugin.json`,
      "EF1",
      "PMI",
      "host",
      "not at all",
      expect.stringMatching(/^PMI plugins have no EF2 form: .* \(line 4\)$/),
      "in progress",
    ]);
    expect(row("acme/jmx-plugins", "pool/plugin.json").slice(13)).toEqual([
      "EF1",
      "JMX",
      "host",
      "fully",
      "",
      "in progress",
    ]);
    expect(row("acme/jmx-plugins", "pool/extension/extension.yaml").slice(13)).toEqual([
      "EF2",
      "jmx",
      "",
      "",
      "",
      "in progress",
    ]);
    expect(row("acme/extensions", "snmp/extension.yaml").slice(13)).toEqual([
      "EF2",
      "snmp",
      "",
      "",
      "",
      "done",
    ]);
    const host = repoOf(report, "plugins").files.find((f) => f.path === "host/plugin.json")!.readiness!;
    // Each item ends with its member and line (an item's own text may hold "; ").
    expect(row("acme/plugins", "host/plugin.json")[17]!.match(/\(\S+, line \d+\)(; |$)/g)?.length).toBe(
      host.items.length,
    );
    expect(row("acme/plugins", "host/plugin.json")[17]).toMatch(
      /^EF2 names .* \(requiredAgentVersion, line 5\); /,
    );
    // A warning where fail_on is error does not fail.
    expect(findingRows.find((x) => x[0] === "acme/tools")?.[9]).toBe("no");
    const sheets = findingRows.filter((x) => x[0] === "acme/sheets" && x[7] === "unknown-member");
    expect(sheets.map((x) => x[1]).sort()).toEqual([
      "'+1/plugin.json",
      "'-1/plugin.json",
      '\'=HYPERLINK("https://example.com")/plugin.json',
      "'@SUM(A1)/plugin.json",
    ]);
    for (const x of sheets) {
      expect(x[8]).toContain(hostileMember); // the quote, the comma and the line break, quoted back intact
      // The URL is GitHub's, percent-encoded: it cannot start a formula, and opens the line.
      const path = x[1]!.slice(1).split("/").map(encodeURIComponent).join("/");
      expect(x[12]).toBe(
        `https://github.com/acme/sheets/blob/${repoOf(report, "sheets").commit}/${path}#L${x[2]}`,
      );
    }
    expect(row("acme/sheets", "typed/plugin.json")[14]).toBe(`'${formula}`);
    gh.assertClean();
  });
});

describe("audit --format sarif --output-dir", () => {
  it("writes one valid log per repository with descriptors, with check's rules, fingerprints and help links", async () => {
    const gh = acme();
    const report = await auditJson();
    const out = join(dir, "sarif");
    // One audit, several reports: the SARIF files, and the JSON and HTML reports beside them.
    const r = await run([
      "audit",
      "acme",
      "--format",
      "sarif",
      "--output-dir",
      out,
      "--output",
      `json=${join(dir, "with-sarif.json")}`,
      "--output",
      `html=${join(dir, "with-sarif.html")}`,
    ]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const same = JSON.parse(readFileSync(join(dir, "with-sarif.json"), "utf8")) as AuditReport;
    expect(findings(same)).toEqual(findings(report));
    // The same audit's page: it links the demo descriptor's finding at the audited commit.
    const page = readFileSync(join(dir, "with-sarif.html"), "utf8");
    expect(page).toMatch(/^<!doctype html>/);
    const demo = repoOf(same, "plugins").files.find((f) => f.path === "demo/plugin.json")!.findings[0]!;
    expect(page).toContain(
      `https://github.com/acme/plugins/blob/${gh.headCommit("acme/plugins")}/demo/plugin.json#L${demo.line}`,
    );
    const manifest = r.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    // Repositories without descriptors (.github), not reviewed (archive, network) or invalid (sandbox): none.
    // One whose migration is done has a file without descriptors, which closes the alerts of those it had.
    expect(manifest.map(([, repo]) => repo)).toEqual([
      "acme/extensions",
      "acme/jmx-plugins",
      "acme/legacy-plugins",
      "acme/plugins",
      "acme/remote-plugins",
      "acme/tools",
    ]);
    for (const [file, repo, commit, ref] of manifest) {
      const name = repo!.split("/")[1]!;
      expect(file).toBe(join(out, `${name}.sarif`));
      expect([commit, ref]).toEqual([gh.headCommit(repo!), "refs/heads/main"]);
      const log = JSON.parse(readFileSync(file!, "utf8")) as SarifLog;
      const run0 = log.runs[0]!;
      const audited = repoOf(report, name);
      expect(run0.automationDetails).toEqual({ id: "plugin-review-audit/" });
      expect(run0.artifacts.map((a) => a.location.uri)).toEqual(audited.files.map((f) => f.path));
      expect(run0.results.map((x) => x.partialFingerprints["pluginReview/v3"])).toEqual(
        audited.files.flatMap((f) => f.findings.map((x) => x.fingerprint)),
      );
      // What the documented workflow uploads for it is a request GitHub accepts.
      const upload = {
        method: "POST",
        path: `/repos/${repo}/code-scanning/sarifs`,
        query: {},
        headers: {},
        body: {
          commit_sha: commit,
          ref,
          sarif: gzipSync(readFileSync(file!)).toString("base64"),
        },
      };
      expect(validateRequest(upload)).toEqual([]);
    }
    // The readiness for Extensions 2.0 in property bags (no result, so no alert): the descriptor's on its
    // artifact, the repository's migration and EF2 extensions on the run.
    const sarifOf = (name: string) =>
      JSON.parse(readFileSync(join(out, `${name}.sarif`), "utf8")) as SarifLog;
    const jmx = repoOf(report, "jmx-plugins");
    const inProgress = sarifOf("jmx-plugins").runs[0]!;
    expect(inProgress.properties).toEqual({
      "pluginReview/migration": "in-progress",
      "pluginReview/extensions": jmx.extensions,
    });
    expect(jmx.extensions).toEqual([
      {
        path: "pool/extension/extension.yaml",
        framework: "EF2",
        dataSource: "jmx",
        name: "custom:tech.pool",
        replaces: "pool/plugin.json",
        // Its review's counts, in the run's properties too.
        errors: 0,
        warnings: 0,
        notices: 0,
        wouldFail: false,
      },
    ]);
    // The extension.yaml is reviewed beside the plugin.json it replaces, as a pull request touching it would be.
    expect(inProgress.artifacts.map((x) => [x.location.uri, x.properties])).toEqual([
      [
        "pool/plugin.json",
        {
          "pluginReview/framework": "EF1",
          "pluginReview/type": "JMX",
          "pluginReview/variant": "host",
          "pluginReview/migrate": "fully",
          "pluginReview/extension": "pool/extension/extension.yaml",
        },
      ],
      [
        "was/plugin.json",
        {
          "pluginReview/framework": "EF1",
          "pluginReview/type": "PMI",
          "pluginReview/variant": "host",
          "pluginReview/migrate": "not at all",
          "pluginReview/migrateDetail": jmx.files.find((f) => f.path === "was/plugin.json")!.readiness!.items,
        },
      ],
      [
        "pool/extension/extension.yaml",
        { "pluginReview/framework": "EF2", "pluginReview/dataSource": "jmx" },
      ],
    ]);
    // Its extensions are reviewed as descriptors are: each an artifact (no result: they have no finding).
    const done = sarifOf("extensions").runs[0]!;
    const ef2 = (dataSource: string) => ({
      "pluginReview/framework": "EF2",
      "pluginReview/dataSource": dataSource,
    });
    expect([
      done.artifacts.map((x) => [x.location.uri, x.properties]),
      done.results,
      done.properties,
    ]).toEqual([
      [
        ["kafka/extension/extension.yaml", ef2("jmx")],
        ["snmp/extension.yaml", ef2("snmp")],
      ],
      [],
      {
        "pluginReview/migration": "done",
        "pluginReview/extensions": repoOf(report, "extensions").extensions,
      },
    ]);
    // check --format sarif on the same descriptor at the same path of a clone: the same rules and results.
    const local = clone("remote-plugins", {
      "snmp/plugin.json": readFileSync(join(ROOT, "examples/mistakes/remote-mistakes/plugin.json"), "utf8"),
    });
    const checked = JSON.parse(
      cli(["check", "--no-config", "--format", "sarif", "snmp/plugin.json"], local).stdout,
    ) as SarifLog;
    const audit = JSON.parse(readFileSync(join(out, "remote-plugins.sarif"), "utf8")) as SarifLog;
    expect(audit.runs[0]!.tool).toEqual(checked.runs[0]!.tool);
    const snmp = (l: SarifLog) =>
      l.runs[0]!.results.filter(
        (x) => x.locations[0]!.physicalLocation.artifactLocation.uri === "snmp/plugin.json",
      ).map(({ ruleId, ruleIndex, level, message, partialFingerprints, locations }) => ({
        ruleId,
        ruleIndex,
        level,
        message,
        partialFingerprints,
        region: locations[0]!.physicalLocation.region,
      }));
    expect(snmp(audit)).toEqual(snmp(checked));
    expect(snmp(audit).length).toBe(4);
    gh.assertClean();
  });

  it("keeps at most 5,000 results per repository, errors first, and says so in the log and on stderr", async () => {
    const gh = acme({
      routes: ["getRepo", "contents", "ref", "tree", "blob", "installationRepos", "orgInstallations"],
    });
    // 5,000 unknown members (errors, by the organisation's rule) after a warning: 5,001 findings.
    const doc: Record<string, unknown> = { ...validHost(), processTypeNames: ["PYTHN"] };
    for (let i = 0; i < 5000; i++) doc[`extra${i}`] = i;
    gh.repo("acme/huge").file("acme/huge", "HEAD", "plugin.json", text(doc));
    const out = join(dir, "huge");
    const r = await run(["audit", "acme", "--repo", "huge", "--format", "sarif", "--output-dir", out]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      "plugin-review: acme/huge: 1 of 5001 results left out of huge.sarif (GitHub keeps at most 5000 per run; errors kept first)\n",
    );
    const log = JSON.parse(readFileSync(join(out, "huge.sarif"), "utf8")) as SarifLog;
    const run0 = log.runs[0]!;
    expect(run0.results.length).toBe(5000);
    expect(new Set(run0.results.map((x) => x.level))).toEqual(new Set(["error"]));
    expect(run0.invocations).toEqual([
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          {
            level: "warning",
            message: {
              text: "1 of 5001 results left out: GitHub keeps at most 5,000 results per run, so the most severe were kept (errors first); the audit's JSON, CSV or HTML report lists them all.",
            },
          },
        ],
      },
    ]);
    expect(run0.properties).toEqual({
      "pluginReview/results": 5001,
      "pluginReview/omittedResults": 1,
      "pluginReview/migration": "not-started",
    });
    gh.assertClean();
  });

  it("needs --output-dir, which the other formats refuse", async () => {
    process.env.GITHUB_TOKEN = TOKEN;
    const gh = new FakeGitHub([]);
    const sarif = await run(["audit", "acme", "--format", "sarif"]);
    expect(sarif).toMatchObject({ status: 2, stdout: "" });
    expect(sarif.stderr).toMatch(
      /--format sarif writes one file per repository: give the folder with --output-dir/,
    );
    const html = await run(["audit", "acme", "--format", "html", "--output-dir", dir]);
    expect(html.status).toBe(2);
    expect(html.stderr).toMatch(
      /--output-dir is for --format sarif .*--format html prints to standard output/,
    );
    for (const bad of ["sarif=x", "pdf=x", "json", "json="]) {
      const r = await run(["audit", "acme", "--output", bad]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(
        /audit --output takes <format>=<file> with a format among text, json, markdown, html, csv \(SARIF: --format sarif --output-dir\)/,
      );
    }
    expect(gh.requests).toEqual([]);
    gh.assertClean();
  });

  it("an --output-dir that cannot be made is said in one line before any request, never after the audit", async () => {
    process.env.GITHUB_TOKEN = TOKEN;
    const gh = new FakeGitHub([]);
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const cases: [string, RegExp][] = [
      [join(file, "sarif"), /a part of its path is not a directory/],
      [file, /something else is already there/],
    ];
    // A virtual file system's folder refuses new folders ("no such file or directory", its parent there).
    if (existsSync("/proc/self")) cases.push(["/proc/plugin-review/sarif", /no such file or directory/]);
    for (const [out, why] of cases) {
      const r = await run(["audit", "acme", "--format", "sarif", "--output-dir", out]);
      expect(r).toMatchObject({ status: 2, stdout: "" });
      expect(r.stderr).toMatch(
        new RegExp(`^plugin-review: --output-dir: cannot make the folder '.*': ${why.source}\\n$`),
      );
    }
    expect(gh.requests).toEqual([]);
    gh.assertClean();
  });
});

interface SarifLog {
  runs: {
    tool: unknown;
    automationDetails?: unknown;
    invocations?: unknown;
    properties?: unknown;
    artifacts: { location: { uri: string }; properties?: unknown }[];
    results: {
      ruleId: string;
      ruleIndex?: number;
      level: string;
      message: { text: string };
      partialFingerprints: Record<string, string>;
      baselineState?: string;
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: unknown } }[];
    }[];
  }[];
}

describe("audit --format html: what repositories hold is text, never markup", () => {
  it("escapes hostile paths, member names and branch names; only GitHub's http(s) URLs become links", async () => {
    const gh = acme({
      routes: ["getRepo", "contents", "ref", "tree", "blob", "installationRepos", "orgInstallations"],
    });
    const branch = `"'><svg/onload=alert(3)>`;
    gh.repo("acme/hostile", { defaultBranch: branch }).file(
      "acme/hostile",
      "HEAD",
      "<script>alert(1)</script>/plugin.json",
      text({ ...validHost(), "<img src=x onerror=alert(2)>": 1 }),
    );
    const r = await run(["audit", "acme", "--repo", "hostile", "--format", "html"]);
    expect(r.status).toBe(0);
    const html = r.stdout;
    expect(html).not.toMatch(/<script|<img|<svg\/onload/i); // no tag opens: their text is escaped
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;/plugin.json");
    expect(html).toContain("&lt;img src=x onerror=alert(2)&gt;");
    expect(html).toContain("&quot;&#39;&gt;&lt;svg/onload=alert(3)&gt;");
    // The link to the finding's line encodes the path.
    expect(html).toContain(
      `href="https://github.com/acme/hostile/blob/${gh.headCommit("acme/hostile")}/%3Cscript%3Ealert(1)%3C/script%3E/plugin.json#L`,
    );
    // Nothing is loaded, nothing runs: the page's policy says so to the browser too.
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; img-src data:; base-uri 'none'; form-action 'none'">/,
    );
    expect(html).not.toMatch(/<script|<link rel="stylesheet"|src="http|url\(/);
    gh.assertClean();
  });
});

describe("audit --compare <earlier.json>", () => {
  it("reports exactly the finding fixed and the one added since, in JSON, text, Markdown, CSV and SARIF", async () => {
    const gh = acme();
    const earlierFile = join(dir, "earlier.json");
    writeFileSync(earlierFile, JSON.stringify(await auditJson()));
    const before = findings(JSON.parse(readFileSync(earlierFile, "utf8")) as AuditReport);
    fixOneAddOne(gh);

    const report = await auditJson("--compare", earlierFile);
    const c = report.comparison!;
    expect(c.fixed).toEqual([
      expect.objectContaining({
        repository: "acme/plugins",
        path: "demo/plugin.json",
        ruleId: "unknown-member",
        severity: "error",
        // At the earlier audit's commit, where the finding was.
        url: expect.stringMatching(
          new RegExp(
            `^https://github\\.com/acme/plugins/blob/(?!${gh.headCommit("acme/plugins")})[0-9a-f]{40}/demo/plugin\\.json#L\\d+$`,
          ),
        ),
      }),
    ]);
    const tools = repoOf(report, "tools");
    const { baseline, ...added } = tools.files[0]!.findings.find((x) => x.ruleId === "unknown-technology")!;
    expect(baseline).toBe("new");
    expect(c.new).toEqual([
      {
        ...added,
        repository: "acme/tools",
        path: "plugin.json",
        url: `https://github.com/acme/tools/blob/${tools.commit}/plugin.json#L${added.line}`,
      },
    ]);
    expect(c.unchanged).toBe(before.length - 1);
    expect(c.compared).toBe(7);
    expect(c.byRule).toEqual([
      { ruleId: "unknown-member", fixed: 1, new: 0 },
      { ruleId: "unknown-technology", fixed: 0, new: 1 },
    ]);
    expect(c.byRepository).toEqual([
      { repository: "acme/plugins", fixed: 1, new: 0 },
      { repository: "acme/tools", fixed: 0, new: 1 },
    ]);
    // network could not be read either time; sandbox's configuration is invalid both times: nothing to say.
    expect(c.notCompared).toEqual([]);
    expect(c.earlier).toMatchObject({ file: earlierFile, totals: { errors: 31, warnings: 5 } });
    // Every other finding is marked as existing, the added one as new.
    const marks = findings(report).map((x) => x.baseline);
    expect(marks.filter((m) => m === "new").length).toBe(1);
    expect(marks.filter((m) => m === "existing").length).toBe(before.length - 1);

    const textOut = await run(["audit", "acme", "--compare", earlierFile]);
    const since = textOut.stdout.slice(textOut.stdout.indexOf("\nSince "));
    expect(since.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^Since the audit of \d{4}-\d\d-\d\d \d\d:\d\d UTC \(.*earlier\.json\): 1 fixed, 1 new, \d+ unchanged in 7 repositories reviewed by both; errors 31 → 30, warnings 5 → 6, notices 1 → 1$/,
      ),
      "Migration to Extensions 2.0: done 1 → 1, in progress 1 → 1, not started 4 → 4 repositories; EF1 descriptors 8 → 8",
      expect.stringMatching(
        /^ {2}fixed {2}acme\/plugins\/demo\/plugin\.json:\d+:3 {2}error {2}unknown-member {2}unknown member `metricGroupp`/,
      ),
      expect.stringMatching(
        /^ {2}new {4}acme\/tools\/plugin\.json:\d+:\d+ {2}warning {2}unknown-technology {2}`COBOL`/,
      ),
      "By rule: unknown-member 1 fixed; unknown-technology 1 new",
      "By repository: acme/plugins 1 fixed; acme/tools 1 new",
    ]);

    const md = (await run(["audit", "acme", "--format", "markdown", "--compare", earlierFile])).stdout;
    // As shown: zero-width spaces keep GitHub from linking what looks like a domain (markdown.ts).
    expect(md.replace(ZWSP, "")).toMatch(/^#### Since the audit of .*earlier\.json\)$/m);
    expect(md.match(/^\| (fixed|new) \|/gm)).toEqual(["| fixed |", "| new |"]);

    const csv = parseCsv((await run(["audit", "acme", "--format", "csv", "--compare", earlierFile])).stdout);
    expect(csv[0]!.at(-1)).toBe("change");
    const changes = csv.slice(1).map((row) => row.at(-1));
    expect(changes.filter((x) => x === "fixed").length).toBe(1);
    // The fixed finding's row: where it was, not failing now, no current commit, its link at the earlier one.
    const fixedRow = csv.find((row) => row.at(-1) === "fixed")!;
    expect(fixedRow.length).toBe(csv[0]!.length);
    expect([fixedRow[0], fixedRow[1], fixedRow[7], fixedRow[9], fixedRow[11], fixedRow[12]]).toEqual([
      "acme/plugins",
      "demo/plugin.json",
      "unknown-member",
      "no",
      "",
      c.fixed[0]!.url,
    ]);
    expect(changes.filter((x) => x === "new").length).toBe(1);
    expect(changes.filter((x) => x === "unchanged").length).toBe(before.length - 1);

    const out = join(dir, "compared");
    expect(
      (await run(["audit", "acme", "--format", "sarif", "--output-dir", out, "--compare", earlierFile]))
        .status,
    ).toBe(0);
    const sarif = JSON.parse(readFileSync(join(out, "tools.sarif"), "utf8")) as SarifLog;
    expect(sarif.runs[0]!.results.map((x) => [x.ruleId, x.baselineState])).toEqual([
      ["unknown-process-type", "unchanged"],
      ["unknown-technology", "new"],
    ]);
    gh.assertClean();
  });

  it("reads an earlier report written before the readiness: findings compared, the migration's trend left out", async () => {
    const gh = acme();
    const earlier = await auditJson();
    // As plugin-review wrote it before it knew of Extensions 2.0: no readiness anywhere.
    delete earlier.readiness;
    for (const r of earlier.repositories)
      if (r.status === "reviewed") {
        delete r.extensions;
        delete r.migration;
        for (const f of r.files) delete f.readiness;
      }
    const earlierFile = join(dir, "earlier-before-readiness.json");
    writeFileSync(earlierFile, JSON.stringify(earlier));
    fixOneAddOne(gh);
    const report = await auditJson("--compare", earlierFile);
    const c = report.comparison!;
    expect([c.fixed.length, c.new.length, c.compared]).toEqual([1, 1, 7]);
    expect(c.earlier.readiness).toBeUndefined();
    expect(report.readiness?.repositories).toEqual({ done: 1, "in-progress": 1, "not-started": 4 });
    for (const format of ["text", "markdown", "html", "csv"]) {
      const r = await run(["audit", "acme", "--format", format, "--compare", earlierFile]);
      expect([r.status, r.stderr]).toEqual([0, ""]);
      expect(r.stdout).not.toMatch(/done 1 → 1/);
      if (format !== "csv") expect(r.stdout).toMatch(/Migration to Extensions 2\.0/);
    }
    gh.assertClean();
  });

  it("lists the repositories one audit did not review, and counts none of their findings as fixed or new", async () => {
    const gh = acme();
    const earlierFile = join(dir, "earlier-partial.json");
    const earlier = await auditJson();
    // The earlier audit did not have acme/tools, and could not read acme/remote-plugins.
    earlier.repositories = earlier.repositories
      .filter((r) => r.repository !== "acme/tools")
      .map((r) =>
        r.repository === "acme/remote-plugins"
          ? { repository: r.repository, status: "unreadable", reason: "403" }
          : r,
      );
    writeFileSync(earlierFile, JSON.stringify(earlier));
    const c = (await auditJson("--compare", earlierFile)).comparison!;
    expect(c.notCompared).toEqual([
      {
        repository: "acme/remote-plugins",
        reason: "not reviewed by the earlier audit (it could not be read)",
      },
      { repository: "acme/tools", reason: "not in the earlier audit" },
    ]);
    expect([c.fixed, c.new, c.compared]).toEqual([[], [], 5]);
    gh.assertClean();
  });

  it("refuses a file that is not an earlier audit of this organisation (exit 2, before asking GitHub anything)", async () => {
    process.env.GITHUB_TOKEN = TOKEN;
    const gh = new FakeGitHub([]);
    const file = (name: string, content: string) => {
      const p = join(dir, name);
      writeFileSync(p, content);
      return p;
    };
    const old = {
      organization: "acme",
      repositories: [
        {
          repository: "acme/plugins",
          status: "reviewed",
          files: [{ path: "a/plugin.json", errors: 1, warnings: 0, notices: 0, wouldFail: true }],
        },
      ],
      totals: {},
    };
    const bad = {
      ...old,
      repositories: [{ ...old.repositories[0], files: [{ path: "a", findings: [{ ruleId: 1 }] }] }],
    };
    // Fingerprints of the 64-bit scheme before SHA-256 (issue 39): not matched with this audit's, refused.
    const sixteen = {
      ...old,
      repositories: [
        {
          ...old.repositories[0],
          files: [
            {
              path: "a/plugin.json",
              findings: [
                {
                  ruleId: "unknown-member",
                  severity: "error",
                  message: "unknown member `x`",
                  fingerprint: "6c4c38a3929a8ee8",
                  line: 2,
                  column: 3,
                  endLine: 2,
                  endColumn: 6,
                },
              ],
            },
          ],
        },
      ],
    };
    const cases: [string, RegExp][] = [
      [join(dir, "missing.json"), /--compare cannot read .*missing\.json: no such file/],
      [dir, /--compare cannot read .*: it is a directory$/m],
      [file("notjson.json", "{"), /--compare: .*notjson\.json is not JSON/],
      [
        file("check.json", "[]"),
        /--compare: .*check\.json is not an audit's JSON report \(plugin-review audit <org> --format json writes one\)/,
      ],
      [
        file("other.json", JSON.stringify({ ...old, organization: "globex" })),
        /--compare: .*other\.json is an audit of globex, not of acme/,
      ],
      [
        file("old.json", JSON.stringify(old)),
        /--compare: .*old\.json lists no findings per descriptor \(acme\/plugins\/a\/plugin\.json\): it was written by an earlier plugin-review; audit again with this one to start comparing/,
      ],
      [
        file("sixteen.json", JSON.stringify(sixteen)),
        /--compare: .*sixteen\.json was written by an earlier plugin-review, whose fingerprints \(6c4c38a3929a8ee8\) are not this one's SHA-256 identities: its findings cannot be matched with this audit's; audit again with this one to start comparing/,
      ],
      [
        file("bad.json", JSON.stringify(bad)),
        /--compare: .*bad\.json: finding 1 of acme\/plugins\/a is not one an audit writes: its `ruleId` is not a string/,
      ],
    ];
    for (const [path, message] of cases) {
      const r = await run(["audit", "acme", "--compare", path]);
      expect(r.status, path).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(message);
      expect(r.stderr.split("\n").length, "one line, no stack").toBe(2);
    }
    expect(gh.requests).toEqual([]);
    gh.assertClean();
  });
});

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
}

/** The scheduled workflow of docs/rolling-out.md, as GitHub would read it. */
function documentedWorkflow(): { permissions: Record<string, string>; steps: Step[] } {
  const md = readFileSync(join(ROOT, "docs", "rolling-out.md"), "utf8");
  const block = /```yaml\n(# acme\/platform: \.github\/workflows\/[\s\S]*?)```/.exec(md)?.[1];
  expect(block, "the workflow block of rolling-out.md").toBeDefined();
  const wf = parseYaml(block!) as {
    permissions: Record<string, string>;
    jobs: Record<string, { steps: Step[] }>;
  };
  return { permissions: wf.permissions, steps: Object.values(wf.jobs)[0]!.steps };
}

/** A step's script run as GitHub runs it (bash -eo pipefail) with `stubs` standing for commands on PATH. */
function runStep(step: Step, cwd: string, stubs: Record<string, string>, env: Record<string, string> = {}) {
  const bin = join(cwd, ".stubs");
  mkdirSync(bin, { recursive: true });
  for (const [name, body] of Object.entries(stubs)) {
    writeFileSync(join(bin, name), `#!/usr/bin/env bash\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run!], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH}` },
  });
  expect(r.status, r.stderr).toBe(0);
  return r;
}

/** The upload loop needs what GitHub's runners have: bash, gzip, base64 and jq. */
const noJq =
  spawnSync("jq", ["--version"]).status === 0
    ? undefined
    : `jq is not installed (apt-get install jq: ${MORE_THAN_NPM_CI})`;

describe("the scheduled workflow of docs/rolling-out.md", () => {
  itUnless(noJq)(
    "audits once into SARIF files, JSON and HTML (comparing with the previous report), and uploads each file as GitHub takes it",
    async () => {
      const { permissions, steps } = documentedWorkflow();
      expect(permissions).toEqual({ contents: "read", actions: "read" });
      const audit = steps.find((s) => s.name === "Audit")!;
      const upload = steps.find((s) => s.name?.startsWith("Upload each repository"))!;
      const artifact = steps.find((s) => s.uses?.startsWith("actions/upload-artifact"))!;
      const work = join(dir, "workflow");
      mkdirSync(work, { recursive: true });
      // `npx` records the arguments it is given; the audit then runs here, against the fake GitHub.
      const npx = 'printf "%s\\0" "$@" > .npx-args';
      const auditAsWritten = async () => {
        runStep(audit, work, { npx }, { GITHUB_TOKEN: TOKEN });
        const args = readFileSync(join(work, ".npx-args"), "utf8").split("\0").slice(0, -1);
        expect(args.slice(0, 2)).toEqual(["--yes", "plugin-review"]);
        let stdout = "";
        let stderr = "";
        const status = await main(args.slice(2), {
          cwd: work,
          stdout: (x) => void (stdout += x),
          stderr: (x) => void (stderr += x),
        });
        expect([status, stderr]).toEqual([0, ""]);
        writeFileSync(join(work, "uploads.tsv"), stdout);
        return args;
      };

      // The first run: no previous report.
      const gh = acme();
      const first = await auditAsWritten();
      expect(first).not.toContain("--compare");
      const kept = (artifact as unknown as { with: { path: string } }).with.path.trim().split("\n");
      expect(kept).toEqual(["audit.json", "audit.html", "audit.csv"]);
      for (const f of kept) expect(readFileSync(join(work, f), "utf8").length).toBeGreaterThan(0);

      // A week later, with the previous run's report downloaded: the page shows what changed.
      mkdirSync(join(work, "previous"), { recursive: true });
      copyFileSync(join(work, "audit.json"), join(work, "previous", "audit.json"));
      fixOneAddOne(gh);
      const second = await auditAsWritten();
      expect(second).toEqual(expect.arrayContaining(["--compare", "previous/audit.json"]));
      const report = JSON.parse(readFileSync(join(work, "audit.json"), "utf8")) as AuditReport;
      expect([report.comparison?.fixed.length, report.comparison?.new.length]).toEqual([1, 1]);
      expect(readFileSync(join(work, "audit.html"), "utf8")).toContain('id="trend"');

      // The upload loop, with `gh` recording each call and the body it sends.
      const calls = join(work, ".gh-calls");
      mkdirSync(calls);
      const ghStub = [
        'n=$(find "$GH_CALLS" -name "*.args" | wc -l)',
        'printf "%s\\0" "$@" > "$GH_CALLS/$n.args"',
        'while [ $# -gt 0 ]; do if [ "$1" = --input ]; then cp "$2" "$GH_CALLS/$n.body"; fi; shift; done',
      ].join("\n");
      runStep(upload, work, { gh: ghStub }, { GH_TOKEN: "ghs_uploader_not_real", GH_CALLS: calls });
      const manifest = readFileSync(join(work, "uploads.tsv"), "utf8").trim().split("\n");
      const made = readdirSync(calls)
        .filter((f) => f.endsWith(".args"))
        .sort();
      expect(made.length).toBe(manifest.length);
      for (const [i, line] of manifest.entries()) {
        const [file, repository, commit, ref] = line.split("\t") as [string, string, string, string];
        const args = readFileSync(join(calls, `${i}.args`), "utf8")
          .split("\0")
          .slice(0, -1);
        expect(args.slice(0, 4)).toEqual([
          "api",
          "--method",
          "POST",
          `repos/${repository}/code-scanning/sarifs`,
        ]);
        const body = JSON.parse(readFileSync(join(calls, `${i}.body`), "utf8")) as Record<string, string>;
        expect(body.commit_sha).toBe(gh.headCommit(repository));
        expect([body.commit_sha, body.ref]).toEqual([commit, ref]);
        // GitHub's description accepts it, and the file it carries is the audit's, byte for byte.
        const request = {
          method: "POST",
          path: `/repos/${repository}/code-scanning/sarifs`,
          query: {},
          headers: {},
          body,
        };
        expect(validateRequest(request)).toEqual([]);
        expect(gunzipSync(Buffer.from(body.sarif!, "base64")).toString("utf8")).toBe(
          readFileSync(join(work, file), "utf8"),
        );
      }
      gh.assertClean();
    },
  );
});
