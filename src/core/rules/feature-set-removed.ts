import { featureSetMetrics } from "../ef2/changes.js";
import { defineRule } from "../rule.js";

/**
 * Monitoring configurations name the feature sets they turn on. A feature set gone from the extension (removed,
 * or renamed: a new name for the same metrics) is one they still name: they no longer collect its metrics.
 */
export const rule = defineRule({
  meta: {
    id: "feature-set-removed",
    kind: "change",
    defaultSeverity: "warning",
    files: ["extension.yaml"],
    nameData: ["name"],
    description: "A feature set present in base is gone (removed or renamed).",
    messages: {
      removed:
        "feature set `{{name}}` was removed: monitoring configurations that turn it on no longer collect its metrics",
      renamed:
        "feature set `{{name}}` was renamed to `{{now}}`: monitoring configurations that turn on `{{name}}` no longer collect its metrics until they turn on `{{now}}`",
    },
  },
  check(context) {
    if (!context.base) return;
    const head = context.extension;
    const before = featureSetMetrics(context.base.extension);
    const after = featureSetMetrics(head);
    for (const [name, metrics] of before) {
      if (after.has(name)) continue;
      const same = (m: Set<string>) => m.size === metrics.size && [...m].every((k) => metrics.has(k));
      const now = metrics.size ? [...after].find(([n, m]) => !before.has(n) && same(m))?.[0] : undefined;
      const at = now === undefined ? undefined : head.featureSets.find((f) => f.name === now);
      if (now !== undefined && at) {
        context.report({ pointer: at.pointer, messageId: "renamed", data: { name, now } });
        continue;
      }
      const source = context.base.extension.featureSets.find((f) => f.name === name)?.pointer.split("/")[1];
      const where = source !== undefined && head.sources.includes(source) ? `/${source}` : "";
      context.report({ pointer: where, messageId: "removed", data: { name }, target: "key" });
    }
  },
});
