import { findCatastrophicBacktracking } from "../python-regex/backtracking.js";
import { defineRule } from "../rule.js";

/** Catastrophic-backtracking shapes in activation_name_pattern, found by analysing the parsed pattern. */
export const rule = defineRule({
  meta: {
    id: "slow-regex",
    kind: "document",
    defaultSeverity: "warning",
    description:
      "source.activation_name_pattern can backtrack catastrophically (nested quantifiers and the like).",
    messages: { risk: "{{message}} (at position {{index}})" },
  },
  check(context) {
    const activation = context.activationPattern;
    const r = activation?.result;
    if (!activation || !r?.ok) return; // none, or invalid: invalid-regex reports it
    const risk = findCatastrophicBacktracking(r.ast);
    if (risk)
      context.report({
        pointer: "/source/activation_name_pattern",
        messageId: "risk",
        // The pattern is the offending value: another pattern is another finding.
        data: { message: risk.message, index: risk.index, pattern: activation.pattern },
      });
  },
});
