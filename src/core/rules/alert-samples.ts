import { get } from "../guards.js";
import { defineRule } from "../rule.js";

const COUNTS = ["samples", "violating_samples", "dealerting_samples"] as const;

/** Sample counts must make a window the alert can actually be raised in. */
export const rule = defineRule({
  meta: {
    id: "alert-samples",
    kind: "document",
    defaultSeverity: "error",
    description:
      "samples, violating_samples or dealerting_samples is below 1, or violating_samples exceeds samples.",
    messages: {
      belowOne: "`{{count}}` is {{value}}; it must be at least 1",
      exceeds:
        "`violating_samples` ({{violating}}) exceeds `samples` ({{samples}}): the alert can never be raised",
    },
  },
  check(context) {
    for (const alert of context.alerts) {
      for (const count of COUNTS) {
        const value = get(alert.value, count);
        if (typeof value === "number" && value < 1)
          context.report({
            pointer: `${alert.pointer}/${count}`,
            messageId: "belowOne",
            data: { count, value },
          });
      }
      const samples = get(alert.value, "samples");
      const violating = get(alert.value, "violating_samples");
      if (
        typeof samples === "number" &&
        typeof violating === "number" &&
        samples >= 1 &&
        violating > samples
      ) {
        context.report({
          pointer: `${alert.pointer}/violating_samples`,
          messageId: "exceeds",
          data: { violating, samples },
        });
      }
    }
  },
});
