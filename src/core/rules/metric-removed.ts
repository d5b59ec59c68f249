import { defineRule } from "../rule.js";

/** Dashboards and alerts on a removed metric stop receiving data. */
export const rule = defineRule({
  meta: {
    id: "metric-removed",
    kind: "change",
    defaultSeverity: "warning",
    nameData: ["key"],
    description: "A timeseries or statetimeseries key present in base is gone.",
    messages: {
      removed: "metric `{{key}}` was removed; charts, alerts and dashboards that use it stop receiving data",
    },
  },
  check(context) {
    if (!context.base) return;
    // The very same metrics (a base that differs elsewhere shares head's): nothing removed.
    if (context.base.metrics === context.metrics) return;
    const head = context.metricsByKey;
    const reported = new Set<string>();
    for (const { key } of context.base.metrics) {
      if (key === undefined || head.has(key) || reported.has(key)) continue;
      reported.add(key);
      context.report({ pointer: "/metrics", messageId: "removed", data: { key }, target: "key" });
    }
  },
});
