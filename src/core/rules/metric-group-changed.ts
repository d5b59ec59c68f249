import { finding, get, str, type Rule } from "../rule.js";

/** metricGroup is part of every metric key; an absent one means the plugin name. */
function effectiveGroup(doc: unknown): string | undefined {
  const g = get(doc, "metricGroup");
  return g === undefined ? str(get(doc, "name")) : str(g);
}

export const rule: Rule = {
  meta: {
    id: "metric-group-changed",
    kind: "change",
    defaultSeverity: "error",
    description: "The effective metricGroup changed (an absent metricGroup means the plugin name).",
  },
  check(ctx) {
    if (!ctx.base) return [];
    const before = effectiveGroup(ctx.base.value);
    const after = effectiveGroup(ctx.value);
    if (before === undefined || after === undefined || before === after) return [];
    const explicit = get(ctx.base.value, "metricGroup") !== undefined;
    // A fix replaces the value at the pointer: only offer one when head has a metricGroup value to replace.
    const inHead = get(ctx.value, "metricGroup") !== undefined;
    return [
      finding(
        this.meta,
        "/metricGroup",
        `the metric group changed from \`${before}\`${explicit ? "" : " (the plugin name, as no metricGroup was set)"} to \`${after}\`; it is part of every metric key and can never change: restore \`"metricGroup": ${JSON.stringify(before)}\``,
        {
          ...(inHead
            ? { fix: { replacement: JSON.stringify(before), description: `restore \`${before}\`` } }
            : {}),
        },
      ),
    ];
  },
};
