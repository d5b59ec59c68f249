/**
 * Repeated findings (interfaces.md): when one rule reports the same problem more than three times in a file,
 * the review shows it once, listing the lines. "The same problem" is the same message once positions,
 * indices and quoted names are set aside (`displayName` in `ui.charts[3].series[0]` and in
 * `ui.charts[7].series[1]` are one problem). Annotations stay one per finding. Pure.
 */
import type { Finding } from "../core/types.js";

/** More than this many of one problem in a file become one review entry. */
export const REPEAT_THRESHOLD = 3;

/** The message with positions, indices, numbers and quoted names set aside. */
export function problemOf(f: Finding): string {
  const shape = f.message
    .replace(/`[^`]*`/g, "`…`")
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\d+/g, "#");
  return `${f.ruleId}\u0000${shape}`;
}

export type ReviewEntry =
  { kind: "one"; finding: Finding } | { kind: "repeated"; problem: string; findings: Finding[] };

/** A file's findings as review entries, in order: each repeated problem once, at its first finding. */
export function reviewEntries(findings: readonly Finding[]): ReviewEntry[] {
  const byProblem = new Map<string, Finding[]>();
  for (const f of findings) {
    const p = problemOf(f);
    const list = byProblem.get(p);
    if (list) list.push(f);
    else byProblem.set(p, [f]);
  }
  const out: ReviewEntry[] = [];
  const done = new Set<string>();
  for (const f of findings) {
    const problem = problemOf(f);
    const all = byProblem.get(problem) as Finding[];
    if (all.length <= REPEAT_THRESHOLD) out.push({ kind: "one", finding: f });
    else if (!done.has(problem)) {
      done.add(problem);
      out.push({ kind: "repeated", problem, findings: all });
    }
  }
  return out;
}
