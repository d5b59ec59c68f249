/**
 * The core's locations (locate.ts: lines at "\n", columns in code points, a byte order mark none) go back to the
 * UTF-16 offsets they were made from, so that an editor's range is the core's.
 */
import { describe, expect, it } from "vitest";
import { LineIndex } from "../../src/core/locate.js";
import { lineStarts, offsetOf } from "../../src/lsp/positions.js";

describe("offsetOf, the inverse of the core's positions", () => {
  it.each([
    ["plain", "name: custom:a\nversion: 1.0.0\n"],
    ["a byte order mark, as Windows editors write one", "\uFEFFname: custom:a\r\nversion: 1.0.0\r\n"],
    ["an emoji and CRLF", "a: 😀 b\r\nc: d\n"],
    ["a byte order mark and an emoji on line 1", "\uFEFFa: '😀'\nb: 1"],
  ])("gives back every character's offset: %s", (_, text) => {
    const index = new LineIndex(text);
    const starts = lineStarts(text);
    for (let o = 0; o <= text.length; o++) {
      const code = text.charCodeAt(o);
      if (code >= 0xdc00 && code <= 0xdfff) continue; // inside a surrogate pair: no place of its own
      if (o === 0 && code === 0xfeff) continue; // the mark itself: where the text shown starts
      const { line, column } = index.position(o);
      expect(offsetOf(text, starts, line, column), `offset ${o}`).toBe(o);
    }
  });

  it("counts no column for a byte order mark", () => {
    const text = "\uFEFFname: x\n";
    expect(new LineIndex(text).position(text.indexOf("x"))).toEqual({ line: 1, column: 7 });
    expect(offsetOf(text, lineStarts(text), 1, 7)).toBe(text.indexOf("x"));
  });
});
