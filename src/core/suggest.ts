/** "Did you mean" suggestions by edit distance. */
import { quote } from "./quote.js";

/**
 * The two rows levenshtein computes in, kept between calls and grown as needed: a pair of typed arrays
 * allocated per candidate cost more than comparing the names (schema findings' suggestions, every document).
 */
let rowA = new Uint32Array(64);
let rowB = new Uint32Array(64);

/**
 * The edit distance between `a` and `b`; past `max`, some number above `max` (the rows stop once every cell in
 * one is above it: a distance is never below its row's least cell).
 */
export function levenshtein(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Bounded inputs only: callers pass names, not file contents. Two rows, swapped.
  if (rowA.length <= b.length) {
    rowA = new Uint32Array(b.length + 1);
    rowB = new Uint32Array(b.length + 1);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let least = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur[j] = d;
      if (d < least) least = d;
    }
    if (least > max) return max + 1;
    const row = prev;
    prev = cur;
    cur = row;
  }
  return prev[b.length]!;
}

/** Candidates in lower case, once per list of candidates (a schema node's members are asked about again and again). */
const lowered = new WeakMap<readonly string[], readonly string[]>();
function lowerCase(candidates: readonly string[]): readonly string[] {
  let out = lowered.get(candidates);
  if (!out) lowered.set(candidates, (out = candidates.map((c) => c.toLowerCase())));
  return out;
}

/** The length of the longest candidate, once per list of candidates. */
const longestOf = new WeakMap<readonly string[], number>();
function longest(candidates: readonly string[]): number {
  let out = longestOf.get(candidates);
  if (out === undefined) {
    out = 0;
    for (const c of candidates) if (c.length > out) out = c.length;
    longestOf.set(candidates, out);
  }
  return out;
}

/**
 * Answers `closest` gave, per list of candidates: a schema's lists (a node's members, an enum's values) live as
 * long as the process, and the same typo is met in file after file. At most MEMO_SIZE inputs a list (the inputs
 * are a pull request's words), forgotten all at once past it.
 */
const memo = new WeakMap<readonly string[], Map<string, string | null>>();
const MEMO_SIZE = 256;

/** The closest candidate, compared case-insensitively, when it is near enough to be a plausible typo. */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  if (input.length > 200) return undefined;
  let answers = memo.get(candidates);
  const known = answers?.get(input);
  if (known !== undefined) return known ?? undefined;
  const out = nearest(input, candidates);
  if (!answers) memo.set(candidates, (answers = new Map()));
  else if (answers.size >= MEMO_SIZE) answers.clear();
  answers.set(input, out ?? null);
  return out;
}

function nearest(input: string, candidates: readonly string[]): string | undefined {
  const needle = input.toLowerCase();
  const lower = lowerCase(candidates);
  // A value cut short (`PERFORMANCE` for `PERFORMANCE_EVENT`) is a typo too, when only one candidate fits.
  if (needle.length >= 3) {
    let extending: string | undefined;
    let count = 0;
    let exact = false;
    for (let i = 0; i < lower.length; i++) {
      const c = lower[i] as string;
      if (c === needle) exact = true;
      if (c.startsWith(needle) && (candidates[i] as string).length > needle.length) {
        count++;
        extending ??= candidates[i];
      }
    }
    if (count === 1 && !exact) return extending;
  }
  let best: string | undefined;
  let bestDistance = Infinity;
  // No candidate further than this is near enough (the limit below, for the longest candidate): the distances
  // past it need not be known exactly, only that they are past it.
  const furthest = Math.max(2, Math.floor(Math.max(input.length, longest(candidates)) / 3));
  for (let i = 0; i < lower.length; i++) {
    // The distance is at least the difference in length: such a candidate cannot beat the best one.
    const c = lower[i] as string;
    const max = Math.min(bestDistance - 1, furthest);
    if (Math.abs(c.length - needle.length) > max) continue;
    const d = levenshtein(needle, c, max);
    if (d <= max) {
      best = candidates[i];
      bestDistance = d;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.max(2, Math.floor(Math.max(input.length, best.length) / 3));
  return bestDistance <= limit ? best : undefined;
}

/** Formats a list for a message: `a`, `b` or `c` (`a`, `b` and `c` when every one is meant). */
export function listOf(values: readonly string[], conjunction: "or" | "and" = "or"): string {
  const q = values.map((v) => quote(v));
  if (q.length <= 1) return q.join("");
  return `${q.slice(0, -1).join(", ")} ${conjunction} ${q[q.length - 1]}`;
}

type SuggestStyle = { show?: (c: string) => string; parenthesized?: boolean };

/**
 * The "did you mean" part of a message for a suggestion, or "" when there is none: `: did you mean \`x\`?`
 * in findings, ` (did you mean \`x\`?)` in configuration errors (`parenthesized`).
 */
export function didYouMeanText(
  near: string | undefined,
  { show = (c: string) => quote(c), parenthesized = false }: SuggestStyle = {},
): string {
  if (near === undefined) return "";
  return parenthesized ? ` (did you mean ${show(near)}?)` : `: did you mean ${show(near)}?`;
}

/** `didYouMeanText` for the closest candidate. */
export function didYouMean(input: string, candidates: readonly string[], style: SuggestStyle = {}): string {
  return didYouMeanText(closest(input, candidates), style);
}

/**
 * Characters compared (the input's length times a candidate's, for each candidate) for one document's
 * suggestions among its own names, at most. A document of hostile size holds thousands of metric keys and
 * thousands of names that match none of them: comparing each with each took minutes. Real documents stay far
 * below it (of the extensions Dynatrace publishes, the one with most metric keys, 189, needs under a million
 * for each suggestion).
 */
export const SUGGESTION_BUDGET = 50_000_000;

/**
 * "Did you mean" among one list of a document's names (its metric keys, its variables, its properties) for each
 * of many inputs, within SUGGESTION_BUDGET characters compared in all: an input whose comparisons would pass
 * it gets no suggestion (never a worse one), and the finding is said without it.
 */
export class Suggester {
  private readonly characters: number;
  private left: number;

  constructor(
    private readonly candidates: readonly string[],
    budget = SUGGESTION_BUDGET,
  ) {
    this.characters = candidates.reduce((n, c) => n + c.length, 0);
    this.left = budget;
  }

  /** The closest candidate (see `closest`), or undefined when there is none or its cost passes the budget. */
  closest(input: string): string | undefined {
    if (input.length > 200) return undefined;
    const cost = input.length * this.characters;
    if (cost > this.left) return undefined;
    this.left -= cost;
    return closest(input, this.candidates);
  }

  /** `didYouMean` within the budget. */
  didYouMean(input: string, style: SuggestStyle = {}): string {
    return didYouMeanText(this.closest(input), style);
  }
}
