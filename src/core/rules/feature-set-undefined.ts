import { defineRule } from "../rule.js";
import { quote } from "../quote.js";

/** A feature set's name as a person reads it: letter case and separators aside. */
const folded = (name: string) => name.toLowerCase().replace(/[\s_.-]+/g, "");

/**
 * A feature set is defined where a group, a subgroup (or a Python extension's `python.featureSets`) names it;
 * a metric may name one of its own. A metric's feature set that nothing defines, and that differs from one
 * that is only in letter case or separators (`Interface`, `node_basic` for `interface`, `node-basic`), is a
 * typo: its metric lands in a feature set of its own, which a monitoring configuration that turns on the
 * intended one does not collect. A name of its own (`errors` beside `basic`) is a feature set like any other.
 */
export const rule = defineRule({
  meta: {
    id: "feature-set-undefined",
    kind: "document",
    defaultSeverity: "warning",
    files: ["extension.yaml"],
    hasSuggestions: true,
    nameData: ["name"],
    description:
      "A metric names a feature set that no group or subgroup defines, near the name of one that is.",
    messages: {
      undefined:
        "this metric's feature set `{{name}}` is defined nowhere else, and `{{near}}` is: the metric forms a feature set of its own, which turning on `{{near}}` does not collect",
    },
  },
  check(context) {
    const { featureSets } = context.extension;
    const defined = new Set(featureSets.filter((f) => f.level !== "metric").map((f) => f.name));
    // Each defined name by its folded form (the first that folds so), read once rather than once per metric.
    const byFolded = new Map<string, string>();
    for (const d of defined) if (!byFolded.has(folded(d))) byFolded.set(folded(d), d);
    for (const f of featureSets) {
      if (f.level !== "metric" || defined.has(f.name)) continue;
      const near = byFolded.get(folded(f.name));
      if (near === undefined) continue;
      context.report({
        pointer: f.pointer,
        messageId: "undefined",
        data: { name: f.name, near },
        suggest: [{ replacement: JSON.stringify(near), description: `use ${quote(near)}` }],
      });
    }
  },
});
