import { arr, get, strings } from "../guards.js";
import { defineRule } from "../rule.js";

/** A series' `dimensions` must name dimensions its metric defines. */
export const rule = defineRule({
  meta: {
    id: "unknown-dimension-reference",
    kind: "document",
    defaultSeverity: "error",
    positionalData: ["defined"],
    nameData: ["key", "dimension"],
    description: "A chart series names a dimension that its metric does not define.",
    messages: { unknown: "metric `{{key}}` has no dimension `{{dimension}}`{{defined}}" },
  },
  check(context) {
    const metrics = context.metricsByKey;
    // Each metric's dimensions read once, for the metrics that series name.
    const dims = new Map<string, string[]>();
    for (const s of context.series) {
      if (s.key === undefined) continue;
      let defined = dims.get(s.key);
      if (!defined) {
        const m = metrics.get(s.key);
        if (!m) continue; // unknown-metric-reference reports it
        dims.set(s.key, (defined = strings(m.spec.dimensions)));
      }
      arr(get(s.series, "dimensions")).forEach((dimension, k) => {
        if (typeof dimension !== "string" || defined.includes(dimension)) return;
        context.report({
          pointer: `${s.pointer}/dimensions/${k}`,
          messageId: "unknown",
          data: {
            key: s.key as string,
            dimension,
            defined: defined.length
              ? ` (its dimensions: ${defined.map((x) => `\`${x}\``).join(", ")})`
              : " (it has no dimensions)",
          },
        });
      });
    }
  },
});
