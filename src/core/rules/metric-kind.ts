import { arr, finding, get, isObj, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

/** A metric element holds exactly one of timeseries and statetimeseries. */
export const rule: Rule = {
  meta: {
    id: "metric-kind",
    kind: "document",
    defaultSeverity: "error",
    description: "A metric element holds neither or both of timeseries and statetimeseries.",
  },
  check(ctx) {
    const out: RawFinding[] = [];
    arr(get(ctx.value, "metrics")).forEach((m, i) => {
      if (!isObj(m)) return; // invalid-type reports it
      const ts = m.timeseries !== undefined;
      const sts = m.statetimeseries !== undefined;
      if (ts && sts) {
        out.push(
          finding(
            this.meta,
            `/metrics/${i}/statetimeseries`,
            `\`metrics[${i}]\` holds both \`timeseries\` and \`statetimeseries\`; a metric is exactly one of them`,
            { target: "key" },
          ),
        );
      } else if (!ts && !sts) {
        out.push(
          finding(
            this.meta,
            `/metrics/${i}`,
            `\`metrics[${i}]\` holds neither \`timeseries\` nor \`statetimeseries\``,
            { target: "key" },
          ),
        );
      }
    });
    return out;
  },
};
