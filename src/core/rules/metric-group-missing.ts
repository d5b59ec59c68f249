import { str } from "../guards.js";
import { defineRule } from "../rule.js";
import { quote } from "../quote.js";

/**
 * No metricGroup. For a new plugin it is an error (set it now, it can never change later); for an
 * existing plugin the server already uses the plugin name, so the message says to pin exactly that.
 */
export const rule = defineRule({
  meta: {
    id: "metric-group-missing",
    kind: "document",
    defaultSeverity: "warning",
    description:
      "No metricGroup: required for new plugins; for existing ones it defaults to the name forever.",
    messages: {
      newPlugin:
        "new plugins must set `metricGroup`: it becomes the leading part of every metric key and can never be changed once the plugin runs",
      missing:
        'no `metricGroup`: it defaults to {{fallback}} and can never be changed afterwards (set `"metricGroup": {{pin}}` to make that explicit)',
    },
  },
  check(context) {
    if (context.member("metricGroup") !== undefined) return;
    if (context.isNew) {
      context.report({ pointer: "/metricGroup", messageId: "newPlugin", severity: "error", target: "key" });
      return;
    }
    const name = str(context.member("name"));
    context.report({
      pointer: "/metricGroup",
      messageId: "missing",
      data: {
        fallback: name ? `the plugin name ${quote(name)}` : "the plugin name",
        pin: JSON.stringify(name ?? "…"),
      },
      target: "key",
    });
  },
});
