import type { MetricEntry } from "../facts.js";
import { defineRule } from "../rule.js";

/** Metric keys are unique within the plugin, across timeseries and statetimeseries. */
export const rule = defineRule({
  meta: {
    id: "duplicate-metric-key",
    kind: "document",
    defaultSeverity: "error",
    positionalData: ["first"],
    nameData: ["key"],
    description: "Two metrics share a key.",
    messages: {
      duplicate:
        "metric key `{{key}}` is already defined by `metrics[{{first}}]`; keys must be unique within the plugin",
    },
  },
  check(context) {
    const first = context.metricsByKey;
    // Every key defined once: nothing to report, without a walk of the metrics.
    if (first.size === context.metricKeys.length) return;
    for (const m of context.metrics) {
      if (m.key === undefined) continue;
      const prev = first.get(m.key) as MetricEntry;
      if (prev !== m)
        context.report({
          pointer: `${m.pointer}/key`,
          messageId: "duplicate",
          data: { key: m.key, first: prev.index },
        });
    }
  },
});
