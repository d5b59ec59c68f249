import { defineRule, type DocumentRule, type RuleContext } from "./rule.js";
import type { RuleMeta } from "./rule-meta.js";
import {
  SCHEMA_MESSAGES,
  SCHEMA_NAME_DATA,
  SCHEMA_POSITIONAL_DATA,
  writtenNumberData,
  type SchemaMessageId,
} from "./schema.js";

/** What other rules read of the schemas. */
export { isExtensionMetricKey, isExtensionUnit, isUnit, valueData } from "./schema.js";

type SchemaRuleMeta = Omit<
  RuleMeta<SchemaMessageId, "schema">,
  "docs" | "messages" | "positionalData" | "nameData"
>;

/**
 * A structural rule: it reports the schema findings that `schema.ts` classified with its id, with the
 * schema's messages it uses (`messageIds`), so the JSON Schema stays the single source of structure. The
 * schema's fix (a value's letter case) and suggestions (closest allowed value, renames) go along.
 */
export function schemaRule<M extends SchemaMessageId>(
  meta: SchemaRuleMeta,
  messageIds: readonly M[],
  // What the rule judges beside the document's schema findings, in the schema's words (a file it lists).
  more?: (context: RuleContext<M>) => void,
): DocumentRule<M> {
  const messages = Object.fromEntries(messageIds.map((id) => [id, SCHEMA_MESSAGES[id]])) as unknown as Record<
    M,
    string
  >;
  return defineRule<M>({
    meta: { ...meta, messages, positionalData: SCHEMA_POSITIONAL_DATA, nameData: SCHEMA_NAME_DATA },
    check(context) {
      for (const f of context.ownSchemaFindings) {
        // A number of the wrong type is quoted as written, not as parsed (`1.10`, not 1.1).
        const number = f.messageId === "type" && (f.data.actual === "integer" || f.data.actual === "number");
        const written = number ? context.source(f.pointer) : undefined;
        context.report({
          pointer: f.pointer,
          messageId: f.messageId as M,
          data: written === undefined ? f.data : { ...f.data, ...writtenNumberData(written) },
          target: f.target,
          ...(f.fix ? { fix: f.fix } : {}),
          ...(f.suggestions ? { suggest: f.suggestions } : {}),
        });
      }
      more?.(context);
    },
  });
}
