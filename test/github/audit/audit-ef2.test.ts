/**
 * `plugin-review audit` over repositories of Extensions 2.0 extensions, against the fake GitHub (nock, every
 * request checked against GitHub's OpenAPI description): every extension.yaml the configuration reaches is
 * reviewed, with or without a plugin.json beside it, and each repository's EF2 extensions are counted with
 * their findings in every format (JSON, text, Markdown, HTML, CSV, SARIF); another tool's extension.yaml is
 * neither counted nor reviewed.
 *
 * The organisation `acme`:
 * - `ef2`: `router/extension.yaml` (a `version` YAML reads as a number: 1 error) and `pool/extension/
 *   extension.yaml` (what `migrate` writes: no finding), no plugin.json anywhere; `functions/extension.yaml`,
 *   Firebase's;
 * - `mixed`: `pool/plugin.json` (JMX) beside `pool/extension/extension.yaml`, which lost its metric (the
 *   migration rules: 1 error).
 * An extension.yaml is read by the audit as by the review (test/github/audit/readiness.test.ts for the parts):
 * one that Dynatrace reads and YAML 1.2 refuses, another tool's beside a plugin.json, one over
 * `max_extension_size`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { FORMATS } from "../../../src/core/formats.js";
import type { AuditReport, ReviewedRepository } from "../../../src/format/audit/report.js";
import { mainRun as run } from "../../cli/run.js";
import { tokens } from "../../markdown.js";
import { FakeGitHub } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import { AUDIT_ROUTES, CONFIG, migrated, POOL, SNMP_EXTENSION, TOKEN } from "./organisation.js";

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "plugin-review-audit-ef2-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => disableNetwork());
afterEach(() => {
  cleanup();
  delete process.env.GITHUB_TOKEN;
});

const ROUTER = SNMP_EXTENSION.replace("version: 1.0.0", "version: 1.0");
const LOST = migrated(POOL).replace(/tech\.pool\.active/g, "tech.pool.busy");
const FIREBASE = "name: storage-resize-images\nversion: 0.1\nversion: 0.2\nspecVersion: v1beta\n";

function organisation(): FakeGitHub {
  const gh = new FakeGitHub(AUDIT_ROUTES);
  gh.orgInstallations.push({ app_slug: "plugin-review", repository_selection: "all" });
  gh.repo("acme/ef2").repo("acme/mixed");
  gh.file("acme/ef2", "HEAD", "router/extension.yaml", ROUTER)
    .file("acme/ef2", "HEAD", "pool/extension/extension.yaml", migrated(POOL))
    .file("acme/ef2", "HEAD", "functions/extension.yaml", FIREBASE)
    .file("acme/mixed", "HEAD", "pool/plugin.json", POOL)
    .file("acme/mixed", "HEAD", "pool/extension/extension.yaml", LOST);
  process.env.GITHUB_TOKEN = TOKEN;
  return gh;
}

async function audit(...args: string[]): Promise<{ stdout: string; report?: AuditReport }> {
  const r = await run(["audit", "acme", ...args]);
  expect([r.status, r.stderr]).toEqual([0, ""]);
  return { stdout: r.stdout };
}

const repoOf = (report: AuditReport, name: string) =>
  report.repositories.find((r) => r.repository === `acme/${name}`) as ReviewedRepository;

describe("audit: EF2 extensions and their findings, per repository, in every format", () => {
  it("JSON: each extension reviewed and counted; the repository's and the organisation's counts", async () => {
    const gh = organisation();
    const report = JSON.parse((await audit("--format", "json")).stdout) as AuditReport;
    const ef2 = repoOf(report, "ef2");
    expect(ef2.files.map((f) => [f.path, f.findings.map((x) => [x.ruleId, x.line])])).toEqual([
      ["pool/extension/extension.yaml", []],
      ["router/extension.yaml", [["ef2-version-format", 2]]],
    ]);
    expect([ef2.descriptors, ef2.errors, ef2.wouldFail, ef2.failingDescriptors, ef2.migration]).toEqual([
      2,
      1,
      true,
      1,
      "done",
    ]);
    expect(
      ef2.extensions!.map((e) => [e.path, e.dataSource, e.errors, e.warnings, e.notices, e.wouldFail]),
    ).toEqual([
      ["pool/extension/extension.yaml", "jmx", 0, 0, 0, false],
      ["router/extension.yaml", "snmp", 1, 0, 0, true],
    ]);
    const mixed = repoOf(report, "mixed");
    expect(mixed.extensions!.map((e) => [e.path, e.replaces, e.errors, e.wouldFail])).toEqual([
      ["pool/extension/extension.yaml", "pool/plugin.json", 1, true],
    ]);
    expect(mixed.files.find((f) => f.path === "pool/extension/extension.yaml")!.findings[0]!.ruleId).toBe(
      "migration-metric-missing",
    );
    expect(report.readiness!.extensions).toEqual({
      total: 3,
      byDataSource: [
        { dataSource: "jmx", extensions: 2 },
        { dataSource: "snmp", extensions: 1 },
      ],
      errors: 2,
      warnings: 0,
      notices: 0,
      failing: 2,
    });
    // Firebase's extension.yaml: no file, no extension, no finding.
    expect(JSON.stringify(report)).not.toContain("functions/extension.yaml");
    gh.assertClean();
  });

  it("text and Markdown: the repository's EF2 extensions and their errors, and each extension's findings", async () => {
    const gh = organisation();
    const text = (await audit()).stdout;
    expect(text).toMatch(/^acme\/ef2 +done +0 +0 +0 +0 +2 +1 +0$/m);
    expect(text).toMatch(/^acme\/mixed +in progress +1 +1 +0 +0 +1 +1 +0$/m);
    expect(text).toMatch(/^Total +1 +1 +0 +0 +3 +2 +0$/m);
    expect(text).toMatch(/; 3 EF2 extensions \(jmx 2, snmp 1\) with 2 errors$/m);
    expect(text).toMatch(/^ {2}acme\/ef2\/router\/extension\.yaml: EF2 snmp; 1 error$/m);
    expect(text).toMatch(/^ {2}acme\/ef2\/pool\/extension\/extension\.yaml: EF2 jmx; no findings$/m);
    expect(text).not.toContain("functions/extension.yaml");
    // The extension's findings count in the repository's row of the main table too.
    expect(text).toMatch(/^acme\/ef2 +2 +1 +0 +yes \(1 descriptor\)/m);
    cleanup();
    disableNetwork();
    organisation();
    const md = (await audit("--format", "markdown")).stdout;
    const rows = tableRows(md);
    expect(rows).toContainEqual(["acme/ef2", "done", "0", "0", "0", "0", "2", "1", "0"]);
    expect(rows).toContainEqual(["acme/ef2/router/extension.yaml", "EF2 snmp", "1 error", "–", "", ""]);
    expect(rows).toContainEqual([
      "acme/mixed/pool/extension/extension.yaml",
      "EF2 jmx",
      "1 error",
      "–",
      "",
      "replaces pool/plugin.json",
    ]);
    gh.assertClean();
  });

  it("HTML: each extension's row with its findings; CSV: its findings as rows with its EF2 cells", async () => {
    const gh = organisation();
    const html = (await audit("--format", "html")).stdout;
    const ef2 = html.slice(html.indexOf('<tbody data-repository="acme/ef2"'));
    const body = ef2.slice(0, ef2.indexOf("</tbody>"));
    expect(body).toMatch(/router\/extension\.yaml<\/a><\/td><td>EF2 snmp<\/td><td>1 error<\/td>/);
    expect(body).toMatch(/pool\/extension\/extension\.yaml<\/a><\/td><td>EF2 jmx<\/td><td>no findings<\/td>/);
    expect(html).toContain("3 EF2 extensions (jmx 2, snmp 1) with 2 errors");
    expect(html).not.toContain("functions/extension.yaml");
    cleanup();
    disableNetwork();
    organisation();
    const csv = parseCsv((await audit("--format", "csv")).stdout);
    const router = csv.filter((r) => r[0] === "acme/ef2" && r[1] === "router/extension.yaml");
    // Its own row, and its finding's row, both EF2 snmp.
    expect(router.map((r) => [r[7], r[13], r[14]])).toEqual([
      ["ef2-version-format", "EF2", "snmp"],
      ["", "EF2", "snmp"],
    ]);
    expect(csv.filter((r) => r[13] === "EF2" && r[7] !== "").length).toBe(2);
    gh.assertClean();
  });

  it("SARIF: one log per repository, the extensions' results and their counts in the run's properties", async () => {
    const gh = organisation();
    const out = join(dir, "sarif");
    await audit("--format", "sarif", "--output-dir", out);
    expect(readdirSync(out).sort()).toEqual(["ef2.sarif", "mixed.sarif"]);
    const log = JSON.parse(readFileSync(join(out, "ef2.sarif"), "utf8")) as {
      runs: {
        artifacts: { location: { uri: string } }[];
        results: {
          ruleId: string;
          locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
        }[];
        properties: Record<string, unknown>;
      }[];
    };
    const run0 = log.runs[0]!;
    expect(run0.artifacts.map((a) => a.location.uri)).toEqual([
      "pool/extension/extension.yaml",
      "router/extension.yaml",
    ]);
    expect(
      run0.results.map((r) => [r.ruleId, r.locations[0]!.physicalLocation.artifactLocation.uri]),
    ).toEqual([["ef2-version-format", "router/extension.yaml"]]);
    expect(run0.properties["pluginReview/extensions"]).toEqual([
      expect.objectContaining({ path: "pool/extension/extension.yaml", errors: 0, wouldFail: false }),
      expect.objectContaining({ path: "router/extension.yaml", errors: 1, wouldFail: true }),
    ]);
    gh.assertClean();
  });
});

/** SNMP_EXTENSION with a quoted description continued no deeper than its key: Dynatrace reads it, YAML 1.2 does not. */
const LENIENT = SNMP_EXTENSION.replace(
  "      unit: Byte",
  '      description: "Bytes received on the interface,\n      counted by the router"\n      unit: Byte',
);

/**
 * `lenient`: LENIENT alone; `legacy`: `pool/plugin.json` and Firebase's `functions/extension.yaml`; `big`:
 * `max_extension_size: 100` and an extension.yaml over it.
 */
function readAsReviewed(): FakeGitHub {
  const gh = new FakeGitHub(AUDIT_ROUTES);
  gh.orgInstallations.push({ app_slug: "plugin-review", repository_selection: "all" });
  gh.repo("acme/lenient").repo("acme/legacy").repo("acme/big");
  gh.file("acme/lenient", "HEAD", "router/extension.yaml", LENIENT)
    .file("acme/legacy", "HEAD", "pool/plugin.json", POOL)
    .file("acme/legacy", "HEAD", "functions/extension.yaml", FIREBASE)
    .file("acme/big", "HEAD", CONFIG, "max_extension_size: 100\n")
    .file("acme/big", "HEAD", "router/extension.yaml", SNMP_EXTENSION);
  process.env.GITHUB_TOKEN = TOKEN;
  return gh;
}

describe("audit: an extension.yaml read as the review reads it", () => {
  it("names an extension Dynatrace reads and YAML 1.2 refuses by its data source, as the review reviews it", async () => {
    const gh = readAsReviewed();
    const report = JSON.parse((await audit("--format", "json")).stdout) as AuditReport;
    // Reviewed with a warning (invalid-yaml: Dynatrace reads it, editors do not), and named with its data source.
    const lenient = repoOf(report, "lenient");
    const line = LENIENT.split("\n").findIndex((l) => l.includes("description:")) + 1;
    expect(lenient.files.map((f) => [f.path, f.findings.map((x) => [x.ruleId, x.severity, x.line])])).toEqual(
      [["router/extension.yaml", [["invalid-yaml", "warning", line]]]],
    );
    expect([lenient.migration, lenient.extensions]).toEqual([
      "done",
      [
        {
          path: "router/extension.yaml",
          framework: "EF2",
          dataSource: "snmp",
          name: "custom:acme.router",
          errors: 0,
          warnings: 1,
          notices: 0,
          wouldFail: false,
        },
      ],
    ]);
    expect(report.readiness!.extensions!.byDataSource).toContainEqual({ dataSource: "snmp", extensions: 1 });
    gh.assertClean();
  });

  it("parses each extension.yaml once: its review and its readiness share the one read", async () => {
    const gh = organisation();
    const parse = vi.spyOn(FORMATS["extension.yaml"], "parse");
    try {
      const report = JSON.parse((await audit("--format", "json")).stdout) as AuditReport;
      expect(repoOf(report, "ef2").extensions?.map((e) => [e.path, e.dataSource])).toEqual([
        ["pool/extension/extension.yaml", "jmx"],
        ["router/extension.yaml", "snmp"],
      ]);
      const parsed = new Map<string, number>();
      for (const [text] of parse.mock.calls) parsed.set(text, (parsed.get(text) ?? 0) + 1);
      expect([...parsed.values()]).toEqual([1, 1, 1, 1]);
      expect(parse).toHaveBeenCalledTimes(4);
    } finally {
      parse.mockRestore();
    }
    gh.assertClean();
  });

  it("does not count another tool's extension.yaml as the repository's EF2 extension: its migration has not started", async () => {
    const gh = readAsReviewed();
    const report = JSON.parse((await audit("--format", "json")).stdout) as AuditReport;
    const legacy = repoOf(report, "legacy");
    expect([legacy.migration, legacy.extensions, legacy.files.map((f) => f.path)]).toEqual([
      "not-started",
      [],
      ["pool/plugin.json"],
    ]);
    gh.assertClean();
  });

  it("reads no extension.yaml over max_extension_size, which the review does not parse: not downloaded, said so", async () => {
    const gh = readAsReviewed();
    const report = JSON.parse((await audit("--format", "json")).stdout) as AuditReport;
    const big = repoOf(report, "big");
    expect(big.files.map((f) => [f.path, f.findings.map((x) => x.ruleId)])).toEqual([
      ["router/extension.yaml", ["file-too-large"]],
    ]);
    expect(big.extensions).toEqual([
      {
        path: "router/extension.yaml",
        framework: "EF2",
        problem: `not read: ${SNMP_EXTENSION.length} bytes, over max_extension_size (100)`,
        errors: 1,
        warnings: 0,
        notices: 0,
        wouldFail: true,
      },
    ]);
    expect(gh.requests.filter((q) => /^\/repos\/acme\/big\/git\/blobs\//.test(q.path))).toEqual([]);
    expect(report.readiness!.extensions!.byDataSource).toContainEqual({
      dataSource: "unknown",
      extensions: 1,
    });
    gh.assertClean();
  });
});

/** RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, quotes (doubled) and line breaks. */
function parseCsv(s: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted && c === '"' && s[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted) field += c;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && s[i + 1] === "\n") {
      rows.push([...row, field]);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  return rows;
}

/** The cells of every table row of `md` as a reader sees them (rendered by a CommonMark/GFM parser). */
function tableRows(md: string): string[][] {
  const rows: string[][] = [];
  let row: string[] | undefined;
  for (const t of tokens(md)) {
    if (t.type === "tr_open") rows.push((row = []));
    else if (t.type === "tr_close") row = undefined;
    else if (row && t.type === "inline")
      row.push(
        (t.children ?? [])
          .filter((c) => c.type === "text" || c.type === "code_inline")
          .map((c) => c.content)
          .join("")
          .replace(/\u200b/g, ""),
      );
  }
  return rows;
}
