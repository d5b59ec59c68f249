import { KNOWN_TECHNOLOGIES } from "../reference/known-technologies.js";
import { arr } from "../guards.js";
import { technologySet } from "../policy.js";
import { defineRule } from "../rule.js";
import { didYouMean } from "../suggest.js";

/**
 * Host technologies are matched case-insensitively against the known table (an unknown one never
 * matches, so the plugin may never activate). A configured `policy.technologies` replaces the table for
 * both variants and makes this an error; without it, remote plugins may name new technologies freely.
 */
export const rule = defineRule({
  meta: {
    id: "unknown-technology",
    kind: "document",
    defaultSeverity: "warning",
    positionalData: ["suggestion"],
    nameData: ["technology"],
    description: "A technology that is not in the known list (or the configured policy list).",
    messages: {
      notAllowed: "technology `{{technology}}` is not allowed by the organisation's policy{{suggestion}}",
      unknown:
        "`{{technology}}` is not a known technology, so it never matches and cannot activate the plugin{{suggestion}}",
    },
  },
  check(context) {
    const policy = context.policy.technologies;
    if (!policy && context.variant === "remote") return;
    const list = policy ?? KNOWN_TECHNOLOGIES;
    const known = technologySet(list);
    arr(context.member("technologies")).forEach((technology, i) => {
      if (typeof technology !== "string" || known.has(technology.toLowerCase())) return;
      const data = { technology, suggestion: didYouMean(technology, list) };
      const pointer = `/technologies/${i}`;
      if (policy) context.report({ pointer, messageId: "notAllowed", data, severity: "error" });
      else context.report({ pointer, messageId: "unknown", data });
    });
  },
});
