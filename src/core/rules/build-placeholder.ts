import { placeholdersIn } from "../ef2/placeholders.js";
import { displayPath } from "../json/pointer.js";
import { defineRule } from "../rule.js";

/**
 * Some published extension.yaml files are build templates (`version: <%=version%>`): their build writes the
 * value. The review says so, once per value, and judges neither its format nor its changes (schema.ts,
 * ef2-version-format and the change rules leave such values alone), rather than failing on the template.
 */
export const rule = defineRule({
  meta: {
    id: "build-placeholder",
    kind: "document",
    defaultSeverity: "notice",
    files: ["extension.yaml"],
    positionalData: ["path"],
    nameData: ["value"],
    description:
      "A value holds a build placeholder (`<%=version%>`): the build writes it, so it is not reviewed.",
    messages: {
      placeholder:
        "`{{path}}` holds a build placeholder (`{{value}}`): the build that packages the extension writes the value, so this review does not judge it",
    },
  },
  check(context) {
    if (!context.text.includes("<%")) return;
    for (const { pointer, value } of placeholdersIn(context.value))
      context.report({
        pointer,
        messageId: "placeholder",
        data: { path: displayPath(pointer), value: value.length > 80 ? `${value.slice(0, 77)}…` : value },
      });
  },
});
