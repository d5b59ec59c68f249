import { compareVersions, NUMERIC_VERSION } from "../compare.js";
import { get, obj } from "../guards.js";
import { defineRule } from "../rule.js";

/**
 * The oldest Dynatrace each data source runs on, where Dynatrace documents one: the JMX data source's supported
 * versions are Dynatrace 1.265+ and OneAgent 1.265+ (extensions-2.md §1 and §7, JMX data source reference).
 */
const SOURCE_MINIMUM: Readonly<Record<string, string>> = { jmx: "1.265" };

/**
 * An extension whose `minDynatraceVersion` is below what its data source needs says it runs on environments
 * where it does not: they install it, and it reports nothing.
 */
export const rule = defineRule({
  meta: {
    id: "min-version-too-low",
    kind: "document",
    defaultSeverity: "warning",
    files: ["extension.yaml"],
    nameData: ["source"],
    description:
      "`minDynatraceVersion` is below the oldest Dynatrace the extension's data source runs on (JMX: 1.265).",
    messages: {
      low: "`minDynatraceVersion` is `{{value}}`, but the `{{source}}` data source needs Dynatrace {{needed}} or later: environments older than {{needed}} install an extension they cannot run",
    },
  },
  check(context) {
    const doc = obj(context.value);
    if (!doc) return;
    const value = get(doc, "minDynatraceVersion");
    // Not a string is invalid-type's; not numbers (a build placeholder) is not compared.
    if (typeof value !== "string" || !NUMERIC_VERSION.test(value)) return;
    for (const [source, needed] of Object.entries(SOURCE_MINIMUM)) {
      if (!context.extension.sources.includes(source) || compareVersions(value, needed) >= 0) continue;
      context.report({ pointer: "/minDynatraceVersion", messageId: "low", data: { value, source, needed } });
    }
  },
});
