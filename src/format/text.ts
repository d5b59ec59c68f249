/** Human output: `file:line:col  severity  rule-id  message`, then one summary line. */
import { fixableFindings } from "../core/fix.js";
import type { FileReview } from "../core/review.js";
import type { Severity } from "../core/types.js";
import { countBySeverity, describeBaseline, describeCounts, plural } from "./summary.js";

const COLOURS: Record<Severity | "dim" | "bold" | "ok", [number, number]> = {
  error: [31, 39],
  warning: [33, 39],
  notice: [36, 39],
  ok: [32, 39],
  dim: [2, 22],
  bold: [1, 22],
};

export interface TextOptions {
  colour: boolean;
  /** Extra lines for the summary (e.g. unchanged files skipped). */
  notes?: string[];
}

export function formatText(
  reviews: readonly FileReview[],
  display: (path: string) => string,
  opts: TextOptions,
): string {
  const paint = (kind: keyof typeof COLOURS, s: string) => {
    if (!opts.colour) return s;
    const [a, b] = COLOURS[kind];
    return `\u001b[${a}m${s}\u001b[${b}m`;
  };
  const lines: string[] = [];
  for (const r of reviews) {
    for (const f of r.findings) {
      const where = `${display(r.path)}:${f.line}:${f.column}`;
      // Existing findings (already in the base) are marked, so the eye goes to what the change adds.
      const mark = f.baseline === "existing" ? `  ${paint("dim", "(existing)")}` : "";
      lines.push(
        `${where}  ${paint(f.severity, f.severity.padEnd(7))}  ${paint("dim", f.ruleId)}  ${f.message}${mark}`,
      );
    }
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
  if (lines.length) lines.push("");
  lines.push(paint("bold", summary));
  const baseline = describeBaseline(reviews);
  if (baseline) lines.push(baseline);
  for (const n of opts.notes ?? []) lines.push(n);
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
