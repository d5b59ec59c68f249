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
    files: ["plugin.json", "extension.yaml"],
    description: "Two metrics share a key.",
    messages: {
      duplicate:
        "metric key `{{key}}` is already defined by `metrics[{{first}}]`; keys must be unique within the plugin",
      described:
        "metric `{{key}}` is already described by `metrics[{{first}}]`; Dynatrace keeps one metadata per key, so one of the two is lost",
    },
  },
  check(context) {
    if (context.format === "extension.yaml") {
      // A data source may report one key from several subgroups (other dimensions); its metadata is one.
      const seen = new Map<string, number>();
      for (const d of context.extension.described) {
        const first = seen.get(d.key);
        if (first === undefined) seen.set(d.key, d.index);
        else
          context.report({
            pointer: `${d.pointer}/key`,
            messageId: "described",
            data: { key: d.key, first },
          });
      }
      return;
    }
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
