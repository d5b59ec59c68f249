/**
 * The organisation's readiness for Extensions 2.0 in the audit's text and Markdown reports: each repository's
 * migration (done, in progress, not started), each descriptor's framework and type, and what `migrate` can do
 * with it (fully; partly, with what is not carried over; not at all, with why). The HTML page, the CSV and the
 * SARIF files render the same parts of the report (report.ts) their own way.
 */
import { inertText } from "../markdown.js";
import { escaped } from "../printable.js";
import {
  reviewed,
  typeLabel,
  type AuditExtension,
  type AuditFile,
  type AuditReport,
  type DescriptorReadiness,
  type MigrationState,
  type ReadinessTotals,
} from "./report.js";

export const MIGRATION_WORDS: Record<MigrationState, string> = {
  done: "done",
  "in-progress": "in progress",
  "not-started": "not started",
};

/** At most this many items of one descriptor are named in text and Markdown (the JSON and CSV have all). */
const NAMED_ITEMS = 5;

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "1 repository done, 2 in progress, 3 not started". */
export function repositoriesLine(t: ReadinessTotals): string {
  const r = t.repositories;
  return `${count(r.done, "repository", "repositories")} done, ${r["in-progress"]} in progress, ${r["not-started"]} not started`;
}

/**
 * "7 EF1 descriptors (migrate converts 2 fully, 4 partly, 1 not at all); 3 EF2 extensions (jmx 2, snmp 1) with
 * 2 errors, 1 warning".
 */
export function descriptorsLine(t: ReadinessTotals): string {
  const d = t.descriptors;
  const unread = d.unread ? `, ${d.unread} not read` : "";
  const sources = t.extensions.byDataSource.map((s) => `${s.dataSource} ${s.extensions}`).join(", ");
  const findings = t.extensions.total ? findingsWords(t.extensions) : "";
  return (
    `${count(d.total, "EF1 descriptor")} (migrate converts ${d.fully} fully, ${d.partly} partly, ${d.notAtAll} not at all${unread}); ` +
    `${count(t.extensions.total, "EF2 extension")}${sources ? ` (${sources})` : ""}${findings ? ` with ${findings}` : ""}`
  );
}

/** Findings by severity in words ("2 errors, 1 warning", "no findings"); "" when not counted (an earlier report). */
export function findingsWords(x: { errors?: number; warnings?: number; notices?: number }): string {
  if (x.errors === undefined) return "";
  const parts = [
    [x.errors, "error"],
    [x.warnings ?? 0, "warning"],
    [x.notices ?? 0, "notice"],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, w]) => count(n, w));
  return said.length ? said.join(", ") : "no findings";
}

/** What `migrate` can do, in words: "fully", "partly", "not at all", or "not read". */
export const capability = (r: DescriptorReadiness): string => r.migrate ?? "not read";

/** An item as one phrase: "ui.keymetrics[0] (line 40): …" or the reason alone. */
function itemWords(item: DescriptorReadiness["items"][number], withText: boolean): string {
  const where = [item.member, item.line !== undefined ? `line ${item.line}` : ""].filter(Boolean);
  if (!withText) return item.member ? `${item.member}${item.line ? ` (line ${item.line})` : ""}` : item.text;
  return where.length ? `${item.text} (${where.join(", ")})` : item.text;
}

/**
 * What is lost or why, for one line: the members not carried over (partly), or the reasons (not at all);
 * the first few, then how many more. Every item in full: `detail` (CSV).
 */
export function itemsLine(r: DescriptorReadiness): string {
  const partly = r.migrate === "partly";
  const named = r.items.slice(0, NAMED_ITEMS).map((i) => itemWords(i, !partly));
  const more = r.items.length - named.length;
  const list = named.join(partly ? ", " : "; ") + (more > 0 ? `, … and ${more} more` : "");
  if (!list) return "";
  return partly ? `not carried over: ${list}` : list;
}

/** Every item, each with its member and line: what the CSV writes in one cell. */
export function detail(r: DescriptorReadiness): string {
  return r.items.map((i) => itemWords(i, true)).join("; ");
}

/** A descriptor's framework and type: "EF1 JMX host", "EF2 snmp". */
export function kind(x: DescriptorReadiness | AuditExtension): string {
  if (x.framework === "EF1") return `EF1 ${typeLabel(x)}`;
  return `EF2 ${x.dataSource ?? (x.problem ? "(unknown data source)" : "(no data source)")}`;
}

/** One descriptor's line: where, what it is, what `migrate` can do with it, and its EF2 extension. */
function descriptorLine(repository: string, f: AuditFile & { readiness: DescriptorReadiness }): string {
  const r = f.readiness;
  const items = itemsLine(r);
  const ext = r.extension ? `; EF2 extension: ${r.extension}` : "";
  return `${repository}/${f.path}: ${kind(r)}; migrate: ${capability(r)}${items ? ` (${items})` : ""}${ext}`;
}

function extensionLine(repository: string, e: AuditExtension): string {
  const replaces = e.replaces ? `; replaces ${e.replaces}` : "";
  const findings = findingsWords(e);
  return `${repository}/${e.path}: ${kind(e)}${e.problem ? ` (${e.problem})` : ""}${findings ? `; ${findings}` : ""}${replaces}`;
}

/** A repository's EF2 extensions' findings of one severity. */
const ef2Count = (r: { extensions?: AuditExtension[] }, k: "errors" | "warnings") =>
  (r.extensions ?? []).reduce((n, e) => n + (e[k] ?? 0), 0);

/** The repositories with a migration, and each one's counts. */
function repositoryRows(report: AuditReport): string[][] {
  return reviewed(report).flatMap((r) => {
    if (!r.migration) return [];
    const of = (m: DescriptorReadiness["migrate"]) =>
      r.files.filter((f) => f.readiness?.migrate === m).length;
    return [
      [
        r.repository,
        MIGRATION_WORDS[r.migration],
        String(r.files.filter((f) => f.readiness).length),
        String(of("fully")),
        String(of("partly")),
        String(of("not at all")),
        String(r.extensions?.length ?? 0),
        String(ef2Count(r, "errors")),
        String(ef2Count(r, "warnings")),
      ],
    ];
  });
}

const HEADER = [
  "Repository",
  "Migration",
  "EF1 descriptors",
  "Fully",
  "Partly",
  "Not at all",
  "EF2 extensions",
  "EF2 errors",
  "EF2 warnings",
];

function totalRow(t: ReadinessTotals): string[] {
  const d = t.descriptors;
  const e = t.extensions;
  const counts = [d.total, d.fully, d.partly, d.notAtAll, e.total, e.errors ?? 0, e.warnings ?? 0];
  return ["Total", "", ...counts.map(String)];
}

/** Every descriptor's and extension's line, repository by repository. */
function lines(report: AuditReport): string[] {
  return reviewed(report).flatMap((r) => [
    ...r.files.flatMap((f) =>
      f.readiness ? [descriptorLine(r.repository, f as AuditFile & { readiness: DescriptorReadiness })] : [],
    ),
    ...(r.extensions ?? []).map((e) => extensionLine(r.repository, e)),
  ]);
}

/** The text report's section; none when the report has no readiness (an earlier one) or nothing to say. */
export function readinessText(
  report: AuditReport,
  table: (header: string[], body: string[][], total: string[]) => string[],
): string[] {
  const t = report.readiness;
  const rows = repositoryRows(report);
  if (!t || !rows.length) return [];
  return [
    `Migration to Extensions 2.0: ${repositoriesLine(t)}; ${descriptorsLine(t)}`,
    "",
    ...table(
      HEADER,
      rows.map((r) => r.map(escaped)),
      totalRow(t),
    ),
    "",
    "Descriptors (framework and type; what plugin-review migrate can do with each):",
    ...lines(report).map((l) => `  ${escaped(l)}`),
  ];
}

/** The Markdown report's section: what the repositories hold (paths, types as written, reasons) inert. */
export function readinessMarkdown(report: AuditReport): string[] {
  const t = report.readiness;
  const rows = repositoryRows(report);
  if (!t || !rows.length) return [];
  const cell = (s: string) => inertText(s);
  const out = [
    "#### Migration to Extensions 2.0",
    "",
    `${cell(repositoriesLine(t))}; ${cell(descriptorsLine(t))}.`,
    "",
    `| ${HEADER.join(" | ")} |`,
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
    `| ${totalRow(t)
      .map((c) => (c ? `**${c}**` : ""))
      .join(" | ")} |`,
    "",
    "| Descriptor | Framework and type | Findings | Migrate | Not carried over, or why | EF2 extension |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  for (const r of reviewed(report)) {
    for (const f of r.files)
      if (f.readiness)
        out.push(
          // What is lost or why is migrate's plain text, whose quotes of the descriptor may hold backticks:
          // shown as it is, backticks included, rather than read as code spans.
          `| ${cell(`${r.repository}/${f.path}`)} | ${cell(kind(f.readiness))} | ${findingsWords(f)} | ${capability(f.readiness)} | ${cell(itemsLine(f.readiness))} | ${cell(f.readiness.extension ?? "")} |`,
        );
    for (const e of r.extensions ?? [])
      out.push(
        `| ${cell(`${r.repository}/${e.path}`)} | ${cell(kind(e))} | ${findingsWords(e)} | – | ${cell(e.problem ?? "")} | ${e.replaces ? cell(`replaces ${e.replaces}`) : ""} |`,
      );
  }
  return out;
}

/**
 * The migration since an earlier audit, when both reports have their readiness: "done 0 → 1, in progress
 * 1 → 1, not started 4 → 3 repositories; EF1 descriptors 8 → 7".
 */
export function readinessTrend(report: AuditReport): string | undefined {
  const then = report.comparison?.earlier.readiness;
  const now = report.readiness;
  if (!then || !now) return undefined;
  const states = (Object.keys(MIGRATION_WORDS) as MigrationState[])
    .map((s) => `${MIGRATION_WORDS[s]} ${then.repositories[s]} → ${now.repositories[s]}`)
    .join(", ");
  return `${states} repositories; EF1 descriptors ${then.descriptors.total} → ${now.descriptors.total}`;
}
