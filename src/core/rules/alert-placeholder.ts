import { didYouMean } from "../suggest.js";
import { arr, finding, get, str, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

export const PLACEHOLDERS = [
  "threshold",
  "severity",
  "entityname",
  "violating_samples",
  "dimensions",
  "alert_condition",
];

/**
 * Unknown placeholders are shown literally in the alert message. `{metricname}` is used by the spec's
 * own sample but is not in its list, so it is only a notice.
 */
export const rule: Rule = {
  meta: {
    id: "alert-placeholder",
    kind: "document",
    defaultSeverity: "warning",
    description: "An alert description uses a placeholder that is not one of the documented ones.",
  },
  check(ctx) {
    const out: RawFinding[] = [];
    arr(get(ctx.value, "metrics")).forEach((m, i) => {
      arr(get(m, "alert_settings")).forEach((a, j) => {
        const text = str(get(a, "description"));
        if (text === undefined) return;
        const seen = new Set<string>();
        for (const match of text.matchAll(/\{([A-Za-z_][A-Za-z0-9_]{0,63})\}/g)) {
          const name = match[1] as string;
          if (PLACEHOLDERS.includes(name) || seen.has(name)) continue;
          seen.add(name);
          const pointer = `/metrics/${i}/alert_settings/${j}/description`;
          if (name === "metricname") {
            out.push(
              finding(
                this.meta,
                pointer,
                "placeholder `{metricname}` is used by the spec's sample but is not a documented placeholder; it may be shown literally",
                { severity: "notice" },
              ),
            );
          } else {
            out.push(
              finding(
                this.meta,
                pointer,
                `unknown placeholder \`{${name}}\` is shown literally${didYouMean(name, PLACEHOLDERS, { show: (p) => `\`{${p}}\`` })} (known: ${PLACEHOLDERS.map((p) => `{${p}}`).join(", ")})`,
              ),
            );
          }
        }
      });
    });
    return out;
  },
};
