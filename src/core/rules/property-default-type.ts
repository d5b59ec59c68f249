import { readActivationSchemas } from "../ef2/activation.js";
import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";

const EXPECTED: Record<string, [string, (v: unknown) => boolean]> = {
  boolean: ["a boolean (true or false)", (v) => typeof v === "boolean"],
  integer: ["an integer", (v) => typeof v === "number" && Number.isInteger(v)],
  float: ["a number", (v) => typeof v === "number"],
};
const STRING: [string, (v: unknown) => boolean] = ["a string", (v) => typeof v === "string"];
const KNOWN = new Set(["string", "boolean", "integer", "float", "password", "textarea", "dropdown"]);
/** Activation schema property types whose value is a JSON scalar (extensions-2.md §3); an enum's is a string. */
const ACTIVATION: Record<string, [string, (v: unknown) => boolean]> = {
  boolean: EXPECTED.boolean!,
  integer: EXPECTED.integer!,
  float: EXPECTED.float!,
  text: STRING,
  secret: STRING,
};

/**
 * A default of the wrong JSON type is delivered to the plugin code as that wrong type: a plugin.json
 * property's `defaultValue`, or an activation schema property's `default` (reported at the path in
 * extension.yaml that names the schema, like activation-schema-invalid).
 */
export const rule = defineRule({
  meta: {
    id: "property-default-type",
    kind: "document",
    defaultSeverity: "error",
    files: ["plugin.json", "extension.yaml"],
    nameData: ["value"],
    description: "defaultValue, or an activation schema property's default, does not fit the property type.",
    messages: {
      mismatch: "`defaultValue` {{value}} does not fit type `{{type}}`: it must be {{expected}}",
      activation:
        "`{{path}}`: the `default` {{value}} of property `{{key}}` does not fit type `{{type}}`: it must be {{expected}}",
    },
  },
  check(context) {
    if (context.format === "extension.yaml") {
      for (const { path, pointer, facts } of readActivationSchemas(context))
        for (const p of facts.properties) {
          // `null` is what a nullable property holds when unset: not a type mismatch.
          if (p.default === undefined || p.default === null) continue;
          const enumRef = /^#\/enums\/.+$/.test(p.type);
          const [expected, fits] = enumRef ? STRING : (ACTIVATION[p.type] ?? [undefined, () => true]);
          if (expected === undefined || fits(p.default)) continue;
          context.report({
            pointer,
            messageId: "activation",
            data: { path, key: p.name, value: JSON.stringify(p.default), type: p.type, expected },
          });
        }
      return;
    }
    for (const p of context.properties) {
      const type = str(get(p.value, "type"));
      const value = get(p.value, "defaultValue");
      if (type === undefined || value === undefined || !KNOWN.has(type.toLowerCase())) continue;
      const [expected, fits] = EXPECTED[type.toLowerCase()] ?? STRING;
      if (fits(value)) continue;
      const pointer = `${p.pointer}/defaultValue`;
      // A number as written: `1.10` is the number 1.1 once parsed, which is not what the author wrote.
      const written = typeof value === "number" ? context.source(pointer) : undefined;
      context.report({
        pointer,
        messageId: "mismatch",
        data: { value: written ?? JSON.stringify(value), type, expected },
      });
    }
  },
});
