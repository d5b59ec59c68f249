import type { KeyedEntry } from "../facts.js";
import { defineRule } from "../rule.js";

const keys = (properties: readonly KeyedEntry[]) =>
  new Set(properties.flatMap((p) => (p.key === undefined ? [] : [p.key])));

/** Existing configurations carry values for the removed property and break. */
export const rule = defineRule({
  meta: {
    id: "property-removed",
    kind: "change",
    defaultSeverity: "warning",
    nameData: ["key"],
    description: "A top-level property present in base is gone.",
    messages: {
      removed: "property `{{key}}` was removed; existing configurations of this plugin that set it break",
    },
  },
  check(context) {
    if (!context.base) return;
    // The very same properties (a base that differs elsewhere shares head's): nothing removed.
    if (context.base.properties === context.properties) return;
    const head = keys(context.properties);
    for (const key of keys(context.base.properties)) {
      if (!head.has(key))
        context.report({ pointer: "/properties", messageId: "removed", data: { key }, target: "key" });
    }
  },
});
