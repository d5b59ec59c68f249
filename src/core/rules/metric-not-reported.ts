import { typeTaken } from "../ef2/changes.js";
import { defineRule } from "../rule.js";
import { listOf, Suggester } from "../suggest.js";
import { quote } from "../quote.js";

/**
 * Metadata for a key the extension's data sources never report describes nothing: a typo, a metric removed
 * from the data source, a count described without the `.count` that Dynatrace appends to its key (metric
 * ingestion protocol), or a Prometheus histogram or summary described under its own key, which Dynatrace
 * ingests only with the suffixes of its parts. Only where the file declares what is reported (not a Python extension's code, nor an
 * extension without a data source, whose metrics come from elsewhere); calculated metrics (`func:`) are
 * reported by no data source. Nor for a metric whose `type` Dynatrace does not take (`Count`: invalid-value
 * says so): whether its key gets `.count` is a guess.
 */
export const rule = defineRule({
  meta: {
    id: "metric-not-reported",
    kind: "document",
    defaultSeverity: "warning",
    files: ["extension.yaml"],
    hasSuggestions: true,
    nameData: ["key"],
    positionalData: ["suggestion"],
    description: "Metric metadata names a key that no data source of the extension reports.",
    messages: {
      unreported:
        "metadata describes metric `{{key}}`, which no data source of the extension reports{{suggestion}}",
      countKey:
        "metadata describes metric `{{key}}`, but the data source reports it as a count, which Dynatrace ingests as `{{ingested}}`: this metadata describes nothing",
      countTwice:
        "metadata describes metric `{{key}}`, but Dynatrace ingests the count `{{ingested}}` as it is (it appends `.count` only to a key that does not end in it): this metadata describes nothing",
      partsKey:
        "metadata describes metric `{{key}}`, but the data source reports it as a Prometheus {{kind}}, which Dynatrace ingests as {{ingested}}: this metadata describes nothing",
      gaugeKey:
        "metadata describes metric `{{key}}`, but the data source reports `{{written}}` as a gauge, which Dynatrace ingests under its own key: this metadata describes nothing",
    },
  },
  check(context) {
    const ext = context.extension;
    if (!ext.declarative) return;
    const ingested = new Set(ext.reported.map((r) => r.ingested));
    const written = new Map<string, (typeof ext.reported)[number]>();
    for (const r of ext.reported) if (!written.has(r.key)) written.set(r.key, r);
    // Each count by the key Dynatrace ingests (the first that reports it), the keys described, the Python
    // extension's keys: looked up once per metadata entry, not searched.
    const counts = new Map<string, (typeof ext.reported)[number]>();
    for (const r of ext.reported) if (r.count && !counts.has(r.ingested)) counts.set(r.ingested, r);
    const described = new Set(ext.described.map((x) => x.key));
    const python = new Set(ext.pythonMetrics.map((p) => p.key));
    const near = new Suggester([...ingested]);
    const guessed = new Set(ext.reported.filter((r) => !typeTaken(r)).map((r) => r.key));
    for (const d of ext.described) {
      if (d.calculated || ingested.has(d.key) || python.has(d.key)) continue;
      if (guessed.size && (guessed.has(d.key) || guessed.has(d.key.replace(/\.count$/, "")))) continue;
      const pointer = `${d.pointer}/key`;
      const reported = written.get(d.key);
      if (reported?.parts) {
        context.report({
          pointer,
          messageId: "partsKey",
          data: { key: d.key, kind: reported.type.trim(), ingested: listOf(reported.parts, "and") },
        });
        continue;
      }
      if (reported?.count) {
        const edit = {
          replacement: JSON.stringify(reported.ingested),
          description: `describe ${quote(reported.ingested)}`,
        };
        context.report({
          pointer,
          messageId: "countKey",
          data: { key: d.key, ingested: reported.ingested },
          ...(described.has(reported.ingested) ? {} : { suggest: [edit] }),
        });
        continue;
      }
      const once = d.key.endsWith(".count") ? d.key.slice(0, -".count".length) : undefined;
      const counted = once === undefined ? undefined : counts.get(once);
      if (counted) {
        const edit = {
          replacement: JSON.stringify(counted.ingested),
          description: `describe ${quote(counted.ingested)}`,
        };
        context.report({
          pointer,
          messageId: "countTwice",
          data: { key: d.key, ingested: counted.ingested },
          ...(described.has(counted.ingested) ? {} : { suggest: [edit] }),
        });
        continue;
      }
      const gauge = once === undefined ? undefined : written.get(once);
      if (gauge) {
        context.report({ pointer, messageId: "gaugeKey", data: { key: d.key, written: gauge.key } });
        continue;
      }
      context.report({
        pointer,
        messageId: "unreported",
        data: { key: d.key, suggestion: near.didYouMean(d.key) },
      });
    }
  },
});
