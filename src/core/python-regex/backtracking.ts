/**
 * Spots the classic shapes of catastrophic (exponential) backtracking in a
 * parsed Python pattern, statically:
 *
 * - a repeated sub-expression that contains another unbounded repetition which
 *   can run on into the text the next outer repetition would match, so one
 *   string can be split between the two loops in exponentially many ways
 *   (`(a+)+`, `(\w+\s?)*`, `(?:a|b+)*`);
 * - a repeated alternation whose branches can start with the same character
 *   (`(a|a)*`, `(a|ab)*`, `(\w|\d)+`).
 *
 * "Repeated" means an unbounded quantifier or one allowing more than ten
 * repetitions. This is a heuristic: it looks at first characters, not whole
 * languages, so it can flag a pattern that merely looks ambiguous.
 *
 * Character sets are compared on a finite sample of characters: all of ASCII,
 * a few representatives of the non-ASCII classes, and every non-ASCII character
 * the pattern mentions. Sets are bitsets (bigint) over that sample.
 */

import type { CategoryName, ClassItem, RegexNode } from "./parse.js";
import { UNKNOWN_CODE_POINT } from "./parse.js";

export interface BacktrackingRisk {
  message: string;
  index: number;
}

/** Repetition counts above this are treated like `*` for the outer loop. */
const LARGE_REPEAT = 10;
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

class Analyzer {
  private readonly info = new Map<RegexNode, Info>();
  private readonly alphabet: Alphabet;

  constructor(root: RegexNode) {
    const points: number[] = [];
    const global: Context = { ignoreCase: false, ascii: false, dotAll: false };
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

  /** Two branches of the alternation that `body` is, starting with a common character. */
  findOverlappingBranches(body: RegexNode): [RegexNode, RegexNode] | null {
    let node = body;
    for (;;) {
      if (node.type === "group" && (node.kind === "capturing" || node.kind === "nonCapturing"))
        node = node.body;
      else if (node.type === "sequence" && node.items.length === 1 && node.items[0]) node = node.items[0];
      else break;
    }
    if (node.type !== "alternation") return null;
    let seen = 0n;
    for (const [k, branch] of node.branches.entries()) {
      const first = this.get(branch).first;
      if (seen & first) {
        const earlier = node.branches.slice(0, k).find((b) => (this.get(b).first & first) !== 0n);
        if (earlier) return [earlier, branch];
      }
      seen |= first;
    }
    return null;
  }
}

function applyFlags(ctx: Context, on: string, off: string): void {
  if (on.includes("i")) ctx.ignoreCase = true;
  if (on.includes("s")) ctx.dotAll = true;
  if (on.includes("a")) ctx.ascii = true;
  if (on.includes("u")) ctx.ascii = false;
  if (off.includes("i")) ctx.ignoreCase = false;
  if (off.includes("s")) ctx.dotAll = false;
}

/** Quotes a piece of the pattern for a message, shortening long ones. */
function quote(text: string): string {
  const short = text.length > 60 ? text.slice(0, 57) + "..." : text;
  return "`" + short + "`";
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

    const inner = analyzer.findAmbiguousInnerLoop(node.body);
    if (inner) {
      return {
        message:
          `nested quantifier: ${quote(node.raw)} can backtrack exponentially on a near-miss input ` +
          `(the inner ${quote(text(inner))} can match what the outer repetition matches next)`,
        index: node.index,
      };
    }
    const pair = analyzer.findOverlappingBranches(node.body);
    if (pair) {
      return {
        message:
          `repeated alternation with overlapping branches: ${quote(node.raw)} can backtrack exponentially ` +
          `on a near-miss input (${quote(text(pair[0]))} and ${quote(text(pair[1]))} can start with the same character)`,
        index: node.index,
      };
    }
  }
  return null;
}
