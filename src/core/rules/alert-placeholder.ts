import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";
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

/** The placeholders of a text that are not documented ones, each once, in order. */
function unknownPlaceholders(text: string): string[] {
  const out: string[] = [];
  if (!text.includes("{")) return out;
  for (const match of text.matchAll(/\{([A-Za-z_][A-Za-z0-9_]{0,63})\}/g)) {
    const name = match[1] as string;
    if (!PLACEHOLDERS.includes(name) && !out.includes(name)) out.push(name);
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
    nameData: ["name"],
    description: "An alert description uses a placeholder that is not one of the documented ones.",
    messages: {
      metricname:
        "placeholder `{metricname}` is used by the spec's sample but is not a documented placeholder; it may be shown literally",
      unknown: "unknown placeholder `{{{name}}}` is shown literally{{suggestion}} (known: {{known}})",
    },
  },
  check(context) {
    // Alerts often share a description: each text's placeholders are read once per run.
    const unknownIn = new Map<string, string[]>();
    for (const alert of context.alerts) {
      const text = str(get(alert.value, "description"));
      if (text === undefined) continue;
      let unknown = unknownIn.get(text);
      if (!unknown) unknownIn.set(text, (unknown = unknownPlaceholders(text)));
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
