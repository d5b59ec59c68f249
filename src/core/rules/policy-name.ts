import { hasPlaceholder } from "../ef2/placeholders.js";
import { str } from "../guards.js";
import { defineRule } from "../rule.js";

/**
 * The organisation's naming policy, a regular expression in RE2 syntax: `policy.name_pattern` for a plugin.json's
 * name, `policy.extension_name_pattern` for an extension.yaml's (EF2 names are `custom:…`, so one pattern cannot
 * serve both, and a migrated plugin keeps the gate only with the second).
 */
export const rule = defineRule({
  meta: {
    id: "policy-name",
    kind: "document",
    defaultSeverity: "error",
    files: ["plugin.json", "extension.yaml"],
    nameData: ["name"],
    description:
      "The name does not match the configured policy.name_pattern (an extension's: policy.extension_name_pattern; off when none is configured).",
    messages: {
      mismatch: "plugin name `{{name}}` does not match the organisation's naming policy `{{pattern}}`",
      extension:
        "extension name `{{name}}` does not match the organisation's naming policy for extensions `{{pattern}}` (policy.extension_name_pattern)",
    },
  },
  check(context) {
    const extension = context.format === "extension.yaml";
    const pattern = extension ? context.policy.extensionNamePattern : context.policy.namePattern;
    const name = str(context.member("name"));
    if (!pattern || name === undefined || pattern.test(name)) return;
    // A build template's placeholder is the build's to fill (build-placeholder says so).
    if (extension && hasPlaceholder(name)) return;
    context.report({
      pointer: "/name",
      messageId: extension ? "extension" : "mismatch",
      data: { name, pattern: pattern.source },
    });
  },
});
