import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";

/** Only area and bar series stack; `stacked` on a line series has no effect. */
export const rule = defineRule({
  meta: {
    id: "stacked-line",
    kind: "document",
    defaultSeverity: "notice",
    description: "stacked: true on a line series (only area and bar stack).",
    messages: { noEffect: "`stacked` has no effect on a `line` series; only area and bar series stack" },
  },
  check(context) {
    for (const s of context.series) {
      if (get(s.series, "stacked") === true && str(get(s.series, "seriestype"))?.toLowerCase() === "line")
        context.report({ pointer: `${s.pointer}/stacked`, messageId: "noEffect" });
    }
  },
});
