import { defineRule } from "../rule.js";

/**
 * Not in the spec's catalog: the file exceeds the configured size limit (`max_file_size`, default 5 MB; for
 * an extension.yaml, `max_extension_size`, default 1 MB, when that is the smaller) and was not parsed.
 * Reported instead of reading an unbounded file into memory.
 */
export const rule = defineRule({
  meta: {
    id: "file-too-large",
    kind: "parse",
    defaultSeverity: "error",
    files: ["plugin.json", "extension.yaml"],
    positionalData: ["size"],
    description: "The file is over max_file_size (extension.yaml: max_extension_size), not reviewed.",
    messages: {
      tooLarge:
        "the file is {{size}} bytes, over the limit of {{limit}} bytes (`max_file_size`); it was not reviewed",
      extensionTooLarge:
        "the extension.yaml is {{size}} bytes, over the limit of {{limit}} bytes (`max_extension_size`); it was not reviewed",
      // A pipe (standard input, `<(git show …)`) is read no further than the limit and a byte: its size is not known.
      tooLargeRead:
        "the input is over the limit of {{limit}} bytes (`max_file_size`), read no further; it was not reviewed",
      extensionTooLargeRead:
        "the extension.yaml is over the limit of {{limit}} bytes (`max_extension_size`), read no further; it was not reviewed",
    },
  },
  check(context) {
    const o = context.oversize;
    if (!o) return;
    context.report({
      pointer: "",
      messageId:
        o.setting === "max_extension_size"
          ? o.sizeIsLowerBound
            ? "extensionTooLargeRead"
            : "extensionTooLarge"
          : o.sizeIsLowerBound
            ? "tooLargeRead"
            : "tooLarge",
      data: { size: o.size.toLocaleString("en-US"), limit: o.limit.toLocaleString("en-US") },
      target: "key",
    });
  },
});
