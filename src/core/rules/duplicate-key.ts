import { childPointer, displayPath } from "../json/pointer.js";
import { LineIndex } from "../locate.js";
import { defineRule } from "../rule.js";

/** JSON.parse silently keeps the last of two members with the same name; the others are lost. */
export const rule = defineRule({
  meta: {
    id: "duplicate-key",
    kind: "parse",
    defaultSeverity: "error",
    files: ["plugin.json", "extension.yaml"],
    // `occurrence` (which copy: 2 for the second) is what tells the copies of one name apart, as `#n` does
    // for array elements; how many copies there are and where the first is say nothing about this one.
    positionalData: ["object", "firstLine", "times"],
    nameData: ["key"],
    description: "An object holds the same member name twice; parsers silently keep only the last one.",
    messages: {
      duplicate:
        "member `{{key}}` appears {{times}} in `{{object}}` (first on line {{firstLine}}); parsers silently keep only the last one",
    },
  },
  check(context) {
    if (!context.duplicates.length) return;
    const lines = new LineIndex(context.text);
    // The parser lists each later copy of a name in the order of the text, with where its first copy is
    // (one object and name): how many copies each name has, then which copy each is (2 for the second).
    const total = new Map<number, number>();
    for (const d of context.duplicates) total.set(d.firstKeyStart, (total.get(d.firstKeyStart) ?? 1) + 1);
    const seen = new Map<number, number>();
    for (const d of context.duplicates) {
      const n = (seen.get(d.firstKeyStart) ?? 1) + 1;
      seen.set(d.firstKeyStart, n);
      const copies = total.get(d.firstKeyStart) as number;
      context.report({
        pointer: childPointer(d.objectPointer, d.key),
        messageId: "duplicate",
        data: {
          key: d.key,
          object: displayPath(d.objectPointer),
          firstLine: lines.position(d.firstKeyStart).line,
          times: copies === 2 ? "twice" : `${copies} times`,
          occurrence: n,
        },
        target: "key",
        range: { start: d.keyStart, end: d.keyEnd },
      });
    }
  },
});
