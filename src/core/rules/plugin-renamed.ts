import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";

/** To the server a new name is a new plugin: the old one's data and settings do not carry over. */
export const rule = defineRule({
  meta: {
    id: "plugin-renamed",
    kind: "change",
    defaultSeverity: "warning",
    description: "name changed: to the server this is a new plugin.",
    messages: {
      renamed:
        "the plugin was renamed from `{{before}}` to `{{after}}`: the server treats it as a new plugin, and the old one's data and configuration do not carry over",
    },
  },
  check(context) {
    if (!context.base) return;
    const before = str(get(context.base.value, "name"));
    const after = str(get(context.value, "name"));
    if (before === undefined || after === undefined || before === after) return;
    context.report({ pointer: "/name", messageId: "renamed", data: { before, after } });
  },
});
