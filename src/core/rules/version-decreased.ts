import { compareVersions, NUMERIC_VERSION } from "../compare.js";
import { finding, get, str, type Rule } from "../rule.js";

/** A lower version than the one already uploaded is rejected by the server. */
export const rule: Rule = {
  meta: {
    id: "version-decreased",
    kind: "change",
    defaultSeverity: "error",
    description: "Head's version is lower than base's.",
  },
  check(ctx) {
    if (!ctx.base) return [];
    const head = str(get(ctx.value, "version"));
    const base = str(get(ctx.base.value, "version"));
    if (
      head === undefined ||
      base === undefined ||
      !NUMERIC_VERSION.test(head) ||
      !NUMERIC_VERSION.test(base)
    )
      return [];
    if (compareVersions(head, base) >= 0) return [];
    return [
      finding(
        this.meta,
        "/version",
        `\`version\` went down from \`${base}\` to \`${head}\` (versions compare segment by segment as numbers); it must increase`,
      ),
    ];
  },
};
