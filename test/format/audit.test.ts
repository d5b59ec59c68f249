/**
 * The audit's formats on reports made here (src/format/audit/ is pure: a report in, text out): links only
 * to GitHub's http(s) pages, CSV cells that never run as formulas, and --compare's matching when the same
 * finding occurs more than once. The formats against a fake GitHub: test/github/audit/audit-formats.test.ts.
 */
import { describe, expect, it } from "vitest";
import { compareAudits } from "../../src/format/audit/compare.js";
import { formatCsv } from "../../src/format/audit/csv.js";
import { textCell } from "../../src/format/csv.js";
import { esc, formatHtml } from "../../src/format/audit/html.js";
import { formatAuditText } from "../../src/format/audit/text.js";
import {
  blobUrl,
  readinessTotals,
  totals,
  webUrl,
  type AuditFinding,
  type AuditReport,
  type ReviewedRepository,
} from "../../src/format/audit/report.js";
import { codeSpans, liveParts, ZWSP } from "../markdown.js";

const COMMIT = "a".repeat(40);

function finding(fingerprint: string, line: number, ruleId = "unknown-member"): AuditFinding {
  return {
    ruleId,
    severity: "error",
    message: "m",
    messageId: "unknown",
    pointer: "/x",
    line,
    column: 1,
    endLine: line,
    endColumn: 2,
    fingerprint,
  };
}

function report(findings: AuditFinding[], url = "https://github.com/acme/p", commit = COMMIT): AuditReport {
  const repo: ReviewedRepository = {
    repository: "acme/p",
    status: "reviewed",
    url,
    defaultBranch: "main",
    commit,
    configuration: [],
    failOn: "error",
    descriptors: 1,
    errors: findings.length,
    warnings: 0,
    notices: 0,
    wouldFail: findings.length > 0,
    failingDescriptors: findings.length ? 1 : 0,
    files: [
      { path: "plugin.json", errors: findings.length, warnings: 0, notices: 0, wouldFail: true, findings },
    ],
  };
  return { organization: "acme", repositories: [repo], totals: totals([repo]) };
}

describe("links", () => {
  it("only GitHub's http(s) pages become links, each path segment percent-encoded", () => {
    expect(webUrl("javascript:alert(1)")).toBeUndefined();
    expect(webUrl('https://github.com/a"onmouseover=x')).toBeUndefined();
    expect(webUrl("https://ghe.example.com/acme/p/")).toBe("https://ghe.example.com/acme/p");
    expect(blobUrl({ url: "https://github.com/acme/p", commit: COMMIT }, "a b/#?%/plugin.json", 7)).toBe(
      `https://github.com/acme/p/blob/${COMMIT}/a%20b/%23%3F%25/plugin.json#L7`,
    );
    expect(blobUrl({ url: "https://github.com/acme/p", commit: "main; rm -rf" }, "p", 1)).toBeUndefined();
    const page = formatHtml(report([finding("f1", 3)], "javascript:alert(1)"), "0.0.0");
    expect(page).not.toContain("javascript:");
    expect(page).toContain("plugin.json:3:1"); // shown, not linked
  });

  it("escapes the five characters that open markup or leave an attribute", () => {
    expect(esc(`<a href="x" title='y'>&amp;</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;",
    );
  });
});

describe("CSV", () => {
  it("prefixes a cell a spreadsheet would run as a formula, and quotes per RFC 4180", () => {
    for (const c of ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"]) expect(textCell(c)).toBe(`'${c}`);
    for (const c of ["plugins/a", "1-2", "a=b", ""]) expect(textCell(c)).toBe(c);
    const r = report([{ ...finding("f", 1), message: 'say "hi",\nthen =go' }]);
    const [, row] = formatCsv(r).split("\r\n");
    expect(row).toContain(`"say ""hi"",\nthen =go"`);
  });
});

describe("--compare", () => {
  it("matches a finding that occurs twice once each: one left of two is one fixed, none new", () => {
    const earlier = report([finding("same", 3), finding("same", 9), finding("other", 5)]);
    const now = report([finding("same", 4), finding("other", 6)], undefined, "b".repeat(40));
    const c = compareAudits(earlier, now, "earlier.json");
    expect(c.comparison!.fixed.map((f) => [f.fingerprint, f.line, f.url])).toEqual([
      ["same", 9, `https://github.com/acme/p/blob/${COMMIT}/plugin.json#L9`],
    ]);
    expect([c.comparison!.new, c.comparison!.unchanged]).toEqual([[], 2]);
    const marks = (c.repositories[0] as ReviewedRepository).files[0]!.findings.map((f) => f.baseline);
    expect(marks).toEqual(["existing", "existing"]);
  });
});

describe("a report written before the readiness", () => {
  it("renders in every format, saying it has no readiness rather than counting zeros", () => {
    const old = report([finding("f", 3)]);
    expect(old.readiness).toBeUndefined();
    expect(formatHtml(old, "0.0.0")).toContain("this report predates the readiness");
    expect(formatHtml(old, "0.0.0")).not.toContain("data-migration=");
    expect(formatAuditText(old, "text")).not.toContain("Migration to Extensions 2.0");
    expect(formatAuditText(old, "markdown")).not.toContain("Migration to Extensions 2.0");
    const [header, row] = formatCsv(old)
      .split("\r\n")
      .map((l) => l.split(","));
    expect(header!.slice(-6)).toEqual([
      "framework",
      "type",
      "variant",
      "migrate",
      "migrate_detail",
      "migration",
    ]);
    expect(row!.slice(-6)).toEqual(["", "", "", "", "", ""]);
  });
});

describe("--format text", () => {
  it("escapes a path with a line break or an escape sequence, and a message quoting one: not a space, not taken away", () => {
    const quoting = (fp: string, line: number): AuditFinding => ({
      ...finding(fp, line, "duplicate-plugin-name"),
      message:
        "plugin name `x` is also used by `r\u001b[31ms/plugin.json`; the server treats them as one plugin",
    });
    const earlier = report([quoting("gone", 3)]);
    const now = report([quoting("added", 4)], undefined, "b".repeat(40));
    for (const r of [earlier, now])
      (r.repositories[0] as ReviewedRepository).files[0]!.path = "p\nq/plugin.json";
    const text = formatAuditText(compareAudits(earlier, now, "earlier.json"), "text");
    expect(text).toContain("  acme/p/p\\nq/plugin.json: 1 error, 0 warnings");
    for (const [label, line] of [
      ["fixed", 3],
      ["new  ", 4],
    ])
      expect(text).toContain(
        `  ${label}  acme/p/p\\nq/plugin.json:${line}:1  error  duplicate-plugin-name  plugin name \`x\` is also used by \`r\\x1b[31ms/plugin.json\`;`,
      );
    expect(text).not.toContain("\u001b");
  });
});

describe("--format text, the readiness", () => {
  it("escapes a descriptor's and an extension's path with a line break or an escape sequence", () => {
    const r = report([]);
    const repo = r.repositories[0] as ReviewedRepository;
    repo.files[0]!.path = "p\nq/plugin.json";
    repo.files[0]!.readiness = { framework: "EF1", type: "python", migrate: "fully", items: [] };
    repo.extensions = [{ path: "r\u001b[31ms/extension.yaml", framework: "EF2", dataSource: "python" }];
    repo.migration = "in-progress";
    r.readiness = readinessTotals(r.repositories);
    const text = formatAuditText(r, "text");
    expect(text).toContain("  acme/p/p\\nq/plugin.json: EF1 ");
    expect(text).toContain("  acme/p/r\\x1b[31ms/extension.yaml: EF2 python");
    expect(text).not.toContain("\u001b");
  });
});

describe("--format markdown", () => {
  it("shows what the repositories hold (paths, messages, configuration errors) inert, the findings readable", () => {
    const member = "x` @acme/admins [approve](https://evil.example/a) <img src=x> `y";
    const hostile = (fp: string, line: number): AuditFinding => ({
      ...finding(fp, line),
      message: `unknown member \`${member}\``,
    });
    const earlier = report([hostile("gone", 3)]);
    const now = report([hostile("added", 4)], undefined, "b".repeat(40));
    const reviewed = now.repositories[0] as ReviewedRepository;
    reviewed.files[0]!.path = "@acme/admins/<img src=x>/plugin.json";
    now.repositories.push({
      repository: "acme/sandbox",
      status: "invalid-configuration",
      reason: "invalid configuration:\n  - unknown key `@acme/admins <img src=x> https://evil.example`",
    } as AuditReport["repositories"][number]);
    const md = formatAuditText(compareAudits(earlier, now, "@acme/admins <b>earlier</b>.json"), "markdown");
    expect(liveParts(md, { href: (h) => h.startsWith("https://github.com/acme/p/blob/") })).toEqual([]);
    expect(codeSpans(md).map((c) => c.replace(ZWSP, ""))).toContain(
      "@acme/admins <img src=x> https://evil.example",
    );
    expect(md).toContain("unknown-member");
  });
});
