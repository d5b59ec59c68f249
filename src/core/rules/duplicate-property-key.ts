import { defineRule } from "../rule.js";

/**
 * Property keys are unique, both among top-level properties and among configUI fields; so are an extension's
 * variable ids (`vars`), each one value of its monitoring configuration.
 */
export const rule = defineRule({
  meta: {
    id: "duplicate-property-key",
    kind: "document",
    defaultSeverity: "error",
    files: ["plugin.json", "extension.yaml"],
    positionalData: ["first"],
    nameData: ["key"],
    description:
      "Two top-level properties, or two configUI properties, share a key; two extension vars share an id.",
    messages: {
      duplicate: "property key `{{key}}` is already used at index {{first}}",
      variable:
        "variable `{{key}}` is already declared at index {{first}} of `vars`: a monitoring configuration holds one value for both",
    },
  },
  check(context) {
    if (context.format === "extension.yaml") {
      const first = new Map<string, number>();
      for (const v of context.extension.vars) {
        const prev = first.get(v.id);
        if (prev === undefined) first.set(v.id, v.index);
        else
          context.report({
            pointer: `${v.pointer}/id`,
            messageId: "variable",
            data: { key: v.id, first: prev },
          });
      }
      return;
    }
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
