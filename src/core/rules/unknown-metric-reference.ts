import { didYouMean } from "../suggest.js";
import { arr, finding, get, metricEntries, str, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

/** Charts and key metrics name metrics by key; a typo leaves an empty chart. State metrics count too. */
export const rule: Rule = {
  meta: {
    id: "unknown-metric-reference",
    kind: "document",
    defaultSeverity: "error",
    description: "A keymetric, keychart or chart series names a key that no metric of the plugin defines.",
  },
  check(ctx) {
    const keys = metricEntries(ctx.value).flatMap((m) => (m.key === undefined ? [] : [m.key]));
    const known = new Set(keys);
    const out: RawFinding[] = [];
    const check = (pointer: string, key: unknown) => {
      const k = str(key);
      if (k === undefined || known.has(k)) return;
      out.push(finding(this.meta, pointer, `no metric has the key \`${k}\`${didYouMean(k, keys)}`));
    };
    const ui = get(ctx.value, "ui");
    arr(get(ui, "keymetrics")).forEach((km, i) => check(`/ui/keymetrics/${i}/key`, get(km, "key")));
    for (const list of ["keycharts", "charts"]) {
      arr(get(ui, list)).forEach((c, i) => {
        arr(get(c, "series")).forEach((s, j) => check(`/ui/${list}/${i}/series/${j}/key`, get(s, "key")));
      });
    }
    return out;
  },
};
