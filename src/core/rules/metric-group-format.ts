import { schemaRule } from "../schema-rule.js";

/** Reported from the JSON Schemas in `schemas/` (see `schema.ts`). */
export const rule = schemaRule(
  {
    id: "metric-group-format",
    kind: "schema",
    defaultSeverity: "error",
    description: "metricGroup has characters other than letters, digits, _, -, . or empty segments.",
  },
  ["format"],
);
