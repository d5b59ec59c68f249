/**
 * The core's locations in LSP positions. The core counts lines at "\n" and columns in Unicode code points
 * from 1 (locate.ts); LSP positions are 0-based, with characters in UTF-16 code units and "\r", "\n" and
 * "\r\n" all ending a line. Each location goes back to its UTF-16 offset in the text, which the text
 * document then turns into a position by LSP's rules, so an emoji or a lone "\r" lands where the editor
 * expects it.
 */
import type { Position, Range } from "vscode-languageserver";
import type { Location } from "../core/types.js";

export interface OffsetText {
  getText(): string;
  positionAt(offset: number): Position;
  offsetAt(position: Position): number;
}

/** Starts of the core's lines: 0, then one past every "\n". */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The UTF-16 offset of a core (1-based line, 1-based code-point column), clamped to the line. */
export function offsetOf(text: string, starts: readonly number[], line: number, column: number): number {
  const l = Math.min(Math.max(line, 1), starts.length);
  const start = starts[l - 1] as number;
  const next = starts[l];
  // The "\n" ends the line; a "\r" before it is a column of its own for the core (locate.ts counts it).
  const end = next === undefined ? text.length : next - 1;
  // Line 1's columns count from after a byte order mark, as the core counts them (locate.ts).
  let i = start === 0 && text.charCodeAt(0) === 0xfeff ? 1 : start;
  for (let c = 1; c < column && i < end; c++) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < end;
    const low = pair ? text.charCodeAt(i + 1) : 0;
    i += pair && low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
  }
  return i;
}

/** A finding's location as an LSP range in `doc`. */
export function toRange(doc: OffsetText, starts: readonly number[], loc: Location): Range {
  const text = doc.getText();
  const start = offsetOf(text, starts, loc.line, loc.column);
  const end = Math.max(start, offsetOf(text, starts, loc.endLine, loc.endColumn));
  return { start: doc.positionAt(start), end: doc.positionAt(end) };
}

/** Do two ranges share a position (touching counts: the cursor just after a token asks about it)? */
export function intersects(a: Range, b: Range): boolean {
  const before = (x: Position, y: Position) =>
    x.line < y.line || (x.line === y.line && x.character < y.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}
