import { str } from "../guards.js";
import { defineRule } from "../rule.js";

/** The organisation's naming policy (`policy.name_pattern`, a regular expression in RE2 syntax). */
export const rule = defineRule({
  meta: {
    id: "policy-name",
    kind: "document",
    defaultSeverity: "error",
    nameData: ["name"],
    description: "The name does not match the configured policy.name_pattern (off when none is configured).",
    messages: {
      mismatch: "plugin name `{{name}}` does not match the organisation's naming policy `{{pattern}}`",
    },
  },
  check(context) {
    const pattern = context.policy.namePattern;
    const name = str(context.member("name"));
    if (!pattern || name === undefined || pattern.test(name)) return;
    context.report({ pointer: "/name", messageId: "mismatch", data: { name, pattern: pattern.source } });
  },
});
