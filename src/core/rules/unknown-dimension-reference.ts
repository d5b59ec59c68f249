import { arr, finding, get, metricEntries, str, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

/** A series' `dimensions` must name dimensions its metric defines. */
export const rule: Rule = {
  meta: {
    id: "unknown-dimension-reference",
    kind: "document",
    defaultSeverity: "error",
    description: "A chart series names a dimension that its metric does not define.",
  },
  check(ctx) {
    const dims = new Map<string, string[]>();
    for (const m of metricEntries(ctx.value)) {
      if (m.key !== undefined && !dims.has(m.key))
        dims.set(
          m.key,
          arr(m.spec.dimensions).filter((d): d is string => typeof d === "string"),
        );
    }
    const out: RawFinding[] = [];
    const ui = get(ctx.value, "ui");
    for (const list of ["keycharts", "charts"]) {
      arr(get(ui, list)).forEach((c, i) => {
        arr(get(c, "series")).forEach((s, j) => {
          const key = str(get(s, "key"));
          const defined = key === undefined ? undefined : dims.get(key);
          if (defined === undefined) return; // unknown-metric-reference reports it
          arr(get(s, "dimensions")).forEach((d, k) => {
            if (typeof d === "string" && !defined.includes(d)) {
              out.push(
                finding(
                  this.meta,
                  `/ui/${list}/${i}/series/${j}/dimensions/${k}`,
                  `metric \`${key}\` has no dimension \`${d}\`${defined.length ? ` (its dimensions: ${defined.map((x) => `\`${x}\``).join(", ")})` : " (it has no dimensions)"}`,
                ),
              );
            }
          });
        });
      });
    }
    return out;
  },
};
