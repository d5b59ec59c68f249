import { guessedTypes, metricKeys, renames, typeChanges, typeTaken } from "../ef2/changes.js";
import type { ReportedMetric } from "../ef2/extension.js";
import { defineRule, type RuleContext } from "../rule.js";

/** Dashboards and alerts on a removed metric stop receiving data. */
export const rule = defineRule({
  meta: {
    id: "metric-removed",
    kind: "change",
    defaultSeverity: "warning",
    nameData: ["key"],
    files: ["plugin.json", "extension.yaml"],
    description: "A metric key present in base is gone (removed or renamed).",
    messages: {
      removedExtension:
        "metric `{{key}}` was removed: dashboards, alerts and SLOs on it stop receiving data, and its history is not carried to another key",
      renamed:
        "metric `{{key}}` was renamed to `{{now}}` (it reads the same `{{value}}`): dashboards, alerts and SLOs on `{{key}}` stop receiving data, and its history stays under the old key",
      removed: "metric `{{key}}` was removed; charts, alerts and dashboards that use it stop receiving data",
    },
  },
  check(context) {
    if (!context.base) return;
    if (context.format === "extension.yaml") {
      checkExtension(context);
      return;
    }
    // The very same metrics (a base that differs elsewhere shares head's): nothing removed.
    if (context.base.metrics === context.metrics) return;
    const head = context.metricsByKey;
    const reported = new Set<string>();
    for (const { key } of context.base.metrics) {
      if (key === undefined || head.has(key) || reported.has(key)) continue;
      reported.add(key);
      context.report({ pointer: "/metrics", messageId: "removed", data: { key }, target: "key" });
    }
  },
});

/**
 * An extension's metrics by the keys Dynatrace ingests (its data sources', its metadata's, a Python extension's
 * feature sets'). A key whose metric changed type (metric-type-changed says so) is not said twice; a key whose
 * metric now reads the same value under another key is said to be renamed, at the new key. A metric whose type
 * (base's or head's) Dynatrace does not take has a guessed key (changes.ts typeTaken): not compared.
 */
function checkExtension(context: RuleContext<"removedExtension" | "renamed">): void {
  const head = context.extension;
  const base = context.base!.extension;
  const now = new Set(metricKeys(head));
  // A Prometheus histogram or summary whose type changed is one metric: its other keys go with the change.
  const explained = new Set(typeChanges(base, head).flatMap((c) => c.before.parts ?? [c.before.ingested]));
  const renamed = renames(base, head);
  const reported = new Map<string, ReportedMetric>();
  for (const r of base.reported) if (!reported.has(r.ingested)) reported.set(r.ingested, r);
  const guessedInHead = guessedTypes(head);
  for (const key of metricKeys(base)) {
    if (now.has(key) || explained.has(key)) continue;
    const before = reported.get(key);
    if (before && (!typeTaken(before) || guessedInHead(before))) continue;
    const after = before && renamed(before);
    if (after && before?.value !== undefined) {
      context.report({
        pointer: `${after.pointer}/key`,
        messageId: "renamed",
        data: { key, now: after.ingested, value: before.value },
      });
      continue;
    }
    const at = head.sources.find((s) => s === before?.source) ?? (head.described.length ? "metrics" : "");
    context.report({
      pointer: at ? `/${at}` : "",
      messageId: "removedExtension",
      data: { key },
      target: "key",
    });
  }
}
