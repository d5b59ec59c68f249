import { arr, finding, get, has, obj, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

const IGNORED_TOP = {
  host: ["favicon"],
  remote: ["processTypeNames", "processTypes", "requiredAgentVersion"],
} as const;

/** A member that this variant accepts but ignores, so whatever it says has no effect. */
export const rule: Rule = {
  meta: {
    id: "ignored-member",
    kind: "document",
    defaultSeverity: "warning",
    description:
      "A member the variant ignores (favicon, dropdownValues in host; process types, requiredAgentVersion, activation_name_pattern in remote).",
  },
  check(ctx) {
    const doc = obj(ctx.value);
    const other = ctx.variant === "host" ? "remote" : "host";
    const out: RawFinding[] = [];
    for (const k of IGNORED_TOP[ctx.variant]) {
      if (has(doc, k)) {
        out.push(
          finding(
            this.meta,
            `/${k}`,
            `\`${k}\` is ignored by ${ctx.variant} plugins (it only applies to ${other} plugins)`,
            { target: "key" },
          ),
        );
      }
    }
    if (ctx.variant === "host") {
      arr(get(doc, "properties")).forEach((p, i) => {
        if (has(obj(p), "dropdownValues")) {
          out.push(
            finding(
              this.meta,
              `/properties/${i}/dropdownValues`,
              "`dropdownValues` is ignored by host plugins (Dropdown properties are remote only)",
              { target: "key" },
            ),
          );
        }
      });
    } else if (has(obj(get(doc, "source")), "activation_name_pattern")) {
      out.push(
        finding(
          this.meta,
          "/source/activation_name_pattern",
          "`activation_name_pattern` is ignored by remote plugins (it filters host process groups)",
          { target: "key" },
        ),
      );
    }
    return out;
  },
};
