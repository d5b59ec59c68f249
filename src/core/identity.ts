/**
 * A finding's identity (the one definition; interfaces.md "A finding's identity"): the rule id, the file,
 * the place named by content rather than by array index, the message id and the message's data other than
 * positions. Inserting, deleting or reordering other elements never changes it; changing the offending
 * value does (rules put it in their data, or it is in the place's name). It is computed here, once per
 * finding (the runner stores its SHA-256 as `fingerprint`), and everything that matches findings reads it:
 * new/existing matching (baseline.ts), review-comment fingerprints ("already said", "fixed"), the grouping
 * of repeated findings (`problemKey`), SARIF `partialFingerprints` and the JSON `fingerprint`.
 *
 * The file is the head path: a base version is identified under head's path, so that the findings of a
 * renamed file match their own base findings.
 *
 * Pure: documents and findings in, strings out (node:crypto's SHA-256 is a computation like any other; the
 * core runs only in Node.js: the CLI, the App, Lambda and the language server).
 */
import { hash } from "node:crypto";
import { get, isObj } from "./guards.js";
import { escapeSegment, isIndex, unescapeSegment } from "./json/pointer.js";
import type { RuleMeta } from "./rule-meta.js";
import { RULES_BY_ID } from "./rules/index.js";
import { timed, type AnalysisTiming } from "./timing.js";
import type { Finding, Location, MessageData, RawFinding } from "./types.js";

/** What identity reads of a finding (located or not). */
export type Identifiable = Pick<RawFinding, "ruleId" | "pointer" | "messageId" | "data">;

function json(v: unknown): string {
  return JSON.stringify(v) ?? "undefined";
}

/**
 * What tells apart series (and key metrics) of one metric: how they aggregate it. Written in any case (the
 * platform reads it so), the default (AVG) written out or left out: one name. Never the dimensions, which
 * the series' own findings are about (adding one would rename them all).
 */
const SERIES_OF_METRIC = ["aggregation", "mergeaggregation"] as const;

function aggregation(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const upper = v.toUpperCase();
  return upper === "AVG" ? undefined : upper;
}

/**
 * An element's identity among its siblings, from its own content only (never its neighbours'): a metric by
 * its key, an alert by its `alert_id`, a property by its key, a series or key metric by its key with its
 * aggregations (a chart often shows one metric several ways: SUM beside MAX), a chart by its group and title
 * (`loose`: by its series), an extension's data source group by its `group`, its subgroup, variable, Python
 * feature set or file by its `subgroup`, `id`, `featureSet` or `path`, a screen, a topology type or rule, a
 * chart or its metric, a topology source by its `entityType`, `name`, `idPattern`, `displayName`,
 * `metricSelector`, `entitySelectorTemplate` or `condition`, a topology relationship by its types, a screen's
 * property or column by what its `type`'s member names, a plain value by itself. An object with no name (its
 * name missing, or none defined: a message card's button, a threshold) is `{}`: `labels` names it by content.
 */
function label(el: unknown, loose: boolean): string {
  if (!isObj(el)) return Array.isArray(el) ? `[${json(el)}]` : `=${json(el)}`;
  const alertId = get(el, "alert_id");
  if (alertId !== undefined) return `alert_id=${json(alertId)}`;
  const key = get(el, "key");
  if (key !== undefined) {
    let out = `key=${json(key)}`;
    for (const m of SERIES_OF_METRIC) {
      const v = aggregation(get(el, m));
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
  // An extension.yaml's elements that a name of their own tells apart: a data source's subgroup, a variable, a
  // Python feature set, a packaged file, a screen, a topology type and its rules, a chart and its metrics.
  for (const name of EXTENSION_NAMES) {
    const v = get(el, name);
    if (typeof v === "string") return `${name}=${json(v)}`;
  }
  // A topology relationship: the types it relates, and how.
  const relation = RELATIONSHIP.map((m) => get(el, m));
  if (relation.every((v) => typeof v === "string")) return `relationship=${json(relation)}`;
  // A screen's property or list column: its `type` and the member of that name (`type: ATTRIBUTE` with
  // `attribute: {key}`, `type: RELATION` with `relation: {entitySelectorTemplate}`), named by what that names.
  const type = get(el, "type");
  if (typeof type === "string") {
    const member = type.toLowerCase();
    const own = get(el, member);
    if (isObj(own)) {
      const name = label(own, false);
      if (name !== UNNAMED) return `${member}.${name}`;
    }
  }
  return UNNAMED;
}

/**
 * The members that name an extension.yaml's elements (after `key`, which names its metrics, dimensions and
 * cards), in this order: a screen and a breadcrumb are for an `entityType`, a topology type (and a process) has
 * a `name`, a topology type's rule makes the entities of its `idPattern`, a chart's metric is its
 * `metricSelector`, a breadcrumb or a relation column leads to its `entitySelectorTemplate`, a chart or an
 * entity filter is shown as its `displayName`, a topology source is what its `condition` selects (without one,
 * its `sourceType`: a relationship's `Entities` source). Without them, a screen or a type added before another
 * renamed the other's findings (new), and a new one carrying an old mistake took its name.
 */
const EXTENSION_NAMES = [
  "subgroup",
  "id",
  "featureSet",
  "path",
  "entityType",
  "name",
  "idPattern",
  "metricSelector",
  "entitySelectorTemplate",
  "displayName",
  "condition",
  "sourceType",
] as const;

/** What names a topology relationship (it has no name of its own). */
const RELATIONSHIP = ["fromType", "typeOfRelation", "toType"] as const;

/** Digests of the objects and arrays contentDigest has seen (a shared subtree, an alias's, is digested once). */
const digests = new WeakMap<object, string>();

/** A scalar as contentDigest writes it: tagged with its kind, so that `1` and `"1"` differ. */
function scalarPiece(v: unknown): string {
  if (typeof v === "string") return piece(STRING, v);
  if (typeof v === "number") return piece(NUMBER, Object.is(v, -0) ? "-0" : String(v));
  return piece(PROBLEM, String(v));
}

/**
 * What an unnamed object (or one whose name a sibling shares) is named by: the SHA-256 of its content, members
 * in sorted order (reordering them keeps it), each value tagged with its kind. Each object's digest is over its
 * members' digests (as a Merkle tree), computed bottom-up with a stack rather than by recursion: a deeply
 * nested element cannot overflow the call stack, and a subtree met again (inside another unnamed element) is
 * not walked again.
 */
function contentDigest(root: object): string {
  // A node's sorted keys and children are read once, when it is opened, and kept in its frame for closing it.
  type Frame = { node: object; keys?: string[]; children?: unknown[] };
  const stack: Frame[] = [{ node: root }];
  const open = new Set<object>();
  while (stack.length) {
    const top = stack[stack.length - 1] as Frame;
    const node = top.node;
    if (!top.children) {
      if (digests.has(node) || open.has(node)) {
        stack.pop();
        continue;
      }
      const keys = Array.isArray(node) ? undefined : Object.keys(node).sort();
      const children: unknown[] = keys ? keys.map((k) => get(node, k)) : (node as unknown[]);
      top.keys = keys;
      top.children = children;
      open.add(node);
      for (const c of children)
        if (typeof c === "object" && c !== null && !digests.has(c) && !open.has(c)) stack.push({ node: c });
      continue;
    }
    stack.pop();
    open.delete(node);
    const { keys, children } = top;
    let text = keys ? piece(MEMBER, String(keys.length)) : piece(ARRAY_ELEMENT, String(children.length));
    children.forEach((c, i) => {
      if (keys) text += piece(DATA_KEY, keys[i] as string);
      // A child still open is an ancestor (a cycle): named as such, never walked again.
      text += typeof c === "object" && c !== null ? piece(RULE, digests.get(c) ?? "cycle") : scalarPiece(c);
    });
    digests.set(node, digest(text));
  }
  return digests.get(root) as string;
}

/** The label `label` gives an object that names it by nothing of its own. */
const UNNAMED = "{}";

/**
 * Where the labels of arrays are kept once computed, by array. The computations that name many places of one
 * document (identify, the baseline's classify) each keep their own (a Map, dropped with them: an entry in a
 * WeakMap cost about a microsecond, as much as the rest of a label); anything else shares one WeakMap.
 */
export interface LabelCache {
  get(array: unknown[]): readonly string[] | undefined;
  set(array: unknown[], labels: readonly string[]): unknown;
}

const sharedLabels = new WeakMap<unknown[], readonly string[]>();

/** A cache of labels for one computation over some documents (kept no longer than it is). */
export function labelCache(): LabelCache {
  return new Map<unknown[], readonly string[]>();
}

/**
 * Labels of every element of an array, from content only, never from an index (interfaces.md "A finding's
 * identity"). An element's own name (`label`) is its label when no sibling shares it. An object with no name,
 * or whose name a sibling shares, is named by its name and its content's digest: otherwise the element first
 * in order took the name, and a new element inserted before an old one (or put in place of an old one whose
 * mistake was fixed) took the old one's findings, passing as existing. Only copies alike in every member share
 * a label, told apart by `#1`, `#2`, … among themselves (they are interchangeable: reordering them changes
 * nothing).
 */
function labels(array: unknown[], cache: LabelCache = sharedLabels): readonly string[] {
  let out = cache.get(array);
  if (out) return out;
  const names = array.map((el) => label(el, false));
  const count = new Map<string, number>();
  // Whether every element has a name of its own that no sibling shares (the common case): then the names are
  // the labels, as below would find them, without its maps.
  let plain = true;
  for (const n of names) {
    const c = count.get(n);
    count.set(n, (c ?? 0) + 1);
    if (c !== undefined || n === UNNAMED) plain = false;
  }
  if (plain) {
    cache.set(array, names);
    return names;
  }
  // A plain value and an array are named by their whole content already.
  const named = names.map((n, i) => {
    const el = array[i];
    return isObj(el) && (n === UNNAMED || (count.get(n) as number) > 1) ? `${n}@${contentDigest(el)}` : n;
  });
  const copies = new Map<string, number>();
  for (const l of named) copies.set(l, (copies.get(l) ?? 0) + 1);
  const seen = new Map<string, number>();
  out = named.map((l, i) => {
    const k = (seen.get(l) ?? 0) + 1;
    seen.set(l, k);
    // Copies alike in every member are numbered from the first (`#1`), so that none of them is named as one
    // element of that content alone is in the other version: which copy is which is for looseLabels to tell.
    if (l !== names[i] && (copies.get(l) as number) > 1) return `${l}#${k}`;
    return k === 1 ? l : `${l}#${k}`;
  });
  cache.set(array, out);
  return out;
}

/** The label of the `i`-th element (`labels`' `i`-th). */
function labelAt(array: unknown[], i: number, cache?: LabelCache): string {
  return labels(array, cache)[i] as string;
}

const indexCache = new WeakMap<unknown[], Map<string, number>>();

/** Where each label of an array is. */
function indexOf(array: unknown[]): Map<string, number> {
  let out = indexCache.get(array);
  if (!out) {
    out = new Map(labels(array).map((l, i) => [l, i] as const));
    indexCache.set(array, out);
  }
  return out;
}

const looseCache = new WeakMap<unknown[], { other: unknown; out: string[]; index: Map<string, number> }>();

/**
 * The baseline's second pass names an array's elements against the other version's array (`other`). An element
 * whose name no sibling shares keeps it when the other side has it. Of the others, a chart whose name (group
 * and title) the other side does not have, a renamed chart, is named by its series, when no other renamed chart
 * has them (numbered by order among the renamed, a new chart put before a renamed old one whose finding was
 * fixed took the old one's series, and its finding passed as existing); an object with no name by its content
 * alone; a named one by its name and content when each version has it exactly once as it is (moved, or a
 * sibling came to share its name), else as the n-th of the elements of its name left on its side. A chart that
 * kept its name is never paired with another by its series.
 */
function looseLabels(array: unknown[], other: unknown): { out: string[]; index: Map<string, number> } {
  const hit = looseCache.get(array);
  if (hit && hit.other === other) return hit;
  const strict = labels(array);
  const names = array.map((el) => (isObj(el) ? label(el, false) : undefined));
  const there = Array.isArray(other) ? indexOf(other) : undefined;
  // Kept: an element whose name no sibling shares, which the other version has. Elements of a shared name are
  // labelled by content (`labels`), and a copy's `#n` depends on the copies beside it: they are matched below.
  const kept = (i: number) => strict[i] === names[i] && there?.has(strict[i] as string) === true;
  const series = array.map((el, i) => {
    if (kept(i) || !isObj(el)) return undefined;
    const name = label(el, true);
    return name === names[i] ? undefined : name;
  });
  const count = new Map<string, number>();
  for (const l of series) if (l !== undefined) count.set(l, (count.get(l) ?? 0) + 1);
  // The named elements left, by name and content, counted here and in the other version.
  const wholes = array.map((el, i) =>
    isObj(el) && !kept(i) && names[i] !== UNNAMED ? `${names[i]}@${contentDigest(el)}` : undefined,
  );
  const here = new Map<string, number>();
  const wanted = new Set<string>();
  wholes.forEach((w, i) => {
    if (w === undefined) return;
    here.set(w, (here.get(w) ?? 0) + 1);
    wanted.add(names[i] as string);
  });
  const theirs = new Map<string, number>();
  if (wanted.size && Array.isArray(other))
    for (const el of other as unknown[]) {
      if (!isObj(el)) continue;
      const name = label(el, false);
      if (!wanted.has(name)) continue;
      const w = `${name}@${contentDigest(el)}`;
      theirs.set(w, (theirs.get(w) ?? 0) + 1);
    }
  const order = new Map<string, number>();
  const out = array.map((el, i) => {
    const own = strict[i] as string;
    if (kept(i) || !isObj(el)) return own;
    const l = series[i];
    if (l !== undefined && count.get(l) === 1) return l;
    const name = names[i] as string;
    // No name of its own: only its content names it (by order, a different element put in its place took
    // its findings).
    if (name === UNNAMED) return own;
    // The very element in both versions (moved, or a sibling came to share its name or ceased to): itself.
    const whole = wholes[i] as string;
    if (here.get(whole) === 1 && theirs.get(whole) === 1) return whole;
    // Edited, new, or one of identical copies: the place is its name (interfaces.md), and of the elements of
    // one name left, the n-th here is the n-th there. Each version's are matched one to one, so a finding in
    // an edited element stays existing, while one more element of that name with the same mistake is one
    // more finding: new.
    const k = (order.get(name) ?? 0) + 1;
    order.set(name, k);
    return `${name}#${k}`;
  });
  const index = new Map(out.map((l, i) => [l, i] as const));
  const made = { other, out, index };
  looseCache.set(array, made);
  return made;
}

/**
 * The place a pointer names, by content: every array index becomes the element's label (above). Elements
 * that share a name (duplicate keys, themselves an error) are told apart by their content; only copies alike
 * in every member by their order among themselves: the n-th gets `#n`.
 */
export function identityPath(doc: unknown, pointer: string): string {
  // The very walk the fingerprint hashes (addPlace), written out instead of hashed.
  let out = "";
  addPlace(
    { add: (s: string, tag: string) => (out += tag === ARRAY_ELEMENT ? `/[${s}]` : `/${escapeSegment(s)}`) },
    doc,
    pointer,
  );
  return out;
}

/**
 * The data keys a rule declares positional (`meta.positionalData`) and quoting names (`meta.nameData`), and
 * whether its data name the place (`meta.placeInData`: then the pointer is left out).
 */
interface DataKinds {
  positional: ReadonlySet<string>;
  names: ReadonlySet<string>;
  placeInData: boolean;
}
const NONE: DataKinds = { positional: new Set(), names: new Set(), placeInData: false };
const kindsByRule = new Map<string, DataKinds>();

function kindsOf(ruleId: string): DataKinds {
  let k = kindsByRule.get(ruleId);
  if (!k) {
    const meta: RuleMeta | undefined = RULES_BY_ID.get(ruleId)?.meta;
    k = meta
      ? {
          positional: new Set(meta.positionalData ?? []),
          names: new Set(meta.nameData ?? []),
          placeInData: meta.placeInData === true,
        }
      : NONE;
    kindsByRule.set(ruleId, k);
  }
  return k;
}

/**
 * A finding's identity written out as one string, piece by piece: each piece is a tag (one character: what
 * the piece is), its length and its text, so that no two sequences of pieces give the same string. Matching
 * compares these strings; a fingerprint is their SHA-256 (below), so that no finding can be made to pass for
 * another (issue 39: the 64-bit hash before it was invertible, and a crafted metric key took a base
 * finding's identity in seconds).
 */
const RULE = "r";
const FILE = "f";
const MESSAGE = "m";
const DATA_KEY = "k";
const NUMBER = "#";
const STRING = "'";
const ARRAY_ELEMENT = "[";
const MEMBER = ".";
const PROBLEM = "p";

const piece = (tag: string, s: string) => tag + s.length + ":" + s;

/**
 * Sorts strings as Array.prototype.sort does without a comparator (by UTF-16 code units, as `<` compares
 * them), by insertion: a message's data has a few keys, and the built-in sort cost more than the rest of
 * writing them out.
 */
function sortStrings(keys: string[]): void {
  if (keys.length > 16) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > k) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = k;
  }
}

/** Message data without the keys left out, by key (so that the order a rule writes them in plays no part). */
function dataPieces(data: MessageData | undefined, leftOut: (key: string) => boolean): string {
  if (!data) return "";
  const keys = Object.keys(data);
  if (keys.length > 1) sortStrings(keys);
  let out = "";
  for (const k of keys) {
    if (leftOut(k)) continue;
    const v = data[k];
    // A number and the string of its digits are different data.
    out +=
      piece(DATA_KEY, k) + (typeof v === "number" ? piece(NUMBER, String(v)) : piece(STRING, v as string));
  }
  return out;
}

/** Hex digits of SHA-256 a fingerprint keeps: 128 bits, beyond any search for a collision. */
export const FINGERPRINT_DIGITS = 32;

/** The fingerprint of an identity string: SHA-256, its first 128 bits in hex. */
export function digest(identity: string): string {
  return hash("sha256", identity, "hex").slice(0, FINGERPRINT_DIGITS);
}

/** What takes a place's segments, each after its tag (an array element's label, or a member's name). */
interface PlaceSink {
  add(s: string, tag: string): unknown;
}

/**
 * The place's segments into the hash: what `identityPath` names, without building its string. With `other`
 * (the baseline's second pass: the other version's document), walked beside it, so that each array is named
 * against the other version's (`looseLabels`).
 */
function addPlace(
  h: PlaceSink,
  doc: unknown,
  pointer: string,
  other?: { doc: unknown },
  cache?: LabelCache,
): void {
  let node: unknown = doc;
  let peer: unknown = other?.doc;
  // The pointer's segments, read in place (as splitPointer reads them, without the array it builds).
  for (let start = 1; start <= pointer.length;) {
    let end = pointer.indexOf("/", start);
    if (end < 0) end = pointer.length;
    const raw = pointer.slice(start, end);
    const seg = raw.includes("~") ? unescapeSegment(raw) : raw;
    start = end + 1;
    if (Array.isArray(node) && isIndex(seg) && Number(seg) < node.length) {
      const i = Number(seg);
      const name = other ? (looseLabels(node, peer).out[i] as string) : labelAt(node, i, cache);
      h.add(name, ARRAY_ELEMENT);
      if (other) {
        // The other version's element of that name, as the second pass names it there (against this array).
        const j = Array.isArray(peer) ? looseLabels(peer, node).index.get(name) : undefined;
        peer = j === undefined ? undefined : (peer as unknown[])[j];
      }
      node = node[i];
    } else {
      h.add(seg, MEMBER);
      node = get(node, seg);
      if (other) peer = get(peer, seg);
    }
  }
}

/** The place's pieces: what `identityPath` names. */
class PlacePieces implements PlaceSink {
  out = "";
  add(s: string, tag: string): void {
    this.out += piece(tag, s);
  }
}

/**
 * The finding's identity as a string (rule, file, place, message id, non-positional data): what matching
 * new and existing findings compares, and what its fingerprint is the SHA-256 of. `other` is for the
 * baseline's second pass only: the other version's document, against which a renamed chart is named by its
 * series (so that renaming a chart keeps its findings). `labelled`: where the caller keeps the labels of the
 * arrays it names places in, for its many findings (labelCache).
 */
export function identityKey(
  doc: unknown,
  file: string,
  f: Identifiable,
  other?: { doc: unknown },
  labelled?: LabelCache,
): string {
  const { positional, placeInData } = kindsOf(f.ruleId);
  let place = "";
  if (!placeInData) {
    const sink = new PlacePieces();
    addPlace(sink, doc, f.pointer, other, labelled);
    place = sink.out;
  }
  return (
    piece(RULE, f.ruleId) +
    piece(FILE, file) +
    place +
    piece(MESSAGE, f.messageId) +
    dataPieces(f.data, (k) => positional.has(k))
  );
}

/**
 * The finding's fingerprint: 32 hex digits of SHA-256 over its identity (identityKey), what comments, SARIF
 * and JSON carry.
 */
export function fingerprint(doc: unknown, file: string, f: Identifiable, other?: { doc: unknown }): string {
  return digest(identityKey(doc, file, f, other));
}

/**
 * What an identity was computed from, beside it: the file, and the value of the document's top-level member
 * the finding's place is in (anchorOf), which holds everything the place depends on. Kept for each located
 * finding (identify), for matching it with the base's findings (baseline.ts) without identifying it again.
 */
interface Known {
  file: string;
  anchor: unknown;
  key: string;
}

/** Makes the object it is given the `this` of a subclass, which adds its private fields to it (KnownOn). */
class Given {
  constructor(o: object) {
    // The object given, not a new one, is what the subclass's fields are added to.
    return o;
  }
}

/**
 * Where identify keeps a located finding's Known: in a private field added to the finding itself, which nothing
 * but this class can see (not JSON, spreads, copies, comparisons, nor the finding's own keys and symbols) and
 * which lives as long as the finding. A WeakMap entry per finding cost about a microsecond, a fifth of
 * identifying it (Object.defineProperty, a fifth of that).
 */
class KnownOn extends Given {
  readonly #known: Known;

  constructor(finding: object, identity: Known) {
    super(finding);
    this.#known = identity;
  }

  static of(f: object): Known | undefined {
    return #known in f ? f.#known : undefined;
  }
}

/** The Known of a finding that identify did not locate (identityOf computed it). */
const known = new WeakMap<object, Known>();

function knownOf(f: Identifiable): Known | undefined {
  return KnownOn.of(f) ?? known.get(f);
}

/**
 * The value the identity of a finding at `pointer` depends on: the document's top-level member its place is
 * in (the document itself when it is not an object); `undefined` for none. Another version of the document
 * with that very value gives the finding the same identity.
 */
export function anchorOf(doc: unknown, f: Identifiable): unknown {
  if (kindsOf(f.ruleId).placeInData || f.pointer === "") return undefined;
  if (!isObj(doc)) return doc;
  const slash = f.pointer.indexOf("/", 1);
  const raw = f.pointer.slice(1, slash < 0 ? undefined : slash);
  return get(doc, raw.includes("~") ? unescapeSegment(raw) : raw);
}

/** identityKey, taken from an earlier computation for the same finding object when its inputs are the same. */
export function identityOf(doc: unknown, file: string, f: Identifiable, labelled?: LabelCache): string {
  const seen = knownOf(f);
  if (seen && seen.file === file && Object.is(seen.anchor, anchorOf(doc, f))) return seen.key;
  const key = identityKey(doc, file, f, undefined, labelled);
  known.set(f, { file, anchor: anchorOf(doc, f), key });
  return key;
}

/**
 * The findings of one document with their places (`locate`, from locate.ts) and fingerprints: the runner's
 * last step. Each finding's identity is computed once and hashed once; it is kept beside the located finding
 * (identityOf), for matching it with the base's.
 */
export function identify(
  doc: unknown,
  file: string,
  findings: readonly RawFinding[],
  locate: (findings: readonly RawFinding[]) => Location[],
  timing?: AnalysisTiming,
): Finding[] {
  const places = timed(timing, "step", "locate", () => locate(findings));
  const labelled = labelCache();
  return timed(timing, "step", "identity", () =>
    findings.map((f, i) => {
      const identity: Known = {
        file,
        anchor: anchorOf(doc, f),
        key: identityKey(doc, file, f, undefined, labelled),
      };
      const at = places[i] as Location;
      // Written out member by member, as toFinding orders them (a spread of each finding costs several times this).
      const located: Finding = {
        ruleId: f.ruleId,
        severity: f.severity,
        message: f.message,
        messageId: f.messageId,
        pointer: f.pointer,
        target: f.target,
        line: at.line,
        column: at.column,
        endLine: at.endLine,
        endColumn: at.endColumn,
        fingerprint: digest(identity.key),
      };
      if (f.data) located.data = f.data;
      if (f.range) located.range = f.range;
      if (f.fix) located.fix = f.fix;
      if (f.suggestions) located.suggestions = f.suggestions;
      new KnownOn(located, identity);
      return located;
    }),
  );
}

/**
 * Which problem a finding is, for grouping repeated findings in a file (interfaces.md "Repeated findings":
 * the same message once positions, indices and quoted names are set aside): the rule id, the message id
 * and the data other than positions and the names it quotes (`meta.nameData`). Four metrics whose
 * displayname equals their own key are one problem.
 */
export function problemKey(f: Identifiable): string {
  const { positional, names } = kindsOf(f.ruleId);
  return (
    piece(RULE, f.ruleId) +
    piece(MESSAGE, f.messageId) +
    dataPieces(f.data, (k) => positional.has(k) || names.has(k))
  );
}

/** The fingerprint of a repeated problem in a file (one review entry for all its findings): SHA-256, as a finding's. */
export function problemFingerprint(file: string, problem: string): string {
  return digest(piece(PROBLEM, "repeated") + piece(FILE, file) + piece(PROBLEM, problem));
}
