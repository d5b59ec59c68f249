import { defineRule } from "../rule.js";

const RESERVED = ["experimentalMinVersion", "productiveMinVersion"];

/** Members reserved for built-in plugin releases. */
export const rule = defineRule({
  meta: {
    id: "reserved-member",
    kind: "document",
    defaultSeverity: "error",
    description: "experimentalMinVersion or productiveMinVersion is present (reserved for built-in plugins).",
    messages: { reserved: "`{{member}}` is reserved for built-in plugins; remove it from custom plugins" },
  },
  check(context) {
    for (const member of RESERVED) {
      if (context.member(member) !== undefined)
        context.report({ pointer: `/${member}`, messageId: "reserved", data: { member }, target: "key" });
    }
  },
});
