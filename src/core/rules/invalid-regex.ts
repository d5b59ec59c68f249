import { defineRule } from "../rule.js";

/** activation_name_pattern must compile as a Python `re` pattern; it is parsed, never run. */
export const rule = defineRule({
  meta: {
    id: "invalid-regex",
    kind: "document",
    defaultSeverity: "error",
    description: "source.activation_name_pattern does not compile as a Python regular expression.",
    messages: { invalid: "not a valid Python regular expression: {{message}} at position {{index}}" },
  },
  check(context) {
    const activation = context.activationPattern;
    const r = activation?.result;
    if (!r || r.ok) return;
    context.report({
      pointer: "/source/activation_name_pattern",
      messageId: "invalid",
      // The pattern is the offending value: another pattern is another finding.
      data: { message: r.error.message, index: r.error.index, pattern: activation.pattern },
    });
  },
});
