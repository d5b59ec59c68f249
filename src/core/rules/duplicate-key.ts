import { displayPath } from "../json/pointer.js";
import { finding, type Rule } from "../rule.js";

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** JSON.parse silently keeps the last of two members with the same name; the first is lost. */
export const rule: Rule = {
  meta: {
    id: "duplicate-key",
    kind: "parse",
    defaultSeverity: "error",
    description: "An object holds the same member name twice; parsers silently keep only the last one.",
  },
  check(ctx) {
    return ctx.duplicates.map((d) =>
      finding(
        this.meta,
        `${d.objectPointer}/${d.key.replace(/~/g, "~0").replace(/\//g, "~1")}`,
        `member \`${d.key}\` appears twice in \`${displayPath(d.objectPointer)}\` (first on line ${lineOf(ctx.text, d.firstKeyStart)}); the first value is silently discarded`,
        { target: "key", range: { start: d.keyStart, end: d.keyEnd } },
      ),
    );
  },
};
