import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";

/** A Dropdown needs choices, and its default must be one of them. */
export const rule = defineRule({
  meta: {
    id: "dropdown-values",
    kind: "document",
    defaultSeverity: "error",
    nameData: ["value"],
    description:
      "A Dropdown property without a non-empty dropdownValues, or whose defaultValue is not one of them.",
    messages: {
      missing: "a Dropdown property needs a non-empty `dropdownValues` list",
      notAChoice: "`defaultValue` {{value}} is not one of the `dropdownValues`",
    },
  },
  check(context) {
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
