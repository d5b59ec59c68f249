/**
 * `plugin-review audit` output: a table per repository and the totals, as text, JSON or Markdown; with
 * `--compare`, what changed since the earlier audit. What the repositories hold (paths, messages, the
 * reasons a configuration is invalid) is printable in text (a path, and a message quoting one, escaped: `a\nb`)
 * and inert in Markdown (markdown.ts).
 */
import {
  auditTime,
  type AuditReport,
  type AuditRepository,
  type OrganisationPolicyAccess,
  type AuditComparison,
  type ComparedFinding,
} from "./report.js";
import { inertText, quotedText } from "../markdown.js";
import { escaped, jsonText, printableLines } from "../printable.js";
import { plural } from "../summary.js";
import { readinessMarkdown, readinessText, readinessTrend } from "./readiness.js";

export type TextFormat = "text" | "json" | "markdown";

const HEADER = [
  "Repository",
  "Descriptors",
  "Errors",
  "Warnings",
  "PR would fail (existing: fail)",
  "Org policy read by the App",
];

const POLICY: Record<OrganisationPolicyAccess["state"], string> = {
  read: "yes",
  "not-read": "NO",
  none: "none to read",
  "app-not-installed": "App not installed",
  unknown: "unknown",
};

function policyCell(r: AuditRepository): string {
  const p = "organisationPolicy" in r ? r.organisationPolicy : undefined;
  return p ? POLICY[p.state] : "–";
}

const repositories = (n: number) => `${n} ${n === 1 ? "repository" : "repositories"}`;

function failCell(r: AuditRepository): string {
  if (r.status === "invalid-configuration") return "yes (invalid configuration)";
  if (r.status !== "reviewed") return "–";
  return r.wouldFail ? `yes (${plural(r.failingDescriptors, "descriptor")})` : "no";
}

function rows(report: AuditReport): string[][] {
  const t = report.totals;
  const body = report.repositories
    .filter((r) => r.status === "reviewed" || r.status === "invalid-configuration")
    .map((r) =>
      r.status === "reviewed"
        ? [
            r.repository,
            String(r.descriptors),
            String(r.errors),
            String(r.warnings),
            failCell(r),
            policyCell(r),
          ]
        : [r.repository, "–", "–", "–", failCell(r), policyCell(r)],
    );
  const examined = t.reviewed + t.invalidConfiguration;
  body.push([
    "Total",
    String(t.descriptors),
    String(t.errors),
    String(t.warnings),
    `${t.wouldFail} of ${repositories(examined)}`,
    "",
  ]);
  return body;
}

/** What was not reviewed, and why: skipped (archived, empty), unreadable, invalid configuration. */
function notes(report: AuditReport): string[] {
  const out: string[] = [];
  if (report.app) out.push(`The App \`${report.app.app}\`: ${report.app.detail}.`);
  const unread = report.repositories.filter(
    (r) => "organisationPolicy" in r && r.organisationPolicy?.state === "not-read",
  );
  if (unread.length)
    out.push(
      `${repositories(unread.length)} reviewed without the organisation's configuration: the App cannot read ${report.organization}/.github. Install it there (or on all repositories) so that its rules and locks apply; until then their checks apply each repository's file alone (or fail, where the deployment requires the organisation's configuration).`,
    );
  for (const r of report.repositories) {
    if (r.status === "skipped") out.push(`${r.repository}: skipped (${r.reason})`);
    else if (r.status === "unreadable") out.push(`${r.repository}: could not be read: ${r.reason}`);
    else if (r.status === "invalid-configuration")
      out.push(`${r.repository}: invalid configuration, every pull request would fail: ${r.reason}`);
    else if (r.truncated)
      out.push(`${r.repository}: GitHub cut its tree short; some descriptors may be missing`);
  }
  return out;
}

function headline(report: AuditReport): string {
  const t = report.totals;
  return (
    `plugin-review audit of ${report.organization}: ${repositories(t.reviewed)} reviewed` +
    `, ${t.skipped} skipped, ${t.unreadable} unreadable` +
    (t.invalidConfiguration ? `, ${t.invalidConfiguration} with an invalid configuration` : "")
  );
}

/**
 * A table as text: the header, a rule, the body, a rule and the total row. The first and the `left` columns
 * are aligned left, the others (counts) right.
 */
function textTable(header: string[], body: string[][], total: string[], left: number[] = []): string[] {
  const all = [header, ...body, total];
  const widths = header.map((_, i) => Math.max(...all.map((r) => [...(r[i] ?? "")].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === 0 || left.includes(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(header), rule, ...body.map(line), rule, line(total)];
}

function formatText(report: AuditReport): string {
  const body = rows(report);
  const out = [
    headline(report),
    "",
    ...textTable(HEADER, body.slice(0, -1), body.at(-1)!, [HEADER.length - 1]),
  ];
  // The descriptors that would fail, per repository: where to start.
  const failing = report.repositories.flatMap((r) =>
    r.status === "reviewed"
      ? r.files
          .filter((f) => f.wouldFail)
          .map(
            (f) =>
              `  ${r.repository}/${escaped(f.path)}: ${plural(f.errors, "error")}, ${plural(f.warnings, "warning")}`,
          )
      : [],
  );
  if (failing.length)
    out.push("", "Descriptors a pull request could not change without fixing them:", ...failing);
  const n = notes(report);
  if (n.length) out.push("", ...n);
  const readiness = readinessText(report, (header, body, total) => textTable(header, body, total, [1]));
  if (readiness.length) out.push("", ...readiness);
  if (report.comparison) out.push("", ...comparisonText(report, report.comparison));
  return printableLines(out.join("\n")) + "\n";
}

/** At most this many fixed and new findings are listed in text and Markdown (JSON, CSV and HTML list all). */
const LISTED_CHANGES = 50;

const when = (c: AuditComparison) => `the audit of ${auditTime(c.earlier.auditedAt)} (${c.earlier.file})`;

/** "errors 3 → 2, warnings 1 → 1, notices 0 → 0": the backlog then and now. */
function trend(report: AuditReport, c: AuditComparison): string {
  const t = report.totals;
  const e = c.earlier.totals;
  return `errors ${e.errors} → ${t.errors}, warnings ${e.warnings} → ${t.warnings}, notices ${e.notices} → ${t.notices}`;
}

function headlineOf(c: AuditComparison): string {
  return `${c.fixed.length} fixed, ${c.new.length} new, ${c.unchanged} unchanged in ${repositories(c.compared)} reviewed by both`;
}

const where = (f: ComparedFinding) => `${f.repository}/${f.path}:${f.line}:${f.column}`;

function listed<T>(items: readonly T[], line: (x: T) => string, what: string): string[] {
  const out = items.slice(0, LISTED_CHANGES).map(line);
  if (items.length > LISTED_CHANGES)
    out.push(
      `  … and ${items.length - LISTED_CHANGES} more ${what} (the JSON and CSV reports list them all)`,
    );
  return out;
}

/** "unknown-member 1 fixed; invalid-value 2 new": changes per rule or per repository. */
function tallyLine(items: readonly { name: string; fixed: number; new: number }[]): string {
  const counts = (x: { fixed: number; new: number }) =>
    [x.fixed ? `${x.fixed} fixed` : "", x.new ? `${x.new} new` : ""].filter(Boolean).join(", ");
  return items.map((x) => `${x.name} ${counts(x)}`).join("; ");
}

const byRule = (c: AuditComparison) => tallyLine(c.byRule.map((x) => ({ ...x, name: x.ruleId })));
const byRepository = (c: AuditComparison) =>
  tallyLine(c.byRepository.map((x) => ({ ...x, name: x.repository })));

function comparisonText(report: AuditReport, c: AuditComparison): string[] {
  const out = [`Since ${when(c)}: ${headlineOf(c)}; ${trend(report, c)}`];
  const migration = readinessTrend(report);
  if (migration) out.push(`Migration to Extensions 2.0: ${migration}`);
  const line = (label: string) => (f: ComparedFinding) =>
    `  ${label}  ${escaped(where(f))}  ${f.severity}  ${f.ruleId}  ${escaped(f.message)}`;
  out.push(...listed(c.fixed, line("fixed"), "fixed"), ...listed(c.new, line("new  "), "new"));
  if (c.byRule.length) out.push(`By rule: ${byRule(c)}`);
  if (c.byRepository.length) out.push(`By repository: ${byRepository(c)}`);
  for (const n of c.notCompared) out.push(`Not compared: ${n.repository} (${n.reason})`);
  return out;
}

function comparisonMarkdown(report: AuditReport, c: AuditComparison): string[] {
  const out = [`#### Since ${inertText(when(c))}`, "", `${headlineOf(c)}; ${trend(report, c)}.`];
  const migration = readinessTrend(report);
  if (migration) out.push("", `Migration to Extensions 2.0: ${migration}.`);
  const rows = [...c.fixed.map((f) => ["fixed", f] as const), ...c.new.map((f) => ["new", f] as const)];
  if (rows.length) {
    out.push("", "| Change | Finding | Severity | Rule | Message |", "| --- | --- | --- | --- | --- |");
    for (const [change, f] of rows.slice(0, LISTED_CHANGES)) {
      // The URL (ours, its path percent-encoded: report.ts) in angle brackets; the text inert.
      const text = inertText(where(f));
      const place = f.url ? `[${text}](<${f.url}>)` : text;
      const message = quotedText(f.message, { cell: true });
      out.push(`| ${change} | ${place} | ${f.severity} | ${inertText(f.ruleId)} | ${message} |`);
    }
    if (rows.length > LISTED_CHANGES)
      out.push("", `… and ${rows.length - LISTED_CHANGES} more (the JSON and CSV reports list them all).`);
  }
  if (c.byRule.length) out.push("", `By rule: ${inertText(byRule(c))}.`);
  if (c.byRepository.length) out.push("", `By repository: ${inertText(byRepository(c))}.`);
  if (c.notCompared.length)
    out.push(
      "",
      ...c.notCompared.map((n) => `- Not compared: ${inertText(n.repository)} (${quotedText(n.reason)})`),
    );
  return out;
}

function formatMarkdown(report: AuditReport): string {
  const out = [`### ${inertText(headline(report))}`, ""];
  out.push(`| ${HEADER.join(" | ")} |`, `| --- | ---: | ---: | ---: | --- | --- |`);
  const body = rows(report);
  for (const r of body.slice(0, -1)) out.push(`| ${r.map((c) => inertText(c)).join(" | ")} |`);
  out.push(
    `| ${body
      .at(-1)!
      .map((c) => (c ? `**${inertText(c)}**` : ""))
      .join(" | ")} |`,
  );
  const n = notes(report);
  if (n.length) out.push("", ...n.map((x) => `- ${quotedText(x)}`));
  const readiness = readinessMarkdown(report);
  if (readiness.length) out.push("", ...readiness);
  if (report.comparison) out.push("", ...comparisonMarkdown(report, report.comparison));
  return out.join("\n") + "\n";
}

export function formatAuditText(report: AuditReport, format: TextFormat): string {
  if (format === "json") return jsonText(report, 2) + "\n";
  return format === "markdown" ? formatMarkdown(report) : formatText(report);
}
