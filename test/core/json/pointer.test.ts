/** RFC 6901 pointers: the value one names in a parsed document (json/pointer.ts valueAt). */
import { describe, expect, it } from "vitest";
import { valueAt } from "../../../src/core/json/pointer.js";

const doc = { metrics: [{ "a/b": { "~x": 1 } }, null], list: [0, false], proto: {} };

describe("valueAt", () => {
  it.each([
    ["", doc],
    ["/metrics/0/a~1b/~0x", 1],
    ["/metrics/1", null],
    ["/list/1", false],
    ["/list/0", 0],
    // Names nothing: a missing member, an index out of range or not an index, a path through a scalar or null.
    ["/nope", undefined],
    ["/list/2", undefined],
    ["/list/01", undefined],
    ["/list/length", undefined],
    ["/metrics/1/x", undefined],
    ["/list/0/x", undefined],
    // Inherited members are not the document's.
    ["/proto/toString", undefined],
    ["/proto/__proto__", undefined],
  ])("%s", (pointer, expected) => {
    expect(valueAt(doc, pointer)).toBe(expected);
  });
});
