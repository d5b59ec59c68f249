import { schemaRule } from "../schema-rule.js";

/** The pattern is the `name` pattern of each variant's schema. Reported from the JSON Schemas in `schemas/` (see `schema.ts`). */
export const rule = schemaRule(
  {
    id: "name-format",
    kind: "schema",
    files: ["plugin.json", "extension.yaml"],
    defaultSeverity: "error",
    description: "The plugin name is not custom.<jmx|python|pmi>.<id> (host) or custom.remote.<id> (remote).",
  },
  ["format"],
);
