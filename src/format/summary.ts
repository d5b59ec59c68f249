import type { AnalysedFile } from "../core/analyse.js";
import type { Finding, Severity } from "../core/types.js";

export interface Counts {
  error: number;
  warning: number;
  notice: number;
}

export function countFindings(findings: readonly Finding[]): Counts {
  const c: Counts = { error: 0, warning: 0, notice: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
}

export function countBySeverity(files: readonly AnalysedFile[]): Counts {
  return countFindings(files.flatMap((r) => r.findings));
}

/** "2 new, 14 existing" (and what the change fixed), when a base was compared; undefined otherwise. */
export function describeBaseline(files: readonly AnalysedFile[]): string | undefined {
  if (!files.some((r) => r.fixed !== undefined)) return undefined;
  const all = files.flatMap((r) => r.findings);
  const fresh = all.filter((f) => f.baseline === "new").length;
  const existing = all.filter((f) => f.baseline === "existing").length;
  const fixed = files.reduce((n, r) => n + (r.fixed ?? 0), 0);
  return `${fresh} new, ${existing} existing${fixed ? `, ${fixed} fixed` : ""}`;
}

/** "1 fix", "3 fixes": the count and the word, in the plural when it is not one (`many`: when not `<word>s`). */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

export function describeCounts(c: Counts): string {
  const parts = (["error", "warning", "notice"] as Severity[])
    .filter((s) => c[s] > 0)
    .map((s) => plural(c[s], s));
  return parts.length ? parts.join(", ") : "no findings";
}
