import { arr, finding, get, str, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

/** A Dropdown needs choices, and its default must be one of them. */
export const rule: Rule = {
  meta: {
    id: "dropdown-values",
    kind: "document",
    defaultSeverity: "error",
    description:
      "A Dropdown property without a non-empty dropdownValues, or whose defaultValue is not one of them.",
  },
  check(ctx) {
    const out: RawFinding[] = [];
    arr(get(ctx.value, "properties")).forEach((p, i) => {
      if (str(get(p, "type"))?.toLowerCase() !== "dropdown") return;
      const values = get(p, "dropdownValues");
      if (!Array.isArray(values) || values.length === 0) {
        out.push(
          finding(
            this.meta,
            `/properties/${i}/dropdownValues`,
            "a Dropdown property needs a non-empty `dropdownValues` list",
            { target: "key" },
          ),
        );
        return;
      }
      const def = get(p, "defaultValue");
      if (def !== undefined && !values.includes(def)) {
        out.push(
          finding(
            this.meta,
            `/properties/${i}/defaultValue`,
            `\`defaultValue\` ${JSON.stringify(def)} is not one of the \`dropdownValues\``,
          ),
        );
      }
    });
    return out;
  },
};
