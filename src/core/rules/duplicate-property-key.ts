import { defineRule } from "../rule.js";

/** Property keys are unique, both among top-level properties and among configUI fields. */
export const rule = defineRule({
  meta: {
    id: "duplicate-property-key",
    kind: "document",
    defaultSeverity: "error",
    positionalData: ["first"],
    nameData: ["key"],
    description: "Two top-level properties, or two configUI properties, share a key.",
    messages: { duplicate: "property key `{{key}}` is already used at index {{first}}" },
  },
  check(context) {
    for (const list of [context.properties, context.configProperties]) {
      const first = new Map<string, number>();
      for (const p of list) {
        if (p.key === undefined) continue;
        const prev = first.get(p.key);
        if (prev === undefined) first.set(p.key, p.index);
        else
          context.report({
            pointer: `${p.pointer}/key`,
            messageId: "duplicate",
            data: { key: p.key, first: prev },
          });
      }
    }
  },
});
