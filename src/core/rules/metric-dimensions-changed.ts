import { strings } from "../guards.js";
import { defineRule } from "../rule.js";

/** The same dimensions, whatever their order (the same order first: no sorting then). */
function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  if (a.every((x, i) => x === b[i])) return true;
  return [...a].sort().join("\0") === [...b].sort().join("\0");
}

const show = (d: readonly string[]) => (d.length ? d.map((x) => `\`${x}\``).join(", ") : "none");

/** Existing data was split by the old dimensions; a changed set breaks its continuity. Order alone is no change. */
export const rule = defineRule({
  meta: {
    id: "metric-dimensions-changed",
    kind: "change",
    defaultSeverity: "warning",
    nameData: ["key"],
    description: "An existing metric changed its dimensions.",
    messages: {
      changed:
        "the dimensions of metric `{{key}}` changed from {{was}} to {{now}}; existing data and charts split by the old dimensions no longer line up",
    },
  },
  check(context) {
    if (!context.base) return;
    // The very same metrics, each key defined once (a base that differs elsewhere shares head's): nothing
    // changed. A key defined twice is compared with the base's first definition, so it may differ even so.
    if (context.base.metrics === context.metrics && context.metricsByKey.size === context.metricKeys.length)
      return;
    const before = context.base.metricsByKey;
    for (const m of context.metrics) {
      const old = m.key === undefined ? undefined : before.get(m.key);
      if (!old || m.key === undefined || old.spec.dimensions === m.spec.dimensions) continue;
      const was = strings(old.spec.dimensions);
      const now = strings(m.spec.dimensions);
      if (sameSet(was, now)) continue;
      context.report({
        pointer: `${m.pointer}/dimensions`,
        messageId: "changed",
        data: { key: m.key, was: show(was), now: show(now) },
        target: "key",
      });
    }
  },
});
