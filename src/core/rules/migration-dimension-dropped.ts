import { childPointer } from "../json/pointer.js";
import { defineRule } from "../rule.js";

/**
 * A JMX metric's dimensions are its subgroup's (EF2 adds the process and host itself): a dimension the key map
 * gives it (an EF1 splitting, a listed dimension) that its subgroup lacks is dropped, and the values it told
 * apart are summed into one series.
 */
export const rule = defineRule({
  meta: {
    id: "migration-dimension-dropped",
    kind: "migration",
    defaultSeverity: "error",
    files: ["extension.yaml"],
    placeInData: true,
    positionalData: ["ef1"],
    nameData: ["key", "expected"],
    description: "An EF1 metric reached the extension without a dimension it is split by.",
    messages: {
      dropped:
        "metric `{{expected}}` has no dimension `{{dimension}}`, by which EF1 metric `{{key}}` ({{ef1}}) is split: its values are summed into one series, and charts and alerts split by `{{dimension}}` break",
    },
  },
  check(context) {
    const migration = context.migration;
    if (migration?.kind !== "compared" || migration.framework !== "JMX") return;
    for (const m of migration.metrics) {
      const subgroup = m.found?.subgroup;
      if (!subgroup) continue;
      const sg = subgroup.pointer;
      for (const dimension of m.mapping.ef2.dimensions) {
        if (subgroup.dimensions.has(dimension)) continue;
        context.report({
          pointer: subgroup.hasDimensions ? childPointer(sg, "dimensions") : childPointer(sg, "query"),
          messageId: "dropped",
          data: { key: m.mapping.ef1.key, ef1: m.ef1, expected: m.mapping.ef2.key, dimension },
          target: "key",
        });
      }
    }
  },
});
