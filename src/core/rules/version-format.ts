import { schemaRule } from "../schema-rule.js";

/** Reported from the JSON Schemas in `schemas/` (see `schema.ts`). */
export const rule = schemaRule(
  {
    id: "version-format",
    kind: "schema",
    defaultSeverity: "error",
    description: "The version does not match digits.digits(.digits).",
  },
  ["format"],
);
