/**
 * A finding's identity (the one definition; interfaces.md "A finding's identity"): the rule id, the file,
 * the place named by content rather than by array index, the message id and the message's data other than
 * positions. Inserting, deleting or reordering other elements never changes it; changing the offending
 * value does (rules put it in their data, or it is in the place's name). It is computed here, once per
 * finding (the runner stores it as `fingerprint`), and everything that matches findings reads it:
 * new/existing matching (baseline.ts), review-comment fingerprints ("already said", "fixed"), the grouping
 * of repeated findings (`problemKey`), SARIF `partialFingerprints` and the JSON `fingerprint`.
 *
 * The file is the head path: a base version is identified under head's path, so that the findings of a
 * renamed file match their own base findings.
 *
 * Pure: documents and findings in, strings out.
 */
import { createHash } from "node:crypto";
import { get, isObj } from "./guards.js";
import { escapeSegment, splitPointer } from "./json/pointer.js";
import type { RuleMeta } from "./rule.js";
import { RULES_BY_ID } from "./rules/index.js";
import type { Finding, Location, MessageData, RawFinding } from "./types.js";

/** What identity reads of a finding (located or not). */
export type Identifiable = Pick<RawFinding, "ruleId" | "pointer" | "messageId" | "data">;

const INDEX = /^(0|[1-9]\d*)$/;

function json(v: unknown): string {
  return JSON.stringify(v) ?? "undefined";
}

/** What tells apart series (and key metrics) of one metric: how they aggregate and split it. */
const SERIES_OF_METRIC = ["aggregation", "mergeaggregation", "dimensions"] as const;

/**
 * An element's identity among its siblings, from its own content only (never its neighbours'): a metric by
 * its key, an alert by its `alert_id`, a property by its key, a series or key metric by its key with its
 * aggregation and dimensions (a chart often shows one metric several ways), a chart by its group and title
 * (`loose`: by its series), a plain value by itself. An element with no name is named by its members other
 * than lists, so that adding an alert to an unnamed metric does not rename it.
 */
function label(el: unknown, loose: boolean): string {
  if (!isObj(el)) return Array.isArray(el) ? `[${json(el)}]` : `=${json(el)}`;
  const alertId = get(el, "alert_id");
  if (alertId !== undefined) return `alert_id=${json(alertId)}`;
  const key = get(el, "key");
  if (key !== undefined) {
    let out = `key=${json(key)}`;
    for (const m of SERIES_OF_METRIC) {
      const v = get(el, m);
      if (v !== undefined) out += `,${m}=${json(v)}`;
    }
    return out;
  }
  const metric = get(get(el, "timeseries"), "key") ?? get(get(el, "statetimeseries"), "key");
  if (metric !== undefined) return `metric=${json(metric)}`;
  if (get(el, "group") !== undefined || get(el, "title") !== undefined) {
    const series = get(el, "series");
    // A renamed chart (new title, same series) is still the same chart: the baseline's second pass uses this.
    if (loose && Array.isArray(series)) return `chart-series=${json(series.map((s) => get(s, "key")))}`;
    return `chart=${json([get(el, "group"), get(el, "title")])}`;
  }
  return `{${json(Object.fromEntries(Object.entries(el).filter(([, v]) => !Array.isArray(v))))}}`;
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

/**
 * The place a pointer names, by content: every array index becomes the element's label (above). Elements
 * that share a label (duplicate keys, themselves an error) are told apart by their order among themselves:
 * the n-th gets `#n`.
 */
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

/** The data keys a rule declares positional (`meta.positionalData`) and quoting names (`meta.nameData`). */
interface DataKinds {
  positional: ReadonlySet<string>;
  names: ReadonlySet<string>;
}
const NONE: DataKinds = { positional: new Set(), names: new Set() };
const kindsByRule = new Map<string, DataKinds>();

function kindsOf(ruleId: string): DataKinds {
  let k = kindsByRule.get(ruleId);
  if (!k) {
    const meta: RuleMeta | undefined = RULES_BY_ID.get(ruleId)?.meta;
    k = meta ? { positional: new Set(meta.positionalData ?? []), names: new Set(meta.nameData ?? []) } : NONE;
    kindsByRule.set(ruleId, k);
  }
  return k;
}

/** The data without the keys left out, in a stable order. */
function dataPart(data: MessageData | undefined, leftOut: (key: string) => boolean): string {
  if (!data) return "";
  const keys = Object.keys(data)
    .filter((k) => !leftOut(k))
    .sort();
  return json(keys.map((k) => [k, data[k]]));
}

/** What the finding says, positions aside: its message id and its non-positional data. */
function said(f: Identifiable): string {
  const { positional } = kindsOf(f.ruleId);
  return `${f.messageId}\u0000${dataPart(f.data, (k) => positional.has(k))}`;
}

function hash(s: string): string {
  return createHash("sha256").update(s).digest("hex").slice(0, 16);
}

/** The identity as a string (for matching within one process; `fingerprint` is its short, stable form). */
export function identityKey(doc: unknown, file: string, f: Identifiable, loose = false): string {
  return `${f.ruleId}\u0000${file}\u0000${identityPath(doc, f.pointer, loose)}\u0000${said(f)}`;
}

/** The finding's fingerprint: 16 hex digits of its identity (what comments, SARIF and JSON carry). */
export function fingerprint(doc: unknown, file: string, f: Identifiable): string {
  return hash(identityKey(doc, file, f));
}

/** Located findings of one document with their fingerprints (the runner's last step). */
export function identify(doc: unknown, file: string, located: readonly (RawFinding & Location)[]): Finding[] {
  return located.map((f) => ({ ...f, fingerprint: fingerprint(doc, file, f) }));
}

/**
 * Which problem a finding is, for grouping repeated findings in a file (interfaces.md "Repeated findings":
 * the same message once positions, indices and quoted names are set aside): the rule id, the message id
 * and the data other than positions and the names it quotes (`meta.nameData`). Four metrics whose
 * displayname equals their own key are one problem.
 */
export function problemKey(f: Identifiable): string {
  const { positional, names } = kindsOf(f.ruleId);
  return `${f.ruleId}\u0000${f.messageId}\u0000${dataPart(f.data, (k) => positional.has(k) || names.has(k))}`;
}

/** The fingerprint of a repeated problem in a file (one review entry for all its findings). */
export function problemFingerprint(file: string, problem: string): string {
  return hash(`repeated\u0000${file}\u0000${problem}`);
}
