import { readActivationSchemas } from "../ef2/activation.js";
import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";

/**
 * A Dropdown needs choices, and its default must be one of them; so must an activation schema property's
 * `default` be one of the `items` of the enum its type names (reported at the path in extension.yaml that
 * names the schema, like activation-schema-invalid, which also says when the enum is missing or has no items).
 */
export const rule = defineRule({
  meta: {
    id: "dropdown-values",
    kind: "document",
    defaultSeverity: "error",
    files: ["plugin.json", "extension.yaml"],
    nameData: ["value"],
    description:
      "A Dropdown without a non-empty dropdownValues or with a defaultValue not among them; an activation schema enum default not among its items.",
    messages: {
      missing: "a Dropdown property needs a non-empty `dropdownValues` list",
      notAChoice: "`defaultValue` {{value}} is not one of the `dropdownValues`",
      notAnItem:
        "`{{path}}`: the `default` {{value}} of property `{{key}}` is not one of the items of `{{enum}}`",
    },
  },
  check(context) {
    if (context.format === "extension.yaml") {
      for (const { path, pointer, facts } of readActivationSchemas(context))
        for (const p of facts.properties) {
          const name = /^#\/enums\/(.+)$/.exec(p.type)?.[1];
          const values = name === undefined ? undefined : facts.enumValues.get(name);
          // An enum not defined, or without items, is activation-schema-invalid's; `null` is a nullable's unset.
          if (!values?.length || p.default === undefined || p.default === null) continue;
          if (values.includes(p.default)) continue;
          // Without its quotes only (`2` for the item "2"): property-default-type says that.
          if (typeof p.default !== "string" && values.includes(JSON.stringify(p.default))) continue;
          context.report({
            pointer,
            messageId: "notAnItem",
            data: { path, key: p.name, value: JSON.stringify(p.default), enum: `enums.${name}` },
          });
        }
      return;
    }
    for (const p of context.properties) {
      if (str(get(p.value, "type"))?.toLowerCase() !== "dropdown") continue;
      const values = get(p.value, "dropdownValues");
      if (!Array.isArray(values) || values.length === 0) {
        context.report({ pointer: `${p.pointer}/dropdownValues`, messageId: "missing", target: "key" });
        continue;
      }
      const value = get(p.value, "defaultValue");
      if (value === undefined || values.includes(value)) continue;
      const pointer = `${p.pointer}/defaultValue`;
      // A number as written (`1.10`, which parses as 1.1), a boolean as its word.
      const written =
        typeof value === "number"
          ? (context.source(pointer) ?? String(value))
          : typeof value === "boolean"
            ? String(value)
            : undefined;
      // Without its quotes only: property-default-type says that, and it is a choice once quoted.
      if (written !== undefined && values.includes(written)) continue;
      context.report({ pointer, messageId: "notAChoice", data: { value: written ?? JSON.stringify(value) } });
    }
  },
});
