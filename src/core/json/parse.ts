/**
 * A strict RFC 8259 JSON parser that keeps source positions.
 *
 * Why not JSON.parse: it neither reports where members are, nor that an object holds the same key twice
 * (it silently keeps the last), and its error positions differ between engines. This parser returns the
 * same value JSON.parse would, plus a syntax tree with offsets, the duplicate keys, and on failure the
 * offset of the first offending character with a message a person understands.
 *
 * Why not json-source-map (the design card's choice): measured side by side, it misses duplicate keys
 * (keeps the last, one pointer), follows `__proto__` (the member becomes the object's prototype), accepts
 * raw control characters in strings, overflows the stack on deep nesting (RangeError past ~10,000
 * levels), counts columns in UTF-16 units (an emoji is two columns), and is several times slower: 55 ms
 * on a 714 KB descriptor where this one takes 5-13 ms. `npm run bench` prints the comparison.
 */
import { escapeSegment } from "./pointer.js";
import * as scan from "./scan.js";

// scan.ts's character codes and skips as this module's own constants: read through an import in the
// parser's loops, each was a load from the other module's cell, 10% slower on a 2 MB descriptor
// (bench/compare.mjs, "parsed with positions").
const {
  C_0,
  C_9,
  C_BACKSLASH,
  C_COLON,
  C_COMMA,
  C_CR,
  C_DOT,
  C_LBRACE,
  C_LBRACKET,
  C_LF,
  C_MINUS,
  C_QUOTE,
  C_RBRACE,
  C_RBRACKET,
  C_SLASH,
  C_SPACE,
  C_TAB,
  skipString,
  skipWs,
} = scan;

export type JsonNode = ObjectNode | ArrayNode | ScalarNode;

interface NodeBase {
  /** 0-based UTF-16 offset of the first character of the value. */
  start: number;
  /** Offset just after the value. */
  end: number;
}
export interface ObjectNode extends NodeBase {
  kind: "object";
  members: MemberNode[];
}
export interface ArrayNode extends NodeBase {
  kind: "array";
  items: JsonNode[];
}
export interface ScalarNode extends NodeBase {
  kind: "string" | "number" | "boolean" | "null";
  /** A YAML alias (`*name`, a string node at its text): the anchored node it stands for. */
  alias?: Anchored;
}
/**
 * A node a YAML anchor names (`&name`), and the key of the member whose value it is, if any: what is inside an
 * alias is written there (locate.ts places it there).
 */
export interface Anchored {
  node: JsonNode;
  keyStart?: number;
  keyEnd?: number;
}
export interface MemberNode {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: JsonNode;
}

export interface DuplicateKey {
  /** Pointer of the object holding the key twice. */
  objectPointer: string;
  key: string;
  keyStart: number;
  keyEnd: number;
  firstKeyStart: number;
}

export interface JsonSyntaxError {
  message: string;
  offset: number;
  /** Offset after the offending token (at least offset + 1, clamped to the text). */
  end: number;
}

export type ParseOutcome =
  | { ok: true; value: unknown; root: JsonNode; duplicates: DuplicateKey[] }
  | { ok: false; error: JsonSyntaxError };

/**
 * Deeper nesting than this is refused: Jackson (the server's parser) stops at 1,000 levels by default,
 * and refusing keeps every later recursive walk safe from stack overflow.
 */
export const MAX_DEPTH = 1000;

class Fail extends Error {
  constructor(
    readonly msg: string,
    readonly offset: number,
    readonly endOffset: number,
  ) {
    super(msg);
  }
}

function isDigit(c: number): boolean {
  return c >= C_0 && c <= C_9;
}

function describeChar(text: string, at: number): string {
  const cp = text.codePointAt(at);
  if (cp === undefined) return "end of file";
  if (cp < 0x20 || cp === 0x7f)
    return `control character U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  if (cp === 0xfeff) return "byte order mark U+FEFF";
  if (cp === 0xfffd) return "replacement character U+FFFD (the file is probably not UTF-8 text)";
  return `'${String.fromCodePoint(cp)}'`;
}

class Parser {
  private pos = 0;
  readonly duplicates: DuplicateKey[] = [];
  /** Keys and indexes from the root to the value being parsed; a pointer is built only when needed. */
  private readonly path: (string | number)[] = [];

  private pointer(): string {
    return this.path.map((s) => "/" + (typeof s === "number" ? String(s) : escapeSegment(s))).join("");
  }

  /**
   * @param values build the JS value too (false: only the tree, when JSON.parse already gave the value)
   * @param unique the text is known to hold no duplicate key: none is looked for
   */
  constructor(
    private readonly text: string,
    private readonly values = true,
    private readonly unique = false,
  ) {}

  parseDocument(): { value: unknown; root: JsonNode } {
    const t = this.text;
    if (t.charCodeAt(0) === 0xfeff) {
      throw new Fail(
        "byte order mark (BOM) at the start of the file: strict JSON must not start with one",
        0,
        1,
      );
    }
    this.skipWs();
    if (this.pos >= t.length) throw new Fail("the file is empty: expected a JSON value", this.pos, this.pos);
    const node = this.parseValue(0);
    const value = this.value;
    this.skipWs();
    if (this.pos < t.length) {
      throw this.unexpected("unexpected data after the end of the JSON value");
    }
    return { value, root: node };
  }

  private skipWs(): void {
    this.pos = skipWs(this.text, this.pos);
  }

  /** An error at the current position, recognising the common non-JSON habits. */
  private unexpected(context: string): Fail {
    const t = this.text;
    const p = this.pos;
    if (p >= t.length) return new Fail(`unexpected end of file: ${context} (is the file truncated?)`, p, p);
    const c = t.charCodeAt(p);
    if (c === C_SLASH && (t.charCodeAt(p + 1) === C_SLASH || t.charCodeAt(p + 1) === 42)) {
      return new Fail("comments are not allowed in JSON", p, p + 2);
    }
    if (c === 39) return new Fail("strings must use double quotes, not single quotes", p, p + 1);
    for (const word of ["NaN", "Infinity", "-Infinity", "undefined"]) {
      if (t.startsWith(word, p)) return new Fail(`${word} is not a JSON value`, p, p + word.length);
    }
    if (c === 0xfeff) return new Fail("byte order mark U+FEFF inside the file", p, p + 1);
    return new Fail(`unexpected ${describeChar(t, p)}: ${context}`, p, p + 1);
  }

  /**
   * The value just parsed (with `values`): kept here rather than returned beside its node, which would cost
   * an object per value of the text.
   */
  private value: unknown;

  /** Parses the value at the current position: returns its node, and leaves its value in `value`. */
  private parseValue(depth: number): JsonNode {
    const t = this.text;
    const start = this.pos;
    const c = t.charCodeAt(start);
    switch (c) {
      case C_LBRACE:
        return this.parseObject(depth + 1);
      case C_LBRACKET:
        return this.parseArray(depth + 1);
      case C_QUOTE: {
        this.value = this.values ? this.parseString() : this.skipString();
        return { kind: "string", start, end: this.pos };
      }
      case 116: // t
        return this.literal("true", true, "boolean");
      case 102: // f
        return this.literal("false", false, "boolean");
      case 110: // n
        return this.literal("null", null, "null");
      default:
        if (c === C_MINUS || isDigit(c)) {
          this.value = this.parseNumber();
          return { kind: "number", start, end: this.pos };
        }
        throw this.unexpected("expected a JSON value");
    }
  }

  private literal(word: string, value: boolean | null, kind: "boolean" | "null"): JsonNode {
    const start = this.pos;
    if (!this.text.startsWith(word, start)) {
      // Point at the first character that differs from the literal.
      let p = start;
      while (p < this.text.length && p - start < word.length && this.text[p] === word[p - start]) p++;
      this.pos = p;
      throw this.unexpected(`expected \`${word}\``);
    }
    this.pos = start + word.length;
    this.value = value;
    return { kind, start, end: this.pos };
  }

  private parseNumber(): number {
    const t = this.text;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === C_MINUS) p++;
    if (t.startsWith("Infinity", p)) throw new Fail("-Infinity is not a JSON value", start, p + 8);
    const first = t.charCodeAt(p);
    if (first === C_0) {
      p++;
      if (isDigit(t.charCodeAt(p))) throw new Fail("numbers must not have leading zeros", start, p + 1);
    } else if (isDigit(first)) {
      while (isDigit(t.charCodeAt(p))) p++;
    } else {
      this.pos = p;
      throw this.unexpected("expected a digit");
    }
    if (t.charCodeAt(p) === C_DOT) {
      p++;
      if (!isDigit(t.charCodeAt(p))) {
        this.pos = p;
        throw this.unexpected("expected a digit after the decimal point");
      }
      while (isDigit(t.charCodeAt(p))) p++;
    }
    const e = t.charCodeAt(p);
    if (e === 101 || e === 69) {
      p++;
      const s = t.charCodeAt(p);
      if (s === 43 || s === C_MINUS) p++;
      if (!isDigit(t.charCodeAt(p))) {
        this.pos = p;
        throw this.unexpected("expected a digit in the exponent");
      }
      while (isDigit(t.charCodeAt(p))) p++;
    }
    this.pos = p;
    return this.values ? Number(t.slice(start, p)) : 0;
  }

  /** Validates a string without building it: the fast path for values when JSON.parse gave them. */
  private skipString(): undefined {
    const t = this.text;
    let p = this.pos + 1;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === C_QUOTE) {
        this.pos = p + 1;
        return undefined;
      }
      // Anything unusual: let the full routine produce the exact error or decode the escape.
      if (c === C_BACKSLASH || c < 0x20 || Number.isNaN(c)) {
        this.parseString();
        return undefined;
      }
      p++;
    }
  }

  private parseString(): string {
    const t = this.text;
    const open = this.pos;
    let p = open + 1;
    let chunkStart = p;
    let out = "";
    for (;;) {
      if (p >= t.length) throw new Fail("unterminated string (is the file truncated?)", open, open + 1);
      const c = t.charCodeAt(p);
      if (c === C_QUOTE) {
        out += t.slice(chunkStart, p);
        this.pos = p + 1;
        return out;
      }
      if (c === C_BACKSLASH) {
        out += t.slice(chunkStart, p);
        const e = t.charCodeAt(p + 1);
        switch (e) {
          case C_QUOTE:
            out += '"';
            break;
          case C_BACKSLASH:
            out += "\\";
            break;
          case C_SLASH:
            out += "/";
            break;
          case 98:
            out += "\b";
            break;
          case 102:
            out += "\f";
            break;
          case 110:
            out += "\n";
            break;
          case 114:
            out += "\r";
            break;
          case 116:
            out += "\t";
            break;
          case 117: {
            const hex = t.slice(p + 2, p + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
              throw new Fail(
                "invalid \\u escape: expected four hexadecimal digits",
                p,
                Math.min(t.length, p + 6),
              );
            }
            out += String.fromCharCode(parseInt(hex, 16));
            p += 4;
            break;
          }
          default:
            throw new Fail(
              Number.isNaN(e)
                ? "unterminated string (is the file truncated?)"
                : `invalid escape \\${t[p + 1]} in string`,
              p,
              Math.min(t.length, p + 2),
            );
        }
        p += 2;
        chunkStart = p;
        continue;
      }
      if (c < 0x20) {
        throw new Fail(
          c === C_LF
            ? "unterminated string: a line break inside a string must be written \\n"
            : `${describeChar(t, p)} inside a string must be escaped`,
          p,
          p + 1,
        );
      }
      p++;
    }
  }

  private parseObject(depth: number): JsonNode {
    const t = this.text;
    const start = this.pos;
    if (depth > MAX_DEPTH) throw new Fail(`nesting deeper than ${MAX_DEPTH} levels`, start, start + 1);
    this.pos++;
    const values = this.values;
    const obj: Record<string, unknown> | undefined = values ? {} : undefined;
    const members: MemberNode[] = [];
    // Most objects are small: a linear scan beats allocating a Map for each of them.
    let seen: Map<string, number> | undefined;
    this.skipWs();
    if (t.charCodeAt(this.pos) === C_RBRACE) {
      this.pos++;
      this.value = obj;
      return { kind: "object", start, end: this.pos, members };
    }
    for (;;) {
      if (t.charCodeAt(this.pos) !== C_QUOTE) {
        if (t.charCodeAt(this.pos) === C_RBRACE && members.length > 0) {
          throw new Fail("trailing comma before `}`", this.lastComma, this.lastComma + 1);
        }
        throw this.unexpected("expected a member name in double quotes");
      }
      const keyStart = this.pos;
      const key = this.parseString();
      const keyEnd = this.pos;
      this.skipWs();
      if (t.charCodeAt(this.pos) !== C_COLON) throw this.unexpected("expected `:` after the member name");
      this.pos++;
      this.skipWs();
      // The path names a duplicate key's object: not kept when there is none.
      const unique = this.unique;
      if (!unique) this.path.push(key);
      const node = this.parseValue(depth);
      const value = this.value;
      if (!unique) this.path.pop();
      let first: number | undefined;
      if (unique) {
        // known: no name is written twice
      } else if (seen) first = seen.get(key);
      else {
        for (let i = 0; i < members.length; i++) {
          if ((members[i] as MemberNode).key === key) {
            first = (members[i] as MemberNode).keyStart;
            break;
          }
        }
        if (members.length >= 16) {
          // The first copy of each name: a name written twice already must keep its first position.
          seen = new Map();
          for (const m of members) if (!seen.has(m.key)) seen.set(m.key, m.keyStart);
        }
      }
      if (first !== undefined) {
        this.duplicates.push({ objectPointer: this.pointer(), key, keyStart, keyEnd, firstKeyStart: first });
      } else if (seen && !seen.has(key)) {
        seen.set(key, keyStart);
      }
      if (!obj) {
        // no value to build
      } else if (key === "__proto__") {
        // Plain assignment would set the prototype; JSON.parse makes an own property.
        Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      } else {
        obj[key] = value;
      }
      members.push({ key, keyStart, keyEnd, value: node });
      if (this.separator(C_RBRACE, "expected `,` or `}` after a member")) continue;
      this.value = obj;
      return { kind: "object", start, end: this.pos, members };
    }
  }

  private lastComma = 0;

  /** After a member or an element: `,` goes on (true), the closing bracket ends the container (false). */
  private separator(close: number, context: string): boolean {
    this.skipWs();
    const c = this.text.charCodeAt(this.pos);
    if (c === C_COMMA) {
      this.lastComma = this.pos;
      this.pos++;
      this.skipWs();
      return true;
    }
    if (c !== close) throw this.unexpected(context);
    this.pos++;
    return false;
  }

  private parseArray(depth: number): JsonNode {
    const t = this.text;
    const start = this.pos;
    if (depth > MAX_DEPTH) throw new Fail(`nesting deeper than ${MAX_DEPTH} levels`, start, start + 1);
    this.pos++;
    const values = this.values;
    const arr: unknown[] | undefined = values ? [] : undefined;
    const items: JsonNode[] = [];
    this.skipWs();
    if (t.charCodeAt(this.pos) === C_RBRACKET) {
      this.pos++;
      this.value = arr;
      return { kind: "array", start, end: this.pos, items };
    }
    for (;;) {
      if (t.charCodeAt(this.pos) === C_RBRACKET && items.length > 0) {
        throw new Fail("trailing comma before `]`", this.lastComma, this.lastComma + 1);
      }
      if (!this.unique) this.path.push(items.length);
      const node = this.parseValue(depth);
      if (!this.unique) this.path.pop();
      if (arr) arr.push(this.value);
      items.push(node);
      if (this.separator(C_RBRACKET, "expected `,` or `]` after an array element")) continue;
      this.value = arr;
      return { kind: "array", start, end: this.pos, items };
    }
  }
}

/**
 * Counts the members written in a valid JSON text (a `:` outside strings separates exactly one member)
 * and its deepest nesting. Allocation-free: it costs little beside JSON.parse, but it is a loop over every
 * character in JavaScript, so it runs only when `cheaplyUnique` cannot tell.
 */
function scanShape(text: string): { members: number; depth: number } {
  let members = 0;
  let depth = 0;
  let maxDepth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === C_QUOTE) {
      i = skipString(text, i) - 1;
    } else if (c === C_COLON) {
      members++;
    } else if (c === C_LBRACE || c === C_LBRACKET) {
      if (++depth > maxDepth) maxDepth = depth;
    } else if (c === C_RBRACE || c === C_RBRACKET) {
      depth--;
    }
  }
  return { members, depth: maxDepth };
}

/** How many times `c` occurs in `s` (indexOf runs in the engine, many times faster than a loop over characters). */
function occurrences(s: string, c: string): number {
  let n = 0;
  for (let i = s.indexOf(c); i >= 0; i = s.indexOf(c, i + 1)) n++;
  return n;
}

/** What `countValue` counts: the members of every object, and the `:` in every key and string. */
interface Counts {
  members: number;
  colons: number;
}

/**
 * Counts into `n` the members and `:`s of `v`, nested at `depth`; false (counting stops) past `maxDepth`.
 * Recursive, which is several times faster here than a loop with a stack of its own; the depth limit keeps
 * it far from the stack's (JSON.parse accepts deeper nesting).
 */
function countValue(v: object, depth: number, n: Counts, maxDepth: number): boolean {
  if (depth > maxDepth) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === "object") {
        if (x !== null && !countValue(x, depth + 1, n, maxDepth)) return false;
      } else if (typeof x === "string" && x.includes(":")) n.colons += occurrences(x, ":");
    }
    return true;
  }
  for (const k in v) {
    n.members++;
    if (k.includes(":")) n.colons += occurrences(k, ":");
    const x = (v as Record<string, unknown>)[k];
    if (typeof x === "object") {
      if (x !== null && !countValue(x, depth + 1, n, maxDepth)) return false;
    } else if (typeof x === "string" && x.includes(":")) n.colons += occurrences(x, ":");
  }
  return true;
}

/**
 * True when a valid JSON text provably holds no duplicate key and nests at most `maxDepth` deep, told from
 * what the engine does fast (the `:`s of the text, JSON.parse's value); false when that cannot tell
 * (scanShape then counts). Every member written has one `:`, and so may its strings: the text's `:`s are at
 * least the members and `:`s JSON.parse kept, and as many exactly when it dropped no member (a duplicate
 * key) and its strings hold every `:` the text's do, which is so when no `\u` escape in the text could
 * write a `:` without one.
 */
function cheaplyUnique(text: string, value: unknown, maxDepth: number): boolean {
  if (typeof value !== "object" || value === null) return !text.includes(":");
  // A member's `:` follows its key's closing quote (after whitespace at most): a `:` after anything else is
  // in a string. The members written are at most the `:`s that are not, and at least the members kept: as
  // many of those as of these, none was dropped, which counting the members alone proves without reading a
  // string (reading every string for its `:`s took twice as long on a 2 MB descriptor).
  let colons = 0;
  let inStrings = 0;
  for (let i = text.indexOf(":"); i >= 0; i = text.indexOf(":", i + 1)) {
    colons++;
    let before = i - 1;
    let c = text.charCodeAt(before);
    while (c === C_SPACE || c === C_LF || c === C_CR || c === C_TAB) c = text.charCodeAt(--before);
    if (c !== C_QUOTE) inStrings++;
  }
  const kept = countMembers(value, 1, maxDepth);
  if (kept < 0) return false;
  if (kept === colons - inStrings) return true;
  const n: Counts = { members: 0, colons: 0 };
  countValue(value, 1, n, maxDepth);
  return (n.colons === 0 || !text.includes("\\u")) && n.members + n.colons === colons;
}

/** The members of every object in `v`, nested at `depth`; -1 past `maxDepth`. */
function countMembers(v: object, depth: number, maxDepth: number): number {
  if (depth > maxDepth) return -1;
  let members = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === "object" && x !== null) {
        const m = countMembers(x, depth + 1, maxDepth);
        if (m < 0) return -1;
        members += m;
      }
    }
    return members;
  }
  for (const k in v) {
    members++;
    const x = (v as Record<string, unknown>)[k];
    if (typeof x === "object" && x !== null) {
      const m = countMembers(x, depth + 1, maxDepth);
      if (m < 0) return -1;
      members += m;
    }
  }
  return members;
}

/** Where a root object's text and value are kept (roots without duplicate keys), for parseEdited. */
interface Layout {
  text: string;
  value: Record<string, unknown>;
}

/** Where an outcome keeps its layout (root objects without duplicate keys). */
const LAYOUT = Symbol("layout");
const layoutOf = (outcome: ParseOutcome) => (outcome as { [LAYOUT]?: Layout })[LAYOUT];

/**
 * parseJsonFast of a text that may nest at most `maxDepth` deep. With `explain` false, a text JSON.parse
 * refuses (or nested too deep) gives undefined instead of the full parser's explanation, which costs several
 * times a parse (parseEdited then parses the whole text anyway).
 */
function fastParse(text: string): ParseOutcome;
function fastParse(text: string, explain: false, maxDepth: number): ParseOutcome | undefined;
function fastParse(text: string, explain = true, maxDepth = MAX_DEPTH): ParseOutcome | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return explain ? parseJson(text) : undefined;
  }
  let unique = cheaplyUnique(text, value, maxDepth);
  if (!unique) {
    const shape = scanShape(text);
    if (shape.depth > maxDepth) return explain ? parseJson(text) : undefined;
    // The members JSON.parse kept (the text nests no deeper than the limit: counted in full).
    const kept: Counts = { members: 0, colons: 0 };
    if (typeof value === "object" && value !== null) countValue(value, 1, kept, maxDepth);
    unique = shape.members === kept.members;
  }
  let root: JsonNode | undefined;
  let duplicates: DuplicateKey[] = [];
  const build = (): JsonNode => {
    const parser = new Parser(text, false, unique);
    const tree = parser.parseDocument().root;
    duplicates = parser.duplicates;
    return tree;
  };
  if (!unique) root = build();
  const layout: Layout | undefined =
    !duplicates.length && value !== null && typeof value === "object" && !Array.isArray(value)
      ? { text, value: value as Record<string, unknown> }
      : undefined;
  const outcome: ParseOutcome & { [LAYOUT]?: Layout } = {
    ok: true,
    value,
    duplicates,
    get root(): JsonNode {
      root ??= build();
      return root;
    },
    [LAYOUT]: layout,
  };
  return outcome;
}

/**
 * Same result as parseJson, faster: the value comes from the engine's JSON.parse; the tree of positions
 * is built only when first asked for (to locate findings), or at once when the text holds duplicate keys
 * (found by comparing the members written with the members JSON.parse kept). When JSON.parse refuses the
 * text, the full parser explains why.
 */
export function parseJsonFast(text: string): ParseOutcome {
  return fastParse(text);
}

/**
 * The block sizes common prefixes and suffixes are compared in, largest first: each smaller one goes on
 * where a larger block differed, so that few slices and few single characters are compared (with 4096 and
 * 64 alone, a difference 4,000 characters from the end cost some 60 slices and up to 64 characters).
 */
const BLOCKS = [4096, 512, 64, 8];

/** Length of the longest common prefix (compared a block at a time: slices compare as memory). */
function commonPrefix(a: string, b: string, max: number): number {
  let i = 0;
  for (const step of BLOCKS) {
    while (i + step <= max && a.slice(i, i + step) === b.slice(i, i + step)) i += step;
  }
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffix(a: string, b: string, max: number): number {
  let i = 0;
  const al = a.length;
  const bl = b.length;
  for (const step of BLOCKS) {
    while (i + step <= max && a.slice(al - i - step, al - i) === b.slice(bl - i - step, bl - i)) i += step;
  }
  while (i < max && a.charCodeAt(al - i - 1) === b.charCodeAt(bl - i - 1)) i++;
  return i;
}

/**
 * `text` parsed as an edit of `head` (a text parseJsonFast parsed, with an object root and no duplicate
 * keys): when everything `text` changes lies inside one member's value of the root, only that value is
 * parsed, and the other members are head's own values (the same objects, so that what was computed for
 * them can be reused). The value and duplicate keys are exactly parseJsonFast(text)'s; undefined when
 * the shortcut does not apply (then parse in full). The prefix and suffix `text` shares with `head` are
 * head's valid JSON around one JSON value, so `text` is valid JSON exactly when that value is.
 */
export function parseEdited(
  head: ParseOutcome,
  text: string,
): { value: Record<string, unknown>; duplicates: DuplicateKey[] } | undefined {
  const layout = layoutOf(head);
  if (!layout || layout.text === text) return undefined;
  const h = layout.text;
  const start = commonPrefix(h, text, Math.min(h.length, text.length));
  const end = h.length - commonSuffix(h, text, Math.min(h.length, text.length) - start);
  // The member whose value (from after its `:` to its `,` or `}`) holds head's changed part [start, end).
  const member = memberAround(h, start, end);
  if (!member) return undefined;
  const { key, colon, close } = member;
  const delta = text.length - h.length;
  let edited: { value: unknown; duplicates: DuplicateKey[]; at: number; pointer: string } | undefined;
  // In an array (a descriptor's metrics, say), one element: the others are head's own, not parsed again.
  const list = layout.value[key];
  const element = Array.isArray(list) ? elementAround(h, colon, start, end) : undefined;
  if (element) {
    // Nested two levels deeper in the whole text: at the limit, the full parse decides.
    const sub = fastParse(text.slice(element.start, element.end + delta), false, MAX_DEPTH - 2);
    if (sub?.ok) {
      const items = (list as unknown[]).slice();
      items[element.index] = sub.value;
      edited = { value: items, duplicates: sub.duplicates, at: element.start, pointer: `/${element.index}` };
    }
  }
  if (!edited) {
    // Nested one level deeper in the whole text: at the limit, the full parse decides.
    const sub = fastParse(text.slice(colon + 1, close + delta), false, MAX_DEPTH - 1);
    if (!sub?.ok) return undefined;
    edited = { value: sub.value, duplicates: sub.duplicates, at: colon + 1, pointer: "" };
  }
  const value: Record<string, unknown> = {};
  for (const k of Object.keys(layout.value)) {
    const v = k === key ? edited.value : layout.value[k];
    if (k === "__proto__") {
      Object.defineProperty(value, k, { value: v, enumerable: true, writable: true, configurable: true });
    } else value[k] = v;
  }
  const prefix = "/" + escapeSegment(key) + edited.pointer;
  const { at } = edited;
  const duplicates = edited.duplicates.map((d) => ({
    ...d,
    objectPointer: prefix + d.objectPointer,
    keyStart: d.keyStart + at,
    keyEnd: d.keyEnd + at,
    firstKeyStart: d.firstKeyStart + at,
  }));
  return { value, duplicates };
}

/**
 * The element of the array that follows the `:` at `colon` in valid JSON text `t` whose value holds
 * [start, end) (from its first character to just after its last); found by skipping the elements before
 * it. Undefined when no single element holds it (the change touches a `,` or the brackets).
 */
function elementAround(
  t: string,
  colon: number,
  start: number,
  end: number,
): { index: number; start: number; end: number } | undefined {
  const open = skipWs(t, colon + 1);
  if (t.charCodeAt(open) !== C_LBRACKET) return undefined;
  for (let q = skipWs(t, open + 1), index = 0; t.charCodeAt(q) !== C_RBRACKET; index++) {
    // The change begins between elements, or goes on past the one it begins in.
    if (start < q) return undefined;
    const after = scan.skipValue(t, q);
    if (end <= after) return { index, start: q, end: after };
    if (start < after) return undefined;
    const comma = skipWs(t, after);
    if (t.charCodeAt(comma) !== C_COMMA) return undefined;
    q = skipWs(t, comma + 1);
  }
  return undefined;
}

/**
 * The root member of valid JSON text `t` (an object without duplicate keys) whose value, from after its `:`
 * to the `,` or `}` after it, holds [start, end); found by skipping the members before it, so that an edit
 * near the top costs little whatever follows. Undefined when no single member's value holds it.
 */
function memberAround(
  t: string,
  start: number,
  end: number,
): { key: string; colon: number; close: number } | undefined {
  for (let q = skipWs(t, skipWs(t, 0) + 1); t.charCodeAt(q) === C_QUOTE;) {
    const ke = skipString(t, q);
    const colon = skipWs(t, ke);
    const close = skipWs(t, scan.skipValue(t, skipWs(t, colon + 1)));
    if (start > colon && end <= close) {
      const raw = t.slice(q + 1, ke - 1);
      return { key: raw.includes("\\") ? (JSON.parse(t.slice(q, ke)) as string) : raw, colon, close };
    }
    // Past the change (it touches a name, a `:` or a `,`), or the last member: no member holds it.
    if (close >= start || t.charCodeAt(close) !== C_COMMA) return undefined;
    q = skipWs(t, close + 1);
  }
  return undefined;
}

/** Parses strict JSON. Never throws. */
export function parseJson(text: string): ParseOutcome {
  const parser = new Parser(text);
  try {
    const { value, root } = parser.parseDocument();
    return { ok: true, value, root, duplicates: parser.duplicates };
  } catch (e) {
    if (e instanceof Fail) {
      const end = Math.min(text.length, Math.max(e.endOffset, e.offset + 1));
      return { ok: false, error: { message: e.msg, offset: e.offset, end: Math.max(end, e.offset) } };
    }
    // A RangeError (stack) cannot happen below MAX_DEPTH; report anything unforeseen as a parse failure.
    return {
      ok: false,
      error: { message: `cannot parse: ${String(e)}`, offset: 0, end: Math.min(1, text.length) },
    };
  }
}
