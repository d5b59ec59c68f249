import { defineRule } from "../rule.js";

/**
 * Not in the spec's catalog: an extension.yaml that is not one YAML document; the location is where the YAML
 * parser stopped. No other rule runs on that file. Hostile YAML (nesting, alias bombs) ends here too.
 */
export const rule = defineRule({
  meta: {
    id: "invalid-yaml",
    kind: "parse",
    defaultSeverity: "error",
    files: ["extension.yaml"],
    description:
      "The extension.yaml is not one valid YAML document (or nests or expands too far to read safely).",
    messages: { syntax: "not valid YAML: {{message}}" },
  },
  check(context) {
    const e = context.parseError;
    if (!e) return;
    context.report({
      pointer: "",
      messageId: "syntax",
      data: { message: e.message },
      target: "key",
      range: { start: e.offset, end: e.end },
    });
  },
});
