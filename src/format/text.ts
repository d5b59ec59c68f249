/**
 * Human output, laid out like ESLint's `stylish`: per file its path, then one row per finding with
 * `line:column`, severity, message and rule id in columns aligned within the file; then the summary.
 * What comes from a file (its path, messages quoting it, notes quoting a configuration) is printed without
 * its control characters (printable.ts): only the colours are ours.
 */
import { fixableFindings } from "../core/fix.js";
import type { FileReview } from "../core/review.js";
import type { Severity } from "../core/types.js";
import { printable } from "./printable.js";
import { countBySeverity, describeBaseline, describeCounts, plural } from "./summary.js";

const COLOURS: Record<Severity | "dim" | "bold" | "ok" | "underline", [number, number]> = {
  error: [31, 39],
  warning: [33, 39],
  notice: [36, 39],
  ok: [32, 39],
  dim: [2, 22],
  bold: [1, 22],
  underline: [4, 24],
};

export interface TextOptions {
  colour: boolean;
  /** Extra lines for the summary (e.g. unchanged files skipped). */
  notes?: string[];
}

type Paint = (kind: keyof typeof COLOURS, s: string) => string;

/** One file's findings as rows whose columns line up; widths count characters, so colour codes stay out. */
function rows(review: FileReview, paint: Paint): string[] {
  // Existing findings (already in the base) are marked, so the eye goes to what the change adds.
  const MARK = "  (existing)";
  const cells = review.findings.map((f) => ({
    where: [String(f.line), String(f.column)] as const,
    severity: f.severity,
    message: printable(f.message),
    mark: f.baseline === "existing" ? MARK : "",
    ruleId: f.ruleId,
  }));
  const widest = (of: (c: (typeof cells)[number]) => string) => Math.max(...cells.map((c) => of(c).length));
  const line = widest((c) => c.where[0]);
  const column = widest((c) => c.where[1]);
  const severity = widest((c) => c.severity);
  const message = widest((c) => c.message + c.mark);
  return cells.map((c) => {
    const where = `${c.where[0].padStart(line)}:${c.where[1].padEnd(column)}`;
    const pad = (s: string, width: number) => " ".repeat(width - s.length);
    return (
      `  ${paint("dim", where)}  ${paint(c.severity, c.severity)}${pad(c.severity, severity)}` +
      `  ${c.message}${c.mark && paint("dim", c.mark)}${pad(c.message + c.mark, message)}  ${paint("dim", c.ruleId)}`
    );
  });
}

export function formatText(
  reviews: readonly FileReview[],
  display: (path: string) => string,
  opts: TextOptions,
): string {
  const paint: Paint = (kind, s) => {
    if (!opts.colour) return s;
    const [a, b] = COLOURS[kind];
    return `\u001b[${a}m${s}\u001b[${b}m`;
  };
  const lines: string[] = [];
  for (const r of reviews) {
    if (r.findings.length === 0) continue;
    lines.push(paint("underline", printable(display(r.path))), ...rows(r, paint), "");
  }
  const counts = countBySeverity(reviews);
  const withFindings = reviews.filter((r) => r.findings.length > 0).length;
  const total = counts.error + counts.warning + counts.notice;
  const checked = plural(reviews.length, "descriptor");
  const summary =
    total === 0
      ? paint("ok", `✔ ${checked} checked: no findings`)
      : paint(
          counts.error ? "error" : counts.warning ? "warning" : "notice",
          `✖ ${plural(total, "finding")} (${describeCounts(counts)}) in ${withFindings} of ${checked}`,
        );
  lines.push(paint("bold", summary));
  const baseline = describeBaseline(reviews);
  if (baseline) lines.push(baseline);
  for (const n of opts.notes ?? []) lines.push(printable(n));
  // Last, as ESLint does: what `--fix` would do about what is left.
  if (total > 0) {
    const fixable = fixableFindings(reviews).size;
    lines.push(
      fixable
        ? `${plural(fixable, "finding")} can be fixed with \`--fix\``
        : "no finding can be fixed with `--fix`",
    );
  }
  return lines.join("\n") + "\n";
}
