/**
 * `plugin-review audit --format csv`: one row per finding, for spreadsheets. RFC 4180: a header row, fields
 * separated by commas, quoted when they hold a comma, a quote or a line break (quotes doubled), lines ended
 * by CRLF. Repository names, paths and messages come from the repositories: a cell that a spreadsheet would
 * run as a formula (one starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`,
 * as OWASP advises, so that opening the file never evaluates what a descriptor wrote.
 */
import { blobUrl, failsOn, reviewed, type AuditReport } from "./report.js";

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

export function formatCsv(report: AuditReport): string {
  const compared = report.comparison !== undefined;
  const rows: string[][] = [compared ? [...HEADER, "change"] : HEADER];
  for (const r of reviewed(report))
    for (const f of r.files)
      for (const x of f.findings) {
        const row = [
          textCell(r.repository),
          textCell(f.path),
          String(x.line),
          String(x.column),
          String(x.endLine),
          String(x.endColumn),
          x.severity,
          textCell(x.ruleId),
          textCell(x.message),
          failsOn(r.failOn, x.severity) ? "yes" : "no",
          textCell(x.fingerprint),
          textCell(r.commit),
          textCell(blobUrl(r, f.path, x.line) ?? ""),
        ];
        if (compared) row.push(x.baseline === "new" ? "new" : x.baseline === "existing" ? "unchanged" : "");
        rows.push(row);
      }
  // Fixed findings are rows too (at the earlier audit's commit), so that one sheet shows the change.
  for (const x of report.comparison?.fixed ?? [])
    rows.push([
      textCell(x.repository),
      textCell(x.path),
      String(x.line),
      String(x.column),
      String(x.endLine),
      String(x.endColumn),
      x.severity,
      textCell(x.ruleId),
      textCell(x.message),
      "no",
      textCell(x.fingerprint),
      "",
      textCell(x.url ?? ""),
      "fixed",
    ]);
  return rows.map((r) => r.map(field).join(",") + "\r\n").join("");
}
