import { get, str } from "../guards.js";
import { hasPlaceholder } from "../ef2/placeholders.js";
import { defineRule } from "../rule.js";

/** To the server a new name is a new plugin: the old one's data and settings do not carry over. */
export const rule = defineRule({
  meta: {
    id: "plugin-renamed",
    kind: "change",
    defaultSeverity: "warning",
    files: ["plugin.json", "extension.yaml"],
    description:
      "name changed: to the server this is a new plugin (or, for an extension.yaml, a different extension).",
    messages: {
      renamedExtension:
        "the extension was renamed from `{{before}}` to `{{after}}`: to Dynatrace it is a different extension, and the old one's metrics, dashboards and monitoring configurations stay with the old name",
      renamed:
        "the plugin was renamed from `{{before}}` to `{{after}}`: the server treats it as a new plugin, and the old one's data and configuration do not carry over",
    },
  },
  check(context) {
    if (!context.base) return;
    const before = str(get(context.base.value, "name"));
    const after = str(get(context.value, "name"));
    if (before === undefined || after === undefined || before === after) return;
    if (context.format === "extension.yaml") {
      // A build template's name is the build's to write (build-placeholder).
      if (!hasPlaceholder(before) && !hasPlaceholder(after))
        context.report({ pointer: "/name", messageId: "renamedExtension", data: { before, after } });
      return;
    }
    context.report({ pointer: "/name", messageId: "renamed", data: { before, after } });
  },
});
