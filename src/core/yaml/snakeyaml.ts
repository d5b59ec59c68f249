/**
 * An extension.yaml read as Dynatrace reads it. Dynatrace's parser (SnakeYAML, like PyYAML) takes a quoted
 * value whose continuation lines are indented no deeper than its key:
 *
 *     metricSelector: '
 *     (a:splitBy())/(b)'
 *
 * YAML 1.2 (and the `yaml` package, editors, linters) refuses it: continuation lines of a quoted value must be
 * indented more than its key. Published extensions hold such values and work; so when the strict parse fails
 * on one, the text is read again with those lines indented one column deeper than the key (which changes no
 * value: a quoted value's line breaks and leading spaces fold into one space either way), every offset is
 * mapped back to the text as written, and the outcome says where the value is, so that the review reports it
 * as a warning, not as a file it could not read. Any other failure stays the strict parse's. Pure.
 */
import type { JsonNode, ParseOutcome } from "../json/parse.js";
import { parseYaml } from "./parse.js";

/** A quoted value read as SnakeYAML reads it: where it starts and what YAML 1.2 says of it. */
export interface LenientRead {
  message: string;
  offset: number;
  end: number;
}

export type DynatraceParseOutcome = ParseOutcome & { lenient?: LenientRead };

/** At most this many quoted values are re-indented in one file (each takes a parse). */
const MAX_REPAIRS = 50;

/** Spaces inserted at `at` (an offset of the text as written), `count` of them. */
interface Insertion {
  at: number;
  count: number;
}

/** The indentation of the line starting at `start`, and where its content starts (after `- ` markers). */
function contentColumn(text: string, start: number): number {
  let i = start;
  for (;;) {
    while (text.charCodeAt(i) === 32) i++;
    if (text.charCodeAt(i) === 45 && text.charCodeAt(i + 1) === 32) i += 2;
    else return i - start;
  }
}

/** The offset just after the closing quote of a quoted value opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  const quote = text[open];
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (quote === '"' && c === "\\") i++;
    else if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i + 1;
    }
  }
  return -1;
}

/**
 * The insertions that indent the continuation lines of the quoted value the strict parse could not close
 * (`at` is where the error is: the end of the line that opens it), or undefined when it is no such value.
 */
function reindent(text: string, at: number, quote: string): Insertion[] | undefined {
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  const line = text.slice(lineStart, at);
  // The value's opening quote: the first after the key's `: ` (or a sequence's `- `).
  const afterKey = line.search(/(?::|^\s*-)\s/);
  const open = afterKey < 0 ? -1 : line.indexOf(quote, afterKey);
  if (open < 0) return undefined;
  const close = closingQuote(text, lineStart + open);
  if (close < 0) return undefined;
  const need = contentColumn(text, lineStart) + 1;
  const out: Insertion[] = [];
  for (let i = text.indexOf("\n", lineStart + open); i >= 0 && i < close; i = text.indexOf("\n", i + 1)) {
    const start = i + 1;
    let indent = 0;
    while (text.charCodeAt(start + indent) === 32) indent++;
    const c = text.charCodeAt(start + indent);
    if (c === 10 || c === 13 || start + indent >= text.length) continue; // an empty line folds as it is
    if (indent < need) out.push({ at: start, count: need - indent });
  }
  return out.length ? out : undefined;
}

/** The offsets of the re-indented text mapped back to the text as written. */
function mapper(insertions: readonly Insertion[]): (offset: number) => number {
  const sorted = [...insertions].sort((a, b) => a.at - b.at);
  return (offset) => {
    let shift = 0;
    for (const { at, count } of sorted) {
      if (offset < at + shift) break;
      if (offset < at + shift + count) return at; // inside the inserted spaces: where they were put
      shift += count;
    }
    return offset - shift;
  };
}

function mapTree(node: JsonNode, map: (offset: number) => number): void {
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    n.start = map(n.start);
    n.end = map(n.end);
    if (n.kind === "object")
      for (const m of n.members) {
        m.keyStart = map(m.keyStart);
        m.keyEnd = map(m.keyEnd);
        stack.push(m.value);
      }
    else if (n.kind === "array") stack.push(...n.items);
  }
}

/** Parses an extension.yaml as Dynatrace does: strictly, or as SnakeYAML reads under-indented quoted values. */
export function parseYamlAsDynatrace(text: string): DynatraceParseOutcome {
  const strict = parseYaml(text);
  if (strict.ok || !/^Missing closing ["']quote/.test(strict.error.message)) return strict;
  const insertions: Insertion[] = [];
  let repaired = text;
  let outcome: ParseOutcome = strict;
  let first: LenientRead | undefined;
  for (let n = 0; n < MAX_REPAIRS && !outcome.ok; n++) {
    const m = /^Missing closing (["'])quote/.exec(outcome.error.message);
    if (!m) return strict;
    const found = reindent(repaired, outcome.error.offset, m[1]!);
    if (!found) return strict;
    // Offsets of `found` are in the repaired text: in the text as written, they are where the earlier insertions left them.
    const back = mapper(insertions);
    first ??= {
      message: "a quoted value's continuation lines are not indented more than its key",
      offset: back(outcome.error.offset),
      end: back(outcome.error.offset) + 1,
    };
    for (const i of found) insertions.push({ at: back(i.at), count: i.count });
    let out = "";
    let from = 0;
    for (const { at, count } of [...insertions].sort((a, b) => a.at - b.at)) {
      out += text.slice(from, at) + " ".repeat(count);
      from = at;
    }
    repaired = out + text.slice(from);
    outcome = parseYaml(repaired);
  }
  if (!outcome.ok || !first) return strict;
  const map = mapper(insertions);
  mapTree(outcome.root, map);
  for (const d of outcome.duplicates) {
    d.keyStart = map(d.keyStart);
    d.keyEnd = map(d.keyEnd);
    d.firstKeyStart = map(d.firstKeyStart);
  }
  // Where the first such value opens: the line the strict parse stopped at.
  const lineStart = text.lastIndexOf("\n", first.offset - 1) + 1;
  return { ...outcome, lenient: { ...first, offset: lineStart, end: first.offset } };
}
