import { finding, type Rule } from "../rule.js";

/**
 * Not in the spec's catalog: the base version of the file could not be parsed, so the change rules
 * (version bump, metricGroup, …) could not compare; said rather than skipped silently.
 */
export const rule: Rule = {
  meta: {
    id: "base-invalid-json",
    kind: "change",
    defaultSeverity: "notice",
    description: "The base version is not valid JSON, so the change rules could not compare against it.",
  },
  check(ctx) {
    if (ctx.baseError === undefined) return [];
    return [
      finding(
        this.meta,
        "",
        `the base version ${ctx.baseError}, so the change rules were not applied (version bump, metricGroup, …)`,
        { target: "key" },
      ),
    ];
  },
};
