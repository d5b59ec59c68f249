import { arr, finding, get, type Rule } from "../rule.js";

/** The process infographic has room for two key metrics. */
export const rule: Rule = {
  meta: {
    id: "keymetrics-limit",
    kind: "document",
    defaultSeverity: "error",
    description: "ui.keymetrics has more than two entries.",
  },
  check(ctx) {
    const n = arr(get(get(ctx.value, "ui"), "keymetrics")).length;
    if (n <= 2) return [];
    return [
      finding(this.meta, "/ui/keymetrics", `\`ui.keymetrics\` has ${n} entries; at most two are allowed`, {
        target: "key",
      }),
    ];
  },
};
