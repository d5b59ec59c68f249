import { defineRule } from "../rule.js";

/**
 * Not in the spec's catalog: the base version of the file could not be parsed, so the change rules
 * (version bump, metricGroup or an extension's metric keys, …) could not compare; said rather than skipped
 * silently.
 */
export const rule = defineRule({
  meta: {
    id: "base-invalid-json",
    kind: "change",
    defaultSeverity: "notice",
    files: ["plugin.json", "extension.yaml"],
    description:
      "The base version is not valid JSON (an extension.yaml's: not valid YAML), so the change rules could not compare against it.",
    messages: {
      unreadable:
        "the base version {{why}}, so the change rules were not applied (version bump, metricGroup, …)",
      unreadableExtension:
        "the base version {{why}}, so the change rules were not applied (version bump, name, metric keys, types, units and dimensions, feature sets, variables, …)",
    },
  },
  check(context) {
    if (context.baseError === undefined) return;
    // An extension has no metricGroup: its message names what its own change rules compare.
    const messageId = context.format === "extension.yaml" ? "unreadableExtension" : "unreadable";
    context.report({ pointer: "", messageId, data: { why: context.baseError }, target: "key" });
  },
});
