import { schemaRule } from "../schema-rule.js";

/**
 * A value that differs only in letter case from exactly one allowed value is fixed to it (`--fix`); otherwise
 * the closest allowed value is a suggestion. Reported from the JSON Schemas in `schemas/` (see `schema.ts`).
 */
export const rule = schemaRule(
  {
    id: "invalid-value",
    kind: "schema",
    files: ["plugin.json", "extension.yaml"],
    defaultSeverity: "error",
    fixable: "code",
    hasSuggestions: true,
    description:
      "A value is not among the allowed values (unit, aggregation, event type, …); the closest is suggested.",
  },
  ["notAllowed", "notAllowedNear"],
);
