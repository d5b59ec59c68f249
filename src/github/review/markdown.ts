/**
 * Markdown for GitHub within its limits, shared by the check run's output and the pull request's review:
 * clipped text, text built under a character budget, and how a severity looks. Untrusted text is made
 * Markdown by src/format/markdown.ts; Markdown is only ever cut between lines here, never inside one (a
 * line cut inside a code span would leave the rest of its text outside it, rendered).
 */
import type { Severity } from "../../core/types.js";

/** A finding's message in a comment or annotation (rules' messages are short; a quoted value may not be). */
export const MESSAGE_LIMIT = 4000;

/** Text's size in characters (UTF-16 code units, never fewer than GitHub's characters): comments, review bodies. */
export const characters = (s: string): number => s.length;

/** Text's size in UTF-8 bytes: what GitHub counts against a check run's summary and text. */
export const utf8Bytes = (s: string): number => Buffer.byteLength(s, "utf8");

export const ICON: Record<Severity, string> = { error: "🔴", warning: "🟡", notice: "🔵" };

/** Plain text `s` in at most `max` characters: cut with an ellipsis when longer (nothing at all when `max` is 0). */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 0) return "";
  let end = max - 1;
  // Not between the two halves of a surrogate pair (an emoji cut in two is not a character).
  if (end > 0 && /[\uD800-\uDBFF]/.test(s[end - 1] as string)) end--;
  return s.slice(0, end) + "…";
}

/**
 * Text built under a character limit: lines that always stay, and lists shown as far as they fit, each
 * followed by a line counting what was left out. Summaries and review bodies are built with it, so that
 * GitHub never refuses them for their size and every omission is counted.
 */
export class BudgetedText {
  private readonly lines: string[] = [];
  /** The size of `toString()`: the lines and the newlines between them. */
  private length = 0;

  /** `size`: how GitHub counts the text against `limit` (characters, or a check run's UTF-8 bytes). */
  constructor(
    private readonly limit: number,
    private readonly size: (s: string) => number = characters,
  ) {}

  /** Characters left (a line after the first also costs its newline). */
  get remaining(): number {
    return this.limit - this.length;
  }

  /**
   * Lines that stay: a Markdown line that does not fit is never cut but left out, an ellipsis in its place
   * when that fits.
   */
  add(...lines: string[]): this {
    for (const line of lines) {
      const newline = this.lines.length > 0 ? 1 : 0;
      const room = this.remaining - newline;
      const l = this.size(line) <= room ? line : "…";
      if (this.size(l) > room) continue;
      this.lines.push(l);
      this.length += newline + this.size(l);
    }
    return this;
  }

  /**
   * Items in order while they fit, keeping `reserve` characters for what comes after them; when some
   * do not fit, `leftOut(n)` says so in their place. Returns how many were left out.
   */
  addItems(items: readonly string[], reserve: number, leftOut: (n: number) => string): number;
  /**
   * Items rendered by `render` only as far as they fit: thousands of findings cost the rows shown, not a row
   * each (rendering escapes every message, and a pull request decides how many there are).
   */
  addItems<T>(
    items: readonly T[],
    reserve: number,
    leftOut: (n: number) => string,
    render: (item: T) => string,
  ): number;
  addItems<T>(
    items: readonly T[],
    reserve: number,
    leftOut: (n: number) => string,
    render: (item: T) => string = (item) => item as unknown as string,
  ): number {
    const noteRoom = 200;
    let i = 0;
    for (; i < items.length; i++) {
      const room = this.remaining - reserve - (i + 1 < items.length ? noteRoom : 0);
      if (room < 1) break; // no row fits: none is rendered
      const text = render(items[i] as T);
      if (this.size(text) + 1 > room) break;
      this.add(text);
    }
    const omitted = items.length - i;
    if (omitted) this.add(leftOut(omitted));
    return omitted;
  }

  toString(): string {
    return this.lines.join("\n");
  }
}

/**
 * Markdown in at most `max` (characters, or what `size` counts): its first lines, whole, then an ellipsis when
 * some are left out.
 */
export function clipLines(markdown: string, max: number, size: (s: string) => number = characters): string {
  if (size(markdown) <= max) return markdown;
  const lines = markdown.split("\n");
  let end = 0;
  let length = size("…");
  while (end < lines.length && length + size(lines[end]!) + 1 <= max) length += size(lines[end++]!) + 1;
  return max > 0 ? [...lines.slice(0, end), "…"].join("\n") : "";
}
