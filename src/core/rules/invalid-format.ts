import { schemaRule } from "../schema-rule.js";

/** Reported from the JSON Schemas in `schemas/` (see `schema.ts`). */
export const rule = schemaRule(
  {
    id: "invalid-format",
    kind: "schema",
    files: ["plugin.json", "extension.yaml"],
    defaultSeverity: "error",
    description:
      "A string does not match its pattern (metric key, dimension, alert id, property key, chart color, …).",
  },
  ["format"],
);
