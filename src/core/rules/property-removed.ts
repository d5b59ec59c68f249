import type { KeyedEntry } from "../facts.js";
import { activationPairs } from "../ef2/activation.js";
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
    files: ["plugin.json", "extension.yaml"],
    description:
      "A configuration property present in base is gone (a property, an extension's var or activation schema property).",
    messages: {
      variable:
        "variable `{{key}}` was removed; existing monitoring configurations of this extension that set it break",
      activation:
        "`{{path}}` no longer has property `{{key}}`; existing monitoring configurations of this extension that set it break",
      removed: "property `{{key}}` was removed; existing configurations of this plugin that set it break",
    },
  },
  check(context) {
    if (!context.base) return;
    if (context.format === "extension.yaml") {
      const now = new Set(context.extension.vars.map((v) => v.id));
      for (const v of context.base.extension.vars)
        if (!now.has(v.id))
          context.report({ pointer: "/vars", messageId: "variable", data: { key: v.id }, target: "key" });
      for (const { path, pointer, before, after } of activationPairs(context)) {
        const kept = new Set(after.properties.map((p) => p.name));
        for (const p of before.properties)
          if (!kept.has(p.name))
            context.report({ pointer, messageId: "activation", data: { path, key: p.name } });
      }
      return;
    }
    // The very same properties (a base that differs elsewhere shares head's): nothing removed.
    if (context.base.properties === context.properties) return;
    const head = keys(context.properties);
    for (const key of keys(context.base.properties)) {
      if (!head.has(key))
        context.report({ pointer: "/properties", messageId: "removed", data: { key }, target: "key" });
    }
  },
});
