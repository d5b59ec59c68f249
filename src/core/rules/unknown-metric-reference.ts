import { defineRule } from "../rule.js";
import { didYouMean } from "../suggest.js";

/** Charts and key metrics name metrics by key; a typo leaves an empty chart. State metrics count too. */
export const rule = defineRule({
  meta: {
    id: "unknown-metric-reference",
    kind: "document",
    defaultSeverity: "error",
    positionalData: ["suggestion"],
    nameData: ["key"],
    description: "A keymetric, keychart or chart series names a key that no metric of the plugin defines.",
    messages: { unknown: "no metric has the key `{{key}}`{{suggestion}}" },
  },
  check(context) {
    const known = context.metricsByKey;
    for (const refs of [context.keymetrics, context.series])
      for (const ref of refs) {
        if (ref.key === undefined || known.has(ref.key)) continue;
        context.report({
          pointer: `${ref.pointer}/key`,
          messageId: "unknown",
          data: { key: ref.key, suggestion: didYouMean(ref.key, context.metricKeys) },
        });
      }
  },
});
