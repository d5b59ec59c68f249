/**
 * `plugin-review audit --format csv`: one row per finding, and one per descriptor and EF2 extension with its
 * readiness for Extensions 2.0 (its finding cells empty), for spreadsheets. RFC 4180: a header row, fields
 * separated by commas, quoted when they hold a comma, a quote or a line break (quotes doubled), lines ended
 * by CRLF. Repository names, paths and messages come from the repositories: a cell that a spreadsheet would
 * run as a formula (one starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`,
 * as OWASP advises, so that opening the file never evaluates what a descriptor wrote.
 */
import { fails } from "../../core/verdict.js";
import { field, textCell } from "../csv.js";
import { capability, detail, MIGRATION_WORDS } from "./readiness.js";
import {
  blobUrl,
  reviewed,
  type AuditExtension,
  type AuditFinding,
  type AuditReport,
  type DescriptorReadiness,
  type ReviewedRepository,
} from "./report.js";

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
  // The descriptor's readiness for Extensions 2.0, on its findings' rows and its own.
  "framework",
  "type",
  "variant",
  "migrate",
  "migrate_detail",
  "migration",
];

/** The finding cells of a descriptor's or extension's own row: none. */
const NO_FINDING = ["", "", "", "", "", "", "", "", ""];

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

/** The readiness cells: framework, type, variant, what `migrate` can do (and in full, on the file's own row). */
function readinessCells(
  r: ReviewedRepository,
  x: DescriptorReadiness | AuditExtension | undefined,
  withDetail: boolean,
): string[] {
  const migration = r.migration ? MIGRATION_WORDS[r.migration] : "";
  if (!x) return ["", "", "", "", "", migration];
  if (x.framework === "EF2")
    return [
      "EF2",
      textCell(x.dataSource ?? ""),
      "",
      "",
      withDetail ? textCell(x.problem ?? "") : "",
      migration,
    ];
  return [
    "EF1",
    textCell(x.type ?? ""),
    x.variant ?? "",
    capability(x),
    withDetail ? textCell(detail(x)) : "",
    migration,
  ];
}

export function formatCsv(report: AuditReport): string {
  const compared = report.comparison !== undefined;
  const rows: string[][] = [compared ? [...HEADER, "change"] : HEADER];
  const change = (c: string) => (compared ? [c] : []);
  for (const r of reviewed(report)) {
    for (const f of r.files) {
      if (f.readiness)
        rows.push([
          textCell(r.repository),
          textCell(f.path),
          ...NO_FINDING,
          textCell(r.commit),
          textCell(blobUrl(r, f.path) ?? ""),
          ...readinessCells(r, f.readiness, true),
          ...change(""),
        ]);
      for (const x of f.findings)
        rows.push([
          ...findingRow(r.repository, f.path, x, {
            wouldFail: fails(x.severity, r.failOn),
            commit: r.commit,
            url: blobUrl(r, f.path, x.line),
          }),
          // An extension.yaml's findings (the review of a migration) carry its EF2 cells.
          ...readinessCells(r, f.readiness ?? r.extensions?.find((e) => e.path === f.path), false),
          ...change(x.baseline === "new" ? "new" : x.baseline === "existing" ? "unchanged" : ""),
        ]);
    }
    for (const e of r.extensions ?? [])
      rows.push([
        textCell(r.repository),
        textCell(e.path),
        ...NO_FINDING,
        textCell(r.commit),
        textCell(blobUrl(r, e.path) ?? ""),
        ...readinessCells(r, e, true),
        ...change(""),
      ]);
  }
  // Fixed findings are rows too (at the earlier audit's commit), so that one sheet shows the change.
  for (const x of report.comparison?.fixed ?? [])
    rows.push([
      ...findingRow(x.repository, x.path, x, { wouldFail: false, commit: "", url: x.url }),
      ...["", "", "", "", "", ""],
      "fixed",
    ]);
  return rows.map((r) => r.map(field).join(",") + "\r\n").join("");
}
