import { childPointer, displayPath } from "../json/pointer.js";
import { LineIndex } from "../locate.js";
import { finding, type Rule } from "../rule.js";

/** JSON.parse silently keeps the last of two members with the same name; the first is lost. */
export const rule: Rule = {
  meta: {
    id: "duplicate-key",
    kind: "parse",
    defaultSeverity: "error",
    description: "An object holds the same member name twice; parsers silently keep only the last one.",
  },
  check(ctx) {
    if (!ctx.duplicates.length) return [];
    const lines = new LineIndex(ctx.text);
    return ctx.duplicates.map((d) =>
      finding(
        this.meta,
        childPointer(d.objectPointer, d.key),
        `member \`${d.key}\` appears twice in \`${displayPath(d.objectPointer)}\` (first on line ${lines.position(d.firstKeyStart).line}); the first value is silently discarded`,
        { target: "key", range: { start: d.keyStart, end: d.keyEnd } },
      ),
    );
  },
};
