import { schemaRule } from "../schema-rule.js";

/** Reported from the JSON Schemas in `schemas/` (see `schema.ts`). */
export const rule = schemaRule(
  {
    id: "invalid-type",
    kind: "schema",
    files: ["plugin.json", "extension.yaml"],
    defaultSeverity: "error",
    description: "A member has the wrong JSON type.",
  },
  ["type", "typeNull"],
);
