import { arr, finding, get, str, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

/** alert_id is unique across the whole plugin, not only within one metric. */
export const rule: Rule = {
  meta: {
    id: "duplicate-alert-id",
    kind: "document",
    defaultSeverity: "error",
    description: "Two alert settings anywhere in the plugin share an alert_id.",
  },
  check(ctx) {
    const out: RawFinding[] = [];
    const first = new Map<string, string>();
    arr(get(ctx.value, "metrics")).forEach((m, i) => {
      arr(get(m, "alert_settings")).forEach((a, j) => {
        const id = str(get(a, "alert_id"));
        if (id === undefined) return;
        const prev = first.get(id);
        if (prev === undefined) first.set(id, `metrics[${i}].alert_settings[${j}]`);
        else
          out.push(
            finding(
              this.meta,
              `/metrics/${i}/alert_settings/${j}/alert_id`,
              `alert_id \`${id}\` is already used by \`${prev}\`; alert ids must be unique within the plugin`,
            ),
          );
      });
    });
    return out;
  },
};
