import { activationPattern, finding, type Rule } from "../rule.js";

/** activation_name_pattern must compile as a Python `re` pattern; it is parsed, never run. */
export const rule: Rule = {
  meta: {
    id: "invalid-regex",
    kind: "document",
    defaultSeverity: "error",
    description: "source.activation_name_pattern does not compile as a Python regular expression.",
  },
  check(ctx) {
    const r = activationPattern(ctx)?.result;
    if (!r || r.ok) return [];
    return [
      finding(
        this.meta,
        "/source/activation_name_pattern",
        `not a valid Python regular expression: ${r.error.message} at position ${r.error.index}`,
      ),
    ];
  },
};
