import { defineRule } from "../rule.js";

/** The file is not strict JSON; the location is the first offending character. No other rule runs then. */
export const rule = defineRule({
  meta: {
    id: "invalid-json",
    kind: "parse",
    defaultSeverity: "error",
    description: "The file is not strict JSON (comments, trailing commas, BOM, NaN, truncation, …).",
    messages: { syntax: "not valid JSON: {{message}}" },
  },
  check(context) {
    const e = context.parseError;
    if (!e) return;
    context.report({
      pointer: "",
      messageId: "syntax",
      data: { message: e.message },
      target: "key",
      range: { start: e.offset, end: e.end },
    });
  },
});
