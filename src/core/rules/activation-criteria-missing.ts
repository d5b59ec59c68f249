import { arr, finding, get, type Rule } from "../rule.js";

const CRITERIA = ["processTypeNames", "processTypes", "technologies"];

/** A host plugin needs process types or technologies; an empty list activates nothing either. */
export const rule: Rule = {
  meta: {
    id: "activation-criteria-missing",
    kind: "document",
    defaultSeverity: "error",
    description:
      "Host plugin with none of processTypeNames, processTypes, technologies: nothing can activate it.",
  },
  check(ctx) {
    if (ctx.variant !== "host") return [];
    if (CRITERIA.some((k) => arr(get(ctx.value, k)).length > 0)) return [];
    const present = CRITERIA.find((k) => get(ctx.value, k) !== undefined);
    return [
      finding(
        this.meta,
        `/${present ?? "processTypeNames"}`,
        present
          ? `\`${present}\` ${Array.isArray(get(ctx.value, present)) ? "is empty" : "is not a list"} and neither processTypeNames, processTypes nor technologies is set: nothing can activate this plugin`
          : "none of processTypeNames, processTypes or technologies is set: nothing can activate this host plugin",
        { target: "key" },
      ),
    ];
  },
};
