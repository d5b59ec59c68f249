/**
 * Pure rendering of findings for GitHub: check run annotations and summary, review comment bodies with
 * fingerprints and suggestions. No I/O here; the limits GitHub enforces are named where they apply.
 */
import { CONFIG_PATH } from "../core/config.js";
import { LineIndex } from "../core/locate.js";
import type { FileReview } from "../core/review.js";
import type { Finding, Severity } from "../core/types.js";
import { DOCS_BASE, ruleDocsUrl } from "../core/rule.js";
import { countFindings as counts, plural } from "../format/summary.js";
import { fingerprint, fingerprintMarker } from "./fingerprint.js";

/** GitHub rejects a check run output text longer than this (summary and text alike). */
export const OUTPUT_LIMIT = 65_535;
/** GitHub accepts at most this many annotations per check run create/update request. */
export const ANNOTATIONS_PER_REQUEST = 50;

const LEVEL: Record<Severity, "failure" | "warning" | "notice"> = {
  error: "failure",
  warning: "warning",
  notice: "notice",
};
const ICON: Record<Severity, string> = { error: "🔴", warning: "🟡", notice: "🔵" };

export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column?: number;
  end_column?: number;
  annotation_level: "failure" | "warning" | "notice";
  title: string;
  message: string;
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + "…";
}

export function toAnnotation(path: string, f: Finding): Annotation {
  const a: Annotation = {
    path,
    start_line: f.line,
    end_line: f.endLine,
    annotation_level: LEVEL[f.severity],
    title: f.ruleId,
    message: clip(f.message, 4000),
  };
  // Columns only on a one-line range (GitHub rejects them otherwise); GitHub's end column is inclusive.
  if (f.line === f.endLine) {
    a.start_column = f.column;
    a.end_column = Math.max(f.column, f.endColumn - 1);
  }
  return a;
}

export function allAnnotations(reviews: readonly FileReview[]): Annotation[] {
  return reviews.flatMap((r) => r.findings.map((f) => toAnnotation(r.path, f)));
}

export interface SummaryInput {
  reviews: readonly FileReview[];
  failed: boolean;
  failOn: string;
  /** Lines to show before the table: skipped files, configuration notes, the 3,000-file cap. */
  notes: string[];
}

export function checkTitle(reviews: readonly FileReview[]): string {
  if (reviews.length === 0) return "No descriptors changed";
  const c = counts(reviews.flatMap((r) => r.findings));
  const parts = [plural(c.error, "error"), plural(c.warning, "warning"), plural(c.notice, "notice")];
  return `${parts.join(", ")} in ${plural(reviews.length, "descriptor")}`;
}

const escapeCell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** The check run summary: readable in five seconds, and never over GitHub's limit whatever the findings. */
export function checkSummary(input: SummaryInput): string {
  const { reviews, failed } = input;
  const head: string[] = [];
  if (reviews.length === 0) {
    head.push("No descriptors changed in this pull request, so there is nothing to review.");
  } else {
    const all = reviews.flatMap((r) => r.findings);
    const c = counts(all);
    head.push(
      failed
        ? `**Failing**: findings reach the failing level (\`fail_on: ${input.failOn}\`).`
        : all.length
          ? `**Passing**: no finding reaches the failing level (\`fail_on: ${input.failOn}\`).`
          : "**Passing**: no findings.",
    );
    head.push("");
    head.push(
      `${ICON.error} ${c.error} errors · ${ICON.warning} ${c.warning} warnings · ${ICON.notice} ${c.notice} notices`,
    );
  }
  for (const n of input.notes) head.push("", `> ${n}`);
  const tail = [
    "",
    `<sub>Configure rules, severities, ignored paths and the failing level in \`${CONFIG_PATH}\` ` +
      `(organisation defaults in \`<org>/.github\`); every rule is explained in [the rule docs](${DOCS_BASE}).</sub>`,
  ];
  if (reviews.length === 0) return [...head, ...tail].join("\n");

  const sections: string[] = ["", "| Descriptor | Errors | Warnings | Notices |", "|---|---:|---:|---:|"];
  for (const r of reviews) {
    const c = counts(r.findings);
    sections.push(`| \`${escapeCell(r.path)}\` | ${c.error} | ${c.warning} | ${c.notice} |`);
  }
  const rank: Record<Severity, number> = { error: 0, warning: 1, notice: 2 };
  const top = reviews
    .flatMap((r) => r.findings.map((f) => ({ path: r.path, f })))
    .sort(
      (a, b) =>
        rank[a.f.severity] - rank[b.f.severity] || a.path.localeCompare(b.path) || a.f.line - b.f.line,
    );
  if (top.length) {
    sections.push("", "### Findings", "", "| | Where | Rule | Message |", "|---|---|---|---|");
    for (const { path, f } of top) {
      sections.push(
        `| ${ICON[f.severity]} | \`${escapeCell(path)}:${f.line}\` | [\`${f.ruleId}\`](${ruleDocsUrl(f.ruleId)}) | ${escapeCell(clip(f.message, 300))} |`,
      );
    }
  }
  // Fit the budget: drop finding rows from the end and say how many are only in the annotations.
  const fixed = head.join("\n").length + tail.join("\n").length + 200;
  let body = sections;
  let dropped = 0;
  while (fixed + body.join("\n").length > OUTPUT_LIMIT && body.length > 0) {
    const cut = Math.max(1, Math.ceil((fixed + body.join("\n").length - OUTPUT_LIMIT) / 120));
    body = body.slice(0, Math.max(0, body.length - cut));
    dropped += cut;
  }
  const note = dropped
    ? [
        "",
        `_…${dropped} more rows are not shown here to stay within GitHub's size limit; every finding is an annotation._`,
      ]
    : [];
  return clip([...head, ...body, ...note, ...tail].join("\n"), OUTPUT_LIMIT);
}

/** A code-point-aware replacement of [column, endColumn) on one line. */
export function replaceColumns(
  lineText: string,
  column: number,
  endColumn: number,
  replacement: string,
): string {
  const chars = Array.from(lineText);
  return chars.slice(0, column - 1).join("") + replacement + chars.slice(endColumn - 1).join("");
}

/** A review comment's body: severity, rule, message, a suggestion when the fix is mechanical, and the fingerprint. */
export function commentBody(path: string, f: Finding, fileText: string, suggest: boolean): string {
  const parts = [
    `${ICON[f.severity]} **${f.severity}** [\`${f.ruleId}\`](${ruleDocsUrl(f.ruleId)}): ${f.message}`,
  ];
  const line =
    // The finding's range is what a suggestion replaces: only when the fix replaces that same part.
    suggest && f.fix && f.line === f.endLine && (f.fix.target ?? "value") === f.target
      ? new LineIndex(fileText).lineText(f.line)
      : undefined;
  if (line !== undefined && f.fix) {
    parts.push(
      "",
      `Suggested fix: ${f.fix.description}.`,
      "",
      "```suggestion",
      replaceColumns(line, f.column, f.endColumn, f.fix.replacement),
      "```",
    );
  }
  parts.push("", fingerprintMarker(fingerprint(f.ruleId, path, f.pointer)));
  return parts.join("\n");
}

/** One line of the review body for a finding that is not on a line of the diff. */
export function bodyItem(path: string, f: Finding): string {
  return `- ${ICON[f.severity]} \`${path}:${f.line}\` [\`${f.ruleId}\`](${ruleDocsUrl(f.ruleId)}): ${f.message} ${fingerprintMarker(fingerprint(f.ruleId, path, f.pointer))}`;
}
