import { arr, finding, metricEntries, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

/** `rx_pid` means the system process id only at index 0. */
export const rule: Rule = {
  meta: {
    id: "rx-pid-position",
    kind: "document",
    defaultSeverity: "warning",
    description: "Dimension rx_pid is present but not at index 0.",
  },
  check(ctx) {
    const out: RawFinding[] = [];
    for (const m of metricEntries(ctx.value)) {
      arr(m.spec.dimensions).forEach((d, i) => {
        if (d === "rx_pid" && i > 0) {
          out.push(
            finding(
              this.meta,
              `${m.pointer}/dimensions/${i}`,
              `\`rx_pid\` means the system process id only as the first dimension (index 0); here it is at index ${i}`,
            ),
          );
        }
      });
    }
    return out;
  },
};
