import { arr } from "../guards.js";
import { defineRule } from "../rule.js";

const CRITERIA = ["processTypeNames", "processTypes", "technologies"];

/** A host plugin needs process types or technologies; an empty list activates nothing either. */
export const rule = defineRule({
  meta: {
    id: "activation-criteria-missing",
    kind: "document",
    defaultSeverity: "error",
    description:
      "Host plugin with none of processTypeNames, processTypes, technologies: nothing can activate it.",
    messages: {
      none: "none of processTypeNames, processTypes or technologies is set: nothing can activate this host plugin",
      unusable:
        "`{{member}}` {{what}} and neither processTypeNames, processTypes nor technologies is set: nothing can activate this plugin",
    },
  },
  check(context) {
    if (context.variant !== "host") return;
    // entity HOST is active on every host (host-entity says so): no criteria are needed.
    if (context.member("entity") === "HOST") return;
    if (CRITERIA.some((k) => arr(context.member(k)).length > 0)) return;
    const present = CRITERIA.find((k) => context.member(k) !== undefined);
    if (present === undefined) {
      context.report({ pointer: "/processTypeNames", messageId: "none", target: "key" });
      return;
    }
    context.report({
      pointer: `/${present}`,
      messageId: "unusable",
      data: {
        member: present,
        what: Array.isArray(context.member(present)) ? "is empty" : "is not a list",
      },
      target: "key",
    });
  },
});
