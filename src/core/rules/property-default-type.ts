import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";

const EXPECTED: Record<string, [string, (v: unknown) => boolean]> = {
  boolean: ["a boolean (true or false)", (v) => typeof v === "boolean"],
  integer: ["an integer", (v) => typeof v === "number" && Number.isInteger(v)],
  float: ["a number", (v) => typeof v === "number"],
};
const STRING: [string, (v: unknown) => boolean] = ["a string", (v) => typeof v === "string"];
const KNOWN = new Set(["string", "boolean", "integer", "float", "password", "textarea", "dropdown"]);

/** A default of the wrong JSON type is delivered to the plugin code as that wrong type. */
export const rule = defineRule({
  meta: {
    id: "property-default-type",
    kind: "document",
    defaultSeverity: "error",
    nameData: ["value"],
    description: "defaultValue does not fit the property type.",
    messages: { mismatch: "`defaultValue` {{value}} does not fit type `{{type}}`: it must be {{expected}}" },
  },
  check(context) {
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
