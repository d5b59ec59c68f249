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
    // Head's new feature sets by their metrics (the first of each), and where each name is first said: looked
    // up, not searched, for each feature set of the base.
    const same = (m: Set<string>) => `${m.size}\0${[...m].sort().join("\0")}`;
    const added = new Map<string, string>();
    for (const [n, m] of after) if (!before.has(n) && !added.has(same(m))) added.set(same(m), n);
    const firstAt = (facts: typeof head) => {
      const out = new Map<string, string>();
      for (const f of facts.featureSets) if (!out.has(f.name)) out.set(f.name, f.pointer);
      return out;
    };
    const inHead = firstAt(head);
    const inBase = firstAt(context.base.extension);
    for (const [name, metrics] of before) {
      if (after.has(name)) continue;
      const now = metrics.size ? added.get(same(metrics)) : undefined;
      const at = now === undefined ? undefined : inHead.get(now);
      if (now !== undefined && at !== undefined) {
        context.report({ pointer: at, messageId: "renamed", data: { name, now } });
        continue;
      }
      const source = inBase.get(name)?.split("/")[1];
      const where = source !== undefined && head.sources.includes(source) ? `/${source}` : "";
      context.report({ pointer: where, messageId: "removed", data: { name }, target: "key" });
    }
  },
});
