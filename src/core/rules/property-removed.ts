import { arr, finding, get, str, type Rule } from "../rule.js";

/** Existing configurations carry values for the removed property and break. */
export const rule: Rule = {
  meta: {
    id: "property-removed",
    kind: "change",
    defaultSeverity: "warning",
    description: "A top-level property present in base is gone.",
  },
  check(ctx) {
    if (!ctx.base) return [];
    const keys = (doc: unknown) =>
      arr(get(doc, "properties")).flatMap((p) =>
        str(get(p, "key")) === undefined ? [] : [str(get(p, "key")) as string],
      );
    const head = new Set(keys(ctx.value));
    return [...new Set(keys(ctx.base.value))]
      .filter((k) => !head.has(k))
      .map((k) =>
        finding(
          this.meta,
          "/properties",
          `property \`${k}\` was removed; existing configurations of this plugin that set it break`,
          { target: "key" },
        ),
      );
  },
};
