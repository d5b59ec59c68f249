import { schemaRule } from "../schema-rule.js";

/** The closest allowed value becomes a suggested fix. Reported from the JSON Schemas in `schemas/` (see `schema.ts`). */
export const rule = schemaRule({
  id: "invalid-value",
  kind: "schema",
  defaultSeverity: "error",
  description:
    "A value is not among the allowed values (unit, aggregation, event type, …); the closest is suggested.",
});
