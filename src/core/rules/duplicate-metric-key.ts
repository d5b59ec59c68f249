import { finding, metricEntries, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

/** Metric keys are unique within the plugin, across timeseries and statetimeseries. */
export const rule: Rule = {
  meta: {
    id: "duplicate-metric-key",
    kind: "document",
    defaultSeverity: "error",
    description: "Two metrics share a key.",
  },
  check(ctx) {
    const out: RawFinding[] = [];
    const first = new Map<string, number>();
    for (const m of metricEntries(ctx.value)) {
      if (m.key === undefined) continue;
      const prev = first.get(m.key);
      if (prev === undefined) first.set(m.key, m.index);
      else
        out.push(
          finding(
            this.meta,
            `${m.pointer}/key`,
            `metric key \`${m.key}\` is already defined by \`metrics[${prev}]\`; keys must be unique within the plugin`,
          ),
        );
    }
    return out;
  },
};
