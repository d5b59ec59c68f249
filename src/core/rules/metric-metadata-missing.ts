import { hasPlaceholder } from "../ef2/placeholders.js";
import { defineRule } from "../rule.js";
import { isExtensionMetricKey } from "../schema-rule.js";
import { listOf } from "../suggest.js";

/**
 * A metric reported without metadata shows in Dynatrace under its key, with no unit and no description: charts
 * cannot scale it, and nobody can tell what it counts. Said once per key Dynatrace ingests, at the first
 * place that reports it; a key whose metadata names it without the `.count` Dynatrace appends is said by
 * metric-not-reported instead. A Prometheus histogram or summary is ingested under several keys: said once,
 * when none of them has metadata. A Python extension's metrics are those its `python.featureSets` list. A data
 * source's key that is no metric key (`if out.bytes`) is invalid-format's: metadata for it would help nobody (one
 * the build writes, `<%=prefix%>.bytes`, is judged by neither, so it still is said here).
 */
export const rule = defineRule({
  meta: {
    id: "metric-metadata-missing",
    kind: "document",
    defaultSeverity: "notice",
    files: ["extension.yaml"],
    nameData: ["key"],
    description: "A metric the extension reports has no metadata in `metrics`.",
    messages: {
      missing:
        "metric `{{key}}` has no metadata in `metrics`: Dynatrace shows it under its key, without a display name, unit or description",
      partsMissing:
        "Prometheus {{kind}} `{{key}}` has no metadata in `metrics` for any of the keys Dynatrace ingests it as ({{ingested}}): Dynatrace shows them without a display name, unit or description",
    },
  },
  check(context) {
    const ext = context.extension;
    const described = new Set(ext.described.map((d) => d.key));
    const said = new Set<string>();
    const reported = [
      ...ext.reported
        .filter((r) => isExtensionMetricKey(r.key) || hasPlaceholder(r.key))
        .map((r) => ({
          key: r.ingested,
          written: r.key,
          type: r.type,
          pointer: r.pointer,
          parts: r.parts,
        })),
      ...ext.pythonMetrics.map((p) => ({
        key: p.key,
        written: p.key,
        type: "",
        pointer: p.pointer,
        parts: undefined,
      })),
    ];
    for (const r of reported) {
      if (r.parts) {
        if (r.parts.some((k) => described.has(k) || said.has(k))) continue;
        for (const k of r.parts) said.add(k);
        context.report({
          pointer: `${r.pointer}/key`,
          messageId: "partsMissing",
          data: { key: r.written, kind: r.type.trim(), ingested: listOf(r.parts, "and") },
        });
        continue;
      }
      // Metadata under the key as written, or with `.count` once more: metric-not-reported says why it misses.
      if (
        described.has(r.key) ||
        described.has(r.written) ||
        described.has(`${r.key}.count`) ||
        said.has(r.key)
      )
        continue;
      said.add(r.key);
      context.report({ pointer: `${r.pointer}/key`, messageId: "missing", data: { key: r.key } });
    }
  },
});
