import { defineRule } from "../rule.js";
import { quote } from "../quote.js";

const TYPE_OF = {
  count: "`count` (EF1 `calculateDelta`: the change between collections)",
  gauge: "`gauge` (EF1 without `calculateDelta`: the value as read)",
} as const;

/**
 * A JMX metric's EF2 `type` says what its values mean: `count` is the change between two collections, `gauge`
 * the value as read. EF1's `calculateDelta` decides which (the key map gives it); another type changes what
 * every chart and alert on the metric shows.
 */
export const rule = defineRule({
  meta: {
    id: "migration-metric-type-changed",
    kind: "migration",
    defaultSeverity: "error",
    files: ["extension.yaml"],
    hasSuggestions: true,
    placeInData: true,
    positionalData: ["ef1"],
    nameData: ["key", "expected"],
    description: "An EF1 metric reached the extension as a gauge where it was a count, or the reverse.",
    messages: {
      changed:
        "metric `{{expected}}` is {{now}}, but EF1 metric `{{key}}` ({{ef1}}) is {{was}}; its values change meaning",
    },
  },
  check(context) {
    const migration = context.migration;
    if (migration?.kind !== "compared" || migration.framework !== "JMX") return;
    for (const m of migration.metrics) {
      const want = m.mapping.ef2.type;
      const found = m.found;
      if (!found || want === undefined || found.type === want) continue;
      // A statcounter is a gauge that also keeps the MBeans' minimum and maximum (key-map.ts `aggregation`).
      if (want === "gauge" && found.type === "gauge_statcounter") continue;
      const has = found.type !== undefined;
      context.report({
        pointer: has ? `${found.pointer}/type` : `${found.pointer}/key`,
        messageId: "changed",
        data: {
          key: m.mapping.ef1.key,
          ef1: m.ef1,
          expected: m.mapping.ef2.key,
          was: TYPE_OF[want],
          now: has
            ? quote(typeof found.type === "string" ? found.type : JSON.stringify(found.type))
            : "without a `type`",
        },
        ...(has
          ? { suggest: [{ replacement: JSON.stringify(want), description: `make it a ${quote(want)}` }] }
          : {}),
      });
    }
  },
});
