import { KNOWN_TECHNOLOGIES } from "../reference/known-technologies.js";
import { didYouMean } from "../suggest.js";
import { arr, finding, get, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

/**
 * Host technologies are matched case-insensitively against the known table (an unknown one never
 * matches, so the plugin may never activate). A configured `policy.technologies` replaces the table for
 * both variants and makes this an error; without it, remote plugins may name new technologies freely.
 */
export const rule: Rule = {
  meta: {
    id: "unknown-technology",
    kind: "document",
    defaultSeverity: "warning",
    description: "A technology that is not in the known list (or the configured policy list).",
  },
  check(ctx) {
    const policy = ctx.policy.technologies;
    if (!policy && ctx.variant === "remote") return [];
    const list = policy ?? KNOWN_TECHNOLOGIES;
    const known = new Set(list.map((t) => t.toLowerCase()));
    const out: RawFinding[] = [];
    arr(get(ctx.value, "technologies")).forEach((t, i) => {
      if (typeof t !== "string" || known.has(t.toLowerCase())) return;
      const suffix = didYouMean(t, list);
      out.push(
        policy
          ? finding(
              this.meta,
              `/technologies/${i}`,
              `technology \`${t}\` is not allowed by the organisation's policy${suffix}`,
              { severity: "error" },
            )
          : finding(
              this.meta,
              `/technologies/${i}`,
              `\`${t}\` is not a known technology, so it never matches and cannot activate the plugin${suffix}`,
            ),
      );
    });
    return out;
  },
};
