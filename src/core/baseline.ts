/**
 * New and existing findings (rules.md "New and existing findings"): a head finding is **existing** when the
 * base version of the descriptor has the same finding, **new** otherwise; a base finding that head no longer
 * has is **absent** (fixed by the change). "The same finding" is the same identity (identity.ts): rule, file,
 * place named by content, message id and non-positional data. A second pass matches what is left with
 * renamed charts (a group and title the other version does not have) named by their series, so that renaming
 * a chart does not turn its findings new, while a new chart beside one that kept its name stays new.
 *
 * Pure: documents and findings in, states out. The runner decides which findings take part (change rules
 * never do: they only ever produce new findings).
 */
import { fingerprint, type Identifiable } from "./identity.js";

export type BaselineState = "new" | "existing";

export interface Classified {
  /** One state per head finding, in order. */
  states: BaselineState[];
  /** Base findings that head no longer has: fixed by the change. */
  absent: number;
}

/**
 * Matches head findings against base findings (each base finding matches at most one head finding), both
 * identified under head's path `file`. Head findings carry their fingerprints already.
 */
export function classify(
  file: string,
  head: { value: unknown; findings: readonly (Identifiable & { fingerprint: string })[] },
  base: { value: unknown; findings: readonly Identifiable[] },
): Classified {
  const states: BaselineState[] = head.findings.map(() => "new");
  const used = new Array<boolean>(base.findings.length).fill(false);
  for (const loose of [false, true]) {
    // Nothing left to match (every head finding existing, or none): the base's identities are not needed.
    if (!states.includes("new")) break;
    const byId = new Map<string, number[]>();
    base.findings.forEach((f, i) => {
      if (used[i]) return;
      const key = fingerprint(base.value, file, f, loose ? { doc: head.value } : undefined);
      const list = byId.get(key);
      if (list) list.push(i);
      else byId.set(key, [i]);
    });
    if (byId.size === 0) break;
    head.findings.forEach((f, i) => {
      if (states[i] === "existing") return;
      const id = loose ? fingerprint(head.value, file, f, { doc: base.value }) : f.fingerprint;
      const match = byId.get(id)?.shift();
      if (match === undefined) return;
      used[match] = true;
      states[i] = "existing";
    });
  }
  return { states, absent: used.filter((u) => !u).length };
}
