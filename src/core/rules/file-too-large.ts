import { defineRule } from "../rule.js";

/**
 * Not in the spec's catalog: the file exceeds the configured size limit (`max_file_size`, default 5 MB)
 * and was not parsed. Reported instead of reading an unbounded file into memory.
 */
export const rule = defineRule({
  meta: {
    id: "file-too-large",
    kind: "parse",
    defaultSeverity: "error",
    files: ["plugin.json", "extension.yaml"],
    positionalData: ["size"],
    description: "The file is larger than the configured max_file_size and was not reviewed.",
    messages: {
      tooLarge:
        "the file is {{size}} bytes, over the limit of {{limit}} bytes (`max_file_size`); it was not reviewed",
    },
  },
  check(context) {
    const o = context.oversize;
    if (!o) return;
    context.report({
      pointer: "",
      messageId: "tooLarge",
      data: { size: o.size.toLocaleString("en-US"), limit: o.limit.toLocaleString("en-US") },
      target: "key",
    });
  },
});
