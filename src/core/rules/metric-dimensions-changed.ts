import { strings } from "../guards.js";
import { defineRule } from "../rule.js";

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
    const before = new Map<string, string[]>();
    for (const m of context.base.metrics)
      if (m.key !== undefined && !before.has(m.key)) before.set(m.key, strings(m.spec.dimensions));
    for (const m of context.metrics) {
      const was = m.key === undefined ? undefined : before.get(m.key);
      if (!was || m.key === undefined) continue;
      const now = strings(m.spec.dimensions);
      if (was.length === now.length && [...was].sort().join("\0") === [...now].sort().join("\0")) continue;
      context.report({
        pointer: `${m.pointer}/dimensions`,
        messageId: "changed",
        data: { key: m.key, was: show(was), now: show(now) },
        target: "key",
      });
    }
  },
});
