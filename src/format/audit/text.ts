/** `plugin-review audit` output: a table per repository and the totals, as text, JSON or Markdown. */
import type { AuditReport, AuditRepository, OrganisationPolicyAccess } from "./report.js";
import { plural } from "../summary.js";

export type AuditFormat = "text" | "json" | "markdown";
export const AUDIT_FORMATS: readonly AuditFormat[] = ["text", "json", "markdown"];

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

function formatText(report: AuditReport): string {
  const table = [HEADER, ...rows(report)];
  const widths = HEADER.map((_, i) => Math.max(...table.map((r) => [...(r[i] ?? "")].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  const out = [headline(report), "", line(HEADER), widths.map((w) => "-".repeat(w)).join("  ")];
  const body = rows(report);
  out.push(...body.slice(0, -1).map(line), widths.map((w) => "-".repeat(w)).join("  "), line(body.at(-1)!));
  // The descriptors that would fail, per repository: where to start.
  const failing = report.repositories.flatMap((r) =>
    r.status === "reviewed"
      ? r.files
          .filter((f) => f.wouldFail)
          .map((f) => `  ${r.repository}/${f.path}: ${f.errors} error(s), ${f.warnings} warning(s)`)
      : [],
  );
  if (failing.length)
    out.push("", "Descriptors a pull request could not change without fixing them:", ...failing);
  const n = notes(report);
  if (n.length) out.push("", ...n);
  return out.join("\n") + "\n";
}

function cell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function formatMarkdown(report: AuditReport): string {
  const out = [`### ${headline(report)}`, ""];
  out.push(`| ${HEADER.join(" | ")} |`, `| --- | ---: | ---: | ---: | --- | --- |`);
  const body = rows(report);
  for (const r of body.slice(0, -1)) out.push(`| ${r.map(cell).join(" | ")} |`);
  out.push(
    `| ${body
      .at(-1)!
      .map((c) => (c ? `**${cell(c)}**` : ""))
      .join(" | ")} |`,
  );
  const n = notes(report);
  if (n.length) out.push("", ...n.map((x) => `- ${cell(x)}`));
  return out.join("\n") + "\n";
}

export function formatAudit(report: AuditReport, format: AuditFormat): string {
  if (format === "json") return JSON.stringify(report, null, 2) + "\n";
  return format === "markdown" ? formatMarkdown(report) : formatText(report);
}
