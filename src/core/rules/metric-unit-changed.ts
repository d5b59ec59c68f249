import { str } from "../guards.js";
import { defineRule } from "../rule.js";
import { isExtensionUnit, isUnit } from "../schema-rule.js";
import { quote } from "../quote.js";

/**
 * The server rejects a unit change of an existing metric unless the plugin is renamed. A base unit that is
 * not a unit (`percent`) is no unit the server ever took: replacing it is fixing it (invalid-value's fix),
 * not changing it, and restoring it would bring the error back. A head unit that is not a unit (`second`,
 * `Seconds`) is no other unit either: invalid-value says so at the same place, with the closest unit, and
 * a "use a new metric key" here would send its author the wrong way.
 */
export const rule = defineRule({
  meta: {
    id: "metric-unit-changed",
    kind: "change",
    defaultSeverity: "error",
    fixable: "code",
    nameData: ["key"],
    files: ["plugin.json", "extension.yaml"],
    description: "An existing metric changed its unit.",
    messages: {
      changedExtension:
        "the unit of metric `{{key}}` changed from `{{was}}` to `{{unit}}`: its stored values keep their meaning, so charts, alerts and thresholds read its history in the wrong unit (use a new metric key instead)",
      changed:
        "the unit of metric `{{key}}` changed from `{{was}}` to `{{unit}}`; the server rejects this for an existing metric (use a new metric key instead)",
    },
  },
  check(context) {
    if (!context.base) return;
    if (context.format === "extension.yaml") {
      // An extension's unit is its metadata's; a base unit Dynatrace never took is not restored, and a
      // head unit that is none is invalid-value's.
      const before = new Map<string, string>();
      for (const d of context.base.extension.described)
        if (d.unit !== undefined && !before.has(d.key)) before.set(d.key, d.unit);
      for (const d of context.extension.described) {
        const was = before.get(d.key);
        if (was === undefined || d.unit === undefined || was === d.unit) continue;
        if (!isExtensionUnit(was) || !isExtensionUnit(d.unit)) continue;
        context.report({
          pointer: `${d.pointer}/metadata/unit`,
          messageId: "changedExtension",
          data: { key: d.key, was, unit: d.unit },
          fix: { replacement: JSON.stringify(was), description: `restore ${quote(was)}` },
        });
      }
      return;
    }
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
      if (was === undefined || unit === undefined || was === unit || !isUnit(was) || !isUnit(unit)) continue;
      context.report({
        pointer: `${m.pointer}/unit`,
        messageId: "changed",
        data: { key: m.key, was, unit },
        fix: { replacement: JSON.stringify(was), description: `restore ${quote(was)}` },
      });
    }
  },
});
