/**
 * Reading valid JSON text without parsing it: skipping whitespace, strings and whole values, and finding
 * where a pointer leads (what a tree of positions would say, for a text without duplicate keys).
 */
import { splitPointer } from "./pointer.js";

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
  const root = trie();
  pointers.forEach((pointer, i) => {
    let node = root;
    for (const seg of splitPointer(pointer)) {
      let child = node.children.get(seg);
      if (!child) node.children.set(seg, (child = trie()));
      node = child;
    }
    node.ends.push(i);
  });
  const out = new Array<Scanned>(pointers.length);
  resolve(t, skipWs(t, 0), root, undefined, undefined, true, false, out);
  return out;
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
