/**
 * `plugin-review audit --format csv`: one row per finding, for spreadsheets. RFC 4180: a header row, fields
 * separated by commas, quoted when they hold a comma, a quote or a line break (quotes doubled), lines ended
 * by CRLF. Repository names, paths and messages come from the repositories: a cell that a spreadsheet would
 * run as a formula (one starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`,
 * as OWASP advises, so that opening the file never evaluates what a descriptor wrote.
 */
import { fails } from "../../core/verdict.js";
import { blobUrl, reviewed, type AuditFinding, type AuditReport } from "./report.js";

const HEADER = [
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
];

/** A cell from a repository, safe to open in a spreadsheet: never read as a formula. */
export function textCell(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

/** RFC 4180 quoting. */
function field(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One finding's row: where it is, what it says, and the cells that differ between current and fixed. */
function findingRow(
  repository: string,
  path: string,
  x: AuditFinding,
  rest: { wouldFail: boolean; commit: string; url: string | undefined },
): string[] {
  return [
    textCell(repository),
    textCell(path),
    String(x.line),
    String(x.column),
    String(x.endLine),
    String(x.endColumn),
    x.severity,
    textCell(x.ruleId),
    textCell(x.message),
    rest.wouldFail ? "yes" : "no",
    textCell(x.fingerprint),
    textCell(rest.commit),
    textCell(rest.url ?? ""),
  ];
}

export function formatCsv(report: AuditReport): string {
  const compared = report.comparison !== undefined;
  const rows: string[][] = [compared ? [...HEADER, "change"] : HEADER];
  for (const r of reviewed(report))
    for (const f of r.files)
      for (const x of f.findings) {
        const row = findingRow(r.repository, f.path, x, {
          wouldFail: fails(x.severity, r.failOn),
          commit: r.commit,
          url: blobUrl(r, f.path, x.line),
        });
        if (compared) row.push(x.baseline === "new" ? "new" : x.baseline === "existing" ? "unchanged" : "");
        rows.push(row);
      }
  // Fixed findings are rows too (at the earlier audit's commit), so that one sheet shows the change.
  for (const x of report.comparison?.fixed ?? [])
    rows.push([
      ...findingRow(x.repository, x.path, x, { wouldFail: false, commit: "", url: x.url }),
      "fixed",
    ]);
  return rows.map((r) => r.map(field).join(",") + "\r\n").join("");
}
