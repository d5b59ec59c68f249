import { arr } from "../guards.js";
import { defineRule } from "../rule.js";

/** `rx_pid` means the system process id only at index 0. */
export const rule = defineRule({
  meta: {
    id: "rx-pid-position",
    kind: "document",
    defaultSeverity: "warning",
    positionalData: ["index"],
    description: "Dimension rx_pid is present but not at index 0.",
    messages: {
      notFirst:
        "`rx_pid` means the system process id only as the first dimension (index 0); here it is at index {{index}}",
    },
  },
  check(context) {
    for (const m of context.metrics) {
      arr(m.spec.dimensions).forEach((d, index) => {
        if (d === "rx_pid" && index > 0)
          context.report({
            pointer: `${m.pointer}/dimensions/${index}`,
            messageId: "notFirst",
            data: { index },
          });
      });
    }
  },
});
