/**
 * New and existing findings (rules.md "New and existing findings"): a head finding is **existing** when the
 * base version of the descriptor has the same finding, **new** otherwise; a base finding that head no longer
 * has is **absent** (fixed by the change).
 *
 * "The same finding" is the same rule, about the same place, saying the same thing. The place is named by
 * content, not by array index, so that inserting, removing or reordering other elements changes nothing:
 * each array index of the pointer becomes the element's identity (a metric by its key, an alert by its
 * `alert_id`, a property, series or key metric by its key, a chart by its group and title, a plain value by
 * itself). What the finding says is its message with the positional parts set aside (indices, line
 * numbers, "did you mean" hints that depend on neighbours); the offending value stays in it, so changing
 * that value makes the finding new.
 *
 * Pure: documents and pointer-based findings in, states out. The runner decides which findings take part
 * (change rules never do: they only ever produce new findings).
 */
import { escapeSegment, splitPointer } from "./json/pointer.js";
import { get, isObj } from "./guards.js";

export type BaselineState = "new" | "existing";

/** What matching reads of a finding (located or not). */
export interface Matchable {
  ruleId: string;
  pointer: string;
  message: string;
}

const INDEX = /^(0|[1-9]\d*)$/;

function json(v: unknown): string {
  return JSON.stringify(v) ?? "undefined";
}

/** An element's identity among its siblings; `loose` names a chart by its series instead of its title. */
function label(el: unknown, loose: boolean): string {
  if (!isObj(el)) return Array.isArray(el) ? `[${json(el)}]` : `=${json(el)}`;
  const alertId = get(el, "alert_id");
  if (alertId !== undefined) return `alert_id=${json(alertId)}`;
  const key = get(el, "key");
  if (key !== undefined) return `key=${json(key)}`;
  const metric = get(get(el, "timeseries"), "key") ?? get(get(el, "statetimeseries"), "key");
  if (metric !== undefined) return `metric=${json(metric)}`;
  if (get(el, "group") !== undefined || get(el, "title") !== undefined) {
    const series = get(el, "series");
    // A renamed chart (new title, same series) is still the same chart: the second matching pass uses this.
    if (loose && Array.isArray(series)) return `chart-series=${json(series.map((s) => get(s, "key")))}`;
    return `chart=${json([get(el, "group"), get(el, "title")])}`;
  }
  return `{${json(el)}}`;
}

const cache = [new WeakMap<unknown[], string[]>(), new WeakMap<unknown[], string[]>()] as const;

/** Labels of every element of an array (computed once per array); the n-th repeat of a label gets `#n`. */
function labels(array: unknown[], loose: boolean): string[] {
  const memo = cache[loose ? 1 : 0];
  let out = memo.get(array);
  if (out) return out;
  const seen = new Map<string, number>();
  out = array.map((el) => {
    const l = label(el, loose);
    const n = (seen.get(l) ?? 0) + 1;
    seen.set(l, n);
    return n === 1 ? l : `${l}#${n}`;
  });
  memo.set(array, out);
  return out;
}

/** The pointer with every array index replaced by the element's identity. */
export function identityPath(doc: unknown, pointer: string, loose = false): string {
  let node: unknown = doc;
  let out = "";
  for (const seg of splitPointer(pointer)) {
    if (Array.isArray(node) && INDEX.test(seg) && Number(seg) < node.length) {
      const i = Number(seg);
      out += `/[${labels(node, loose)[i] as string}]`;
      node = node[i];
    } else {
      out += `/${escapeSegment(seg)}`;
      node = get(node, seg);
    }
  }
  return out;
}

/** The message without what moves when unrelated elements move: indices, line numbers, neighbour-based hints. */
export function stableMessage(message: string): string {
  return message
    .replace(/\[\d+\]/g, "[]")
    .replace(/\b(index|line) \d+/g, "$1 #")
    .replace(/[:.;]? ?[Dd]id you mean `[^`]*`\??/g, "");
}

function identity(doc: unknown, f: Matchable, loose: boolean): string {
  return `${f.ruleId}\u0000${identityPath(doc, f.pointer, loose)}\u0000${stableMessage(f.message)}`;
}

export interface Classified {
  /** One state per head finding, in order. */
  states: BaselineState[];
  /** Base findings that head no longer has: fixed by the change. */
  absent: number;
}

/**
 * Matches head findings against base findings (each base finding matches at most one head finding).
 * A first pass matches exact identities; a second pass matches what is left with charts named by their
 * series, so that renaming a chart does not turn its findings new.
 */
export function classify(
  head: { value: unknown; findings: readonly Matchable[] },
  base: { value: unknown; findings: readonly Matchable[] },
): Classified {
  const states: BaselineState[] = head.findings.map(() => "new");
  const used = new Array<boolean>(base.findings.length).fill(false);
  for (const loose of [false, true]) {
    // Nothing left to match (every head finding existing, or none): the base's identities are not needed.
    if (!states.includes("new")) break;
    const byId = new Map<string, number[]>();
    base.findings.forEach((f, i) => {
      if (used[i]) return;
      const id = identity(base.value, f, loose);
      const list = byId.get(id);
      if (list) list.push(i);
      else byId.set(id, [i]);
    });
    if (byId.size === 0) break;
    head.findings.forEach((f, i) => {
      if (states[i] === "existing") return;
      const match = byId.get(identity(head.value, f, loose))?.shift();
      if (match === undefined) return;
      used[match] = true;
      states[i] = "existing";
    });
  }
  return { states, absent: used.filter((u) => !u).length };
}
