import { arr, finding, get, str, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

/** Property keys are unique, both among top-level properties and among configUI fields. */
export const rule: Rule = {
  meta: {
    id: "duplicate-property-key",
    kind: "document",
    defaultSeverity: "error",
    description: "Two top-level properties, or two configUI properties, share a key.",
  },
  check(ctx) {
    const out: RawFinding[] = [];
    const lists: [string, unknown][] = [
      ["/properties", get(ctx.value, "properties")],
      ["/configUI/properties", get(get(ctx.value, "configUI"), "properties")],
    ];
    for (const [pointer, list] of lists) {
      const first = new Map<string, number>();
      arr(list).forEach((p, i) => {
        const k = str(get(p, "key"));
        if (k === undefined) return;
        const prev = first.get(k);
        if (prev === undefined) first.set(k, i);
        else
          out.push(
            finding(
              this.meta,
              `${pointer}/${i}/key`,
              `property key \`${k}\` is already used at index ${prev}`,
            ),
          );
      });
    }
    return out;
  },
};
