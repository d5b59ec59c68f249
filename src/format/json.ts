/** `--format json`: the contract's finding objects, exactly these members, in this order. */
import type { FileReview } from "../core/review.js";

export interface JsonFinding {
  file: string;
  ruleId: string;
  severity: string;
  message: string;
  pointer: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** Only when a base was compared (rules.md "New and existing findings"). */
  baseline?: "new" | "existing";
}

export function toJsonFindings(
  reviews: readonly FileReview[],
  display: (path: string) => string,
): JsonFinding[] {
  return reviews.flatMap((r) =>
    r.findings.map((f) => ({
      file: display(r.path),
      ruleId: f.ruleId,
      severity: f.severity,
      message: f.message,
      pointer: f.pointer,
      line: f.line,
      column: f.column,
      endLine: f.endLine,
      endColumn: f.endColumn,
      ...(f.baseline ? { baseline: f.baseline } : {}),
    })),
  );
}

export function formatJson(reviews: readonly FileReview[], display: (path: string) => string): string {
  return JSON.stringify(toJsonFindings(reviews, display), null, 2) + "\n";
}
