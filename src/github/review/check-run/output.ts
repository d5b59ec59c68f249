/**
 * The check run's output, pure: its annotations (in a stable order, capped), title and summary, within the
 * limits GitHub enforces on a check run.
 */
import { CONFIG_PATH, type ExistingMode } from "../../../core/config.js";
import type { FileFindings } from "../../../core/analyse.js";
import { DOCS_BASE, ruleDocsUrl } from "../../../core/rule.js";
import type { Finding, Severity } from "../../../core/types.js";
import { isQuietExisting, type NotReviewed } from "../../../core/verdict.js";
import { codeBlock, codeSpan, findingMessage, quotedText } from "../../../format/markdown.js";
import { countFindings as counts, plural } from "../../../format/summary.js";
import type { Annotation } from "../../api/port.js";
import { BudgetedText, clip, ICON, MESSAGE_LIMIT, utf8Bytes } from "../markdown.js";

/**
 * GitHub rejects a check run output text longer than this (summary and text alike), in UTF-8 bytes (outputSize):
 * its description says characters, but it answers 422 "summary exceeds a maximum bytesize of 65535" to 65,535
 * characters holding a multi-byte one (a severity icon is 4 bytes).
 */
export const OUTPUT_LIMIT = 65_535;
/** A check run output text's size as GitHub counts it against OUTPUT_LIMIT. */
export const outputSize = utf8Bytes;
/** GitHub accepts at most this many annotations per check run create/update request. */
export const ANNOTATIONS_PER_REQUEST = 50;

const LEVEL: Record<Severity, "failure" | "warning" | "notice"> = {
  error: "failure",
  warning: "warning",
  notice: "notice",
};
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
 * leave no room under the cap for some of this review's (write.ts).
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
 * them can be sent the rest (write.ts).
 */
export function allAnnotations(
  files: readonly FileFindings[],
  existing: ExistingMode = "report",
): {
  annotations: Annotation[];
  omitted: number;
} {
  // Ranked by the level they are shown at: existing findings that do not count come with the notices.
  const rank = (f: Finding) => (isQuietExisting(f, { existing }) ? RANK.notice + 1 : RANK[f.severity]);
  const ranked = files
    .flatMap((r) => r.findings.map((f) => ({ path: r.path, f })))
    .sort((a, b) => rank(a.f) - rank(b.f));
  return {
    annotations: ranked.slice(0, MAX_ANNOTATIONS).map(({ path, f }) => toAnnotation(path, f, existing)),
    omitted: Math.max(0, ranked.length - MAX_ANNOTATIONS),
  };
}

export interface SummaryInput {
  files: readonly FileFindings[];
  failed: boolean;
  failOn: string;
  /** Lines to show before the table: configuration notes, removed files. */
  notes: string[];
  /** Changed descriptors not reviewed, and why (they fail the check): shown first. */
  notReviewed?: readonly NotReviewed[];
  /** Findings beyond the annotation cap (allAnnotations). */
  annotationsOmitted?: number;
  /** What existing findings do (configuration `existing`); default `report`. */
  existing?: ExistingMode;
}

/** Findings that count, and existing ones that are only reported (`existing: report`). */
function splitExisting(
  files: readonly FileFindings[],
  existing: ExistingMode,
): { counted: { path: string; f: Finding }[]; quiet: { path: string; f: Finding }[] } {
  const counted: { path: string; f: Finding }[] = [];
  const quiet: { path: string; f: Finding }[] = [];
  for (const r of files)
    for (const f of r.findings)
      (isQuietExisting(f, { existing }) ? quiet : counted).push({ path: r.path, f });
  return { counted, quiet };
}

/** Base findings the pull request fixed (absent from head), over every descriptor compared. */
const fixedBy = (files: readonly FileFindings[]) => files.reduce((n, r) => n + (r.fixed ?? 0), 0);

/** How many changed descriptors were not reviewed (a group naming none counts as one: "some"). */
const unreviewedCount = (notReviewed: readonly NotReviewed[]) =>
  notReviewed.reduce((n, x) => n + Math.max(1, x.paths.length), 0);

export function checkTitle(
  files: readonly FileFindings[],
  existing: ExistingMode = "report",
  notReviewed: readonly NotReviewed[] = [],
): string {
  if (notReviewed.length) {
    const n = unreviewedCount(notReviewed);
    const rest = files.length ? ` · ${checkTitle(files, existing)}` : "";
    return `${plural(n, "changed descriptor")} not reviewed${rest}`;
  }
  if (files.length === 0) return "No descriptors changed";
  const { counted, quiet } = splitExisting(files, existing);
  const c = counts(counted.map((x) => x.f));
  if (quiet.length > 0) {
    // Said plainly: what the pull request adds, then what it inherited and is not counted.
    const fresh = (["error", "warning", "notice"] as const)
      .filter((s) => c[s] > 0)
      .map((s) => plural(c[s], `new ${s}`));
    return `${fresh.length ? fresh.join(", ") : "No new findings"} · ${plural(quiet.length, "existing finding")} not counted`;
  }
  const parts = [plural(c.error, "error"), plural(c.warning, "warning"), plural(c.notice, "notice")];
  return `${parts.join(", ")} in ${plural(files.length, "descriptor")}`;
}

/**
 * The check run summary: readable in five seconds, and never over GitHub's limit whatever the findings.
 * The verdict, the notes and the per-descriptor table come first; the findings table takes what room is
 * left, and a line counts the findings it could not show.
 */
export function checkSummary(input: SummaryInput): string {
  const { files, failed } = input;
  const out = new BudgetedText(OUTPUT_LIMIT, outputSize);
  const tail = [
    "",
    `<sub>Configure rules, severities, ignored paths and the failing level in \`${CONFIG_PATH}\` ` +
      `(organisation defaults in \`<org>/.github\`); every rule is explained in [the rule docs](${DOCS_BASE}).</sub>`,
  ];
  const reserve = outputSize(tail.join("\n")) + 1;
  const { counted, quiet } = splitExisting(files, input.existing ?? "report");
  const compared = files.some((r) => r.fixed !== undefined);
  const notReviewed = input.notReviewed ?? [];
  if (notReviewed.length) notReviewedSection(out, notReviewed, reserve);
  if (files.length === 0) {
    if (!notReviewed.length)
      out.add("No descriptors changed in this pull request, so there is nothing to review.");
  } else {
    const c = counts(counted.map((x) => x.f));
    const what = quiet.length ? "new findings" : "findings";
    // With descriptors not reviewed, the verdict is said above; here only what the reviewed ones hold.
    if (!notReviewed.length)
      out.add(
        failed
          ? `**Failing**: ${what} reach the failing level (\`fail_on: ${input.failOn}\`).`
          : counted.length
            ? `**Passing**: no ${what.replace(/s$/, "")} reaches the failing level (\`fail_on: ${input.failOn}\`).`
            : quiet.length
              ? "**Passing**: no new findings."
              : "**Passing**: no findings.",
        "",
      );
    out.add(
      `${notReviewed.length ? `In the ${plural(files.length, "descriptor")} reviewed: ` : ""}${ICON.error} ${c.error} errors · ${ICON.warning} ${c.warning} warnings · ${ICON.notice} ${c.notice} notices${quiet.length ? " (new)" : ""}`,
    );
    if (compared) out.add("", baselineLine(quiet.length, fixedBy(files)));
  }
  // Notes quote paths and configuration values: rendered inert (they are plain text that quotes code).
  for (const n of input.notes) out.add("", `> ${quotedText(n, { max: 2000 })}`);
  if (input.annotationsOmitted)
    out.add(
      "",
      `> ${notAnnotated(input.annotationsOmitted, "finding")}: ${ANNOTATION_CAP} (errors come first).`,
    );
  if (files.length > 0) {
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
      files.map((r) => {
        const c = counts(countedIn.get(r.path) ?? []);
        const row = `| ${codeSpan(r.path, { cell: true })} | ${c.error} | ${c.warning} | ${c.notice} |`;
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
      out.addItems(top, reserve + (quiet.length ? 300 : 0), leftOut, findingRow);
    }
    if (quiet.length) existingSection(out, quiet, reserve, leftOut);
  }
  out.add(...tail);
  return out.toString();
}

/**
 * Why the check fails whatever the findings: the changed descriptors not reviewed, each group with its
 * reason, its paths as far as they fit (the rest counted). The findings of what was reviewed follow.
 */
function notReviewedSection(out: BudgetedText, notReviewed: readonly NotReviewed[], reserve: number): void {
  const n = unreviewedCount(notReviewed);
  out.add(
    `**Failing**: ${plural(n, "changed descriptor")} ${n === 1 ? "was" : "were"} not reviewed, and a commit that was not reviewed whole cannot pass (whatever \`fail_on\` says).`,
  );
  for (const group of notReviewed) {
    out.add("", group.paths.length ? `${group.why}:` : `${group.why}.`);
    if (!group.paths.length) continue;
    out.addItems(
      group.paths.map((p) => `- ${codeSpan(p)}`),
      reserve + 1000,
      (k) => `- _…and ${plural(k, "more descriptor")}_`,
    );
  }
  out.add("");
}

/**
 * The summary of a run that fails on an invalid configuration: its errors as far as they fit (in a code
 * block: they quote the files), then what to do.
 */
export function invalidConfigSummary(error: string): string {
  const head = "The configuration is invalid, so the pull request was not reviewed:";
  const tail = `Fix \`${CONFIG_PATH}\` on the default branch (or the organisation's \`.github\` repository); plugin-review never falls back to defaults silently.`;
  const room = OUTPUT_LIMIT - outputSize(head) - outputSize(tail) - 4;
  // As many whole lines as fit, the rest counted inside the block.
  const lines = error.split("\n");
  const block = (n: number) =>
    codeBlock(
      [
        ...lines.slice(0, n),
        ...(n < lines.length ? [`…and ${plural(lines.length - n, "more line")}`] : []),
      ].join("\n"),
    );
  let [lo, hi] = [0, lines.length];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (outputSize(block(mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  return [head, "", block(lo), "", tail].join("\n");
}

const FINDINGS_HEADER = ["| | Where | Rule | Message |", "|---|---|---|---|"];
const bySeverity = (a: { path: string; f: Finding }, b: { path: string; f: Finding }) =>
  RANK[a.f.severity] - RANK[b.f.severity] || a.path.localeCompare(b.path) || a.f.line - b.f.line;
const findingRow = ({ path, f }: { path: string; f: Finding }) =>
  `| ${ICON[f.severity]} | ${codeSpan(`${path}:${f.line}`, { cell: true })} | [\`${f.ruleId}\`](${ruleDocsUrl(f.ruleId)}) | ${findingMessage(f, { max: 300, cell: true })} |`;

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
  out.addItems(quiet.sort(bySeverity), reserve + 20, leftOut, findingRow);
  out.add("", "</details>");
}

/**
 * How a merge group's review is tried again: a Re-run of its run names no pull request, so it reviews nothing
 * (delivery/review-jobs.ts checkStubs); the queue asks again for a new merge group.
 */
export const MERGE_QUEUE_RETRY =
  "Add the pull request to the merge queue again to retry it (a Re-run of this check reviews nothing).";

/** The last words of a review that died or was given up: how to try it once more (a merge group's, queued again). */
export function tryOnceMore(mergeGroup: boolean): string {
  return mergeGroup ? MERGE_QUEUE_RETRY : "Re-run the check to try once more.";
}
