import { defineRule } from "../rule.js";

/** The process infographic has room for two key metrics. */
export const rule = defineRule({
  meta: {
    id: "keymetrics-limit",
    kind: "document",
    defaultSeverity: "error",
    description: "ui.keymetrics has more than two entries.",
    messages: { tooMany: "`ui.keymetrics` has {{count}} entries; at most two are allowed" },
  },
  check(context) {
    const count = context.keymetrics.length;
    if (count > 2)
      context.report({ pointer: "/ui/keymetrics", messageId: "tooMany", data: { count }, target: "key" });
  },
});
