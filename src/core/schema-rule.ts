import { defineRule, type Rule, type RuleMeta } from "./rule.js";

/**
 * A structural rule: it reports the schema findings that `schema.ts` classified with its id, so the
 * JSON Schema stays the single source of structure. The schema's fixes (closest allowed value, renames) go along.
 */
export function schemaRule(meta: Omit<RuleMeta<"schema">, "docs" | "messages">): Rule<"schema"> {
  return defineRule({
    meta: { ...meta, messages: { schema: "{{message}}" } },
    check(context) {
      for (const f of context.ownSchemaFindings) {
        context.report({
          pointer: f.pointer,
          messageId: "schema",
          data: { message: f.message },
          target: f.target,
          ...(f.fix ? { fix: f.fix } : {}),
        });
      }
    },
  });
}
