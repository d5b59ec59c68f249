import type { MetricEntry } from "../facts.js";
import { defineRule, type RuleContext } from "../rule.js";

/**
 * Metric keys are unique within the plugin, across timeseries and statetimeseries. In an extension.yaml, one
 * key is described once, and a data source's metrics list (a group's or a subgroup's) reports a key once:
 * the metrics of one list share its dimensions, so two that Dynatrace ingests under one key write one series.
 */
export const rule = defineRule({
  meta: {
    id: "duplicate-metric-key",
    kind: "document",
    defaultSeverity: "error",
    positionalData: ["first"],
    nameData: ["key", "ingested"],
    files: ["plugin.json", "extension.yaml"],
    description: "Two metrics share a key.",
    messages: {
      duplicate:
        "metric key `{{key}}` is already defined by `metrics[{{first}}]`; keys must be unique within the plugin",
      described:
        "metric `{{key}}` is already described by `metrics[{{first}}]`; Dynatrace keeps one metadata per key, so one of the two is lost",
      reported:
        "`{{key}}` is ingested as `{{ingested}}`, which `{{first}}` of the same metrics list already reports with the same dimensions: both values go to one series and neither can be told apart",
    },
  },
  check(context) {
    if (context.format === "extension.yaml") {
      // A data source may report one key from several subgroups (other dimensions); its metadata is one.
      reportedTwice(context);
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

/**
 * The metrics of one list (a group's or a subgroup's `metrics`) that Dynatrace ingests under a key an earlier
 * metric of that list already reports. A Prometheus histogram or summary is one metric ingested under several
 * keys: its parts are one metric's, never a duplicate of each other.
 */
function reportedTwice(context: RuleContext<"reported">): void {
  const first = new Map<string, string>();
  for (const r of context.extension.reported) {
    const list = r.pointer.slice(0, r.pointer.lastIndexOf("/"));
    const at = `${list}\n${r.ingested}`;
    const prev = first.get(at);
    if (prev === undefined) first.set(at, r.pointer);
    else if (prev !== r.pointer)
      context.report({
        pointer: `${r.pointer}/key`,
        messageId: "reported",
        data: { key: r.key, ingested: r.ingested, first: prev },
      });
  }
}
