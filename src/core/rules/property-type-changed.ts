import { activationPairs } from "../ef2/activation.js";
import { defineRule } from "../rule.js";

/**
 * Monitoring configurations hold a value for each variable and activation schema property: one whose type
 * changed (`text` to `pattern`, `text` to `secret`, an enum for a text) holds a value of the old type, which the
 * new one may refuse or read otherwise.
 */
export const rule = defineRule({
  meta: {
    id: "property-type-changed",
    kind: "change",
    defaultSeverity: "warning",
    files: ["extension.yaml"],
    nameData: ["key"],
    description: "A variable or activation schema property changed its type.",
    messages: {
      variable:
        "the type of variable `{{key}}` changed from `{{was}}` to `{{now}}`: existing monitoring configurations hold a value of the old type",
      activation:
        "`{{path}}`: the type of property `{{key}}` changed from `{{was}}` to `{{now}}`: existing monitoring configurations hold a value of the old type",
    },
  },
  check(context) {
    if (!context.base) return;
    const before = new Map(context.base.extension.vars.map((v) => [v.id, v.type]));
    for (const v of context.extension.vars) {
      const was = before.get(v.id);
      if (was === undefined || v.type === undefined || was === v.type) continue;
      context.report({
        pointer: `${v.pointer}/type`,
        messageId: "variable",
        data: { key: v.id, was, now: v.type },
      });
    }
    for (const { path, pointer, before: b, after } of activationPairs(context)) {
      const was = new Map(b.properties.map((p) => [p.name, p.type]));
      for (const p of after.properties) {
        const old = was.get(p.name);
        if (old !== undefined && old !== p.type)
          context.report({
            pointer,
            messageId: "activation",
            data: { path, key: p.name, was: old, now: p.type },
          });
      }
    }
  },
});
