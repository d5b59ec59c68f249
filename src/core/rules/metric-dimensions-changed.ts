import { arr, finding, metricEntries, type Rule } from "../rule.js";

function dims(spec: Record<string, unknown>): string[] {
  return arr(spec.dimensions).filter((d): d is string => typeof d === "string");
}

/** Existing data was split by the old dimensions; a changed set breaks its continuity. Order alone is no change. */
export const rule: Rule = {
  meta: {
    id: "metric-dimensions-changed",
    kind: "change",
    defaultSeverity: "warning",
    description: "An existing metric changed its dimensions.",
  },
  check(ctx) {
    if (!ctx.base) return [];
    const before = new Map<string, string[]>();
    for (const m of metricEntries(ctx.base.value))
      if (m.key !== undefined && !before.has(m.key)) before.set(m.key, dims(m.spec));
    return metricEntries(ctx.value).flatMap((m) => {
      const was = m.key === undefined ? undefined : before.get(m.key);
      if (!was) return [];
      const now = dims(m.spec);
      const same = was.length === now.length && [...was].sort().join("\0") === [...now].sort().join("\0");
      if (same) return [];
      const show = (d: string[]) => (d.length ? d.map((x) => `\`${x}\``).join(", ") : "none");
      return [
        finding(
          this.meta,
          `${m.pointer}/dimensions`,
          `the dimensions of metric \`${m.key}\` changed from ${show(was)} to ${show(now)}; existing data and charts split by the old dimensions no longer line up`,
          { target: "key" },
        ),
      ];
    });
  },
};
