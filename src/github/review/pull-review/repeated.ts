/**
 * Repeated findings (interfaces.md): when one rule reports the same problem more than three times in a file,
 * the review shows it once, listing the lines. "The same problem" is the finding's identity without its place
 * and the names it quotes (`problemKey` in src/core/identity.ts): four metrics whose displayname equals their
 * own key are one problem. Annotations stay one per finding. Pure.
 */
import { problemFingerprint, problemKey } from "../../../core/identity.js";
import type { Finding } from "../../../core/types.js";

/** More than this many of one problem in a file become one review entry. */
export const REPEAT_THRESHOLD = 3;

export type ReviewEntry =
  | { kind: "one"; finding: Finding }
  | { kind: "repeated"; problem: string; fingerprint: string; findings: Finding[] };

/** A file's findings as review entries, in order: each repeated problem once, at its first finding. */
export function reviewEntries(path: string, findings: readonly Finding[]): ReviewEntry[] {
  const problems = findings.map(problemKey);
  const byProblem = new Map<string, Finding[]>();
  findings.forEach((f, i) => {
    const p = problems[i] as string;
    const list = byProblem.get(p);
    if (list) list.push(f);
    else byProblem.set(p, [f]);
  });
  const out: ReviewEntry[] = [];
  const done = new Set<string>();
  findings.forEach((f, i) => {
    const problem = problems[i] as string;
    const all = byProblem.get(problem) as Finding[];
    if (all.length <= REPEAT_THRESHOLD) out.push({ kind: "one", finding: f });
    else if (!done.has(problem)) {
      done.add(problem);
      out.push({ kind: "repeated", problem, fingerprint: problemFingerprint(path, problem), findings: all });
    }
  });
  return out;
}
