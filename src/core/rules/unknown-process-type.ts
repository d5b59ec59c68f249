import { KNOWN_PROCESS_TYPES } from "../reference/known-process-types.js";
import { arr } from "../guards.js";
import { processTypeSet } from "../policy.js";
import { defineRule } from "../rule.js";
import { didYouMean } from "../suggest.js";

const NOT_ALLOWED = "is not allowed by the organisation's policy";
const UNKNOWN = "is not a known process type; the agent silently drops it, so the plugin may never activate";

/**
 * The agent silently drops process type names (and ids) it does not know, so the plugin may never
 * activate. A configured `policy.process_types` (names or ids) replaces the table and makes this an error.
 * Remote plugins ignore process types (see ignored-member), so they are not checked.
 */
export const rule = defineRule({
  meta: {
    id: "unknown-process-type",
    kind: "document",
    defaultSeverity: "warning",
    positionalData: ["suggestion"],
    nameData: ["name", "id"],
    description: "A processTypeNames entry (or processTypes id) that is not a known process type.",
    messages: {
      name: "`{{name}}` {{why}}{{suggestion}}",
      id: "process type id {{id}} {{why}}{{known}}",
    },
  },
  check(context) {
    if (context.variant !== "host") return;
    const policy = context.policy.processTypes;
    const { names: allowedNames, ids: allowedIds } = processTypeSet(policy ?? KNOWN_PROCESS_TYPES);
    const severity = policy ? ("error" as const) : undefined;
    const why = policy ? NOT_ALLOWED : UNKNOWN;
    arr(context.member("processTypeNames")).forEach((name, i) => {
      if (typeof name !== "string" || allowedNames.has(name)) return;
      context.report({
        pointer: `/processTypeNames/${i}`,
        messageId: "name",
        data: { name, why, suggestion: didYouMean(name, [...allowedNames]) },
        ...(severity ? { severity } : {}),
      });
    });
    arr(context.member("processTypes")).forEach((id, i) => {
      if (typeof id !== "number" || allowedIds.has(id)) return;
      context.report({
        pointer: `/processTypes/${i}`,
        messageId: "id",
        data: { id, why, known: policy ? "" : ` (known ids: 0 to ${KNOWN_PROCESS_TYPES.length - 1})` },
        ...(severity ? { severity } : {}),
      });
    });
  },
});
