/**
 * Pure rendering of findings for GitHub: check run annotations and summary, review comment bodies with
 * fingerprints and suggestions. No I/O here; the limits GitHub enforces are named where they apply.
 */
import { CONFIG_PATH, type ExistingMode } from "../core/config.js";
import { LineIndex } from "../core/locate.js";
import type { FileReview } from "../core/review.js";
import type { Finding, Severity } from "../core/types.js";
import { DOCS_BASE, ruleDocsUrl } from "../core/rule.js";
import { isQuietExisting } from "../core/verdict.js";
import { countFindings as counts, plural } from "../format/summary.js";
import { fingerprintMarker } from "./fingerprint.js";

/** GitHub rejects a check run output text longer than this (summary and text alike). */
export const OUTPUT_LIMIT = 65_535;
/** GitHub refuses a review body or comment longer than this. */
export const COMMENT_LIMIT = 65_536;
/** A finding's message in a comment or annotation (rules' messages are short; a quoted value may not be). */
const MESSAGE_LIMIT = 4000;
/** Lines longer than this get no suggestion block (the comment must stay under COMMENT_LIMIT). */
const SUGGESTED_LINE_LIMIT = 20_000;
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

/** `s` in at most `max` characters: cut with an ellipsis when longer (nothing at all when `max` is 0). */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 0) return "";
  let end = max - 1;
  // Not between the two halves of a surrogate pair (an emoji cut in two is not a character).
  if (end > 0 && /[\uD800-\uDBFF]/.test(s[end - 1] as string)) end--;
  return s.slice(0, end) + "…";
}

/** What an existing finding's annotation says (`existing: report`): it is there, and why it does not count. */
export const EXISTING_NOTE =
  "Existing finding: it predates this pull request, so it does not decide the check.";

export function toAnnotation(path: string, f: Finding, existing: ExistingMode = "report"): Annotation {
  const quiet = isQuietExisting(f, { existing });
  const a: Annotation = {
    path,
    start_line: f.line,
    end_line: f.endLine,
    annotation_level: quiet ? "notice" : LEVEL[f.severity],
    title: f.ruleId,
    message: quiet ? `${EXISTING_NOTE} ${clip(f.message, MESSAGE_LIMIT)}` : clip(f.message, MESSAGE_LIMIT),
  };
  // Columns only on a one-line range (GitHub rejects them otherwise); GitHub's end column is inclusive.
  if (f.line === f.endLine) {
    a.start_column = f.column;
    a.end_column = Math.max(f.column, f.endColumn - 1);
  }
  return a;
}

/** GitHub keeps at most this many annotations per check run; beyond it they would only cost requests. */
export const MAX_ANNOTATIONS = 1000;

/**
 * The summary's note when annotations of an earlier review of the commit, which GitHub keeps on the run,
 * leave no room under the cap for some of this review's (check-run.ts).
 */
export function earlierAnnotationsNote(omitted: number, earlier: number): string {
  return `> ${notAnnotated(omitted, "more finding")}: this check run keeps ${plural(earlier, "annotation")} of an earlier review of this commit (GitHub cannot remove them), and ${ANNOTATION_CAP}.`;
}

/** The summary's notes on findings left without an annotation ("1 finding is", "2 findings are"). */
function notAnnotated(n: number, what: string): string {
  return `${plural(n, what)} ${n === 1 ? "is" : "are"} not annotated`;
}

const ANNOTATION_CAP = `GitHub shows at most ${MAX_ANNOTATIONS.toLocaleString("en-US")} annotations per check run`;

const RANK: Record<Severity, number> = { error: 0, warning: 1, notice: 2 };

/**
 * The annotations of a review, errors first (then warnings, notices; files and lines in order within a
 * level), at most MAX_ANNOTATIONS. The order is stable, so that a run already holding the first `n` of
 * them can be sent the rest (check-run.ts).
 */
export function allAnnotations(
  reviews: readonly FileReview[],
  existing: ExistingMode = "report",
): {
  annotations: Annotation[];
  omitted: number;
} {
  // Ranked by the level they are shown at: existing findings that do not count come with the notices.
  const rank = (f: Finding) => (isQuietExisting(f, { existing }) ? RANK.notice + 1 : RANK[f.severity]);
  const ranked = reviews
    .flatMap((r) => r.findings.map((f) => ({ path: r.path, f })))
    .sort((a, b) => rank(a.f) - rank(b.f));
  return {
    annotations: ranked.slice(0, MAX_ANNOTATIONS).map(({ path, f }) => toAnnotation(path, f, existing)),
    omitted: Math.max(0, ranked.length - MAX_ANNOTATIONS),
  };
}

/**
 * Text built under a character limit: lines that always stay, and lists shown as far as they fit, each
 * followed by a line counting what was left out. Summaries and review bodies are built with it, so that
 * GitHub never refuses them for their size and every omission is counted.
 */
export class BudgetedText {
  private readonly lines: string[] = [];
  /** The length of `toString()`: the lines and the newlines between them. */
  private length = 0;

  constructor(private readonly limit: number) {}

  /** Characters left (a line after the first also costs its newline). */
  get remaining(): number {
    return this.limit - this.length;
  }

  /** Lines that stay (clipped only if even they do not fit; left out once not even their newline does). */
  add(...lines: string[]): this {
    for (const line of lines) {
      const newline = this.lines.length > 0 ? 1 : 0;
      const room = this.remaining - newline;
      if (room < 0) break;
      const l = clip(line, room);
      this.lines.push(l);
      this.length += newline + l.length;
    }
    return this;
  }

  /**
   * Items in order while they fit, keeping `reserve` characters for what comes after them; when some
   * do not fit, `leftOut(n)` says so in their place. Returns how many were left out.
   */
  addItems(items: readonly string[], reserve: number, leftOut: (n: number) => string): number {
    const noteRoom = 200;
    let i = 0;
    for (; i < items.length; i++) {
      const cost = (items[i] as string).length + 1;
      const room = this.remaining - reserve - (i + 1 < items.length ? noteRoom : 0);
      if (cost > room) break;
      this.add(items[i] as string);
    }
    const omitted = items.length - i;
    if (omitted) this.add(leftOut(omitted));
    return omitted;
  }

  toString(): string {
    return this.lines.join("\n");
  }
}

export interface SummaryInput {
  reviews: readonly FileReview[];
  failed: boolean;
  failOn: string;
  /** Lines to show before the table: skipped files, configuration notes, the 3,000-file cap. */
  notes: string[];
  /** Findings beyond the annotation cap (allAnnotations). */
  annotationsOmitted?: number;
  /** What existing findings do (configuration `existing`); default `report`. */
  existing?: ExistingMode;
}

/** Findings that count, and existing ones that are only reported (`existing: report`). */
function splitExisting(
  reviews: readonly FileReview[],
  existing: ExistingMode,
): { counted: { path: string; f: Finding }[]; quiet: { path: string; f: Finding }[] } {
  const counted: { path: string; f: Finding }[] = [];
  const quiet: { path: string; f: Finding }[] = [];
  for (const r of reviews)
    for (const f of r.findings)
      (isQuietExisting(f, { existing }) ? quiet : counted).push({ path: r.path, f });
  return { counted, quiet };
}

/** Base findings the pull request fixed (absent from head), over every descriptor compared. */
const fixedBy = (reviews: readonly FileReview[]) => reviews.reduce((n, r) => n + (r.fixed ?? 0), 0);

export function checkTitle(reviews: readonly FileReview[], existing: ExistingMode = "report"): string {
  if (reviews.length === 0) return "No descriptors changed";
  const { counted, quiet } = splitExisting(reviews, existing);
  const c = counts(counted.map((x) => x.f));
  if (quiet.length > 0) {
    // Said plainly: what the pull request adds, then what it inherited and is not counted.
    const fresh = (["error", "warning", "notice"] as const)
      .filter((s) => c[s] > 0)
      .map((s) => plural(c[s], `new ${s}`));
    return `${fresh.length ? fresh.join(", ") : "No new findings"} · ${plural(quiet.length, "existing finding")} not counted`;
  }
  const parts = [plural(c.error, "error"), plural(c.warning, "warning"), plural(c.notice, "notice")];
  return `${parts.join(", ")} in ${plural(reviews.length, "descriptor")}`;
}

const escapeCell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/**
 * The check run summary: readable in five seconds, and never over GitHub's limit whatever the findings.
 * The verdict, the notes and the per-descriptor table come first; the findings table takes what room is
 * left, and a line counts the findings it could not show.
 */
export function checkSummary(input: SummaryInput): string {
  const { reviews, failed } = input;
  const out = new BudgetedText(OUTPUT_LIMIT);
  const tail = [
    "",
    `<sub>Configure rules, severities, ignored paths and the failing level in \`${CONFIG_PATH}\` ` +
      `(organisation defaults in \`<org>/.github\`); every rule is explained in [the rule docs](${DOCS_BASE}).</sub>`,
  ];
  const reserve = tail.join("\n").length + 1;
  const { counted, quiet } = splitExisting(reviews, input.existing ?? "report");
  const compared = reviews.some((r) => r.fixed !== undefined);
  if (reviews.length === 0) {
    out.add("No descriptors changed in this pull request, so there is nothing to review.");
  } else {
    const c = counts(counted.map((x) => x.f));
    const what = quiet.length ? "new findings" : "findings";
    out.add(
      failed
        ? `**Failing**: ${what} reach the failing level (\`fail_on: ${input.failOn}\`).`
        : counted.length
          ? `**Passing**: no ${what.replace(/s$/, "")} reaches the failing level (\`fail_on: ${input.failOn}\`).`
          : quiet.length
            ? "**Passing**: no new findings."
            : "**Passing**: no findings.",
      "",
      `${ICON.error} ${c.error} errors · ${ICON.warning} ${c.warning} warnings · ${ICON.notice} ${c.notice} notices${quiet.length ? " (new)" : ""}`,
    );
    if (compared) out.add("", baselineLine(quiet.length, fixedBy(reviews)));
  }
  for (const n of input.notes) out.add("", `> ${clip(n, 2000)}`);
  if (input.annotationsOmitted)
    out.add(
      "",
      `> ${notAnnotated(input.annotationsOmitted, "finding")}: ${ANNOTATION_CAP} (errors come first).`,
    );
  if (reviews.length > 0) {
    // With existing findings not counted, the table counts what the title and the verdict count (the new
    // findings), and the existing ones in a column of their own.
    const split = quiet.length > 0;
    out.add(
      "",
      split
        ? "| Descriptor | New errors | New warnings | New notices | Existing (not counted) |"
        : "| Descriptor | Errors | Warnings | Notices |",
      split ? "|---|---:|---:|---:|---:|" : "|---|---:|---:|---:|",
    );
    const byPath = (xs: { path: string; f: Finding }[]) => {
      const m = new Map<string, Finding[]>();
      for (const x of xs) {
        const list = m.get(x.path);
        if (list) list.push(x.f);
        else m.set(x.path, [x.f]);
      }
      return m;
    };
    const countedIn = byPath(counted);
    const quietIn = byPath(quiet);
    out.addItems(
      reviews.map((r) => {
        const c = counts(countedIn.get(r.path) ?? []);
        const row = `| \`${escapeCell(r.path)}\` | ${c.error} | ${c.warning} | ${c.notice} |`;
        return split ? `${row} ${quietIn.get(r.path)?.length ?? 0} |` : row;
      }),
      reserve,
      (n) => `| _…and ${plural(n, "more descriptor")}_ | | | |${split ? " |" : ""}`,
    );
    const leftOut = (n: number) =>
      `\n_…${plural(n, "more finding")} not shown here, to stay within GitHub's size limit${input.annotationsOmitted ? "; the annotations and the review list the rest" : "; every finding is an annotation"}._`;
    const top = counted.sort(bySeverity);
    if (top.length) {
      out.add("", quiet.length ? "### New findings" : "### Findings", "", ...FINDINGS_HEADER);
      out.addItems(top.map(findingRow), reserve + (quiet.length ? 300 : 0), leftOut);
    }
    if (quiet.length) existingSection(out, quiet, reserve, leftOut);
  }
  out.add(...tail);
  return out.toString();
}

/** The summary of a run that fails on an invalid configuration: its errors as far as they fit, then what to do. */
export function invalidConfigSummary(error: string): string {
  const tail = [
    "```",
    "",
    `Fix \`${CONFIG_PATH}\` on the default branch (or the organisation's \`.github\` repository); plugin-review never falls back to defaults silently.`,
  ];
  const out = new BudgetedText(OUTPUT_LIMIT).add(
    "The configuration is invalid, so the pull request was not reviewed:",
    "",
    "```",
  );
  out.addItems(error.split("\n"), tail.join("\n").length + 1, (n) => `…and ${plural(n, "more line")}`);
  return out.add(...tail).toString();
}

const FINDINGS_HEADER = ["| | Where | Rule | Message |", "|---|---|---|---|"];
const bySeverity = (a: { path: string; f: Finding }, b: { path: string; f: Finding }) =>
  RANK[a.f.severity] - RANK[b.f.severity] || a.path.localeCompare(b.path) || a.f.line - b.f.line;
const findingRow = ({ path, f }: { path: string; f: Finding }) =>
  `| ${ICON[f.severity]} | \`${escapeCell(path)}:${f.line}\` | [\`${f.ruleId}\`](${ruleDocsUrl(f.ruleId)}) | ${escapeCell(clip(f.message, 300))} |`;

/** "14 existing findings are not counted … This pull request fixes 2." */
function baselineLine(existing: number, fixed: number): string {
  const parts = [];
  if (existing)
    parts.push(
      `${plural(existing, "existing finding")} predate${existing === 1 ? "s" : ""} this pull request and ${existing === 1 ? "is" : "are"} not counted (below).`,
    );
  parts.push(
    fixed ? `✅ This pull request fixes ${plural(fixed, "finding")}.` : "This pull request fixes no finding.",
  );
  return parts.join(" ");
}

/** The existing findings, collapsed: there to see, out of the way of what the pull request adds. */
function existingSection(
  out: BudgetedText,
  quiet: { path: string; f: Finding }[],
  reserve: number,
  leftOut: (n: number) => string,
): void {
  out.add(
    "",
    "<details>",
    `<summary>${plural(quiet.length, "existing finding")} (already in the base branch; not counted)</summary>`,
    "",
    ...FINDINGS_HEADER,
  );
  out.addItems(quiet.sort(bySeverity).map(findingRow), reserve + 20, leftOut);
  out.add("", "</details>");
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

/**
 * A review comment's body: severity, rule, message, the fix or else the first suggestion as a ```suggestion
 * block (a suggestion says that it is a guess), and the fingerprint.
 */
export function commentBody(path: string, f: Finding, fileText: string, suggest: boolean): string {
  const parts = [
    `${ICON[f.severity]} **${f.severity}** [\`${f.ruleId}\`](${ruleDocsUrl(f.ruleId)}): ${clip(f.message, MESSAGE_LIMIT)}`,
  ];
  const edit = f.fix ?? f.suggestions?.[0];
  const line =
    // The finding's range is what a suggestion replaces: only when the edit replaces that same part.
    suggest && edit && f.line === f.endLine && (edit.target ?? "value") === f.target
      ? new LineIndex(fileText).lineText(f.line)
      : undefined;
  // A suggestion repeats the whole line: on a minified descriptor that could outgrow the comment.
  if (line !== undefined && edit && line.length + edit.replacement.length < SUGGESTED_LINE_LIMIT) {
    parts.push(
      "",
      f.fix
        ? `Suggested fix: ${edit.description}.`
        : `A guess (check it before committing it): ${edit.description}?`,
      "",
      "```suggestion",
      replaceColumns(line, f.column, f.endColumn, edit.replacement),
      "```",
    );
  }
  parts.push("", fingerprintMarker(f.fingerprint));
  return parts.join("\n");
}

/** The lines of a repeated problem, shortened past the first twenty. */
function linesOf(findings: readonly Finding[]): string {
  const lines = [...new Set(findings.map((f) => f.line))];
  const shown = lines.slice(0, 20).join(", ");
  return lines.length > 20 ? `${shown} and ${lines.length - 20} more` : shown;
}

/** One review comment for a problem repeated in a file (repeated.ts), listing its lines. */
export function repeatedCommentBody(path: string, findings: readonly Finding[], fp: string): string {
  const f = findings[0] as Finding;
  return [
    `${ICON[f.severity]} **${f.severity}** [\`${f.ruleId}\`](${ruleDocsUrl(f.ruleId)}): ${clip(f.message, MESSAGE_LIMIT)}`,
    "",
    `The same problem is reported ${findings.length} times in \`${path}\`, on lines ${linesOf(findings)}; the check run annotates each one.`,
    "",
    fingerprintMarker(fp),
  ].join("\n");
}

/** One review-body entry for a repeated problem, listing its lines. */
export function repeatedBodyItem(path: string, findings: readonly Finding[], fp: string): string {
  const f = findings[0] as Finding;
  return `- ${ICON[f.severity]} \`${path}\` [\`${f.ruleId}\`](${ruleDocsUrl(f.ruleId)}) ${findings.length} times, on lines ${linesOf(findings)}: ${clip(f.message, 1000)} ${fingerprintMarker(fp)}`;
}

/** One line of the review body for a finding that is not on a line of the diff. */
export function bodyItem(path: string, f: Finding): string {
  return `- ${ICON[f.severity]} \`${path}:${f.line}\` [\`${f.ruleId}\`](${ruleDocsUrl(f.ruleId)}): ${clip(f.message, 1000)} ${fingerprintMarker(f.fingerprint)}`;
}
