import { str } from "../guards.js";
import { defineRule } from "../rule.js";
import { isUnit } from "../schema-rule.js";

/**
 * The server rejects a unit change of an existing metric unless the plugin is renamed. A base unit that is
 * not a unit (`percent`) is no unit the server ever took: replacing it is fixing it (invalid-value's fix),
 * not changing it, and restoring it would bring the error back.
 */
export const rule = defineRule({
  meta: {
    id: "metric-unit-changed",
    kind: "change",
    defaultSeverity: "error",
    fixable: "code",
    nameData: ["key"],
    description: "An existing timeseries changed its unit.",
    messages: {
      changed:
        "the unit of metric `{{key}}` changed from `{{was}}` to `{{unit}}`; the server rejects this for an existing metric (use a new metric key instead)",
    },
  },
  check(context) {
    if (!context.base) return;
    // The very same metrics, each key defined once (a base that differs elsewhere shares head's): nothing
    // changed. A key defined twice is compared with the base's first definition, so it may differ even so.
    if (context.base.metrics === context.metrics && context.metricsByKey.size === context.metricKeys.length)
      return;
    const before = new Map<string, string>();
    for (const m of context.base.metrics) {
      const unit = str(m.spec.unit);
      if (m.kind === "timeseries" && m.key !== undefined && unit !== undefined && !before.has(m.key))
        before.set(m.key, unit);
    }
    for (const m of context.metrics) {
      if (m.kind !== "timeseries" || m.key === undefined) continue;
      const was = before.get(m.key);
      const unit = str(m.spec.unit);
      if (was === undefined || unit === undefined || was === unit || !isUnit(was)) continue;
      context.report({
        pointer: `${m.pointer}/unit`,
        messageId: "changed",
        data: { key: m.key, was, unit },
        fix: { replacement: JSON.stringify(was), description: `restore \`${was}\`` },
      });
    }
  },
});
