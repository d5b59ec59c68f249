import { alertEvents } from "../ef2/package.js";
import { get } from "../guards.js";
import type { RuleContext } from "../rule.js";
import { schemaRule, valueData } from "../schema-rule.js";
import { closest, listOf } from "../suggest.js";

/**
 * The members of a metric event (an extension's alert file) whose values the metric events API (v1, the model
 * extensions-2.md §6 gives) lists in full. Other forms (Settings 2.0's `modelProperties`, with `OUTSIDE`) and
 * members it lists only in part (`aggregationType`) are not judged.
 */
const EVENT_VALUES: readonly (readonly [readonly string[], readonly string[]])[] = [
  [
    ["monitoringStrategy", "type"],
    ["STATIC_THRESHOLD", "AUTO_ADAPTIVE_BASELINE"],
  ],
  [
    ["monitoringStrategy", "alertCondition"],
    ["ABOVE", "BELOW"],
  ],
  [["severity"], ["AVAILABILITY", "CUSTOM_ALERT", "ERROR", "INFO", "PERFORMANCE", "RESOURCE_CONTENTION"]],
];

/**
 * A value that differs only in letter case from exactly one allowed value is fixed to it (`--fix`); otherwise
 * the closest allowed value is a suggestion. Reported from the JSON Schemas in `schemas/` (see `schema.ts`);
 * in an extension.yaml, also the values of the metric events its `alerts` files hold, at the alert's `path`
 * (as an EF1 alert setting's `alert_condition` is told its values).
 */
export const rule = schemaRule(
  {
    id: "invalid-value",
    kind: "schema",
    files: ["plugin.json", "extension.yaml"],
    defaultSeverity: "error",
    fixable: "code",
    hasSuggestions: true,
    description:
      "A value is not among the allowed values (unit, aggregation, event type, …); the closest is suggested.",
  },
  ["notAllowed", "notAllowedNear"],
  (context) => {
    if (context.format === "extension.yaml") checkEvents(context);
  },
);

function checkEvents(context: RuleContext<"notAllowed" | "notAllowedNear">): void {
  for (const { path, pointer, event } of alertEvents(context.package, context.extension.assets))
    for (const [members, allowed] of EVENT_VALUES) {
      const value = members.reduce<unknown>((v, m) => get(v, m), event);
      if (typeof value !== "string" || allowed.includes(value)) continue;
      const data = { path: `${path}: ${members.join(".")}`, ...valueData(value), allowed: listOf(allowed) };
      const near = closest(value, allowed);
      context.report(
        near
          ? { pointer, messageId: "notAllowedNear", data: { ...data, suggestion: near } }
          : { pointer, messageId: "notAllowed", data },
      );
    }
}
