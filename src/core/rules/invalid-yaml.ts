import { defineRule } from "../rule.js";

/**
 * Not in the spec's catalog: an extension.yaml that is not one YAML document; the location is where the YAML
 * parser stopped. No other rule runs on that file. Hostile YAML (nesting, alias bombs) ends here too. A file
 * that only Dynatrace's lenient parser reads (yaml/snakeyaml.ts) is reviewed, with a warning here.
 */
export const rule = defineRule({
  meta: {
    id: "invalid-yaml",
    kind: "parse",
    defaultSeverity: "error",
    files: ["extension.yaml"],
    description:
      "The extension.yaml is not one valid YAML document (or nests or expands too far to read safely).",
    messages: {
      syntax: "not valid YAML: {{message}}",
      snakeYaml:
        "not valid YAML 1.2: {{message}}; Dynatrace's parser (SnakeYAML) reads it, but editors and other YAML tools refuse the file: indent the value's lines more than its key",
    },
  },
  check(context) {
    const lenient = context.lenientRead;
    if (lenient)
      context.report({
        pointer: "",
        messageId: "snakeYaml",
        data: { message: lenient.message },
        target: "key",
        range: { start: lenient.offset, end: lenient.end },
        severity: "warning",
      });
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
