/**
 * `--fix`: applies the mechanical fixes that findings carry, as textual edits at exact offsets of the
 * position tree, so that everything outside the edited values and names (indentation, member order, line
 * endings, the final newline) stays byte for byte. Pure: text and findings in, new text out.
 *
 * Applied: the findings' fixes, the edits where no judgement is needed (rules declare `meta.fixable`): the
 * next version, the restored metric group or unit, a value or member name that differs only in letter case
 * from exactly one allowed value or known member (`percent` → `Percent`, `displayName` → `displayname`).
 * Never applied: suggestions (guesses such as the known member a misspelt one probably means, or the
 * closest allowed value: they are offered to the author), two edits that overlap, a rename that would
 * create a duplicate key, and any set of edits whose result is not valid JSON (then the text is returned
 * unchanged). In an extension.yaml the replacement is written in the style of the value it replaces
 * (yaml/edit.ts), and the edits apply only when YAML reads each new value as the fix's.
 */
import type { ResolvedConfig } from "./config.js";
import { formatOf } from "./ef2/pairing.js";
import { parseJson, type JsonNode, type ParseOutcome } from "./json/parse.js";
import { resolvePointer } from "./locate.js";
import { analyseDescriptors, type DescriptorInput } from "./analyse.js";
import type { FileFormat, RawFinding } from "./types.js";
import { yamlReplacement } from "./yaml/edit.js";
import { valueAt } from "./json/pointer.js";
import { parseYamlAsDynatrace } from "./yaml/snakeyaml.js";

export interface PlannedEdit {
  start: number;
  end: number;
  text: string;
  finding: RawFinding;
}

export interface FixResult {
  text: string;
  /** The findings whose fix was applied, in the order of the text. */
  applied: RawFinding[];
}

function jsonText(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
}

/** The parent object of the member a pointer names (for renames: the member must not exist there yet). */
function parentObject(root: JsonNode, pointer: string): JsonNode | undefined {
  const cut = pointer.lastIndexOf("/");
  if (cut < 0) return undefined;
  const r = resolvePointer(root, pointer.slice(0, cut));
  return r.fallback ? undefined : r.node;
}

/** The parser of a kind of file: the tree that edits are planned on, and what their result must parse as. */
export function parserOf(format: FileFormat): (text: string) => ParseOutcome {
  return format === "extension.yaml" ? parseYamlAsDynatrace : parseJson;
}

/** The text that replaces [start, end) of `text`: the JSON replacement, or in YAML its writing there. */
function written(text: string, start: number, replacement: string, format: FileFormat): string | undefined {
  return format === "extension.yaml" ? yamlReplacement(text, start, replacement) : replacement;
}

/** The edits the findings' fixes make on `text`, without overlaps, in the order of the text. */
export function planEdits(
  text: string,
  root: JsonNode,
  findings: readonly RawFinding[],
  format: FileFormat = "plugin.json",
): PlannedEdit[] {
  const candidates: PlannedEdit[] = [];
  const renamed = new Set<string>(); // "objectStart\0newName": two renames to one name would collide
  for (const f of findings) {
    if (!f.fix) continue;
    const at = resolvePointer(root, f.pointer);
    if (at.fallback) continue; // the pointer names nothing that exists: nothing to replace
    if (f.fix.target === "key") {
      const name = jsonText(f.fix.replacement);
      const parent = parentObject(root, f.pointer);
      if (typeof name !== "string" || at.keyStart === undefined || at.keyEnd === undefined) continue;
      if (parent?.kind !== "object" || parent.members.some((m) => m.key === name)) continue;
      const id = `${parent.start}\0${name}`;
      const key = written(text, at.keyStart, f.fix.replacement, format);
      if (renamed.has(id) || key === undefined) continue;
      renamed.add(id);
      candidates.push({ start: at.keyStart, end: at.keyEnd, text: key, finding: f });
    } else {
      const value = written(text, at.node.start, f.fix.replacement, format);
      if (jsonText(f.fix.replacement) === undefined || value === undefined) continue;
      candidates.push({ start: at.node.start, end: at.node.end, text: value, finding: f });
    }
  }
  candidates.sort((a, b) => a.start - b.start || a.end - b.end);
  const edits: PlannedEdit[] = [];
  for (const e of candidates) {
    const last = edits[edits.length - 1];
    if (last && e.start < last.end) continue; // overlapping (or the same range twice): the first one wins
    if (last && e.start === last.start && e.end === last.end) continue;
    edits.push(e);
  }
  return edits;
}

/** Applies the fixable findings' fixes to `text`; unchanged when none applies or the result would not parse. */
export function applyFixes(
  text: string,
  findings: readonly RawFinding[],
  format: FileFormat = "plugin.json",
): FixResult {
  const r = edit(text, findings, format);
  return { text: r.text, applied: r.edits.map((e) => e.finding) };
}

/** `applyFixes` with the edits it made (none when it made none). */
function edit(
  text: string,
  findings: readonly RawFinding[],
  format: FileFormat,
): { text: string; edits: PlannedEdit[] } {
  const parse = parserOf(format);
  const parsed = parse(text);
  if (!parsed.ok) return { text, edits: [] };
  const edits = planEdits(text, parsed.root, findings, format);
  if (!edits.length) return { text, edits };
  let out = "";
  let from = 0;
  for (const e of edits) {
    out += text.slice(from, e.start) + e.text;
    from = e.end;
  }
  out += text.slice(from);
  const after = parse(out);
  if (!after.ok) return { text, edits: [] };
  // YAML reads text in more ways than JSON: each value must read as its fix's, else nothing is written.
  if (format === "extension.yaml" && !edits.every((e) => readsAsFix(after.value, e.finding)))
    return { text, edits: [] };
  return { text: out, edits };
}

/** The fixed document holds the fix's value at its pointer (a renamed member: under its new name). */
function readsAsFix(value: unknown, f: RawFinding): boolean {
  if (!f.fix) return false;
  const fix = jsonText(f.fix.replacement);
  if (f.fix.target !== "key") return JSON.stringify(valueAt(value, f.pointer)) === JSON.stringify(fix);
  const parent = valueAt(value, f.pointer.slice(0, f.pointer.lastIndexOf("/")));
  return (
    typeof fix === "string" && parent !== null && typeof parent === "object" && Object.hasOwn(parent, fix)
  );
}

/** The kind of file a reviewed path is (a file without a path, such as a test's text: a plugin.json). */
const formatFor = (file: { path?: string }): FileFormat =>
  file.path === undefined ? "plugin.json" : formatOf(file.path);

/**
 * The findings whose fix `--fix` would apply now (its first pass, as `applyFixes` plans it): what the text
 * output counts and the JSON output shows as `fix`. Files without fixes are not parsed again.
 */
export function fixableFindings<F extends RawFinding>(
  files: readonly { text: string; findings: readonly F[]; path?: string }[],
): Set<F> {
  const out = new Set<F>();
  for (const r of files) {
    if (!r.findings.some((f) => f.fix)) continue;
    for (const f of applyFixes(r.text, r.findings, formatFor(r)).applied) out.add(f as F);
  }
  return out;
}

/** Fix passes stop when nothing changes; a fix can uncover another (a renamed member's value), rarely more. */
const MAX_FIX_PASSES = 10;

export interface FixedFile {
  before: string;
  after: string;
  /** How many fixes the text after holds: a fix that a later pass replaced or undid is not counted. */
  applied: number;
}

/** A span of the current text that fixes wrote, with the text it replaced in the original. */
interface Written {
  start: number;
  end: number;
  original: string;
}

/**
 * The spans fixes wrote after one more pass (`edits` on `text`, in the order of the text). A span that an
 * edit overlaps merges with it and keeps the original it replaced; a merged span that reads as its original
 * again (a fix undone) is dropped. Each span left is one fix that survives.
 */
function carry(text: string, written: readonly Written[], edits: readonly PlannedEdit[]): Written[] {
  type Span = { start: number; end: number; w?: Written; e?: PlannedEdit };
  const spans: Span[] = [
    ...written.map((w) => ({ start: w.start, end: w.end, w })),
    ...edits.map((e) => ({ start: e.start, end: e.end, e })),
  ].sort((a, b) => a.start - b.start || a.end - b.end);
  /** The group's range [start, end) of `text` with `part`'s spans replaced by `by`. */
  const rebuild = (start: number, end: number, part: Span[], by: (s: Span) => string) => {
    let out = "";
    let at = start;
    for (const s of part) {
      out += text.slice(at, s.start) + by(s);
      at = s.end;
    }
    return out + text.slice(at, end);
  };
  const out: Written[] = [];
  let shift = 0; // how much this pass's edits so far lengthened the text
  for (let i = 0; i < spans.length;) {
    const start = spans[i]!.start;
    let end = spans[i]!.end;
    let j = i + 1;
    while (j < spans.length && spans[j]!.start < end) end = Math.max(end, spans[j++]!.end);
    const group = spans.slice(i, j);
    i = j;
    const fixes = group.filter((s) => s.e);
    const now = rebuild(start, end, fixes, (s) => s.e!.text);
    const from = start + shift;
    shift += now.length - (end - start);
    // Spans written before and not touched now (never overlapping one another): one each, moved.
    if (!fixes.length) out.push({ start: from, end: from + now.length, original: group[0]!.w!.original });
    else {
      const original = rebuild(
        start,
        end,
        group.filter((s) => s.w),
        (s) => s.w!.original,
      );
      if (now !== original) out.push({ start: from, end: from + now.length, original });
    }
  }
  return out;
}

/**
 * `--fix`'s passes over texts analysed together: `analyse` gives each text with its findings, `write` takes
 * a text's fixed version. Passes stop when no fix applies, and for a text when a pass would bring back one of
 * its earlier versions (two fixes undoing each other would otherwise alternate until the last pass). Returns
 * the texts that changed, by index.
 */
export function fixPasses(
  analyse: () => readonly { text: string; findings: readonly RawFinding[]; path?: string }[],
  write: (i: number, text: string) => void,
): Map<number, FixedFile> {
  const trails = new Map<number, { file: FixedFile; seen: Set<string>; written: Written[] }>();
  const done = new Set<number>();
  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    let any = false;
    analyse().forEach((r, i) => {
      if (done.has(i) || !r.findings.some((f) => f.fix)) return;
      const result = edit(r.text, r.findings, formatFor(r));
      if (!result.edits.length) return;
      let trail = trails.get(i);
      if (!trail) {
        trail = { file: { before: r.text, after: r.text, applied: 0 }, seen: new Set([r.text]), written: [] };
        trails.set(i, trail);
      }
      if (trail.seen.has(result.text)) {
        done.add(i);
        return;
      }
      trail.seen.add(result.text);
      trail.written = carry(r.text, trail.written, result.edits);
      trail.file.after = result.text;
      trail.file.applied = trail.written.length;
      any = true;
      write(i, result.text);
    });
    if (!any) break;
  }
  const out = new Map<number, FixedFile>();
  for (const [i, t] of trails) out.set(i, t.file);
  return out;
}

/**
 * Reviews the descriptors together (as the CLI does, with the configuration's severities and `off`) and
 * fixes them until nothing more applies, replacing each fixed input's `content` with its new text.
 * Returns the inputs that changed, with their text before and after.
 */
export function fixDescriptors(
  inputs: DescriptorInput[],
  config: ResolvedConfig,
): Map<DescriptorInput, FixedFile> {
  const fixed = fixPasses(
    () => analyseDescriptors(inputs, config),
    (i, text) => {
      const input = inputs[i] as DescriptorInput;
      input.content = text;
      delete input.size; // the text is whole now; its size is measured again
    },
  );
  return new Map([...fixed].map(([i, f]) => [inputs[i] as DescriptorInput, f]));
}

/**
 * A unified diff (as `diff -u` and `git apply` read it) between two texts. Fixes replace tokens within
 * lines and never add or remove a line break, so line n of the old text is line n of the new one; a change
 * of line count (never produced by applyFixes) is shown as one hunk over the whole file.
 */
export function unifiedDiff(
  oldPath: string,
  newPath: string,
  before: string,
  after: string,
  context = 3,
): string {
  if (before === after) return "";
  const a = splitLines(before);
  const b = splitLines(after);
  const out = [`--- ${oldPath}`, `+++ ${newPath}`];
  const hunks: [number, number][] = [];
  if (a.length !== b.length) hunks.push([0, Math.max(a.length, b.length)]);
  else {
    for (let i = 0; i < a.length; i++) {
      if (same(a[i], b[i])) continue;
      const start = Math.max(0, i - context);
      const end = Math.min(a.length, i + context + 1);
      const last = hunks[hunks.length - 1];
      if (last && start <= last[1]) last[1] = end;
      else hunks.push([start, end]);
    }
  }
  for (const [start, end] of hunks) {
    const oldLines = a.slice(start, Math.min(end, a.length));
    const newLines = b.slice(start, Math.min(end, b.length));
    out.push(`@@ -${range(start, oldLines.length)} +${range(start, newLines.length)} @@`);
    if (a.length !== b.length) {
      for (const l of oldLines) out.push(...line("-", l));
      for (const l of newLines) out.push(...line("+", l));
      continue;
    }
    let i = 0;
    while (i < oldLines.length) {
      if (same(oldLines[i], newLines[i])) {
        out.push(...line(" ", oldLines[i] as Line));
        i++;
        continue;
      }
      // A run of changed lines: all removals, then all additions, as diff prints them.
      let j = i;
      while (j < oldLines.length && !same(oldLines[j], newLines[j])) j++;
      for (let k = i; k < j; k++) out.push(...line("-", oldLines[k] as Line));
      for (let k = i; k < j; k++) out.push(...line("+", newLines[k] as Line));
      i = j;
    }
  }
  return out.join("\n") + "\n";
}

interface Line {
  text: string;
  /** False for a last line without a line break. */
  eol: boolean;
}

const same = (x: Line | undefined, y: Line | undefined) => x?.text === y?.text && x?.eol === y?.eol;

function splitLines(s: string): Line[] {
  const parts = s.split("\n");
  const lines = parts.map((text, i) => ({ text, eol: i < parts.length - 1 }));
  if (lines.length && lines[lines.length - 1]!.text === "") lines.pop(); // the text ended with "\n"
  return lines;
}

function line(mark: string, l: Line): string[] {
  return l.eol ? [mark + l.text] : [mark + l.text, "\\ No newline at end of file"];
}

function range(start: number, count: number): string {
  return count === 1 ? `${start + 1}` : `${count === 0 ? start : start + 1},${count}`;
}
