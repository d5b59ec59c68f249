/**
 * A syntax checker for Python `re` patterns that never runs the pattern.
 *
 * It is a port of CPython 3.11's `re/_parser.py` (plus the two checks that
 * `re/_compiler.py` makes: fixed-width look-behinds and the TEMPLATE flag), so
 * that it accepts exactly what `re.compile(pattern)` accepts for a str pattern
 * with no flags, and reports the same message at the same position. On top of
 * that it rejects atomic groups and possessive quantifiers, which only
 * Python 3.11+ understands, because plugin agents may run an older Python.
 *
 * Python indexes strings by code point while JavaScript uses UTF-16 code
 * units. The parser works on code points (so that every offset formula can be
 * copied from `_parser.py`) and converts positions to UTF-16 offsets only when
 * building the AST and the error.
 */

export type CategoryName = "d" | "D" | "s" | "S" | "w" | "W";

export type ClassItem =
  /** `codePoint` is UNKNOWN_CODE_POINT (-1) for a `\N{name}` escape. */
  | { type: "char"; codePoint: number }
  | { type: "range"; from: number; to: number }
  | { type: "category"; name: CategoryName };

export type GroupKind =
  | "capturing"
  | "nonCapturing"
  | "atomic"
  | "lookahead"
  | "negativeLookahead"
  | "lookbehind"
  | "negativeLookbehind";

/** Inline flags as written, e.g. `{ on: "i", off: "m" }` for `(?i-m:...)`. */
export interface InlineFlags {
  on: string;
  off: string;
}

/** Every node spans `pattern.slice(index, end)` (UTF-16 offsets). */
interface Span {
  index: number;
  end: number;
}

export type RegexNode =
  | (Span & { type: "alternation"; branches: RegexNode[] })
  | (Span & { type: "sequence"; items: RegexNode[] })
  | (Span & {
      type: "group";
      kind: GroupKind;
      /** Group number for capturing groups, otherwise null. */
      number: number | null;
      name: string | null;
      /** Scoped flags of `(?i-m:...)`, otherwise null. */
      flags: InlineFlags | null;
      body: RegexNode;
    })
  | (Span & {
      type: "quantifier";
      min: number;
      /** null means unbounded (`*`, `+`, `{m,}`). */
      max: number | null;
      lazy: boolean;
      possessive: boolean;
      body: RegexNode;
      /** The quantified construct as written, e.g. `(a+)+`. */
      raw: string;
    })
  | (Span & { type: "charClass"; negated: boolean; items: ClassItem[] })
  /** `codePoint` is UNKNOWN_CODE_POINT (-1) for a `\N{name}` escape. */
  | (Span & { type: "literal"; codePoint: number })
  | (Span & { type: "any" })
  | (Span & { type: "category"; name: CategoryName })
  | (Span & {
      type: "assertion";
      kind: "start" | "end" | "stringStart" | "stringEnd" | "wordBoundary" | "notWordBoundary";
    })
  | (Span & { type: "backreference"; group: number; name: string | null })
  | (Span & {
      type: "conditional";
      group: number;
      name: string | null;
      yes: RegexNode;
      no: RegexNode | null;
    })
  /** Global inline flags such as `(?i)`; they apply to the whole pattern. */
  | (Span & { type: "flags"; on: string });

export interface RegexSyntaxError {
  message: string;
  index: number;
}

export type ParseResult =
  { ok: true; ast: RegexNode; groupCount: number } | { ok: false; error: RegexSyntaxError };

/** Deepest nesting of parenthesised constructs we accept (Python itself fails somewhere past 300). */
export const MAX_NESTING = 200;

// Limits from CPython's _sre module on 64-bit builds.
const MAXREPEAT = 4294967295;
const MAXGROUPS = 1073741823;
const MAXCODE = 4294967295;
// getwidth() saturates at 2**64; doubles hold that exactly, and every decision
// made on widths (lo > MAXCODE, lo != hi) stays exact below 2**53.
const MAXWIDTH = 2 ** 64;

// SRE_FLAG_* values.
const FLAG_TEMPLATE = 1;
const FLAG_LOCALE = 4;
const FLAG_UNICODE = 32;
const FLAG_VERBOSE = 64;
const FLAG_DEBUG = 128;
const FLAG_ASCII = 256;
const FLAGS: Readonly<Record<string, number>> = {
  i: 2,
  L: FLAG_LOCALE,
  m: 8,
  s: 16,
  x: FLAG_VERBOSE,
  a: FLAG_ASCII,
  t: FLAG_TEMPLATE,
  u: FLAG_UNICODE,
};
const TYPE_FLAGS = FLAG_ASCII | FLAG_LOCALE | FLAG_UNICODE;
const GLOBAL_FLAGS = FLAG_DEBUG | FLAG_TEMPLATE;

const SPECIAL_CHARS = ".\\[{()*+?^$|";
const DIGITS = "0123456789";
const OCTDIGITS = "01234567";
const HEXDIGITS = "0123456789abcdefABCDEF";
const WHITESPACE = " \t\n\r\v\f";

const ESCAPES: Readonly<Record<string, number>> = {
  "\\a": 7,
  "\\b": 8,
  "\\f": 12,
  "\\n": 10,
  "\\r": 13,
  "\\t": 9,
  "\\v": 11,
  "\\\\": 92,
};

type Width = readonly [lo: number, hi: number];

/** The code point of `\N{...}`, which would need Unicode's name table to resolve. */
export const UNKNOWN_CODE_POINT = -1;

/** A parse failure; `pos` is a code-point index unless `utf16` is set. */
class Failure extends Error {
  constructor(
    message: string,
    readonly pos: number,
    readonly utf16 = false,
  ) {
    super(message);
  }
}

const isAsciiLetter = (c: string): boolean =>
  c.length === 1 && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z"));
const isFlag = (c: string): boolean => Object.hasOwn(FLAGS, c);
const inSet = (c: string | null, set: string): boolean => c !== null && c.length === 1 && set.includes(c);
const cpLen = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

// The property tests below only ever look at one character of the pattern at a
// time (a group name, a flag letter); they never treat the pattern as a regex.
const XID_START = /^[\p{XID_Start}_]$/u;
const XID_CONTINUE = /^\p{XID_Continue}$/u;
const LETTER = /^\p{L}$/u;
const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;
const DECIMAL = /^\p{Nd}$/u;

/** Python's str.isidentifier(). */
function isIdentifier(s: string): boolean {
  let first = true;
  for (const ch of s) {
    if (!(first ? XID_START : XID_CONTINUE).test(ch)) return false;
    first = false;
  }
  return !first;
}

/** Python's str.isalpha(). */
const isAlpha = (s: string): boolean => {
  let any = false;
  for (const ch of s) {
    if (!LETTER.test(ch)) return false;
    any = true;
  }
  return any;
};

/** Python's repr() of a str, as used by `%r` in error messages. */
export function pyRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch !== " " && NOT_PRINTABLE.test(ch)) {
      const hex = cp.toString(16);
      if (cp < 0x100) out += "\\x" + hex.padStart(2, "0");
      else if (cp < 0x10000) out += "\\u" + hex.padStart(4, "0");
      else out += "\\U" + hex.padStart(8, "0");
    } else out += ch;
  }
  return out + quote;
}

// The whitespace int() strips: ASCII isspace() plus Py_UNICODE_ISSPACE beyond ASCII.
const PY_SPACE = new Set(
  [9, 10, 11, 12, 13, 32, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000].concat(
    Array.from({ length: 11 }, (_, i) => 0x2000 + i),
  ),
);

/** Value of a Unicode decimal digit: Nd digits come in aligned runs of ten. */
function decimalValue(cp: number): number {
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  let k = 0;
  while (k < 60 && DECIMAL.test(String.fromCodePoint(cp - k - 1))) k++;
  return k % 10;
}

// int() refuses to convert more digits than this (sys.get_int_max_str_digits()).
const INT_MAX_STR_DIGITS = 4300;

/** Python's int(s) for a str in base 10, or null where int() raises ValueError. */
function pyInt(s: string): bigint | null {
  const cps = Array.from(s, (c) => c.codePointAt(0) ?? 0);
  let i = 0;
  let j = cps.length;
  while (i < j && PY_SPACE.has(cps[i] ?? 0)) i++;
  while (j > i && PY_SPACE.has(cps[j - 1] ?? 0)) j--;
  let negative = false;
  if (cps[i] === 0x2b || cps[i] === 0x2d) negative = cps[i++] === 0x2d;
  if (i >= j) return null;
  let digits = "";
  let lastWasDigit = false;
  for (; i < j; i++) {
    const cp = cps[i] ?? 0;
    if (cp === 0x5f) {
      // Underscores only between digits.
      if (!lastWasDigit || i + 1 >= j) return null;
      lastWasDigit = false;
      continue;
    }
    if (!DECIMAL.test(String.fromCodePoint(cp))) return null;
    if (digits.length >= INT_MAX_STR_DIGITS) return null;
    digits += String(decimalValue(cp));
    lastWasDigit = true;
  }
  if (!lastWasDigit) return null;
  const value = BigInt(digits);
  return negative ? -value : value;
}

/**
 * Whether `name` could be a Unicode character name for `\N{...}`. Python looks
 * names up (case-insensitively) in its Unicode database, which we do not
 * carry; so we accept any name spelled like one: ASCII letters, digits and
 * hyphens in words separated by single spaces, starting with a letter, from 2
 * characters (aliases such as "LF") to the longest name (88) plus room for aliases.
 */
function plausibleCharName(name: string): boolean {
  return (
    name.length >= 2 &&
    name.length <= 100 &&
    isAsciiLetter(name[0] ?? "") &&
    name.split(" ").every((word) => word.length > 0 && [...word].every((c) => c === "-" || isAlnumAscii(c)))
  );
}

/** Whether s holds a lone surrogate, which unicodedata.lookup() cannot encode. */
function hasLoneSurrogate(s: string): boolean {
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0xd800 && cp <= 0xdfff) return true;
  }
  return false;
}
const isAlnumAscii = (c: string): boolean => isAsciiLetter(c) || (c >= "0" && c <= "9");

/** Python's re Tokenizer over an array of code points. */
class Tokenizer {
  next: string | null = null;
  private nextLen = 0;
  private index = 0;

  constructor(private readonly cps: readonly number[]) {
    this.advance();
  }

  private advance(): void {
    let i = this.index;
    const cp = this.cps[i];
    if (cp === undefined) {
      this.next = null;
      this.nextLen = 0;
      return;
    }
    let ch = String.fromCodePoint(cp);
    let len = 1;
    if (ch === "\\") {
      i++;
      const esc = this.cps[i];
      if (esc === undefined) throw new Failure("bad escape (end of pattern)", this.cps.length - 1);
      ch += String.fromCodePoint(esc);
      len = 2;
    }
    this.index = i + 1;
    this.next = ch;
    this.nextLen = len;
  }

  match(c: string): boolean {
    if (this.next === c) {
      this.advance();
      return true;
    }
    return false;
  }

  get(): string | null {
    const t = this.next;
    this.advance();
    return t;
  }

  /** Up to n single characters from `set`. */
  getwhile(n: number, set: string): string {
    let result = "";
    for (let k = 0; k < n && inSet(this.next, set); k++) result += this.get() ?? "";
    return result;
  }

  getuntil(terminator: string, name: string): string {
    let result = "";
    let len = 0;
    for (;;) {
      const c = this.next;
      const clen = this.nextLen;
      this.advance();
      if (c === null) {
        if (!result) throw this.error("missing " + name);
        throw this.error(`missing ${terminator}, unterminated name`, len);
      }
      if (c === terminator) {
        if (!result) throw this.error("missing " + name, 1);
        return result;
      }
      result += c;
      len += clen;
    }
  }

  tell(): number {
    return this.index - this.nextLen;
  }

  seek(index: number): void {
    this.index = index;
    this.advance();
  }

  error(message: string, offset = 0): Failure {
    return new Failure(message, this.tell() - offset);
  }

  checkgroupname(name: string, offset: number): void {
    if (!isIdentifier(name)) {
      throw this.error(`bad character in group name ${pyRepr(name)}`, cpLen(name) + offset);
    }
  }
}

type Escape =
  | { kind: "literal"; cp: number }
  | { kind: "category"; name: CategoryName }
  | { kind: "assertion"; at: "stringStart" | "stringEnd" | "wordBoundary" | "notWordBoundary" }
  | { kind: "groupref"; group: number };

const CLASS_CATEGORIES = new Set(["\\d", "\\D", "\\s", "\\S", "\\w", "\\W"]);
const ASSERTION_ESCAPES: Readonly<
  Record<string, "stringStart" | "stringEnd" | "wordBoundary" | "notWordBoundary">
> = { "\\A": "stringStart", "\\Z": "stringEnd", "\\b": "wordBoundary", "\\B": "notWordBoundary" };

class Parser {
  private readonly tok: Tokenizer;
  private flags = 0;
  private readonly groupdict = new Map<string, number>();
  /** Whether each group is closed yet; index 0 is unused. */
  private readonly groupClosed: boolean[] = [false];
  /** Widths of the closed groups, for back-references inside look-behinds. */
  private readonly groupWidths = new Map<number, Width>();
  private lookbehindgroups: number | null = null;
  /** First position of each `(?(N)...)` group number, checked once all groups are known. */
  private readonly grouprefpos = new Map<bigint, number>();
  private depth = 0;
  /** Position of the global flags group that made ASCII and UNICODE clash. */
  private typeFlagsClash = -1;
  /** The first construct that Python before 3.11 rejects, reported if nothing else is wrong. */
  private compat: Failure | null = null;

  constructor(
    private readonly pattern: string,
    private readonly cps: readonly number[],
    private readonly offsets: readonly number[],
  ) {
    this.tok = new Tokenizer(cps);
  }

  private off(cpPos: number): number {
    return this.offsets[cpPos] ?? this.pattern.length;
  }

  /**
   * SubPattern.getwidth(): the least and greatest length `node` can match.
   * It stops at look-arounds (zero-width) and at capturing groups, measured
   * when they close, so a node is measured at most twice: by its group and by
   * its look-behind.
   */
  private width(node: RegexNode): Width {
    switch (node.type) {
      case "literal":
      case "any":
      case "category":
      case "charClass":
        return [1, 1];
      case "assertion":
      case "flags":
        return [0, 0];
      case "backreference":
        return this.groupWidths.get(node.group) ?? [0, 0];
      case "group":
        if (node.kind.startsWith("look") || node.kind.startsWith("negative")) return [0, 0];
        return (node.number !== null && this.groupWidths.get(node.number)) || this.width(node.body);
      case "quantifier": {
        const [i, j] = this.width(node.body);
        const hi = node.max === null ? (j ? MAXWIDTH : 0) : j * node.max;
        return [Math.min(i * node.min, MAXWIDTH), Math.min(hi, MAXWIDTH)];
      }
      case "sequence": {
        let lo = 0;
        let hi = 0;
        for (const item of node.items) {
          const [l, h] = this.width(item);
          lo = Math.min(lo + l, MAXWIDTH);
          hi = Math.min(hi + h, MAXWIDTH);
        }
        return [lo, hi];
      }
      case "alternation": {
        let lo = MAXWIDTH;
        let hi = 0;
        for (const branch of node.branches) {
          const [l, h] = this.width(branch);
          lo = Math.min(lo, l);
          hi = Math.max(hi, h);
        }
        return [lo, hi];
      }
      case "conditional": {
        // Without a "no" branch the conditional may match nothing.
        let [lo, hi] = this.width(node.yes);
        if (node.no) {
          const [l, h] = this.width(node.no);
          lo = Math.min(lo, l);
          hi = Math.max(hi, h);
        } else lo = 0;
        return [lo, hi];
      }
    }
  }

  private get groups(): number {
    return this.groupClosed.length;
  }

  private checkgroup(gid: number): boolean {
    return this.groupClosed[gid] === true;
  }

  private checklookbehindgroup(gid: number): void {
    if (this.lookbehindgroups !== null) {
      if (!this.checkgroup(gid)) throw this.tok.error("cannot refer to an open group");
      if (gid >= this.lookbehindgroups) {
        throw this.tok.error("cannot refer to group defined in the same lookbehind subpattern");
      }
    }
  }

  run(): { ast: RegexNode; groupCount: number } {
    const tok = this.tok;
    const ast = this.parseSub((this.flags & FLAG_VERBOSE) !== 0, true);
    // fix_flags(): a str pattern cannot be both ASCII and UNICODE.
    if (this.flags & FLAG_ASCII && this.flags & FLAG_UNICODE) {
      throw new Failure("ASCII and UNICODE flags are incompatible", this.typeFlagsClash, true);
    }
    if (tok.next !== null) throw tok.error("unbalanced parenthesis");
    for (const [g, pos] of this.grouprefpos) {
      if (g >= BigInt(this.groups)) throw new Failure(`invalid group reference ${g}`, pos);
    }
    this.compileChecks(ast);
    if (this.compat) throw this.compat;
    return { ast, groupCount: this.groups - 1 };
  }

  /** The errors that CPython raises only while compiling the parsed pattern. */
  private compileChecks(ast: RegexNode): void {
    const template = (this.flags & FLAG_TEMPLATE) !== 0;
    // Pre-order, like _compile(), so the first offending construct wins.
    const stack: RegexNode[] = [ast];
    for (let node = stack.pop(); node; node = stack.pop()) {
      switch (node.type) {
        case "quantifier": {
          if (template) {
            const op = node.lazy ? "MIN_REPEAT" : node.possessive ? "POSSESSIVE_REPEAT" : "MAX_REPEAT";
            throw new Failure(`internal: unsupported template operator ${op}`, node.index, true);
          }
          stack.push(node.body);
          break;
        }
        case "group": {
          if (node.kind === "lookbehind" || node.kind === "negativeLookbehind") {
            const [lo, hi] = this.width(node.body);
            if (lo > MAXCODE) throw new Failure("looks too much behind", node.index, true);
            if (lo !== hi) throw new Failure("look-behind requires fixed-width pattern", node.index, true);
          }
          stack.push(node.body);
          break;
        }
        case "alternation":
          for (let i = node.branches.length - 1; i >= 0; i--) stack.push(node.branches[i]!);
          break;
        case "sequence":
          for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]!);
          break;
        case "conditional":
          if (node.no) stack.push(node.no);
          stack.push(node.yes);
          break;
        default:
          break;
      }
    }
  }

  /** _parse_sub: an alternation `a|b|c`. */
  private parseSub(verbose: boolean, top: boolean): RegexNode {
    const branches: RegexNode[] = [];
    for (;;) {
      branches.push(this.parseSeq(verbose, top && branches.length === 0));
      if (!this.tok.match("|")) break;
      if (top) verbose = (this.flags & FLAG_VERBOSE) !== 0;
    }
    const first = branches[0]!;
    if (branches.length === 1) return first;
    const last = branches[branches.length - 1]!;
    return { type: "alternation", index: first.index, end: last.end, branches };
  }

  /** _parse: a sequence of items up to `|`, `)` or the end. */
  private parseSeq(verbose: boolean, first: boolean): RegexNode {
    const tok = this.tok;
    const items: RegexNode[] = [];
    const startPos = tok.tell();
    // Global flag groups leave Python's subpattern empty; count the real items.
    let realItems = 0;
    const push = (node: RegexNode): void => {
      items.push(node);
      if (node.type !== "flags") realItems++;
    };

    for (;;) {
      const thisTok = tok.next;
      if (thisTok === null || thisTok === "|" || thisTok === ")") break;
      const thisPos = tok.tell();
      tok.get();

      if (verbose) {
        if (inSet(thisTok, WHITESPACE)) continue;
        if (thisTok === "#") {
          for (let c = tok.get(); c !== null && c !== "\n"; c = tok.get());
          continue;
        }
      }

      if (thisTok[0] === "\\") {
        const code = this.escape(thisTok);
        const span = { index: this.off(thisPos), end: this.off(tok.tell()) };
        switch (code.kind) {
          case "literal":
            push({ type: "literal", ...span, codePoint: code.cp });
            break;
          case "category":
            push({ type: "category", ...span, name: code.name });
            break;
          case "assertion":
            push({ type: "assertion", ...span, kind: code.at });
            break;
          case "groupref":
            push({ type: "backreference", ...span, group: code.group, name: null });
            break;
        }
      } else if (thisTok.length !== 1 || !SPECIAL_CHARS.includes(thisTok)) {
        const span = { index: this.off(thisPos), end: this.off(tok.tell()) };
        push({ type: "literal", ...span, codePoint: thisTok.codePointAt(0) ?? 0 });
      } else if (thisTok === "[") {
        push(this.charClass(thisPos));
      } else if ("*+?{".includes(thisTok)) {
        const here = tok.tell();
        let min: number;
        let max: number | null;
        if (thisTok === "?") [min, max] = [0, 1];
        else if (thisTok === "*") [min, max] = [0, null];
        else if (thisTok === "+") [min, max] = [1, null];
        else {
          if (tok.next === "}") {
            push({ type: "literal", index: this.off(thisPos), end: this.off(here), codePoint: 0x7b });
            continue;
          }
          let lo = "";
          let hi = "";
          while (inSet(tok.next, DIGITS)) lo += tok.get() ?? "";
          if (tok.match(",")) {
            while (inSet(tok.next, DIGITS)) hi += tok.get() ?? "";
          } else hi = lo;
          if (!tok.match("}")) {
            // Not a valid repeat: `{` is a literal and parsing resumes after it.
            push({ type: "literal", index: this.off(thisPos), end: this.off(here), codePoint: 0x7b });
            tok.seek(here);
            continue;
          }
          min = 0;
          max = null;
          // Python raises OverflowError (with no position) for these.
          if (lo) {
            min = Number(lo);
            if (min >= MAXREPEAT) throw new Failure("the repetition number is too large", thisPos);
          }
          if (hi) {
            max = Number(hi);
            if (max >= MAXREPEAT) throw new Failure("the repetition number is too large", thisPos);
            if (max < min) throw tok.error("min repeat greater than max repeat", tok.tell() - here);
          }
        }
        const item = items[items.length - 1];
        if (!item || item.type === "assertion" || item.type === "flags") {
          throw tok.error("nothing to repeat", tok.tell() - here + 1);
        }
        if (item.type === "quantifier") throw tok.error("multiple repeat", tok.tell() - here + 1);
        const opEnd = tok.tell();
        const lazy = tok.match("?");
        const possessive = !lazy && tok.match("+");
        const end = this.off(tok.tell());
        if (possessive && !this.compat) {
          const op = this.pattern.slice(this.off(thisPos), end);
          this.compat = new Failure(
            `possessive quantifier \`${op}\` needs Python 3.11+; older Python rejects it`,
            opEnd,
          );
        }
        items[items.length - 1] = {
          type: "quantifier",
          index: item.index,
          end,
          min,
          max,
          lazy,
          possessive,
          body: item,
          raw: this.pattern.slice(item.index, end),
        };
      } else if (thisTok === ".") {
        push({ type: "any", index: this.off(thisPos), end: this.off(thisPos + 1) });
      } else if (thisTok === "(") {
        const node = this.group(thisPos, verbose, first, realItems > 0);
        if (node) push(node);
        // Global flags such as (?x) take effect at once.
        if (node?.type === "flags") verbose = (this.flags & FLAG_VERBOSE) !== 0;
      } else if (thisTok === "^") {
        push({ type: "assertion", index: this.off(thisPos), end: this.off(thisPos + 1), kind: "start" });
      } else if (thisTok === "$") {
        push({ type: "assertion", index: this.off(thisPos), end: this.off(thisPos + 1), kind: "end" });
      }
    }

    const index = items[0]?.index ?? this.off(startPos);
    const end = items[items.length - 1]?.end ?? index;
    return { type: "sequence", index, end, items };
  }

  /**
   * Everything that starts with `(`. Returns null for a comment, which adds
   * nothing; global flags come back as a "flags" node.
   */
  private group(startPos: number, verbose: boolean, first: boolean, hasItems: boolean): RegexNode | null {
    const tok = this.tok;
    const start = this.off(startPos);
    let capture = true;
    let name: string | null = null;
    let kind: GroupKind = "capturing";
    let add = 0;
    let del = 0;
    let flags: InlineFlags | null = null;
    const unterminated = (): Failure =>
      tok.error("missing ), unterminated subpattern", tok.tell() - startPos);

    if (tok.match("?")) {
      let char = tok.get();
      if (char === null) throw tok.error("unexpected end of pattern");
      if (char === "P") {
        if (tok.match("<")) {
          name = tok.getuntil(">", "group name");
          tok.checkgroupname(name, 1);
        } else if (tok.match("=")) {
          name = tok.getuntil(")", "group name");
          tok.checkgroupname(name, 1);
          const gid = this.groupdict.get(name);
          if (gid === undefined) throw tok.error(`unknown group name ${pyRepr(name)}`, cpLen(name) + 1);
          if (!this.checkgroup(gid)) throw tok.error("cannot refer to an open group", cpLen(name) + 1);
          this.checklookbehindgroup(gid);
          return { type: "backreference", index: start, end: this.off(tok.tell()), group: gid, name };
        } else {
          char = tok.get();
          if (char === null) throw tok.error("unexpected end of pattern");
          throw tok.error("unknown extension ?P" + char, cpLen(char) + 2);
        }
      } else if (char === ":") {
        capture = false;
        kind = "nonCapturing";
      } else if (char === "#") {
        for (;;) {
          if (tok.next === null) throw tok.error("missing ), unterminated comment", tok.tell() - startPos);
          if (tok.get() === ")") return null;
        }
      } else if (char === "=" || char === "!" || char === "<") {
        let behind = false;
        if (char === "<") {
          char = tok.get();
          if (char === null) throw tok.error("unexpected end of pattern");
          if (char !== "=" && char !== "!") throw tok.error("unknown extension ?<" + char, cpLen(char) + 2);
          behind = true;
        }
        this.enter(start);
        const saved = this.lookbehindgroups;
        if (behind && saved === null) this.lookbehindgroups = this.groups;
        const body = this.parseSub(verbose, false);
        if (behind && saved === null) this.lookbehindgroups = null;
        this.depth--;
        if (!tok.match(")")) throw unterminated();
        const lookKind: GroupKind =
          char === "="
            ? behind
              ? "lookbehind"
              : "lookahead"
            : behind
              ? "negativeLookbehind"
              : "negativeLookahead";
        return {
          type: "group",
          index: start,
          end: this.off(tok.tell()),
          kind: lookKind,
          number: null,
          name: null,
          flags: null,
          body,
        };
      } else if (char === "(") {
        return this.conditional(startPos, verbose);
      } else if (char === ">") {
        capture = false;
        kind = "atomic";
        if (!this.compat) {
          this.compat = new Failure(
            "atomic groups (?>...) need Python 3.11+; older Python rejects them",
            startPos,
          );
        }
      } else if (isFlag(char) || char === "-") {
        const parsed = this.parseFlags(char);
        if (parsed === null) {
          if (!first || hasItems) {
            throw tok.error("global flags not at the start of the expression", tok.tell() - startPos);
          }
          if (this.flags & FLAG_ASCII && this.flags & FLAG_UNICODE && this.typeFlagsClash < 0) {
            this.typeFlagsClash = start;
          }
          const on = this.pattern.slice(this.off(startPos + 2), this.off(tok.tell() - 1));
          return { type: "flags", index: start, end: this.off(tok.tell()), on };
        }
        [add, del, flags] = parsed;
        capture = false;
        kind = "nonCapturing";
      } else {
        throw tok.error("unknown extension ?" + char, cpLen(char) + 1);
      }
    }

    let gid: number | null = null;
    if (capture) {
      gid = this.groups;
      this.groupClosed.push(false);
      if (name !== null) {
        const ogid = this.groupdict.get(name);
        if (ogid !== undefined) {
          throw tok.error(
            `redefinition of group name ${pyRepr(name)} as group ${gid}; was group ${ogid}`,
            cpLen(name) + 1,
          );
        }
        this.groupdict.set(name, gid);
      }
    }
    const subVerbose = (verbose || (add & FLAG_VERBOSE) !== 0) && !(del & FLAG_VERBOSE);
    this.enter(start);
    const body = this.parseSub(subVerbose, false);
    this.depth--;
    if (!tok.match(")")) throw unterminated();
    const node: RegexNode = {
      type: "group",
      index: start,
      end: this.off(tok.tell()),
      kind,
      number: gid,
      name,
      flags,
      body,
    };
    if (gid !== null) {
      this.groupWidths.set(gid, this.width(body));
      this.groupClosed[gid] = true;
    }
    return node;
  }

  private enter(start: number): void {
    if (this.depth >= MAX_NESTING) {
      throw new Failure(`nested too deeply (more than ${MAX_NESTING} levels)`, start, true);
    }
    this.depth++;
  }

  /** `(?(1)yes|no)` and `(?(name)yes|no)`; the `(?(` is consumed. */
  private conditional(startPos: number, verbose: boolean): RegexNode {
    const tok = this.tok;
    const start = this.off(startPos);
    const condname = tok.getuntil(")", "group name");
    const nameLen = cpLen(condname);
    let condgroup: number;
    let name: string | null = null;
    if (isIdentifier(condname)) {
      const gid = this.groupdict.get(condname);
      if (gid === undefined) throw tok.error(`unknown group name ${pyRepr(condname)}`, nameLen + 1);
      condgroup = gid;
      name = condname;
    } else {
      const n = pyInt(condname);
      if (n === null || n < 0n)
        throw tok.error(`bad character in group name ${pyRepr(condname)}`, nameLen + 1);
      if (n === 0n) throw tok.error("bad group number", nameLen + 1);
      if (n >= BigInt(MAXGROUPS)) throw tok.error(`invalid group reference ${n}`, nameLen + 1);
      if (!this.grouprefpos.has(n)) this.grouprefpos.set(n, tok.tell() - nameLen - 1);
      condgroup = Number(n);
    }
    this.checklookbehindgroup(condgroup);
    this.enter(start);
    const yes = this.parseSeq(verbose, false);
    let no: RegexNode | null = null;
    if (tok.match("|")) {
      no = this.parseSeq(verbose, false);
      if (tok.next === "|") throw tok.error("conditional backref with more than two branches");
    }
    this.depth--;
    if (!tok.match(")")) throw tok.error("missing ), unterminated subpattern", tok.tell() - startPos);
    return { type: "conditional", index: start, end: this.off(tok.tell()), group: condgroup, name, yes, no };
  }

  /** _parse_flags: returns null for global flags `(?i)`, else the scoped flags. */
  private parseFlags(first: string): [number, number, InlineFlags] | null {
    const tok = this.tok;
    let char: string | null = first;
    let add = 0;
    let del = 0;
    let on = "";
    let off = "";
    if (char !== "-") {
      for (;;) {
        const flag = FLAGS[char] ?? 0;
        if (char === "L") throw tok.error("bad inline flags: cannot use 'L' flag with a str pattern");
        add |= flag;
        on += char;
        if (flag & TYPE_FLAGS && (add & TYPE_FLAGS) !== flag) {
          throw tok.error("bad inline flags: flags 'a', 'u' and 'L' are incompatible");
        }
        char = tok.get();
        if (char === null) throw tok.error("missing -, : or )");
        if (char === ")" || char === "-" || char === ":") break;
        if (!isFlag(char)) {
          throw tok.error(isAlpha(char) ? "unknown flag" : "missing -, : or )", cpLen(char));
        }
      }
    }
    if (char === ")") {
      this.flags |= add;
      return null;
    }
    if (add & GLOBAL_FLAGS) throw tok.error("bad inline flags: cannot turn on global flag", 1);
    if (char === "-") {
      char = tok.get();
      if (char === null) throw tok.error("missing flag");
      if (!isFlag(char)) throw tok.error(isAlpha(char) ? "unknown flag" : "missing flag", cpLen(char));
      for (;;) {
        const flag = FLAGS[char] ?? 0;
        if (flag & TYPE_FLAGS) throw tok.error("bad inline flags: cannot turn off flags 'a', 'u' and 'L'");
        del |= flag;
        off += char;
        char = tok.get();
        if (char === null) throw tok.error("missing :");
        if (char === ":") break;
        if (!isFlag(char)) throw tok.error(isAlpha(char) ? "unknown flag" : "missing :", cpLen(char));
      }
    }
    if (del & GLOBAL_FLAGS) throw tok.error("bad inline flags: cannot turn off global flag", 1);
    if (add & del) throw tok.error("bad inline flags: flag turned on and off", 1);
    return [add, del, { on, off }];
  }

  /** A character set; the `[` at `startPos` is consumed. */
  private charClass(startPos: number): RegexNode {
    const tok = this.tok;
    const items: ClassItem[] = [];
    const negated = tok.match("^");
    const unterminated = (): Failure => tok.error("unterminated character set", tok.tell() - startPos);
    for (;;) {
      const first = tok.get();
      if (first === null) throw unterminated();
      if (first === "]" && items.length > 0) break;
      const code1 = first[0] === "\\" ? this.classEscape(first) : literalItem(first);
      if (tok.match("-")) {
        const that = tok.get();
        if (that === null) throw unterminated();
        if (that === "]") {
          items.push(code1, { type: "char", codePoint: 0x2d });
          break;
        }
        const code2 = that[0] === "\\" ? this.classEscape(that) : literalItem(that);
        const msg = `bad character range ${first}-${that}`;
        const offset = cpLen(first) + 1 + cpLen(that);
        if (code1.type !== "char" || code2.type !== "char") throw tok.error(msg, offset);
        const unknown = code1.codePoint === UNKNOWN_CODE_POINT || code2.codePoint === UNKNOWN_CODE_POINT;
        if (!unknown && code2.codePoint < code1.codePoint) throw tok.error(msg, offset);
        items.push({ type: "range", from: code1.codePoint, to: code2.codePoint });
      } else items.push(code1);
    }
    return { type: "charClass", index: this.off(startPos), end: this.off(tok.tell()), negated, items };
  }

  /** The escapes shared by _escape and _class_escape: \x \u \U \N. */
  private numericEscape(escape: string, c: string): number | null {
    const tok = this.tok;
    const fixed = (digits: number): number => {
      const esc = escape + tok.getwhile(digits, HEXDIGITS);
      if (esc.length !== digits + 2) throw tok.error("incomplete escape " + esc, esc.length);
      const value = parseInt(esc.slice(2), 16);
      // chr() rejects code points past U+10FFFF; Python reports that as a bad escape.
      if (value > 0x10ffff) throw tok.error("bad escape " + esc, esc.length);
      return value;
    };
    if (c === "x") return fixed(2);
    if (c === "u") return fixed(4);
    if (c === "U") return fixed(8);
    if (c === "N") {
      if (!tok.match("{")) throw tok.error("missing {");
      const charname = tok.getuntil("}", "character name");
      // lookup() raises UnicodeEncodeError, a ValueError, which Python reports as a bad escape.
      if (hasLoneSurrogate(charname)) throw tok.error("bad escape " + escape, 2);
      if (!plausibleCharName(charname)) {
        throw tok.error(`undefined character name ${pyRepr(charname)}`, cpLen(charname) + 4);
      }
      return UNKNOWN_CODE_POINT;
    }
    return null;
  }

  /** _class_escape: an escape inside `[...]`. */
  private classEscape(escape: string): ClassItem {
    const tok = this.tok;
    const known = ESCAPES[escape];
    if (known !== undefined) return { type: "char", codePoint: known };
    if (CLASS_CATEGORIES.has(escape)) return { type: "category", name: escape[1] as CategoryName };
    const c = String.fromCodePoint(escape.codePointAt(1) ?? 0);
    const numeric = this.numericEscape(escape, c);
    if (numeric !== null) return { type: "char", codePoint: numeric };
    if (inSet(c, OCTDIGITS)) {
      const esc = escape + tok.getwhile(2, OCTDIGITS);
      const value = parseInt(esc.slice(1), 8);
      if (value > 0o377) {
        throw tok.error(`octal escape value ${esc} outside of range 0-0o377`, esc.length);
      }
      return { type: "char", codePoint: value };
    }
    if (inSet(c, DIGITS) || isAsciiLetter(c)) throw tok.error("bad escape " + escape, 2);
    return { type: "char", codePoint: c.codePointAt(0) ?? 0 };
  }

  /** _escape: an escape outside a character set. */
  private escape(escape: string): Escape {
    const tok = this.tok;
    const at = ASSERTION_ESCAPES[escape];
    if (at) return { kind: "assertion", at };
    if (CLASS_CATEGORIES.has(escape)) return { kind: "category", name: escape[1] as CategoryName };
    const known = ESCAPES[escape];
    if (known !== undefined) return { kind: "literal", cp: known };
    const c = String.fromCodePoint(escape.codePointAt(1) ?? 0);
    const numeric = this.numericEscape(escape, c);
    if (numeric !== null) return { kind: "literal", cp: numeric };
    if (c === "0") {
      const esc = escape + tok.getwhile(2, OCTDIGITS);
      return { kind: "literal", cp: parseInt(esc.slice(1), 8) };
    }
    if (inSet(c, DIGITS)) {
      // An octal escape (three octal digits) or a group reference (one or two digits).
      let esc = escape;
      if (inSet(tok.next, DIGITS)) {
        esc += tok.get() ?? "";
        if (
          inSet(esc[1] ?? null, OCTDIGITS) &&
          inSet(esc[2] ?? null, OCTDIGITS) &&
          inSet(tok.next, OCTDIGITS)
        ) {
          esc += tok.get() ?? "";
          const value = parseInt(esc.slice(1), 8);
          if (value > 0o377) {
            throw tok.error(`octal escape value ${esc} outside of range 0-0o377`, esc.length);
          }
          return { kind: "literal", cp: value };
        }
      }
      const group = Number(esc.slice(1));
      if (group < this.groups) {
        if (!this.checkgroup(group)) throw tok.error("cannot refer to an open group", esc.length);
        this.checklookbehindgroup(group);
        return { kind: "groupref", group };
      }
      throw tok.error(`invalid group reference ${group}`, esc.length - 1);
    }
    if (isAsciiLetter(c)) throw tok.error("bad escape " + escape, 2);
    return { kind: "literal", cp: c.codePointAt(0) ?? 0 };
  }
}

function literalItem(ch: string): ClassItem {
  return { type: "char", codePoint: ch.codePointAt(0) ?? 0 };
}

/**
 * Judges `pattern` the way CPython 3.11's `re.compile(pattern)` does, without
 * compiling or running it, and additionally rejects syntax that needs 3.11.
 * Never throws.
 */
export function parsePythonRegex(pattern: string): ParseResult {
  const cps: number[] = [];
  const offsets: number[] = [];
  for (let i = 0; i < pattern.length;) {
    const cp = pattern.codePointAt(i) ?? 0;
    cps.push(cp);
    offsets.push(i);
    i += cp > 0xffff ? 2 : 1;
  }
  offsets.push(pattern.length);
  try {
    const { ast, groupCount } = new Parser(pattern, cps, offsets).run();
    return { ok: true, ast, groupCount };
  } catch (e) {
    if (e instanceof Failure) {
      const index = e.utf16 ? e.pos : (offsets[Math.max(0, Math.min(e.pos, cps.length))] ?? 0);
      return { ok: false, error: { message: e.message, index } };
    }
    // A bug here must not take the linter down with it.
    return { ok: false, error: { message: `internal error: ${String(e)}`, index: 0 } };
  }
}
