import { str } from "../guards.js";
import { defineRule } from "../rule.js";

/** The display name is what people read; repeating the key gives them nothing. */
export const rule = defineRule({
  meta: {
    id: "displayname-equals-key",
    kind: "document",
    defaultSeverity: "error",
    nameData: ["key"],
    description: "A timeseries displayname equals its key.",
    messages: {
      same: "`displayname` must differ from the key `{{key}}`: give the metric a human-readable name",
    },
  },
  check(context) {
    for (const m of context.metrics) {
      if (m.kind === "timeseries" && m.key !== undefined && str(m.spec.displayname) === m.key)
        context.report({ pointer: `${m.pointer}/displayname`, messageId: "same", data: { key: m.key } });
    }
  },
});
