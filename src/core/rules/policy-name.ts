import { finding, get, str, type Rule } from "../rule.js";

/** The organisation's naming policy (`policy.name_pattern`, a JavaScript regular expression). */
export const rule: Rule = {
  meta: {
    id: "policy-name",
    kind: "document",
    defaultSeverity: "error",
    description: "The name does not match the configured policy.name_pattern (off when none is configured).",
  },
  check(ctx) {
    const pattern = ctx.policy.namePattern;
    const name = str(get(ctx.value, "name"));
    if (!pattern || name === undefined || pattern.test(name)) return [];
    return [
      finding(
        this.meta,
        "/name",
        `plugin name \`${name}\` does not match the organisation's naming policy \`${pattern.source}\``,
      ),
    ];
  },
};
