import { arr, finding, get, str, type Rule } from "../rule.js";
import type { RawFinding } from "../types.js";

const EXPECTED: Record<string, [string, (v: unknown) => boolean]> = {
  boolean: ["a boolean (true or false)", (v) => typeof v === "boolean"],
  integer: ["an integer", (v) => typeof v === "number" && Number.isInteger(v)],
  float: ["a number", (v) => typeof v === "number"],
};
const STRING: [string, (v: unknown) => boolean] = ["a string", (v) => typeof v === "string"];
const KNOWN = new Set(["string", "boolean", "integer", "float", "password", "textarea", "dropdown"]);

/** A default of the wrong JSON type is delivered to the plugin code as that wrong type. */
export const rule: Rule = {
  meta: {
    id: "property-default-type",
    kind: "document",
    defaultSeverity: "error",
    description: "defaultValue does not fit the property type.",
  },
  check(ctx) {
    const out: RawFinding[] = [];
    arr(get(ctx.value, "properties")).forEach((p, i) => {
      const type = str(get(p, "type"));
      const value = get(p, "defaultValue");
      if (type === undefined || value === undefined || !KNOWN.has(type.toLowerCase())) return;
      const [what, fits] = EXPECTED[type.toLowerCase()] ?? STRING;
      if (!fits(value)) {
        out.push(
          finding(
            this.meta,
            `/properties/${i}/defaultValue`,
            `\`defaultValue\` ${JSON.stringify(value)} does not fit type \`${type}\`: it must be ${what}`,
          ),
        );
      }
    });
    return out;
  },
};
