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
import { identityKey, identityOf, type Identifiable } from "./identity.js";

export type BaselineState = "new" | "existing";

export interface Classified {
  /** One state per head finding, in order. */
  states: BaselineState[];
  /** Base findings that head no longer has: fixed by the change. */
  absent: number;
}

/**
 * Matches head findings against base findings (each base finding matches at most one head finding), both
 * identified under head's path `file`, by their identities as strings (identity.ts identityKey): never by a
 * hash, so that nothing but the same identity matches. Identities already computed for the same finding
 * objects (head's, when identified; a base finding that is head's very object) are not computed again.
 */
export function classify(
  file: string,
  head: { value: unknown; findings: readonly Identifiable[] },
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
      const key = loose
        ? identityKey(base.value, file, f, { doc: head.value })
        : identityOf(base.value, file, f);
      const list = byId.get(key);
      if (list) list.push(i);
      else byId.set(key, [i]);
    });
    if (byId.size === 0) break;
    head.findings.forEach((f, i) => {
      if (states[i] === "existing") return;
      const id = loose
        ? identityKey(head.value, file, f, { doc: base.value })
        : identityOf(head.value, file, f);
      const match = byId.get(id)?.shift();
      if (match === undefined) return;
      used[match] = true;
      states[i] = "existing";
    });
  }
  return { states, absent: used.filter((u) => !u).length };
}
