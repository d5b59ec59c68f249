import { didYouMean } from "../suggest.js";
import { arr, finding, get, str, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

/** A configuration field must show a property the plugin actually receives. */
export const rule: Rule = {
  meta: {
    id: "config-property-unknown",
    kind: "document",
    defaultSeverity: "error",
    description: "A configUI.properties[].key matches no top-level property.",
  },
  check(ctx) {
    const keys = arr(get(ctx.value, "properties")).flatMap((p) => {
      const k = str(get(p, "key"));
      return k === undefined ? [] : [k];
    });
    const out: RawFinding[] = [];
    arr(get(get(ctx.value, "configUI"), "properties")).forEach((p, i) => {
      const k = str(get(p, "key"));
      if (k === undefined || keys.includes(k)) return;
      out.push(
        finding(
          this.meta,
          `/configUI/properties/${i}/key`,
          `\`${k}\` matches no top-level property${didYouMean(k, keys)}`,
        ),
      );
    });
    return out;
  },
};
