import { get, has, obj, str } from "../guards.js";
import { defineRule } from "../rule.js";

const IGNORED_TOP = {
  host: ["favicon"],
  remote: ["processTypeNames", "processTypes", "requiredAgentVersion"],
} as const;

/** A member that this variant accepts but ignores, so whatever it says has no effect. */
export const rule = defineRule({
  meta: {
    id: "ignored-member",
    kind: "document",
    defaultSeverity: "warning",
    description:
      "A member the variant ignores (favicon, dropdownValues of a non-Dropdown property in host; process types, requiredAgentVersion, activation_name_pattern in remote).",
    messages: {
      top: "`{{member}}` is ignored by {{variant}} plugins (it only applies to {{other}} plugins)",
      dropdownValues: "`dropdownValues` is ignored by host plugins (Dropdown properties are remote only)",
      pattern: "`activation_name_pattern` is ignored by remote plugins (it filters host process groups)",
    },
  },
  check(context) {
    const variant = context.variant;
    const other = variant === "host" ? "remote" : "host";
    for (const member of IGNORED_TOP[variant]) {
      if (context.member(member) !== undefined)
        context.report({
          pointer: `/${member}`,
          messageId: "top",
          data: { member, variant, other },
          target: "key",
        });
    }
    if (variant === "host") {
      for (const p of context.properties) {
        // A Dropdown's choices are not reported: variant-mismatch says the Dropdown is remote only, and
        // dropdown-values asks for them; "ignored" would say the first again and contradict the second.
        const dropdown = str(get(p.value, "type"))?.toLowerCase() === "dropdown";
        if (!dropdown && has(obj(p.value), "dropdownValues"))
          context.report({
            pointer: `${p.pointer}/dropdownValues`,
            messageId: "dropdownValues",
            target: "key",
          });
      }
    } else if (has(obj(context.member("source")), "activation_name_pattern")) {
      context.report({ pointer: "/source/activation_name_pattern", messageId: "pattern", target: "key" });
    }
  },
});
