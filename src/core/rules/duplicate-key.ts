import { childPointer, displayPath } from "../json/pointer.js";
import { LineIndex } from "../locate.js";
import { defineRule } from "../rule.js";

/** JSON.parse silently keeps the last of two members with the same name; the first is lost. */
export const rule = defineRule({
  meta: {
    id: "duplicate-key",
    kind: "parse",
    defaultSeverity: "error",
    positionalData: ["object", "firstLine"],
    nameData: ["key"],
    description: "An object holds the same member name twice; parsers silently keep only the last one.",
    messages: {
      duplicate:
        "member `{{key}}` appears twice in `{{object}}` (first on line {{firstLine}}); the first value is silently discarded",
    },
  },
  check(context) {
    if (!context.duplicates.length) return;
    const lines = new LineIndex(context.text);
    for (const d of context.duplicates) {
      context.report({
        pointer: childPointer(d.objectPointer, d.key),
        messageId: "duplicate",
        data: {
          key: d.key,
          object: displayPath(d.objectPointer),
          firstLine: lines.position(d.firstKeyStart).line,
        },
        target: "key",
        range: { start: d.keyStart, end: d.keyEnd },
      });
    }
  },
});
