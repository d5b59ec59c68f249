import { finding, metricEntries, type Rule } from "../rule.js";

/** Dashboards and alerts on a removed metric stop receiving data. */
export const rule: Rule = {
  meta: {
    id: "metric-removed",
    kind: "change",
    defaultSeverity: "warning",
    description: "A timeseries or statetimeseries key present in base is gone.",
  },
  check(ctx) {
    if (!ctx.base) return [];
    const head = new Set(metricEntries(ctx.value).map((m) => m.key));
    const reported = new Set<string>();
    return metricEntries(ctx.base.value)
      .filter((m) => m.key !== undefined && !head.has(m.key) && !reported.has(m.key) && reported.add(m.key))
      .map((m) =>
        finding(
          this.meta,
          "/metrics",
          `metric \`${m.key}\` was removed; charts, alerts and dashboards that use it stop receiving data`,
          { target: "key" },
        ),
      );
  },
};
