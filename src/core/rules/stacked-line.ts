import { arr, finding, get, str, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

/** Only area and bar series stack; `stacked` on a line series has no effect. */
export const rule: Rule = {
  meta: {
    id: "stacked-line",
    kind: "document",
    defaultSeverity: "notice",
    description: "stacked: true on a line series (only area and bar stack).",
  },
  check(ctx) {
    const out: RawFinding[] = [];
    const ui = get(ctx.value, "ui");
    for (const list of ["keycharts", "charts"]) {
      arr(get(ui, list)).forEach((c, i) => {
        arr(get(c, "series")).forEach((s, j) => {
          if (get(s, "stacked") === true && str(get(s, "seriestype"))?.toLowerCase() === "line") {
            out.push(
              finding(
                this.meta,
                `/ui/${list}/${i}/series/${j}/stacked`,
                "`stacked` has no effect on a `line` series; only area and bar series stack",
              ),
            );
          }
        });
      });
    }
    return out;
  },
};
