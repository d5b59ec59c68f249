import { schemaRule } from "../schema-rule.js";

/** Reported from the JSON Schemas in `schemas/` (see `schema.ts`). */
export const rule = schemaRule(
  {
    id: "required-member",
    kind: "schema",
    files: ["plugin.json", "extension.yaml"],
    defaultSeverity: "error",
    description: "A required member is missing.",
  },
  ["missingTop", "missing"],
);
