import { defineRule } from "../rule.js";
import { Suggester } from "../suggest.js";

/** A configuration field must show a property the plugin actually receives. */
export const rule = defineRule({
  meta: {
    id: "config-property-unknown",
    kind: "document",
    defaultSeverity: "error",
    positionalData: ["suggestion"],
    nameData: ["key"],
    description: "A configUI.properties[].key matches no top-level property.",
    messages: { unknown: "`{{key}}` matches no top-level property{{suggestion}}" },
  },
  check(context) {
    const keys = context.properties.flatMap((p) => (p.key === undefined ? [] : [p.key]));
    const known = new Set(keys);
    const near = new Suggester(keys);
    for (const field of context.configProperties) {
      const key = field.key;
      if (key === undefined || known.has(key)) continue;
      context.report({
        pointer: `${field.pointer}/key`,
        messageId: "unknown",
        data: { key, suggestion: near.didYouMean(key) },
      });
    }
  },
});
