/**
 * Spots the shapes of catastrophic (exponential) backtracking in a parsed
 * Python pattern, statically. A repetition `X*` backtracks exponentially on a
 * near-miss input when it can match one string in two different ways (two
 * different runs of `X` iterations, or different paths through `X`): then `w`
 * repeated n times can be matched in 2^n ways, and a failing match tries them
 * all. Two messages come out of that one test:
 *
 * - a nested quantifier: the repeated sub-expression contains another
 *   unbounded repetition which can run on into the text the next outer
 *   repetition would match (`(a+)+`, `(\w+\s?)*`, `(?:a|b+)*`, `(.*,)*`);
 * - a repeated alternation or other ambiguous repetition: two branches match a
 *   common string (`(a|a)*`, `(\w|\d)+`), or a branch matches what a run of
 *   iterations matches (`(a|aa)*`, `(a|ab|b)*`).
 *
 * `(?:foo|bar|baz)+`, `(tomcat|tomee)+` and `(a|ab)*` are not flagged: their
 * branches start alike but every string splits into iterations one way only.
 *
 * "Repeated" means an unbounded quantifier or one allowing more than ten
 * repetitions. The ambiguity test is exact for the language of the repeated
 * part as this module models it (see LoopAutomaton and Analyzer.ambiguity):
 * look-arounds and `\b` are ignored (more strings, so it may flag more), `^`,
 * `$`, `\A` and `\Z` (which hold at most twice in a string) cut the paths
 * through them, and back-references, atomic groups and possessive repetitions
 * are opaque tokens that only match themselves. Counted repetitions are
 * unrolled. When the repeated part has more than MAX_POSITIONS character
 * positions unrolled, or the search needs more than MAX_CHECK_WORK steps (or
 * the pattern as a whole more than MAX_TOTAL_WORK), the search gives up: a
 * repeated alternation is then not reported (no risk assumed), and a nested
 * quantifier is judged by the first-character test alone, as it always was.
 *
 * Character sets are compared on a finite sample of characters: all of ASCII,
 * a few representatives of the non-ASCII classes, and every non-ASCII character
 * the pattern mentions. Sets are bitsets (bigint) over that sample.
 */

import type { CategoryName, ClassItem, RegexNode } from "./parse.js";
import { UNKNOWN_CODE_POINT } from "./parse.js";
import { quote as quoteCode } from "../quote.js";

export interface BacktrackingRisk {
  message: string;
  index: number;
}

/** Repetition counts above this are treated like `*` for the outer loop. */
const LARGE_REPEAT = 10;
/** Character positions of one repeated part, counted repetitions unrolled, past which the search gives up. */
const MAX_POSITIONS = 2000;
/** Steps (positions, follow edges, state pairs) one search may take before giving up. */
const MAX_CHECK_WORK = 200_000;
/** Steps all the searches of one pattern may take together. */
const MAX_TOTAL_WORK = 2_000_000;
/** Non-ASCII code points of the pattern that get their own sample slot. */
const MAX_PATTERN_POINTS = 256;

// Non-ASCII stand-ins: letters (with case pairs), a non-ASCII decimal digit, a
// numeric that is \w but not \d, spaces, a symbol and an astral character.
const SAMPLES = [
  0xe9, 0xc9, 0xdf, 0x212a, 0x4e2d, 0x663, 0xb2, 0x85, 0xa0, 0x2028, 0x3000, 0x20ac, 0xd800, 0x1f600,
];

// Python's \s for str patterns (str.isspace()).
const UNICODE_SPACE = new Set([
  9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
  0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);
// Classification of single sample characters, never of the pattern.
const UNICODE_DIGIT = /^\p{Nd}$/u;
const UNICODE_WORD = /^[\p{L}\p{N}_]$/u;

interface Context {
  ignoreCase: boolean;
  ascii: boolean;
  dotAll: boolean;
  multiline: boolean;
}

interface Info {
  /** Characters a non-empty match can start with. */
  first: bigint;
  nullable: boolean;
  /** Whether some match is non-empty. */
  nonEmpty: boolean;
}

function isCategory(name: CategoryName, cp: number, ascii: boolean): boolean {
  const ch = String.fromCodePoint(cp);
  const lower = name.toLowerCase();
  let yes: boolean;
  if (lower === "d") yes = ascii ? cp >= 0x30 && cp <= 0x39 : UNICODE_DIGIT.test(ch);
  else if (lower === "s") yes = ascii ? cp === 32 || (cp >= 9 && cp <= 13) : UNICODE_SPACE.has(cp);
  else yes = ascii ? cp < 128 && UNICODE_WORD.test(ch) : UNICODE_WORD.test(ch);
  return name === lower ? yes : !yes;
}

/** Single-code-point lower and upper case forms of cp. */
function caseVariants(cp: number): number[] {
  const out: number[] = [];
  const s = String.fromCodePoint(cp);
  for (const t of [s.toLowerCase(), s.toUpperCase()]) {
    const v = t.codePointAt(0);
    if (v !== undefined && v !== cp && String.fromCodePoint(v) === t) out.push(v);
  }
  return out;
}

/** The sample alphabet and the bitsets of the sets we meet. */
class Alphabet {
  private readonly points: number[];
  private readonly bit = new Map<number, number>();
  private readonly variants: bigint[];
  readonly all: bigint;
  private readonly nonAscii: bigint;
  private readonly cache = new Map<string, bigint>();
  /** Bits in the order sample() prefers them: letters, digits, other printable ASCII, then the rest. */
  private preferred: [cp: number, bit: bigint][] | null = null;

  constructor(patternPoints: Iterable<number>) {
    const set = new Set<number>(SAMPLES);
    for (let cp = 0; cp < 128; cp++) set.add(cp);
    for (const cp of patternPoints) {
      if (set.size >= 128 + SAMPLES.length + MAX_PATTERN_POINTS) break;
      set.add(cp);
    }
    for (const cp of [...set]) for (const v of caseVariants(cp)) set.add(v);
    this.points = [...set].sort((a, b) => a - b);
    this.points.forEach((cp, i) => this.bit.set(cp, i));
    this.all = (1n << BigInt(this.points.length)) - 1n;
    this.nonAscii = this.all ^ ((1n << 128n) - 1n);
    this.variants = this.points.map((cp) => {
      let m = 0n;
      for (const v of caseVariants(cp)) m |= this.single(v);
      return m;
    });
  }

  /** Number of sampled characters; bits from here on are free for opaque tokens. */
  get size(): number {
    return this.points.length;
  }

  /** A readable character of `set`, or null if it holds none (only opaque tokens). */
  sample(set: bigint): number | null {
    if (!this.preferred) {
      const order: number[] = [];
      const add = (from: string, to: string): void => {
        for (let cp = from.charCodeAt(0); cp <= to.charCodeAt(0); cp++) order.push(cp);
      };
      add("a", "z");
      add("0", "9");
      add("A", "Z");
      add("!", "~");
      order.push(32, ...this.points);
      const seen = new Set<number>();
      this.preferred = [];
      for (const cp of order) {
        if (seen.has(cp) || !this.bit.has(cp)) continue;
        seen.add(cp);
        this.preferred.push([cp, this.single(cp)]);
      }
    }
    for (const [cp, bit] of this.preferred) if (set & bit) return cp;
    return null;
  }

  private single(cp: number): bigint {
    const i = this.bit.get(cp);
    return i === undefined ? 0n : 1n << BigInt(i);
  }

  /** Adds the characters that match `set` when case is ignored. */
  private fold(set: bigint): bigint {
    let out = set;
    for (let i = 0; i < this.points.length; i++) {
      if (set & (1n << BigInt(i))) out |= this.variants[i] ?? 0n;
    }
    for (let i = 0; i < this.points.length; i++) {
      if ((this.variants[i] ?? 0n) & set) out |= 1n << BigInt(i);
    }
    return out;
  }

  char(cp: number, ctx: Context): bigint {
    // `\N{...}` and characters past the sample cap may be any non-ASCII character.
    if (cp === UNKNOWN_CODE_POINT || !this.bit.has(cp))
      return cp < 128 && cp >= 0 ? this.single(cp) : this.nonAscii;
    const s = this.single(cp);
    return ctx.ignoreCase ? this.fold(s) : s;
  }

  range(from: number, to: number, ctx: Context): bigint {
    const lo = lowerBound(this.points, from);
    const hi = lowerBound(this.points, to + 1);
    // The sample holds both ends of every range of the pattern, so two ranges
    // overlap exactly when their sampled sets do.
    const set = hi > lo ? ((1n << BigInt(hi)) - 1n) ^ ((1n << BigInt(lo)) - 1n) : 0n;
    return ctx.ignoreCase ? this.fold(set) : set;
  }

  category(name: CategoryName, ctx: Context): bigint {
    return this.memo(`c${name}${ctx.ascii}`, () => {
      let set = 0n;
      this.points.forEach((cp, i) => {
        if (isCategory(name, cp, ctx.ascii)) set |= 1n << BigInt(i);
      });
      return set;
    });
  }

  any(ctx: Context): bigint {
    return ctx.dotAll ? this.all : this.all ^ this.single(10);
  }

  charClass(negated: boolean, items: readonly ClassItem[], ctx: Context): bigint {
    let set = 0n;
    for (const item of items) {
      if (item.type === "char") set |= this.char(item.codePoint, ctx);
      else if (item.type === "range") set |= this.range(item.from, item.to, ctx);
      else set |= this.category(item.name, ctx);
    }
    return negated ? this.all ^ set : set;
  }

  private memo(key: string, make: () => bigint): bigint {
    let v = this.cache.get(key);
    if (v === undefined) this.cache.set(key, (v = make()));
    return v;
  }
}

function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function children(node: RegexNode): RegexNode[] {
  switch (node.type) {
    case "alternation":
      return node.branches;
    case "sequence":
      return node.items;
    case "group":
    case "quantifier":
      return [node.body];
    case "conditional":
      return node.no ? [node.yes, node.no] : [node.yes];
    default:
      return [];
  }
}

function* walk(root: RegexNode): Generator<RegexNode> {
  const stack = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    yield node;
    const kids = children(node);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
}

const LOOKAROUNDS = new Set(["lookahead", "negativeLookahead", "lookbehind", "negativeLookbehind"]);
const isLookaround = (node: RegexNode): boolean => node.type === "group" && LOOKAROUNDS.has(node.kind);
const repeatsMany = (max: number | null): boolean => max === null || max > LARGE_REPEAT;

const EMPTY: Info = { first: 0n, nullable: true, nonEmpty: false };

/** Marks a search that ran out of budget. */
class GiveUp extends Error {}

/** first/last positions of a sub-expression in a LoopAutomaton, and whether it matches the empty string. */
interface Fragment {
  first: number[];
  last: number[];
  nullable: boolean;
}

const EPSILON: Fragment = { first: [], last: [], nullable: true };
/** The empty language: no path goes through. */
const NOTHING: Fragment = { first: [], last: [], nullable: false };
const isNothing = (f: Fragment): boolean => !f.nullable && f.first.length === 0;

/**
 * The position (Glushkov) automaton of one iteration of a repeated body, with
 * counted repetitions unrolled. State 0 is the loop head, between iterations;
 * states 1.. are the body's character positions. Every transition consumes one
 * character, of the class of the position it enters, and is either internal
 * (within the iteration) or starts a new iteration (from the loop head, or from
 * a position where an iteration may end).
 */
class LoopAutomaton {
  /** Character class of each state (index 0, the loop head, is unused). */
  readonly cls: bigint[] = [0n];
  readonly follow: Set<number>[] = [new Set()];
  /** Branch of the top-level alternation each position belongs to, or -1. */
  readonly branch: number[] = [-1];
  first: number[] = [];
  isLast: boolean[] = [];
  private readonly moveCache = new Map<number, number[]>();

  constructor(readonly budget: { left: number }) {}

  spend(n: number): void {
    this.budget.left -= n;
    if (this.budget.left < 0) throw new GiveUp();
  }

  position(cls: bigint): Fragment {
    if (this.cls.length > MAX_POSITIONS) throw new GiveUp();
    this.spend(1);
    const p = this.cls.length;
    this.cls.push(cls);
    this.follow.push(new Set());
    this.branch.push(-1);
    return { first: [p], last: [p], nullable: false };
  }

  /** Lets every position of `from` be followed by every position of `to`. */
  link(from: readonly number[], to: readonly number[]): void {
    this.spend(from.length * to.length);
    for (const p of from) {
      const f = this.follow[p];
      if (f) for (const q of to) f.add(q);
    }
  }

  seq(a: Fragment, b: Fragment): Fragment {
    if (isNothing(a) || isNothing(b)) return NOTHING;
    this.link(a.last, b.first);
    this.spend(a.first.length + b.last.length);
    return {
      first: a.nullable ? [...a.first, ...b.first] : a.first,
      last: b.nullable ? [...a.last, ...b.last] : b.last,
      nullable: a.nullable && b.nullable,
    };
  }

  union(a: Fragment, b: Fragment): Fragment {
    this.spend(a.first.length + a.last.length);
    return {
      first: [...a.first, ...b.first],
      last: [...a.last, ...b.last],
      nullable: a.nullable || b.nullable,
    };
  }

  /** `f*`, or `f+` if `plus`. */
  loop(f: Fragment, plus: boolean): Fragment {
    this.link(f.last, f.first);
    return { ...f, nullable: f.nullable || !plus };
  }

  finish(body: Fragment): void {
    this.first = body.first;
    this.isLast = this.cls.map(() => false);
    for (const p of body.last) this.isLast[p] = true;
  }

  /** Moves out of state `s`, each encoded as target * 2 + (1 if it starts a new iteration). */
  moves(s: number): number[] {
    let out = this.moveCache.get(s);
    if (!out) {
      out = [];
      if (s !== 0) for (const t of this.follow[s] ?? []) out.push(t * 2);
      if (s === 0 || this.isLast[s]) for (const t of this.first) out.push(t * 2 + 1);
      this.moveCache.set(s, out);
    }
    return out;
  }
}

/** Two different ways for a repetition to match `word` (one entry per character, as displayed). */
interface Ambiguity {
  word: string[];
  /** For each way, the iterations it splits the word into, as character ranges. */
  splits: [number[][], number[][]];
  /** Top-level alternation branch each way starts in (-1 if the body is no alternation). */
  branches: [number, number];
}

type SearchResult = Ambiguity | "none" | "unknown";

/**
 * Searches the product of the automaton with itself for two different paths
 * that go from the loop head back to it (possibly through it) reading the same
 * non-empty word: a pair of states plus whether the two paths have parted yet.
 * Breadth-first, so the word found is a shortest one.
 */
function searchAmbiguity(a: LoopAutomaton, alphabet: Alphabet): Ambiguity | "none" {
  const n = a.cls.length;
  const s1s = [0];
  const s2s = [0];
  const parted = [false];
  const parent = [-1];
  const move1 = [0];
  const move2 = [0];
  const sets = [0n];
  const seen = new Set<number>([0]);
  for (let i = 0; i < s1s.length; i++) {
    const d = parted[i] ?? false;
    const ms1 = a.moves(s1s[i] ?? 0);
    const ms2 = d ? a.moves(s2s[i] ?? 0) : ms1;
    a.spend(ms1.length * ms2.length);
    for (let x = 0; x < ms1.length; x++) {
      const m1 = ms1[x] ?? 0;
      const c1 = a.cls[m1 >> 1] ?? 0n;
      // Before the paths part both sides are the same; (x, y) and (y, x) are mirror images.
      for (let y = d ? 0 : x; y < ms2.length; y++) {
        const m2 = ms2[y] ?? 0;
        const set = c1 & (a.cls[m2 >> 1] ?? 0n);
        if (set === 0n) continue;
        const t1 = m1 >> 1;
        const t2 = m2 >> 1;
        const nd = d || m1 !== m2;
        const key = nd ? n + t1 * n + t2 : t1;
        if (seen.has(key)) continue;
        seen.add(key);
        s1s.push(t1);
        s2s.push(t2);
        parted.push(nd);
        parent.push(i);
        move1.push(m1);
        move2.push(m2);
        sets.push(set);
        if (nd && a.isLast[t1] && a.isLast[t2]) return witness(s1s.length - 1);
      }
    }
  }
  return "none";

  function witness(end: number): Ambiguity {
    const steps: number[] = [];
    for (let k = end; k > 0; k = parent[k] ?? 0) steps.push(k);
    steps.reverse();
    const word = steps.map((k) => showChar(alphabet.sample(sets[k] ?? 0n)));
    const split = (moves: number[]): number[][] => {
      const out: number[][] = [];
      steps.forEach((k, j) => {
        if (j === 0 || ((moves[k] ?? 0) & 1) === 1) out.push([]);
        out[out.length - 1]?.push(j);
      });
      return out;
    };
    const k0 = steps[0] ?? 0;
    return {
      word,
      splits: [split(move1), split(move2)],
      branches: [a.branch[(move1[k0] ?? 0) >> 1] ?? -1, a.branch[(move2[k0] ?? 0) >> 1] ?? -1],
    };
  }
}

/** A character of a witness string, escaped the way Python's repr() would where it is not printable. */
function showChar(cp: number | null): string {
  if (cp === null) return "…";
  const escapes: Record<number, string> = { 9: "\\t", 10: "\\n", 13: "\\r" };
  if (escapes[cp]) return escapes[cp];
  if ((cp >= 0x20 && cp < 0x7f) || (cp >= 0xa0 && PRINTABLE.test(String.fromCodePoint(cp)))) {
    return String.fromCodePoint(cp);
  }
  const hex = cp.toString(16);
  if (cp < 0x100) return "\\x" + hex.padStart(2, "0");
  return cp < 0x10000 ? "\\u" + hex.padStart(4, "0") : "\\U" + hex.padStart(8, "0");
}
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

class Analyzer {
  private readonly info = new Map<RegexNode, Info>();
  private readonly alphabet: Alphabet;
  /** Assertions that hold at most twice in a string (`\A`, `\Z`, and `^`, `$` without MULTILINE). */
  private readonly rare = new Set<RegexNode>();
  /** Bits of the opaque tokens (back-references, atomic groups, possessive repetitions). */
  private readonly tokens = new Map<RegexNode, bigint>();
  private readonly work = { left: MAX_TOTAL_WORK };

  constructor(root: RegexNode) {
    const points: number[] = [];
    const global: Context = { ignoreCase: false, ascii: false, dotAll: false, multiline: false };
    for (const node of walk(root)) {
      if (node.type === "literal" && node.codePoint >= 128) points.push(node.codePoint);
      if (node.type === "charClass") {
        for (const item of node.items) {
          if (item.type === "char" && item.codePoint >= 128) points.push(item.codePoint);
          if (item.type === "range" && item.to >= 128) points.push(Math.max(item.from, 128), item.to);
        }
      }
      // Global flags apply to the whole pattern wherever they are written.
      if (node.type === "flags") applyFlags(global, node.on, "");
    }
    this.alphabet = new Alphabet(points);
    this.compute(root, global);
  }

  get(node: RegexNode): Info {
    return this.info.get(node) ?? EMPTY;
  }

  /** Fills `info` bottom-up; recursion depth follows the (capped) nesting of the AST. */
  private compute(node: RegexNode, ctx: Context): Info {
    const a = this.alphabet;
    let result: Info;
    switch (node.type) {
      case "literal":
        result = { first: a.char(node.codePoint, ctx), nullable: false, nonEmpty: true };
        break;
      case "any":
        result = { first: a.any(ctx), nullable: false, nonEmpty: true };
        break;
      case "category":
        result = { first: a.category(node.name, ctx), nullable: false, nonEmpty: true };
        break;
      case "charClass":
        result = { first: a.charClass(node.negated, node.items, ctx), nullable: false, nonEmpty: true };
        break;
      case "backreference":
        // Matches whatever the group matched: anything, possibly nothing.
        result = { first: a.all, nullable: true, nonEmpty: true };
        break;
      case "assertion":
        if (
          node.kind === "stringStart" ||
          node.kind === "stringEnd" ||
          ((node.kind === "start" || node.kind === "end") && !ctx.multiline)
        )
          this.rare.add(node);
        result = EMPTY;
        break;
      case "flags":
        result = EMPTY;
        break;
      case "group": {
        let inner = ctx;
        if (node.flags) {
          inner = { ...ctx };
          applyFlags(inner, node.flags.on, node.flags.off);
        }
        const body = this.compute(node.body, inner);
        result = isLookaround(node) ? EMPTY : body;
        break;
      }
      case "quantifier": {
        const body = this.compute(node.body, ctx);
        result =
          node.max === 0
            ? EMPTY
            : { first: body.first, nullable: node.min === 0 || body.nullable, nonEmpty: body.nonEmpty };
        break;
      }
      case "sequence": {
        let first = 0n;
        let nullable = true;
        let nonEmpty = false;
        for (const item of node.items) {
          const i = this.compute(item, ctx);
          if (nullable) first |= i.first;
          nullable &&= i.nullable;
          nonEmpty ||= i.nonEmpty;
        }
        result = { first, nullable, nonEmpty };
        break;
      }
      case "alternation":
      case "conditional": {
        const parts = node.type === "alternation" ? node.branches : [node.yes, node.no];
        result = { first: 0n, nullable: false, nonEmpty: false };
        for (const part of parts) {
          const i = part ? this.compute(part, ctx) : EMPTY;
          result = {
            first: result.first | i.first,
            nullable: result.nullable || i.nullable,
            nonEmpty: result.nonEmpty || i.nonEmpty,
          };
        }
        break;
      }
    }
    this.info.set(node, result);
    return result;
  }

  /**
   * An unbounded (or large, variable) repetition inside `body` whose next
   * characters, within one outer iteration or at the start of the next, can
   * also be matched by the repetition itself.
   */
  findAmbiguousInnerLoop(body: RegexNode): RegexNode | null {
    // After the body, the outer loop may start over: what follows is first(body).
    const stack: { node: RegexNode; follow: bigint }[] = [{ node: body, follow: this.get(body).first }];
    for (let top = stack.pop(); top; top = stack.pop()) {
      const { node, follow } = top;
      switch (node.type) {
        case "sequence": {
          let acc = follow;
          const pending: { node: RegexNode; follow: bigint }[] = [];
          for (let k = node.items.length - 1; k >= 0; k--) {
            const item = node.items[k]!;
            pending.push({ node: item, follow: acc });
            const i = this.get(item);
            acc = i.nullable ? acc | i.first : i.first;
          }
          // pending is last-to-first; pushing it in order pops first-to-last.
          for (const p of pending) stack.push(p);
          break;
        }
        case "alternation":
          for (let k = node.branches.length - 1; k >= 0; k--) stack.push({ node: node.branches[k]!, follow });
          break;
        case "conditional":
          if (node.no) stack.push({ node: node.no, follow });
          stack.push({ node: node.yes, follow });
          break;
        case "group":
          // Look-arounds and atomic groups never give back what they matched.
          if (!isLookaround(node) && node.kind !== "atomic") stack.push({ node: node.body, follow });
          break;
        case "quantifier": {
          if (node.possessive) break;
          const inner = this.get(node.body);
          const variable = repeatsMany(node.max) && node.max !== node.min;
          if (variable && inner.nonEmpty && (inner.first & follow) !== 0n) return node;
          const again = node.max === null || node.max > 1 ? inner.first : 0n;
          stack.push({ node: node.body, follow: follow | again });
          break;
        }
        default:
          break;
      }
    }
    return null;
  }

  /** The alternation that `body` is, under groups that change nothing, or null. */
  alternationOf(body: RegexNode): (RegexNode & { type: "alternation" }) | null {
    let node = body;
    for (;;) {
      if (node.type === "group" && (node.kind === "capturing" || node.kind === "nonCapturing"))
        node = node.body;
      else if (node.type === "sequence" && node.items.length === 1 && node.items[0]) node = node.items[0];
      else break;
    }
    return node.type === "alternation" ? node : null;
  }

  /**
   * Two different ways for repetitions of `body` to match the same string, or
   * "none", or "unknown" when the search ran out of budget.
   */
  ambiguity(body: RegexNode): SearchResult {
    if (this.work.left <= 0) return "unknown";
    const budget = { left: Math.min(MAX_CHECK_WORK, this.work.left) };
    const start = budget.left;
    try {
      const automaton = new LoopAutomaton(budget);
      automaton.finish(this.build(body, automaton, this.alternationOf(body)));
      return searchAmbiguity(automaton, this.alphabet);
    } catch {
      // GiveUp, or a bug here: neither may take the linter down.
      return "unknown";
    } finally {
      this.work.left -= start - budget.left;
    }
  }

  private token(node: RegexNode, a: LoopAutomaton, nullable: boolean): Fragment {
    let bit = this.tokens.get(node);
    if (bit === undefined) {
      bit = 1n << BigInt(this.alphabet.size + this.tokens.size);
      this.tokens.set(node, bit);
    }
    const f = a.position(bit);
    return nullable ? { ...f, nullable } : f;
  }

  /** Adds the positions of `node` to the automaton; recursion depth follows the (capped) nesting of the AST. */
  private build(node: RegexNode, a: LoopAutomaton, top: RegexNode | null): Fragment {
    switch (node.type) {
      case "literal":
      case "any":
      case "category":
      case "charClass":
        return a.position(this.get(node).first);
      case "backreference":
        return this.token(node, a, true);
      case "assertion":
        return this.rare.has(node) ? NOTHING : EPSILON;
      case "flags":
        return EPSILON;
      case "group":
        if (isLookaround(node)) return EPSILON;
        if (node.kind === "atomic") return this.token(node, a, this.get(node.body).nullable);
        return this.build(node.body, a, top);
      case "sequence": {
        let f = EPSILON;
        for (const item of node.items) {
          f = a.seq(f, this.build(item, a, top));
          if (isNothing(f)) break;
        }
        return f;
      }
      case "alternation":
      case "conditional": {
        const parts = node.type === "alternation" ? node.branches : [node.yes, node.no];
        let f = NOTHING;
        parts.forEach((part, k) => {
          const from = a.cls.length;
          f = a.union(f, part ? this.build(part, a, top) : EPSILON);
          if (node === top) for (let p = from; p < a.cls.length; p++) a.branch[p] = k;
        });
        return f;
      }
      case "quantifier": {
        const { min, max } = node;
        if (max === 0) return EPSILON;
        const body = this.get(node.body);
        if (node.possessive) return this.token(node, a, min === 0 || body.nullable);
        // Repeating what only matches the empty string changes nothing.
        if (!body.nonEmpty) return min === 0 ? EPSILON : this.build(node.body, a, top);
        const copy = (): Fragment => {
          a.spend(1);
          return this.build(node.body, a, top);
        };
        let f = EPSILON;
        for (let k = 1; k < min; k++) f = a.seq(f, copy());
        if (max === null) return a.seq(f, a.loop(copy(), min > 0));
        if (min > 0) f = a.seq(f, copy());
        // X{m,n} = X^m (X (X ...)?)?: each optional copy only after the one before.
        let tail = EPSILON;
        for (let k = Math.max(min, 0); k < max; k++) {
          const c = a.seq(copy(), tail);
          tail = { ...c, nullable: true };
        }
        return a.seq(f, tail);
      }
    }
  }
}

function applyFlags(ctx: Context, on: string, off: string): void {
  if (on.includes("i")) ctx.ignoreCase = true;
  if (on.includes("s")) ctx.dotAll = true;
  if (on.includes("m")) ctx.multiline = true;
  if (on.includes("a")) ctx.ascii = true;
  if (on.includes("u")) ctx.ascii = false;
  if (off.includes("i")) ctx.ignoreCase = false;
  if (off.includes("s")) ctx.dotAll = false;
  if (off.includes("m")) ctx.multiline = false;
}

/** Quotes a piece of the pattern for a message, shortening long ones (a pattern may hold backticks). */
function quote(text: string): string {
  return quoteCode(text.length > 60 ? text.slice(0, 57) + "..." : text);
}

/**
 * The first (outermost, leftmost) construct of the pattern that can backtrack
 * exponentially, or null.
 */
export function findCatastrophicBacktracking(ast: RegexNode): BacktrackingRisk | null {
  const analyzer = new Analyzer(ast);
  for (const node of walk(ast)) {
    if (node.type !== "quantifier" || node.possessive || !repeatsMany(node.max)) continue;
    if (!analyzer.get(node.body).nonEmpty) continue;
    const text = (n: RegexNode): string => node.raw.slice(n.index - node.index, n.end - node.index);
    const risky = `${quote(node.raw)} can backtrack exponentially on a near-miss input`;

    const inner = analyzer.findAmbiguousInnerLoop(node.body);
    const found = analyzer.ambiguity(node.body);
    // The inner loop only matters if some string really splits two ways (`(a+ab)+` never does).
    if (inner && found !== "none") {
      return {
        message:
          `nested quantifier: ${risky} ` +
          `(the inner ${quote(text(inner))} can match what the outer repetition matches next)`,
        index: node.index,
      };
    }
    if (typeof found === "string") continue;

    const word = found.word.join("");
    const [split1, split2] = found.splits.map((split) =>
      split.map((piece) => quote(piece.map((k) => found.word[k] ?? "").join(""))),
    ) as [string[], string[]];
    const ways =
      JSON.stringify(found.splits[0]) === JSON.stringify(found.splits[1])
        ? `it can match ${quote(word)} in more than one way`
        : `it can match ${quote(word)} as ${showSplit(split1)} or as ${showSplit(split2)}`;
    const alternation = analyzer.alternationOf(node.body);
    const [b1, b2] = found.branches;
    const branch1 = alternation?.branches[b1];
    const branch2 = alternation?.branches[b2];
    if (!branch1 || !branch2 || b1 === b2) {
      return { message: `ambiguous repetition: ${risky} (${ways})`, index: node.index };
    }
    const detail =
      split1.length === 1 && split2.length === 1
        ? `${quote(text(branch1))} and ${quote(text(branch2))} can start with the same character ` +
          `and both match ${quote(word)}`
        : ways;
    return {
      message: `repeated alternation with overlapping branches: ${risky} (${detail})`,
      index: node.index,
    };
  }
  return null;
}

/** Iterations of a witness, `a` + `b` + ..., at most six of them. */
function showSplit(pieces: string[]): string {
  return pieces.length > 6 ? pieces.slice(0, 6).join(" + ") + " + ..." : pieces.join(" + ");
}
