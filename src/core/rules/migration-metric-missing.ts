import { defineRule } from "../rule.js";
import { quote } from "../quote.js";

/**
 * Every EF1 metric must reach the EF2 extension under the key the key map gives (ef2/key-map.ts, the mapping
 * `migrate` writes): a metric that is missing, or under another key, breaks every dashboard, alert and SLO that
 * used it. The finding is shown where the metric should be in the extension.yaml (so that it is annotated in a
 * file of the head even when the change deletes the plugin.json) and names the EF1 line it comes from; its
 * identity is the EF1 metric's key, wherever it is shown.
 */
export const rule = defineRule({
  meta: {
    id: "migration-metric-missing",
    kind: "migration",
    defaultSeverity: "error",
    files: ["extension.yaml"],
    hasSuggestions: true,
    placeInData: true,
    positionalData: ["ef1"],
    nameData: ["key", "expected", "now"],
    description:
      "An EF1 metric of the plugin.json the extension.yaml replaces is not in the extension under the key the key map gives.",
    messages: {
      missing:
        "EF1 metric `{{key}}` ({{ef1}}) is not in the extension: it should be `{{expected}}`; dashboards, alerts and SLOs that use it lose their data",
      renamed:
        "EF1 metric `{{key}}` ({{ef1}}) is `{{now}}` here, but the key map (and Dynatrace's converter) make it `{{expected}}`; dashboards, alerts and SLOs written for that key find no data",
      unreadable:
        "`{{path}}`, which this extension.yaml replaces, {{why}}, so its metrics could not be compared with the extension's",
      unmapped:
        "`{{path}}`, which this extension.yaml replaces, is not a JMX or Python plugin (its `type` is {{type}}): only those have a key map, so its metrics were not compared with the extension's",
    },
  },
  check(context) {
    const migration = context.migration;
    if (!migration) return;
    // Nothing to compare with: said, as a notice, rather than a silent pass.
    if (migration.kind === "unreadable") {
      const { path, why } = migration;
      context.report({
        pointer: "",
        messageId: "unreadable",
        data: { path, why },
        target: "key",
        severity: "notice",
      });
      return;
    }
    if (migration.kind === "unmapped") {
      const { path, type } = migration;
      context.report({
        pointer: "",
        messageId: "unmapped",
        data: { path, type },
        target: "key",
        severity: "notice",
      });
      return;
    }
    for (const m of migration.metrics) {
      if (m.found) continue;
      const key = m.mapping.ef1.key;
      const expected = m.mapping.ef2.key;
      if (m.renamed)
        context.report({
          pointer: `${m.renamed.pointer}/key`,
          messageId: "renamed",
          data: { key, ef1: m.ef1, expected, now: m.renamed.key },
          suggest: [{ replacement: JSON.stringify(expected), description: `rename it ${quote(expected)}` }],
        });
      else
        context.report({
          pointer: m.place,
          messageId: "missing",
          data: { key, ef1: m.ef1, expected },
          target: "key",
        });
    }
  },
});
