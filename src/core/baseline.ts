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
import { anchorOf, identityKey, identityOf, labelCache, type Identifiable } from "./identity.js";

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
 * hash, so that nothing but the same identity matches. Head's identities computed when its findings were
 * located (identify) are not computed again; a base finding whose rule has no head finding left to match is
 * absent without being identified; and the findings of the base's `shared` rules (head's very finding
 * objects: rules not run again on the base) match one to one without being identified (sameFindings).
 */
export function classify(
  file: string,
  head: { value: unknown; findings: readonly Identifiable[] },
  base: { value: unknown; findings: readonly Identifiable[]; shared?: ReadonlySet<string> },
): Classified {
  const states: BaselineState[] = head.findings.map(() => "new");
  const used = new Array<boolean>(base.findings.length).fill(false);
  const same = base.shared?.size ? sameFindings(head, base, base.shared) : undefined;
  if (same) {
    head.findings.forEach((f, i) => same.has(f.ruleId) && (states[i] = "existing"));
    base.findings.forEach((f, i) => same.has(f.ruleId) && (used[i] = true));
  }
  // The labels of both versions' arrays, computed once for all the findings matched here.
  const labelled = labelCache();
  for (const loose of [false, true]) {
    // The rules of the head findings left to match: a base finding of another rule matches none (an identity
    // starts with its rule's id), so it is absent without being identified.
    const wanted = new Set<string>();
    head.findings.forEach((f, i) => states[i] === "new" && wanted.add(f.ruleId));
    // Nothing left to match (every head finding existing, or none): the base's identities are not needed.
    if (!wanted.size) break;
    const byId = new Map<string, number[]>();
    base.findings.forEach((f, i) => {
      if (used[i] || !wanted.has(f.ruleId)) return;
      const key = loose
        ? identityKey(base.value, file, f, { doc: head.value })
        : identityKey(base.value, file, f, undefined, labelled);
      const list = byId.get(key);
      if (list) list.push(i);
      else byId.set(key, [i]);
    });
    if (byId.size === 0) break;
    head.findings.forEach((f, i) => {
      if (states[i] === "existing") return;
      const id = loose
        ? identityKey(head.value, file, f, { doc: base.value })
        : identityOf(head.value, file, f, labelled);
      const match = byId.get(id)?.shift();
      if (match === undefined) return;
      used[match] = true;
      states[i] = "existing";
    });
  }
  return { states, absent: used.filter((u) => !u).length };
}

/**
 * The rules of `shared` (rules whose base findings are head's own finding objects: not run again on the base)
 * whose findings match one to one without being identified: as many in head as in the base (none left out of
 * either), each placed where head and base have the very same top-level member (anchorOf), so that each has
 * the same identity in both versions. Every head finding of these is existing, and every base finding used.
 */
function sameFindings(
  head: { value: unknown; findings: readonly Identifiable[] },
  base: { value: unknown; findings: readonly Identifiable[] },
  shared: ReadonlySet<string>,
): Set<string> {
  const count = new Map<string, number>();
  const differ = new Set<string>();
  for (const f of head.findings) {
    if (!shared.has(f.ruleId)) continue;
    count.set(f.ruleId, (count.get(f.ruleId) ?? 0) + 1);
    if (!Object.is(anchorOf(head.value, f), anchorOf(base.value, f))) differ.add(f.ruleId);
  }
  for (const f of base.findings)
    if (shared.has(f.ruleId)) count.set(f.ruleId, (count.get(f.ruleId) ?? 0) - 1);
  const same = new Set<string>();
  for (const [rule, n] of count) if (n === 0 && !differ.has(rule)) same.add(rule);
  return same;
}
