import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";
import { quote } from "../quote.js";

/** metricGroup is part of every metric key; an absent one means the plugin name. */
function effectiveGroup(doc: unknown): string | undefined {
  const g = get(doc, "metricGroup");
  return g === undefined ? str(get(doc, "name")) : str(g);
}

export const rule = defineRule({
  meta: {
    id: "metric-group-changed",
    kind: "change",
    defaultSeverity: "error",
    fixable: "code",
    description: "The effective metricGroup changed (an absent metricGroup means the plugin name).",
    messages: {
      changed:
        'the metric group changed from `{{before}}`{{implicit}} to `{{after}}`; it is part of every metric key and can never change: restore `"metricGroup": {{restore}}`',
    },
  },
  check(context) {
    if (!context.base) return;
    const before = effectiveGroup(context.base.value);
    const after = effectiveGroup(context.value);
    if (before === undefined || after === undefined || before === after) return;
    const explicit = get(context.base.value, "metricGroup") !== undefined;
    // A fix replaces the value at the pointer: only offer one when head has a metricGroup value to replace.
    const inHead = get(context.value, "metricGroup") !== undefined;
    context.report({
      pointer: "/metricGroup",
      messageId: "changed",
      data: {
        before,
        after,
        implicit: explicit ? "" : " (the plugin name, as no metricGroup was set)",
        restore: JSON.stringify(before),
      },
      ...(inHead
        ? { fix: { replacement: JSON.stringify(before), description: `restore ${quote(before)}` } }
        : {}),
    });
  },
});
