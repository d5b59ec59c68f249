import type { FileReview } from "../core/review.js";
import type { Severity } from "../core/types.js";

export interface Counts {
  error: number;
  warning: number;
  notice: number;
}

export function countBySeverity(reviews: readonly FileReview[]): Counts {
  const c: Counts = { error: 0, warning: 0, notice: 0 };
  for (const r of reviews) for (const f of r.findings) c[f.severity]++;
  return c;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function describeCounts(c: Counts): string {
  const parts = (["error", "warning", "notice"] as Severity[])
    .filter((s) => c[s] > 0)
    .map((s) => plural(c[s], s));
  return parts.length ? parts.join(", ") : "no findings";
}
