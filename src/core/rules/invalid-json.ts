import { finding, type Rule } from "../rule.js";

/** The file is not strict JSON; the location is the first offending character. No other rule runs then. */
export const rule: Rule = {
  meta: {
    id: "invalid-json",
    kind: "parse",
    defaultSeverity: "error",
    description: "The file is not strict JSON (comments, trailing commas, BOM, NaN, truncation, …).",
  },
  check(ctx) {
    const e = ctx.parseError;
    if (!e) return [];
    return [
      finding(this.meta, "", `not valid JSON: ${e.message}`, {
        target: "key",
        range: { start: e.offset, end: e.end },
      }),
    ];
  },
};
