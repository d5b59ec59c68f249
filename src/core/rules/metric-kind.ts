import { arr, isObj } from "../guards.js";
import { defineRule } from "../rule.js";

/** A metric element holds exactly one of timeseries and statetimeseries. */
export const rule = defineRule({
  meta: {
    id: "metric-kind",
    kind: "document",
    defaultSeverity: "error",
    positionalData: ["index"],
    description: "A metric element holds neither or both of timeseries and statetimeseries.",
    messages: {
      both: "`metrics[{{index}}]` holds both `timeseries` and `statetimeseries`; a metric is exactly one of them",
      neither: "`metrics[{{index}}]` holds neither `timeseries` nor `statetimeseries`",
    },
  },
  check(context) {
    arr(context.member("metrics")).forEach((m, index) => {
      if (!isObj(m)) return; // invalid-type reports it
      const ts = m.timeseries !== undefined;
      const sts = m.statetimeseries !== undefined;
      if (ts && sts)
        context.report({
          pointer: `/metrics/${index}/statetimeseries`,
          messageId: "both",
          data: { index },
          target: "key",
        });
      else if (!ts && !sts)
        context.report({
          pointer: `/metrics/${index}`,
          messageId: "neither",
          data: { index },
          target: "key",
        });
    });
  },
});
