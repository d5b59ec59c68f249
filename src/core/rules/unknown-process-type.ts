import { KNOWN_PROCESS_TYPES } from "../reference/known-process-types.js";
import { didYouMean } from "../suggest.js";
import { arr, finding, get, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

/**
 * The agent silently drops process type names (and ids) it does not know, so the plugin may never
 * activate. A configured `policy.process_types` (names or ids) replaces the table and makes this an error.
 * Remote plugins ignore process types (see ignored-member), so they are not checked.
 */
export const rule: Rule = {
  meta: {
    id: "unknown-process-type",
    kind: "document",
    defaultSeverity: "warning",
    description: "A processTypeNames entry (or processTypes id) that is not a known process type.",
  },
  check(ctx) {
    if (ctx.variant !== "host") return [];
    const policy = ctx.policy.processTypes;
    const out: RawFinding[] = [];
    // Names and ids are the same table: an id is a name's 0-based position.
    const idOf = (name: string) => KNOWN_PROCESS_TYPES.indexOf(name);
    const allowedNames = new Set<string>();
    const allowedIds = new Set<number>();
    for (const p of policy ?? KNOWN_PROCESS_TYPES) {
      if (typeof p === "number") {
        allowedIds.add(p);
        const n = KNOWN_PROCESS_TYPES[p];
        if (n !== undefined) allowedNames.add(n);
      } else {
        allowedNames.add(p);
        if (idOf(p) >= 0) allowedIds.add(idOf(p));
      }
    }
    const severity = policy ? { severity: "error" as const } : {};
    const why = policy
      ? "is not allowed by the organisation's policy"
      : "is not a known process type; the agent silently drops it, so the plugin may never activate";
    arr(get(ctx.value, "processTypeNames")).forEach((t, i) => {
      if (typeof t !== "string" || allowedNames.has(t)) return;
      out.push(
        finding(
          this.meta,
          `/processTypeNames/${i}`,
          `\`${t}\` ${why}${didYouMean(t, [...allowedNames])}`,
          severity,
        ),
      );
    });
    arr(get(ctx.value, "processTypes")).forEach((t, i) => {
      if (typeof t !== "number" || allowedIds.has(t)) return;
      out.push(
        finding(
          this.meta,
          `/processTypes/${i}`,
          `process type id ${t} ${why}${policy ? "" : ` (known ids: 0 to ${KNOWN_PROCESS_TYPES.length - 1})`}`,
          severity,
        ),
      );
    });
    return out;
  },
};
