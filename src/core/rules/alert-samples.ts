import { arr, finding, get, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

const COUNTS = ["samples", "violating_samples", "dealerting_samples"] as const;

/** Sample counts must make a window the alert can actually be raised in. */
export const rule: Rule = {
  meta: {
    id: "alert-samples",
    kind: "document",
    defaultSeverity: "error",
    description:
      "samples, violating_samples or dealerting_samples is below 1, or violating_samples exceeds samples.",
  },
  check(ctx) {
    const out: RawFinding[] = [];
    arr(get(ctx.value, "metrics")).forEach((m, i) => {
      arr(get(m, "alert_settings")).forEach((a, j) => {
        const base = `/metrics/${i}/alert_settings/${j}`;
        for (const k of COUNTS) {
          const v = get(a, k);
          if (typeof v === "number" && v < 1)
            out.push(finding(this.meta, `${base}/${k}`, `\`${k}\` is ${v}; it must be at least 1`));
        }
        const samples = get(a, "samples");
        const violating = get(a, "violating_samples");
        if (
          typeof samples === "number" &&
          typeof violating === "number" &&
          samples >= 1 &&
          violating > samples
        ) {
          out.push(
            finding(
              this.meta,
              `${base}/violating_samples`,
              `\`violating_samples\` (${violating}) exceeds \`samples\` (${samples}): the alert can never be raised`,
            ),
          );
        }
      });
    });
    return out;
  },
};
