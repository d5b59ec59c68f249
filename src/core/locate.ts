/**
 * The one place that turns JSON pointers and offsets into 1-based line/column ranges: in a descriptor's JSON,
 * and in an extension's YAML, whose parse (yaml/parse.ts) gives the same tree of offsets, so that a pointer
 * is placed in both by one walk, with one nearest-ancestor fallback.
 *
 * Lines end at "\n" (a preceding "\r" belongs to the line ending), as git and GitHub count them. Columns
 * count Unicode code points from 1, so a tab or an "é" or an emoji is one column, and a byte order mark none (as
 * editors show the text); `endColumn` is exclusive (the column just after the last character), as in SARIF and
 * ESLint.
 */
import type { DuplicateKey, JsonNode, MemberNode, ObjectNode } from "./json/parse.js";
import { isIndex, splitPointer } from "./json/pointer.js";
import { scanPointers, seekPointers, skipValue, type Scanned } from "./json/scan.js";
import type { Location, RawFinding, Target } from "./types.js";

export class LineIndex {
  private readonly starts: number[] = [0];
  /** Where the search for line starts goes on: lines are found as far as a question needs (a finding near the top of a large file reads little of it). */
  private scanned = 0;

  constructor(private readonly text: string) {}

  /** Finds line starts up to `offset` (and one past it), or to the end of the text when undefined. */
  private reach(offset = Number.POSITIVE_INFINITY): void {
    const { text, starts } = this;
    while (this.scanned <= offset && this.scanned <= text.length) {
      const i = text.indexOf("\n", this.scanned);
      if (i < 0) {
        this.scanned = text.length + 1;
        break;
      }
      starts.push(i + 1);
      this.scanned = i + 1;
    }
  }

  get lineCount(): number {
    this.reach();
    return this.starts.length;
  }

  /** 1-based line and column of a 0-based UTF-16 offset (clamped to the text). */
  position(offset: number): { line: number; column: number } {
    const o = Math.max(0, Math.min(offset, this.text.length));
    this.reach(o);
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= o) lo = mid;
      else hi = mid - 1;
    }
    const lineStart = this.starts[lo] as number;
    // A surrogate pair is one code point: its low half counts no column. Counted from the pairs' places,
    // never by walking the line (a one-line text of megabytes would cost that per finding).
    const pairs = (this.pairs ??= lowHalves(this.text));
    // A byte order mark (Windows editors write one before YAML) is no character an editor shows or counts.
    const bom = lineStart === 0 && o > 0 && this.text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const column = o - lineStart + 1 - bom - (below(pairs, o) - below(pairs, lineStart + 1));
    return { line: lo + 1, column };
  }

  /** Where the low halves of the text's surrogate pairs are, in order (found once, when first asked). */
  private pairs: number[] | undefined;

  /** The text of a 1-based line without its line ending. */
  lineText(line: number): string {
    while (this.starts.length <= line && this.scanned <= this.text.length) this.reach(this.scanned);
    const start = this.starts[line - 1];
    if (start === undefined) return "";
    const next = this.starts[line];
    let end = next === undefined ? this.text.length : next - 1;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return this.text.slice(start, end);
  }

  range(start: number, end: number): Location {
    const a = this.position(start);
    const b = this.position(Math.max(start, end));
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  }
}

/** Any surrogate: a text without one (almost every descriptor) has no pairs, and this test fails it at once. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** The offsets of the low halves of a text's surrogate pairs (a low surrogate right after a high one). */
function lowHalves(text: string): number[] {
  const out: number[] = [];
  // A text stored one byte a character (no surrogates) fails this test at once, where matchAll walked it (0.03 us
  // against 0.25 us a corpus descriptor).
  if (!SURROGATE.test(text)) return out;
  for (const m of text.matchAll(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)) out.push(m.index + 1);
  return out;
}

/** How many of the sorted `values` are below `limit`. */
function below(values: readonly number[], limit: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((values[mid] as number) < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Resolved {
  node: JsonNode;
  keyStart?: number;
  keyEnd?: number;
  /** True when the pointer named a member that does not exist and an ancestor was used. */
  fallback: boolean;
}

/** Objects with more members than this have them looked up by key, not searched. */
const SEARCHED_MEMBERS = 32;

/** The members of large objects by key (the last of a duplicate key), built on the first lookup. */
const membersByKey = new WeakMap<ObjectNode, Map<string, MemberNode>>();

/**
 * The member `key` of an object (the last one when the key is repeated, as JSON.parse keeps). Looked up, not
 * searched, in a large object: a hostile document of tens of thousands of members with a finding each would
 * otherwise cost time quadratic in its size.
 */
function memberOf(node: ObjectNode, key: string): MemberNode | undefined {
  const { members } = node;
  if (members.length <= SEARCHED_MEMBERS) {
    for (let i = members.length - 1; i >= 0; i--) if (members[i]!.key === key) return members[i];
    return undefined;
  }
  let byKey = membersByKey.get(node);
  if (!byKey) {
    byKey = new Map();
    for (const m of members) byKey.set(m.key, m);
    membersByKey.set(node, byKey);
  }
  return byKey.get(key);
}

/**
 * Walks a pointer down the tree; stops at the nearest existing ancestor. Duplicate keys: the last wins, as in
 * JSON.parse. In YAML, a pointer into an alias (`*name`) goes on in the node its anchor names: what the finding
 * is about is written there, and an edit must change it there (the alias itself is where the pointer ends at it).
 */
export function resolvePointer(root: JsonNode, pointer: string): Resolved {
  let cur: Resolved = { node: root, fallback: false };
  for (const seg of splitPointer(pointer)) {
    const alias = cur.node.kind === "string" ? cur.node.alias : undefined;
    if (alias) cur = { node: alias.node, keyStart: alias.keyStart, keyEnd: alias.keyEnd, fallback: false };
    const node = cur.node;
    if (node.kind === "object") {
      const m = memberOf(node, seg);
      if (!m) return { ...cur, fallback: true };
      cur = { node: m.value, keyStart: m.keyStart, keyEnd: m.keyEnd, fallback: false };
    } else if (node.kind === "array" && isIndex(seg) && Number(seg) < node.items.length) {
      cur = { node: node.items[Number(seg)]!, fallback: false };
    } else {
      return { ...cur, fallback: true };
    }
  }
  return cur;
}

/** What locating reads of a finding. */
export type Locatable = Pick<RawFinding, "pointer" | "target" | "range">;

/** Locates one finding. A missing member points at the key of the nearest existing ancestor; the root at line 1. */
export function locate(index: LineIndex, root: JsonNode | undefined, f: Locatable): Location {
  if (f.range) return index.range(f.range.start, f.range.end);
  if (!root) return { line: 1, column: 1, endLine: 1, endColumn: 1 };
  const { node, keyStart, keyEnd, fallback } = resolvePointer(root, f.pointer);
  return place(index, f.target, {
    start: node.start,
    end: node.end,
    keyStart,
    keyEnd,
    fallback,
    isRoot: node === root,
  });
}

/**
 * The range a resolved pointer gives a finding (its key, its value, or line 1 for the root's key). A value
 * scanned without its end (scanPointers) is skipped here, and only when its range is the answer.
 */
function place(index: LineIndex, target: Target, r: Scanned, text?: string): Location {
  if (target === "key" || r.fallback) {
    if (r.keyStart !== undefined && r.keyEnd !== undefined) return index.range(r.keyStart, r.keyEnd);
    if (r.isRoot) return { line: 1, column: 1, endLine: 1, endColumn: 2 };
  }
  return index.range(r.start, r.end ?? skipValue(text as string, r.start));
}

/**
 * Where each finding of a text is (its line index built once). `parsed` is the text's parse: a JSON text
 * without duplicate keys is sought for every finding's pointer at once, without building its tree of
 * positions (seekPointers, guided by its value; scanPointers, scanning it, when that cannot tell); a text with
 * duplicate keys has its tree built already, and a YAML text's tree is its parse's.
 */
export function locateAll(
  text: string,
  parsed: { root: JsonNode; duplicates: readonly DuplicateKey[]; value?: unknown } | undefined,
  findings: readonly Locatable[],
  format: "json" | "yaml" = "json",
): Location[] {
  const index = new LineIndex(text);
  if (format === "json" && parsed && !parsed.duplicates.length) {
    const pointers = findings.filter((f) => !f.range).map((f) => f.pointer);
    // Sought with the help of the value (JSON.parse's) when there is one: most of the text is not read.
    const scanned =
      ("value" in parsed ? seekPointers(text, parsed.value, pointers) : undefined) ??
      scanPointers(text, pointers);
    let i = 0;
    return findings.map((f) =>
      f.range
        ? index.range(f.range.start, f.range.end)
        : place(index, f.target, scanned[i++] as Scanned, text),
    );
  }
  const root = parsed?.root;
  return findings.map((f) => locate(index, root, f));
}

/**
 * Where the pointers of a parsed text are, outside any finding: a migration finding on an extension.yaml
 * names the line of the EF1 metric it is about in the plugin.json.
 */
export function pointerLocator(text: string, root: JsonNode): (pointer: string, target?: Target) => Location {
  const index = new LineIndex(text);
  return (pointer, target = "key") => {
    const { node, keyStart, keyEnd, fallback } = resolvePointer(root, pointer);
    return place(index, target, {
      start: node.start,
      end: node.end,
      keyStart,
      keyEnd,
      fallback,
      isRoot: node === root,
    });
  };
}
