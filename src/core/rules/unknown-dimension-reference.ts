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
    const dims = new Map<string, string[]>();
    for (const m of context.metrics) {
      if (m.key !== undefined && !dims.has(m.key)) dims.set(m.key, strings(m.spec.dimensions));
    }
    for (const s of context.series) {
      const defined = s.key === undefined ? undefined : dims.get(s.key);
      if (s.key === undefined || defined === undefined) continue; // unknown-metric-reference reports it
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
