import { arr, get, strings } from "../guards.js";
import { defineRule, type RuleContext } from "../rule.js";
import { quote } from "../quote.js";

/** A series' `dimensions` must name dimensions its metric defines. */
export const rule = defineRule({
  meta: {
    id: "unknown-dimension-reference",
    kind: "document",
    defaultSeverity: "error",
    positionalData: ["defined"],
    nameData: ["key", "dimension"],
    description: "A chart series names a dimension that its metric does not define.",
    files: ["plugin.json", "extension.yaml"],
    messages: {
      unknown: "metric `{{key}}` has no dimension `{{dimension}}`{{defined}}",
      unknownExtension:
        "metric `{{key}}` has no dimension `{{dimension}}`{{defined}}: splitting or filtering by it gives one empty series",
    },
  },
  check(context) {
    if (context.format === "extension.yaml") {
      checkExtension(context);
      return;
    }
    const metrics = context.metricsByKey;
    // Each metric's dimensions read once, for the metrics that series name.
    const dims = new Map<string, string[]>();
    for (const s of context.series) {
      if (s.key === undefined) continue;
      let defined = dims.get(s.key);
      if (!defined) {
        const m = metrics.get(s.key);
        if (!m) continue; // unknown-metric-reference reports it
        dims.set(s.key, (defined = strings(m.spec.dimensions)));
      }
      arr(get(s.series, "dimensions")).forEach((dimension, k) => {
        if (typeof dimension !== "string" || defined.includes(dimension)) return;
        context.report({
          pointer: `${s.pointer}/dimensions/${k}`,
          messageId: "unknown",
          data: {
            key: s.key as string,
            dimension,
            defined: defined.length
              ? ` (its dimensions: ${defined.map((x) => quote(x)).join(", ")})`
              : " (it has no dimensions)",
          },
        });
      });
    }
  },
});

/**
 * An extension.yaml's chart selectors split and filter metrics by dimensions: those its data source gives the
 * metric (its group's and subgroup's), those its metadata names, and Dynatrace's own (`dt.…`: entities,
 * the source). Metrics it does not report (Python's, calculated ones) are not judged, nor Prometheus's, whose
 * labels become dimensions without the file naming them. A warning, as for
 * unknown-metric-reference.
 */
function checkExtension(context: RuleContext<"unknownExtension">): void {
  const ext = context.extension;
  for (const ref of ext.references) {
    if (ref.prefix || !ref.dimensions.length) continue;
    const instances = ext.reported.filter((r) => r.ingested === ref.key || r.key === ref.key);
    // Prometheus ingests a scraped metric's labels as dimensions: its dimensions are not all in the file.
    if (!instances.length || instances.some((r) => r.source === "prometheus")) continue;
    const defined = new Set(instances.flatMap((r) => [...r.dimensions.keys()]));
    for (const d of ext.described) if (d.key === ref.key) for (const k of d.dimensions) defined.add(k);
    for (const dimension of new Set(ref.dimensions)) {
      if (defined.has(dimension) || dimension.startsWith("dt.")) continue;
      const own = [...defined].filter((k) => !k.startsWith("dt."));
      context.report({
        pointer: ref.pointer,
        messageId: "unknownExtension",
        data: {
          key: ref.key,
          dimension,
          defined: own.length
            ? ` (its dimensions: ${own.map((x) => quote(x)).join(", ")})`
            : " (it has no dimensions of its own)",
        },
        severity: "warning",
      });
    }
  }
}
