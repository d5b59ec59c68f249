import { findCatastrophicBacktracking } from "../python-regex/backtracking.js";
import { activationPattern, finding, type Rule } from "../rule.js";

/** Catastrophic-backtracking shapes in activation_name_pattern, found by analysing the parsed pattern. */
export const rule: Rule = {
  meta: {
    id: "slow-regex",
    kind: "document",
    defaultSeverity: "warning",
    description:
      "source.activation_name_pattern can backtrack catastrophically (nested quantifiers and the like).",
  },
  check(ctx) {
    const r = activationPattern(ctx)?.result;
    if (!r?.ok) return []; // none, or invalid: invalid-regex reports it
    const risk = findCatastrophicBacktracking(r.ast);
    if (!risk) return [];
    return [
      finding(this.meta, "/source/activation_name_pattern", `${risk.message} (at position ${risk.index})`),
    ];
  },
};
