import { schemaRule } from "../schema-rule.js";

/** The metric-level `source` is free-form and never reported. Reported from the JSON Schemas in `schemas/` (see `schema.ts`). */
export const rule = schemaRule(
  {
    id: "unknown-member",
    kind: "schema",
    files: ["plugin.json", "extension.yaml"],
    defaultSeverity: "warning",
    fixable: "code",
    hasSuggestions: true,
    description: "A member that the spec does not define for that object (with the closest known name).",
  },
  ["unknownNear", "misplaced", "unknownKnown", "unknown"],
);
