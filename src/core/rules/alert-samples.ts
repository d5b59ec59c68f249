import { alertEvents } from "../ef2/package.js";
import { get, isObj } from "../guards.js";
import { defineRule, type RuleContext } from "../rule.js";

const COUNTS = ["samples", "violating_samples", "dealerting_samples"] as const;

/** An EF2 metric event's counts (extensions-2.md §6: EF1's, in camel case). */
const EVENT_COUNTS = ["samples", "violatingSamples", "dealertingSamples"] as const;

/** An EF2 metric event's samples are one minute each, in a window of at most an hour (extensions-2.md §6). */
const MAX_EVENT_SAMPLES = 60;

type Messages = "belowOne" | "exceeds" | "eventBelowOne" | "eventExceeds" | "eventOverHour";

/** Sample counts must make a window the alert can actually be raised in. */
export const rule = defineRule({
  meta: {
    id: "alert-samples",
    kind: "document",
    defaultSeverity: "error",
    files: ["plugin.json", "extension.yaml"],
    nameData: ["path"],
    description:
      "samples, violating_samples or dealerting_samples is below 1, or violating_samples exceeds samples.",
    messages: {
      belowOne: "`{{count}}` is {{value}}; it must be at least 1",
      exceeds:
        "`violating_samples` ({{violating}}) exceeds `samples` ({{samples}}): the alert can never be raised",
      eventBelowOne: "alert `{{path}}`: `{{count}}` is {{value}}; it must be at least 1",
      eventExceeds:
        "alert `{{path}}`: `{{violating}}` ({{violatingValue}}) exceeds `{{samples}}` ({{samplesValue}}): the metric event can never be raised",
      eventOverHour:
        "alert `{{path}}`: `{{count}}` is {{value}}; samples are one minute each and the window is at most {{max}} minutes",
    },
  },
  check(context) {
    if (context.format === "extension.yaml") {
      checkEvents(context);
      return;
    }
    for (const alert of context.alerts) {
      for (const count of COUNTS) {
        const value = get(alert.value, count);
        if (typeof value === "number" && value < 1)
          context.report({
            pointer: `${alert.pointer}/${count}`,
            messageId: "belowOne",
            data: { count, value },
          });
      }
      const samples = get(alert.value, "samples");
      const violating = get(alert.value, "violating_samples");
      if (
        typeof samples === "number" &&
        typeof violating === "number" &&
        samples >= 1 &&
        violating > samples
      ) {
        context.report({
          pointer: `${alert.pointer}/violating_samples`,
          messageId: "exceeds",
          data: { violating, samples },
        });
      }
    }
  },
});

/**
 * The metric events of the alert files `alerts` lists (extensions-2.md §6): the counts of `monitoringStrategy`,
 * and the same counts at the top level, where the metric events API's example body (and the VS Code add-on,
 * beside the nested ones) writes them. Reported at the alert's `path` in extension.yaml, naming the member.
 */
function checkEvents(context: RuleContext<Messages>): void {
  for (const { path, pointer, event } of alertEvents(context.package, context.extension.assets)) {
    const strategy = get(event, "monitoringStrategy");
    const levels: [unknown, string][] = [[event, ""]];
    if (isObj(strategy)) levels.unshift([strategy, "monitoringStrategy."]);
    for (const [holder, prefix] of levels) {
      const valid = new Map<string, number>();
      for (const count of EVENT_COUNTS) {
        const value = get(holder, count);
        if (typeof value !== "number") continue;
        const data = { path, count: `${prefix}${count}`, value };
        if (value < 1) context.report({ pointer, messageId: "eventBelowOne", data });
        else if (value > MAX_EVENT_SAMPLES)
          context.report({
            pointer,
            messageId: "eventOverHour",
            data: { ...data, max: MAX_EVENT_SAMPLES },
          });
        else valid.set(count, value);
      }
      const samples = valid.get("samples");
      const violating = valid.get("violatingSamples");
      if (samples !== undefined && violating !== undefined && violating > samples)
        context.report({
          pointer,
          messageId: "eventExceeds",
          data: {
            path,
            violating: `${prefix}violatingSamples`,
            violatingValue: violating,
            samples: `${prefix}samples`,
            samplesValue: samples,
          },
        });
    }
  }
}
