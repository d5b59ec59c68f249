/**
 * Reading valid JSON text without parsing it: skipping whitespace, strings and whole values, and finding
 * where a pointer leads (what a tree of positions would say, for a text without duplicate keys).
 */
import { isIndex, unescapeSegment } from "./pointer.js";

export const C_TAB = 9,
  C_LF = 10,
  C_CR = 13,
  C_SPACE = 32,
  C_QUOTE = 34,
  C_COMMA = 44,
  C_MINUS = 45,
  C_DOT = 46,
  C_SLASH = 47,
  C_0 = 48,
  C_9 = 57,
  C_COLON = 58,
  C_LBRACKET = 91,
  C_BACKSLASH = 92,
  C_RBRACKET = 93,
  C_LBRACE = 123,
  C_RBRACE = 125;

export function skipWs(t: string, p: number): number {
  for (;;) {
    const c = t.charCodeAt(p);
    if (c === C_SPACE || c === C_LF || c === C_CR || c === C_TAB) p++;
    else return p;
  }
}

/** Just after the string that opens at `p` (its closing quote is the first not escaped by an odd run of backslashes). */
export function skipString(t: string, p: number): number {
  for (;;) {
    p = t.indexOf('"', p + 1);
    let k = p - 1;
    while (t.charCodeAt(k) === C_BACKSLASH) k--;
    if ((p - 1 - k) % 2 === 0) return p + 1;
  }
}

/** Just after the value that starts at `p` in valid JSON. */
export function skipValue(t: string, p: number): number {
  const c = t.charCodeAt(p);
  if (c === C_QUOTE) return skipString(t, p);
  if (c === C_LBRACE || c === C_LBRACKET) {
    let depth = 0;
    for (;;) {
      const d = t.charCodeAt(p);
      if (d === C_QUOTE) {
        p = skipString(t, p);
        continue;
      }
      if (d === C_LBRACE || d === C_LBRACKET) depth++;
      else if ((d === C_RBRACE || d === C_RBRACKET) && --depth === 0) return p + 1;
      p++;
    }
  }
  // A number or a literal: up to the next delimiter.
  for (;;) {
    const d = t.charCodeAt(p);
    if (
      Number.isNaN(d) ||
      d === C_COMMA ||
      d === C_RBRACE ||
      d === C_RBRACKET ||
      d === C_SPACE ||
      d === C_LF ||
      d === C_CR ||
      d === C_TAB
    )
      return p;
    p++;
  }
}

/** The next member or element after the value that ends at `p`, or the closing bracket's offset. */
function next(t: string, p: number): number {
  p = skipWs(t, p);
  return t.charCodeAt(p) === C_COMMA ? skipWs(t, p + 1) : p;
}

/**
 * Where a pointer leads (what resolvePointer in locate.ts finds in a tree, read from the text itself): its
 * value, its member name (none for an element), whether it went missing on the way.
 */
export interface Scanned {
  start: number;
  /** Just after the value; left out by scanPointers, which does not skip values it need not pass. */
  end?: number;
  keyStart?: number;
  keyEnd?: number;
  /** True when the pointer named a member or element that does not exist and an ancestor was used. */
  fallback: boolean;
  isRoot: boolean;
}

/** The pointers that lead into a value: by their next segment, and those that end there (by their index). */
interface Trie {
  ends: number[];
  children: Map<string, Trie>;
  /** Found while scanning (a member or element of that name exists). */
  found: boolean;
}

const trie = (): Trie => ({ ends: [], children: new Map(), found: false });

/**
 * Many pointers of one text in a single pass (scanPointer for each, without scanning the text once per
 * pointer): for valid JSON without duplicate keys. The scan enters only the values some pointer leads into,
 * skips the others, and stops as soon as every pointer is placed, so each result's `end` is left out (the
 * caller skips the one value it needs: skipValue(t, start)).
 */
export function scanPointers(t: string, pointers: readonly string[]): Scanned[] {
  const root = trieOf(pointers);
  const out = new Array<Scanned>(pointers.length);
  resolve(t, skipWs(t, 0), root, undefined, undefined, true, false, out);
  return out;
}

/** The pointers by their segments, each ending where its index is kept. */
function trieOf(pointers: readonly string[]): Trie {
  const root = trie();
  for (let i = 0; i < pointers.length; i++) {
    const pointer = pointers[i] as string;
    let node = root;
    // The segments read in place (as splitPointer gives them, without its arrays: this runs for every finding).
    for (let from = 1; from <= pointer.length;) {
      let to = pointer.indexOf("/", from);
      if (to < 0) to = pointer.length;
      const seg = unescapeSegment(pointer.slice(from, to));
      let child = node.children.get(seg);
      if (!child) node.children.set(seg, (child = trie()));
      node = child;
      from = to + 1;
    }
    node.ends.push(i);
  }
  return root;
}

/**
 * Places the pointers of `node` (the value at `start`) and below. With `finish`, scans to the value's end
 * and returns it (the caller goes on after it); otherwise stops once the last pointer is placed (-1).
 */
function resolve(
  t: string,
  start: number,
  node: Trie,
  keyStart: number | undefined,
  keyEnd: number | undefined,
  isRoot: boolean,
  finish: boolean,
  out: Scanned[],
): number {
  for (const i of node.ends) out[i] = { start, keyStart, keyEnd, fallback: false, isRoot };
  let left = node.children.size;
  let end = -1;
  const c = t.charCodeAt(start);
  if (left && c === C_LBRACE) {
    let q = skipWs(t, start + 1);
    while (t.charCodeAt(q) !== C_RBRACE) {
      if (!left && !finish) break;
      const ks = q;
      const ke = skipString(t, q);
      const raw = t.slice(ks + 1, ke - 1);
      const key = raw.includes("\\") ? (JSON.parse(t.slice(ks, ke)) as string) : raw;
      const v = skipWs(t, skipWs(t, ke) + 1);
      const child = left ? node.children.get(key) : undefined;
      let after: number;
      if (child && !child.found) {
        child.found = true;
        left--;
        const r = resolve(t, v, child, ks, ke, false, left > 0 || finish, out);
        // Every pointer placed, and this value need not be finished: stop here, not after skipping it.
        if (r < 0) return -1;
        after = r;
      } else after = skipValue(t, v);
      q = next(t, after);
    }
    if (t.charCodeAt(q) === C_RBRACE) end = q + 1;
  } else if (left && c === C_LBRACKET) {
    let q = skipWs(t, start + 1);
    for (let i = 0; t.charCodeAt(q) !== C_RBRACKET; i++) {
      if (!left && !finish) break;
      const child = left ? node.children.get(String(i)) : undefined;
      let after: number;
      if (child) {
        child.found = true;
        left--;
        const r = resolve(t, q, child, undefined, undefined, false, left > 0 || finish, out);
        if (r < 0) return -1;
        after = r;
      } else after = skipValue(t, q);
      q = next(t, after);
    }
    if (t.charCodeAt(q) === C_RBRACKET) end = q + 1;
  }
  // What is not there: the pointers below it stop here, as scanPointer's do.
  if (left)
    for (const child of node.children.values())
      if (!child.found) fallBack(child, start, keyStart, keyEnd, isRoot, out);
  if (!finish) return -1;
  return end >= 0 ? end : skipValue(t, start);
}

function fallBack(
  node: Trie,
  start: number,
  keyStart: number | undefined,
  keyEnd: number | undefined,
  isRoot: boolean,
  out: Scanned[],
): void {
  for (const i of node.ends) out[i] = { start, keyStart, keyEnd, fallback: true, isRoot };
  for (const child of node.children.values()) fallBack(child, start, keyStart, keyEnd, isRoot, out);
}

/** Why seekPointers gave up: its budget is spent (a scan costs less then), or the text is not what its value says. */
class Unseekable extends Error {}

/**
 * A name written as it is (no escape needed) that no closing quote can be followed by in valid JSON (a
 * whitespace, `:`, `,`, `}` or `]`): where `"name"` occurs in such a text outside a string's escapes, its first
 * quote opens a string whose text is the name.
 */
// eslint-disable-next-line no-control-regex -- control characters are what a name written as it is cannot hold
const PLAIN_NAME = /^[^\s:,}\]"\\\u0000-\u001f][^"\\\u0000-\u001f]*$/;

const isDigit = (c: number) => c >= C_0 && c <= C_9;

/** The members named `name` in `v` and everything below it (JSON.parse's values: plain objects and arrays). */
function countNamed(v: unknown, name: string, seeker: Seeker): number {
  seeker.spend(1);
  if (typeof v !== "object" || v === null) return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === "object" && x !== null) n += countNamed(x, name, seeker);
    }
    return n;
  }
  for (const k in v) {
    if (k === name) n++;
    const x = (v as Record<string, unknown>)[k];
    if (typeof x === "object" && x !== null) n += countNamed(x, name, seeker);
  }
  return n;
}

/** What a search for a name answers when a backslash comes before the name: scan past it, then search again. */
const BLOCKED = -2;

/**
 * seekPointers' walk: over the value to know what exists and how many members of a name come before a place,
 * over the text only by searching for names (indexOf, in the engine) where no escape can hide one, and by
 * scanning (as scanPointers does) where one could.
 */
class Seeker {
  /** Where the text's backslashes are (found on first need): a search for a name is trusted only between them. */
  private backslashes: number[] | undefined;
  /**
   * What each name searched for is searched as (`name"`: the name and its closing quote, the opening quote
   * checked after), or "" when it cannot be (PLAIN_NAME). Without the opening quote: the engine finds a short
   * needle's first character by memchr, and a quote stops it everywhere in JSON (eight times slower for `key`).
   */
  private readonly needles = new Map<string, string>();
  /** What may still be read: the walk gives up past it, so that no text costs more than a few scans of it. */
  private budget: number;

  constructor(
    private readonly t: string,
    private readonly out: Scanned[],
  ) {
    this.budget = 4 * t.length + 64;
  }

  spend(n: number): void {
    this.budget -= n;
    if (this.budget < 0) throw new Unseekable();
  }

  /** Where the first backslash at or after `from` is (Infinity when none). */
  private backslashFrom(from: number): number {
    let bs = this.backslashes;
    if (!bs) {
      bs = [];
      for (let i = this.t.indexOf("\\"); i >= 0; i = this.t.indexOf("\\", i + 1)) bs.push(i);
      this.backslashes = bs;
    }
    let lo = 0;
    let hi = bs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((bs[mid] as number) < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < bs.length ? (bs[lo] as number) : Number.POSITIVE_INFINITY;
  }

  /**
   * The start of the (`skip`+1)-th member name `name` in the text from `from` on, found by searching for it.
   * BLOCKED when a backslash comes first (it might write a name otherwise, or hide a quote); -1 when a search
   * cannot find it (the name needs escapes, or is not written as it is): then the caller scans.
   */
  private searchName(name: string, skip: number, from: number): number {
    let needle = this.needles.get(name);
    if (needle === undefined) this.needles.set(name, (needle = PLAIN_NAME.test(name) ? `${name}"` : ""));
    if (!needle) return -1;
    const t = this.t;
    const escape = this.backslashFrom(from);
    // Searched for up to the backslash only (a slice of the text, not a copy), never through what follows it.
    const before = escape < t.length ? t.slice(0, escape) : t;
    // `p`: where `"name"` starts (its opening quote), at or after `from`.
    let p = from;
    for (let n = 0; ; p++) {
      const q = before.indexOf(needle, p + 1);
      if (q < 0) {
        this.spend(before.length - from);
        return before === t ? -1 : BLOCKED;
      }
      p = q - 1;
      if (t.charCodeAt(p) !== C_QUOTE) continue;
      if (t.charCodeAt(skipWs(t, q + needle.length)) === C_COLON && n++ === skip) break;
    }
    this.spend(p - from);
    return p;
  }

  /** Places the pointers of `node`, the value `v` that starts at `start` (its name at keyStart, when a member's). */
  place(
    node: Trie,
    v: unknown,
    start: number,
    keyStart: number | undefined,
    keyEnd: number | undefined,
    isRoot: boolean,
  ): void {
    const { out } = this;
    for (const i of node.ends) out[i] = { start, keyStart, keyEnd, fallback: false, isRoot };
    if (!node.children.size) return;
    const missing = (child: Trie) => fallBack(child, start, keyStart, keyEnd, isRoot, out);
    if (Array.isArray(v)) this.elements(node, v, start, missing);
    else if (typeof v === "object" && v !== null)
      this.members(node, v as Record<string, unknown>, start, missing);
    else for (const child of node.children.values()) missing(child);
  }

  /** The name of the member written at `q` (a string's start). */
  private nameAt(q: number): string {
    const t = this.t;
    if (t.charCodeAt(q) !== C_QUOTE) throw new Unseekable();
    const ke = skipString(t, q);
    const raw = t.slice(q + 1, ke - 1);
    return raw.includes("\\") ? (JSON.parse(t.slice(q, ke)) as string) : raw;
  }

  /** The value of the member of `o` whose name is written at `q`. */
  private valueOf(o: Record<string, unknown>, q: number): unknown {
    const key = this.nameAt(q);
    if (!Object.hasOwn(o, key)) throw new Unseekable();
    return o[key];
  }

  /** The first member of the object whose `{` is at `q` (`open`), or the member after the one whose name is at `q`. */
  private memberAfter(q: number, open: boolean): number {
    const t = this.t;
    const p = open ? skipWs(t, q + 1) : next(t, skipValue(t, skipWs(t, skipWs(t, skipString(t, q)) + 1)));
    this.spend(p - q);
    return p;
  }

  /** The members of object `o` (at `start`) that the pointers lead into, in the text's order. */
  private members(
    node: Trie,
    o: Record<string, unknown>,
    start: number,
    missing: (child: Trie) => void,
  ): void {
    const t = this.t;
    let left = 0;
    for (const [name, child] of node.children) {
      if (Object.hasOwn(o, name)) left++;
      else missing(child);
    }
    if (!left) return;
    // The members after `q` (the object's `{`, or the name of one of its members) up to the one sought.
    let q = start;
    const passed: unknown[] = [];
    let first = true;
    for (const name in o) {
      // Names that are array indexes come first in the value, whatever their place in the text.
      if (first && isDigit(name.charCodeAt(0))) return this.scanMembers(node, o, start, left);
      first = false;
      const value = o[name];
      const child = node.children.get(name);
      if (!child) {
        passed.push(value);
        continue;
      }
      let before = 0;
      for (const p of passed) before += countNamed(p, name, this);
      passed.length = 0;
      passed.push(value);
      let ks = this.searchName(name, before, q);
      while (ks === BLOCKED) {
        // Past the backslash member by member (a name written with escapes is read there), then search again.
        const escape = this.backslashFrom(q);
        for (let m = q; ;) {
          // Passing the member at `m` (not the `{`): its names are no longer before the one sought.
          if (m !== start) before -= countNamed(this.valueOf(o, m), name, this);
          m = this.memberAfter(m, m === start);
          const key = this.nameAt(m);
          if (key === name || m > escape) {
            q = m;
            ks = key === name ? m : this.searchName(name, before, m);
            break;
          }
        }
      }
      if (ks < 0) ks = this.scanToMember(q, q === start, name);
      q = ks;
      const ke = skipString(t, ks);
      this.place(child, value, skipWs(t, skipWs(t, ke) + 1), ks, ke, false);
      if (--left === 0) return;
    }
  }

  /** The name of member `name` of the object whose `{` or member name is at `q`, found by scanning its members. */
  private scanToMember(q: number, open: boolean, name: string): number {
    for (let m = this.memberAfter(q, open); ; m = this.memberAfter(m, false))
      if (this.nameAt(m) === name) return m;
  }

  /** Every member of object `o` the pointers lead into, found by scanning it (names that are array indexes). */
  private scanMembers(node: Trie, o: Record<string, unknown>, start: number, left: number): void {
    const t = this.t;
    for (
      let m = this.memberAfter(start, true);
      left && t.charCodeAt(m) === C_QUOTE;
      m = this.memberAfter(m, false)
    ) {
      const key = this.nameAt(m);
      const child = node.children.get(key);
      if (child && Object.hasOwn(o, key)) {
        this.place(child, o[key], skipWs(t, skipWs(t, skipString(t, m)) + 1), m, skipString(t, m), false);
        left--;
      }
    }
    if (left) throw new Unseekable();
  }

  /** The elements of array `a` (at `start`) that the pointers lead into, in order. */
  private elements(node: Trie, a: unknown[], start: number, missing: (child: Trie) => void): void {
    const wanted: [number, Trie][] = [];
    for (const [segment, child] of node.children) {
      const i = isIndex(segment) ? Number(segment) : -1;
      if (i >= 0 && i < a.length) wanted.push([i, child]);
      else missing(child);
    }
    wanted.sort((x, y) => x[0] - y[0]);
    // Where the last element placed starts (`at`, its index), or the array's `[` (-1).
    let q = start;
    let at = -1;
    for (const [i, child] of wanted) {
      let es = this.searchElement(a, i, q, at);
      while (es === BLOCKED) {
        // Past the backslash element by element (or to element i), then search again.
        const escape = this.backslashFrom(q);
        let e = this.elementAfter(q, at);
        let ei = at + 1;
        while (ei < i && e <= escape) {
          e = this.elementAfter(e, ei);
          ei++;
        }
        q = e;
        at = ei;
        es = ei === i ? e : this.searchElement(a, i, q, at);
      }
      if (es < 0) {
        while (at < i) {
          q = this.elementAfter(q, at);
          at++;
        }
        es = q;
      }
      this.place(child, a[i], es, undefined, undefined, false);
      q = es;
      at = i;
    }
  }

  /** The start of the element after element `at` (which starts at `q`), or of the first one (`at` -1, `q` the `[`). */
  private elementAfter(q: number, at: number): number {
    const t = this.t;
    const p = at < 0 ? skipWs(t, q + 1) : next(t, skipValue(t, q));
    this.spend(p - q);
    return p;
  }

  /**
   * Where element `i` of `a` starts, found from the first member name written in it (an object's, or the first
   * object's at the start of nested arrays), searched for from `q` (element `at`'s start, or the `[`); -1 when
   * it has none to search for, or a search cannot find it; BLOCKED as searchName.
   */
  private searchElement(a: unknown[], i: number, q: number, at: number): number {
    let e: unknown = a[i];
    let arrays = 0;
    while (Array.isArray(e) && e.length) {
      e = e[0];
      arrays++;
    }
    if (typeof e !== "object" || e === null || Array.isArray(e)) return -1;
    let name: string | undefined;
    for (const k in e) {
      name = k;
      break;
    }
    if (name === undefined || isDigit(name.charCodeAt(0))) return -1;
    let before = 0;
    for (let j = Math.max(at, 0); j < i; j++) before += countNamed(a[j], name, this);
    const ks = this.searchName(name, before, q);
    if (ks < 0) return ks;
    // Back from the name over its object's `{` and the `[` of each array it is first in.
    const t = this.t;
    let p = ks;
    for (let level = 0; level <= arrays; level++) {
      p--;
      while (isWs(t.charCodeAt(p))) p--;
      if (t.charCodeAt(p) !== (level === 0 ? C_LBRACE : C_LBRACKET)) throw new Unseekable();
    }
    return p;
  }
}

const isWs = (c: number) => c === C_SPACE || c === C_LF || c === C_CR || c === C_TAB;

/**
 * What scanPointers finds, for valid JSON without duplicate keys whose value (JSON.parse's) is `value`, mostly
 * without reading the text: the value says which places exist and which members come before each, so that a
 * member is found by searching for its name (the how-manieth of that name), not by scanning every value before
 * it, which cost more than JSON.parse of the whole text. Undefined when the text is not as the value says.
 */
export function seekPointers(t: string, value: unknown, pointers: readonly string[]): Scanned[] | undefined {
  const out = new Array<Scanned>(pointers.length);
  try {
    new Seeker(t, out).place(trieOf(pointers), value, skipWs(t, 0), undefined, undefined, true);
  } catch (e) {
    if (e instanceof Unseekable) return undefined;
    throw e;
  }
  return out;
}
