import { alertEvents } from "../ef2/package.js";
import { get, str } from "../guards.js";
import { defineRule, type RuleContext } from "../rule.js";
import { didYouMean } from "../suggest.js";

export const PLACEHOLDERS = [
  "threshold",
  "severity",
  "entityname",
  "violating_samples",
  "dimensions",
  "alert_condition",
];

const KNOWN = PLACEHOLDERS.map((p) => `{${p}}`).join(", ");

/**
 * An EF2 metric event's placeholders (extensions-2.md §6); `{dims:<key>}` too, which holds a colon and is
 * never read as a name below.
 */
export const EVENT_PLACEHOLDERS = [
  "alert_condition",
  "baseline",
  "dims",
  "entityname",
  "metricname",
  "missing_data_samples",
  "severity",
  "threshold",
];

const EVENT_KNOWN = [...EVENT_PLACEHOLDERS.map((p) => `{${p}}`), "{dims:<key>}"].join(", ");

/** EF1's placeholders that EF2 writes otherwise, or lacks (extensions-2.md §6, the mapping's table). */
const EF1_IN_EF2: Record<string, string> = {
  dimensions: ": EF1's `{dimensions}` is `{dims}` in a metric event",
  violating_samples:
    ": EF1's `{violating_samples}` has no metric event placeholder; write the number of violating samples",
};

/** The placeholders of a text that are not among `known`, each once, in order. */
function unknownPlaceholders(text: string, known: readonly string[]): string[] {
  const out: string[] = [];
  if (!text.includes("{")) return out;
  for (const match of text.matchAll(/\{([A-Za-z_][A-Za-z0-9_]{0,63})\}/g)) {
    const name = match[1] as string;
    if (!known.includes(name) && !out.includes(name)) out.push(name);
  }
  return out;
}

/**
 * Unknown placeholders are shown literally in the alert message. `{metricname}` is used by the spec's
 * own sample but is not in its list, so it is only a notice.
 */
export const rule = defineRule({
  meta: {
    id: "alert-placeholder",
    kind: "document",
    defaultSeverity: "warning",
    positionalData: ["suggestion"],
    nameData: ["name", "path"],
    description: "An alert description uses a placeholder that is not one of the documented ones.",
    files: ["plugin.json", "extension.yaml"],
    messages: {
      metricname:
        "placeholder `{metricname}` is used by the spec's sample but is not a documented placeholder; it may be shown literally",
      unknown: "unknown placeholder `{{{name}}}` is shown literally{{suggestion}} (known: {{known}})",
      unknownEvent:
        "alert `{{path}}`: unknown placeholder `{{{name}}}` in `description` is shown literally{{suggestion}} (known: {{known}})",
    },
  },
  check(context) {
    if (context.format === "extension.yaml") {
      checkEvents(context);
      return;
    }
    // Alerts often share a description: each text's placeholders are read once per run.
    const unknownIn = new Map<string, string[]>();
    for (const alert of context.alerts) {
      const text = str(get(alert.value, "description"));
      if (text === undefined) continue;
      let unknown = unknownIn.get(text);
      if (!unknown) unknownIn.set(text, (unknown = unknownPlaceholders(text, PLACEHOLDERS)));
      if (!unknown.length) continue;
      const pointer = `${alert.pointer}/description`;
      for (const name of unknown) {
        if (name === "metricname") {
          context.report({ pointer, messageId: "metricname", severity: "notice" });
        } else {
          const suggestion = didYouMean(name, PLACEHOLDERS, { show: (p) => `\`{${p}}\`` });
          context.report({ pointer, messageId: "unknown", data: { name, suggestion, known: KNOWN } });
        }
      }
    }
  },
});

/**
 * The description of each metric event the alert files of `alerts` hold, against EF2's placeholders, at the
 * alert's `path` in extension.yaml: an EF1 description carried over as is keeps `{dimensions}` and
 * `{violating_samples}`, which a metric event shows literally.
 */
function checkEvents(context: RuleContext<"unknownEvent">): void {
  for (const { path, pointer, event } of alertEvents(context.package, context.extension.assets)) {
    const text = str(get(event, "description"));
    if (text === undefined) continue;
    for (const name of unknownPlaceholders(text, EVENT_PLACEHOLDERS)) {
      const suggestion =
        EF1_IN_EF2[name] ?? didYouMean(name, EVENT_PLACEHOLDERS, { show: (p) => `\`{${p}}\`` });
      context.report({
        pointer,
        messageId: "unknownEvent",
        data: { path, name, suggestion, known: EVENT_KNOWN },
      });
    }
  }
}
