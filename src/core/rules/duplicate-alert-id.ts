import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";
import { displayPath } from "../json/pointer.js";

/** alert_id is unique across the whole plugin, not only within one metric. */
export const rule = defineRule({
  meta: {
    id: "duplicate-alert-id",
    kind: "document",
    defaultSeverity: "error",
    positionalData: ["first"],
    nameData: ["id"],
    description: "Two alert settings anywhere in the plugin share an alert_id.",
    messages: {
      duplicate:
        "alert_id `{{id}}` is already used by `{{first}}`; alert ids must be unique within the plugin",
    },
  },
  check(context) {
    const first = new Map<string, string>();
    for (const alert of context.alerts) {
      const id = str(get(alert.value, "alert_id"));
      if (id === undefined) continue;
      const prev = first.get(id);
      if (prev === undefined) first.set(id, alert.pointer);
      else
        context.report({
          pointer: `${alert.pointer}/alert_id`,
          messageId: "duplicate",
          data: { id, first: displayPath(prev) },
        });
    }
  },
});
