/**
 * Reading valid JSON text without parsing it: skipping whitespace, strings and whole values, and finding
 * where a pointer leads (what a tree of positions would say, for a text without duplicate keys).
 */
import { isIndex, splitPointer } from "./pointer.js";

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

/** Where a pointer leads: its value, its member name (none for an element), whether it went missing on the way. */
export interface Scanned {
  start: number;
  end: number;
  keyStart?: number;
  keyEnd?: number;
  /** True when the pointer named a member or element that does not exist and an ancestor was used. */
  fallback: boolean;
  isRoot: boolean;
}

/**
 * resolvePointer (locate.ts) read from the text itself, without a tree: for valid JSON without duplicate
 * keys (a member's one occurrence is then the last), walking only the values on the pointer's way and
 * skipping the rest.
 */
export function scanPointer(t: string, pointer: string): Scanned {
  let start = skipWs(t, 0);
  let keyStart: number | undefined;
  let keyEnd: number | undefined;
  let isRoot = true;
  let fallback = false;
  for (const seg of splitPointer(pointer)) {
    const c = t.charCodeAt(start);
    let found = -1;
    if (c === C_LBRACE) {
      for (let q = skipWs(t, start + 1); t.charCodeAt(q) !== C_RBRACE;) {
        const ks = q;
        const ke = skipString(t, q);
        const raw = t.slice(ks + 1, ke - 1);
        const key = raw.includes("\\") ? (JSON.parse(t.slice(ks, ke)) as string) : raw;
        // After the name: whitespace, `:`, whitespace, the value.
        const v = skipWs(t, skipWs(t, ke) + 1);
        if (key === seg) {
          found = v;
          keyStart = ks;
          keyEnd = ke;
          break;
        }
        q = next(t, skipValue(t, v));
      }
    } else if (c === C_LBRACKET && isIndex(seg)) {
      const n = Number(seg);
      let i = 0;
      for (let q = skipWs(t, start + 1); t.charCodeAt(q) !== C_RBRACKET; i++) {
        if (i === n) {
          found = q;
          keyStart = keyEnd = undefined;
          break;
        }
        q = next(t, skipValue(t, q));
      }
    }
    if (found < 0) {
      fallback = true;
      break;
    }
    start = found;
    isRoot = false;
  }
  return { start, end: skipValue(t, start), keyStart, keyEnd, fallback, isRoot };
}
