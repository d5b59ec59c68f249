/**
 * Untrusted text in Markdown: the one place where text that comes from a descriptor, a configuration file, a
 * path, a branch or a repository name meets the Markdown that GitHub renders (the App's check run summary,
 * review bodies and comments, replies; `audit --format markdown`). Whatever such text holds, it is shown as
 * the characters it is and does nothing: no mention notifies anyone, no reference, link or autolink, no
 * HTML or HTML comment, no emphasis, heading or list, no way out of a code span or block, and no substring
 * shaped like one of the App's hidden `<!-- plugin-review:… -->` markers (which the App reads back).
 *
 * - `inertText`: plain text inline (Markdown syntax escaped; what GitHub turns into mentions, references
 *   and autolinks after parsing, where a backslash no longer counts, broken with a zero-width space);
 * - `codeSpan`, `codeBlock`: code, its fence longer than any backtick run inside;
 * - `quotedText`: text in the core's plain convention, where backticks quote code (notes, edit descriptions);
 * - `findingMessage`: a finding's message, from its rule's template (ours: where its code spans are) and
 *   its data (theirs: inert wherever the template puts them).
 *
 * The core stays free of Markdown: its messages are plain text whose templates quote code with backticks,
 * and this module reads that structure from the template, never from the text the data filled in.
 */
import { formatMessage } from "../core/rule-meta.js";
import { RULES_BY_ID } from "../core/rules/index.js";
import { longestRun, quote } from "../core/quote.js";
import type { Finding } from "../core/types.js";
import { isPrintable, printable } from "./printable.js";

/** How the core quotes a value in its plain text (quotedText reads it back whole). */
export { quote };

/** Invisible, not a word character: between `@` and a name it keeps GitHub from seeing a mention. */
const ZWSP = "\u200b";

export interface InlineOptions {
  /** In a cell of a GFM table, which splits cells at every `|` not escaped, inside code spans too. */
  cell?: boolean;
}

/** `<!--` in untrusted text, broken (shown alike), so that no marker of the App's can come from it. */
const noComment = (s: string) => s.replace(/<!--/g, `<!${ZWSP}--`);

/**
 * In one pass, what Markdown or GitHub would make something of. What opens or closes an inline construct
 * (code, emphasis, strikethrough, links, HTML, entities, table cells, math) and `#` (a heading at the start
 * of a line) gets a backslash, which makes it a character (in a table cell too: GitHub and markdown-it
 * split cells at `|` alone, before inlines). What GitHub links or notifies after parsing, where a backslash
 * no longer counts, and markdown-it's linkify too, gets a zero-width space: mentions (`@user`, `@org/team`)
 * and e-mail addresses, references (`#12`, `GH-12`, commit ids), URLs (`https://`, `mailto:`, `//host`),
 * `www.` and bare domains (`example.com`, `localhost`, IPs).
 */
const SPECIAL =
  /www\.|localhost|\bGH-(?=\d)|[0-9a-f]{7,}|\.(?=[\p{L}\p{N}])|:(?=\S)|\/(?=\/)|[@#\\`*_~[\]<>&|$]/giu;

function special(m: string): string {
  if (m.length === 1)
    return m === "@"
      ? `${ZWSP}@${ZWSP}`
      : m === "#"
        ? `\\#${ZWSP}`
        : /[.:/]/.test(m)
          ? `${m}${ZWSP}`
          : `\\${m}`;
  const lower = m.toLowerCase();
  if (lower === "www.") return `${m.slice(0, 3)}${ZWSP}.`;
  if (lower === "localhost") return `${m.slice(0, 5)}${ZWSP}${m.slice(5)}`;
  if (lower === "gh-") return `${m}${ZWSP}`;
  return m.replace(/.{6}(?=.)/g, `$&${ZWSP}`); // a run of hex digits: no commit id
}

/** Words, spaces and punctuation that mean nothing to Markdown or GitHub anywhere in a line. */
const PLAIN = /^(?!\s*\d+\))[\p{L}\p{N} ,;'"()?!]*$/u;
/** What SPECIAL finds within words: `www`, `localhost`, a run of hex digits. */
const WORDS = /www|localhost|[0-9a-f]{7}/i;

/**
 * Plain text as inline Markdown, on one line: shown character for character (zero-width spaces aside), it
 * is never markup. Line breaks become spaces; control characters go.
 */
export function inertText(s: string): string {
  // Most text (a message's words) holds nothing to escape or break: as it is.
  if (PLAIN.test(s) && !WORDS.test(s)) return s;
  const t = noComment(printable(s)).replace(SPECIAL, special);
  // At the start of a line (a note after `> `): a list item, an ordered list, a setext underline.
  return t.replace(
    /^(\s*)(?:([-+=])|(\d{1,9})([.)]))/,
    (_, space: string, sign?: string, n?: string, dot?: string) =>
      sign ? `${space}\\${sign}` : `${space}${n}\\${dot}`,
  );
}

/**
 * What a code span's content needs changed or fenced otherwise: backticks, `<` (of `<!--`), `|`; and what
 * `printable` takes away (isPrintable).
 */
const SPAN_SPECIAL = /[`<|]/;

/**
 * A code span showing `s` on one line, exactly (line breaks become spaces, control characters go; an empty
 * text shows as one space): its fence is longer than any backtick run in it, so nothing in it ends it.
 */
export function codeSpan(s: string, opts: InlineOptions = {}): string {
  if (!SPAN_SPECIAL.test(s) && isPrintable(s) && /^\S(?:.*\S)?$/.test(s)) return `\`${s}\``; // nothing to change
  let content = noComment(printable(s)) || " ";
  const fence = "`".repeat(longestRun(content) + 1);
  // A space each side keeps a backtick at an end apart from the fence; CommonMark takes one off each side
  // of a span that starts and ends with a space, so one with spaces at both ends gets one more each.
  if (/^`|`$/.test(content) || /^ [^]*[^ ][^]* $/.test(content)) content = ` ${content} `;
  // In a table cell `\|` is a `|` of the content (GitHub and markdown-it take the backslash away first).
  if (opts.cell) content = content.replace(/\|/g, "\\|");
  return `${fence}${content}${fence}`;
}

/** Text as a code block's lines: LF line breaks, tabs kept, every other control character gone. */
const blockLines = (s: string) =>
  s
    .split(/\r\n|\r|\n/)
    .map((line) => line.split("\t").map(printable).join("\t"))
    .join("\n");

/** Whether `codeBlock` shows `s` exactly as it is (a suggestion is committed as shown: only then is it offered). */
export function showsVerbatim(s: string): boolean {
  return !/\r/.test(s) && blockLines(s) === s && noComment(s) === s;
}

/**
 * A fenced code block showing `s` (its lines, controls aside), with an info string of ours (`suggestion`):
 * the fence is longer than any backtick run in it, so no line of it closes the block. It stands on lines of
 * its own, at the top level of the document.
 */
export function codeBlock(s: string, info = ""): string {
  const content = noComment(blockLines(s));
  const fence = "`".repeat(Math.max(3, longestRun(content) + 1));
  return `${fence}${info}\n${content}\n${fence}`;
}

/** A message cut into what shows as text and what shows as code. */
type Piece = { code: false; text: string } | { code: true; text: string };

/**
 * Text in the core's convention, where backticks quote code: a run of backticks opens a quote that the
 * next run of the same length closes (CommonMark's rule); a run left open is a character.
 */
function quotedPieces(s: string): Piece[] {
  if (!s.includes("`")) return [{ code: false, text: s }];
  const pieces: Piece[] = [];
  const runs = [...s.matchAll(/`+/g)];
  // The next run of the same length after each run (one pass from the end: linear in the text).
  const next: (number | undefined)[] = [];
  const seen = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    const length = runs[i]![0].length;
    next[i] = seen.get(length);
    seen.set(length, i);
  }
  let text = "";
  let at = 0;
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i]!;
    const close = next[i];
    if (open.index < at || close === undefined) continue;
    const end = runs[close]!;
    text += s.slice(at, open.index);
    let code = s.slice(open.index + open[0].length, end.index);
    // CommonMark's rule: one space off each end of a quote that starts and ends with one (quote() pads so).
    if (/^ [^]*[^ ][^]* $/.test(code)) code = code.slice(1, -1);
    pieces.push({ code: false, text }, { code: true, text: code });
    text = "";
    at = end.index + end[0].length;
    i = close;
  }
  pieces.push({ code: false, text: text + s.slice(at) });
  return pieces;
}

/**
 * A rule's message from its template and data: the template's backticks say what is code; each value shows
 * where the template puts it, in full inside the template's code span, or else in its own convention
 * (a value the rule composed, such as a list of quoted names). Undefined when the template is not one to
 * read so (its backticks do not pair up).
 */
function templatePieces(template: string, data: Finding["data"]): Piece[] | undefined {
  const parsed = parseTemplate(template);
  if (!parsed) return undefined;
  // Each value made printable on its own: an escape sequence in a value must not reach into the template's
  // text beside it (`metrics[{{index}}]` with a C1 CSI in the value would take the "]" with it).
  const value = (name: string) => printable(String(data?.[name]));
  return parsed.flatMap((part): Piece[] =>
    "code" in part
      ? [{ code: true, text: part.code.map((x) => (typeof x === "string" ? x : value(x.name))).join("") }]
      : "name" in part
        ? quotedPieces(value(part.name))
        : [{ code: false, text: part.text }],
  );
}

/** A template read once: its text, its code spans (literals and placeholders), its placeholders in text. */
type TemplatePart = { text: string } | { name: string } | { code: (string | { name: string })[] };
const templates = new Map<string, TemplatePart[] | undefined>();

function parseTemplate(template: string): TemplatePart[] | undefined {
  if (templates.has(template)) return templates.get(template);
  const parts: TemplatePart[] = [];
  let code: (string | { name: string })[] | undefined;
  template.split(/\{\{(\w+)\}\}/).forEach((part, i) => {
    if (i % 2 === 1) {
      if (code) code.push({ name: part });
      else parts.push({ name: part });
      return;
    }
    part.split("`").forEach((literal, j) => {
      if (j > 0) {
        if (code) parts.push({ code });
        code = code ? undefined : [];
      }
      if (code) code.push(literal);
      else parts.push({ text: literal });
    });
  });
  const out = code ? undefined : parts;
  templates.set(template, out);
  return out;
}

/** Adjacent pieces of one kind as one (two code spans side by side would read as one with the wrong fence). */
function merged(pieces: readonly Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const p of pieces) {
    const last = out.at(-1);
    if (last && last.code === p.code) last.text += p.text;
    else if (p.code || p.text) out.push({ ...p });
  }
  return out;
}

export interface RenderOptions extends InlineOptions {
  /** At most this many characters: cut (whole constructs only) with an ellipsis. */
  max?: number;
}

/** A prefix of `s` of about `n` UTF-16 units that does not split a surrogate pair. */
function prefix(s: string, n: number): string {
  return n > 0 && /[\uD800-\uDBFF]/.test(s[n - 1] ?? "") ? s.slice(0, n - 1) : s.slice(0, n);
}

function render(pieces: readonly Piece[], opts: RenderOptions): string {
  const one = (p: Piece, text = p.text) => (p.code ? codeSpan(text, opts) : inertText(text));
  const whole = pieces.map((p) => one(p)).join("");
  const max = opts.max;
  if (max === undefined || whole.length <= max) return whole;
  if (max <= 0) return "";
  // Whole pieces while they fit, then as much of the next as fits rendered, then the ellipsis.
  const room = max - 1;
  let out = "";
  for (const p of pieces) {
    const r = one(p);
    if (out.length + r.length <= room) {
      out += r;
      continue;
    }
    let [lo, hi] = [0, p.text.length];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (out.length + one(p, prefix(p.text, mid)).length <= room) lo = mid;
      else hi = mid - 1;
    }
    if (lo > 0) out += one(p, prefix(p.text, lo));
    break;
  }
  return `${out}…`;
}

/** Text in the core's convention (backticks quote code) as Markdown: the quotes as code spans, the rest inert. */
export function quotedText(s: string, opts: RenderOptions = {}): string {
  return render(merged(quotedPieces(s)), opts);
}

/**
 * A finding's message as Markdown. When it is its rule's template filled with its data (as the core makes
 * every rule's message), the template decides what is code: a member name that holds backticks still
 * shows whole in its code span. Otherwise (a runner's message) it is read in the core's convention.
 */
export function findingMessage(
  f: Pick<Finding, "ruleId" | "messageId" | "message"> & Partial<Pick<Finding, "data">>,
  opts: RenderOptions = {},
): string {
  const template = (RULES_BY_ID.get(f.ruleId)?.meta.messages as Record<string, string> | undefined)?.[
    f.messageId
  ];
  let pieces: Piece[] | undefined;
  if (template !== undefined) {
    try {
      if (formatMessage(template, f.data) === f.message) pieces = templatePieces(template, f.data);
    } catch {
      // data that do not fill the template: read the message as it is
    }
  }
  return render(merged(pieces ?? quotedPieces(f.message)), opts);
}
