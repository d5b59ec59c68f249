import { finding, metricEntries, str, type Rule } from "../rule.js";

/** The server rejects a unit change of an existing metric unless the plugin is renamed. */
export const rule: Rule = {
  meta: {
    id: "metric-unit-changed",
    kind: "change",
    defaultSeverity: "error",
    description: "An existing timeseries changed its unit.",
  },
  check(ctx) {
    if (!ctx.base) return [];
    const before = new Map<string, string>();
    for (const m of metricEntries(ctx.base.value)) {
      const unit = str(m.spec.unit);
      if (m.kind === "timeseries" && m.key !== undefined && unit !== undefined && !before.has(m.key))
        before.set(m.key, unit);
    }
    return metricEntries(ctx.value)
      .filter((m) => m.kind === "timeseries" && m.key !== undefined)
      .flatMap((m) => {
        const was = before.get(m.key as string);
        const unit = str(m.spec.unit);
        if (was === undefined || unit === undefined || was === unit) return [];
        return [
          finding(
            this.meta,
            `${m.pointer}/unit`,
            `the unit of metric \`${m.key}\` changed from \`${was}\` to \`${unit}\`; the server rejects this for an existing metric (use a new metric key instead)`,
            {
              fix: { replacement: JSON.stringify(was), description: `restore \`${was}\`` },
            },
          ),
        ];
      });
  },
};
