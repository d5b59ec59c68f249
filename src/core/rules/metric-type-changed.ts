import { typeChanges } from "../ef2/changes.js";
import type { ReportedMetric } from "../ef2/extension.js";
import { defineRule } from "../rule.js";
import { listOf } from "../suggest.js";

/** What a metric is, as its author wrote it: a Prometheus histogram or summary is one, not the count it holds. */
const kind = (r: ReportedMetric) =>
  r.parts ? `a Prometheus ${r.type.trim()}` : r.count ? "a count" : "a gauge";

/**
 * A metric of an extension's data source that went from gauge to count or back, under the same key or with
 * `.count` added or dropped (a gauge made a count gets a new key: Dynatrace ingests counts as `<key>.count`).
 * Its data starts over under another key or another type: what was collected does not continue.
 */
export const rule = defineRule({
  meta: {
    id: "metric-type-changed",
    kind: "change",
    defaultSeverity: "error",
    files: ["extension.yaml"],
    nameData: ["key"],
    description: "A metric of the extension changed from gauge to count or back.",
    messages: {
      newKey:
        "metric `{{key}}` was {{was}} and is now {{now}}, which Dynatrace ingests as `{{ingested}}`: its data starts over under another key, and dashboards, alerts and SLOs on `{{key}}` stop receiving data",
      newKeys:
        "metric `{{key}}` was {{was}} and is now {{now}}, which Dynatrace ingests as {{ingested}}: its data starts over under another key, and dashboards, alerts and SLOs on `{{key}}` stop receiving data",
      sameKey:
        "metric `{{key}}` was {{was}} and is now {{now}} under the same key: its new values are not comparable with its history, and charts and alerts built for {{was}} mislead",
    },
  },
  check(context) {
    if (!context.base) return;
    for (const { before, after } of typeChanges(context.base.extension, context.extension)) {
      const data = { key: before.ingested, was: kind(before), now: kind(after) };
      const sameKey = after.ingested === before.ingested;
      context.report({
        pointer: `${after.pointer}/${after.type === "gauge" && !sameKey ? "key" : "type"}`,
        ...(sameKey
          ? { messageId: "sameKey", data }
          : after.parts
            ? { messageId: "newKeys", data: { ...data, ingested: listOf(after.parts, "and") } }
            : { messageId: "newKey", data: { ...data, ingested: after.ingested } }),
      });
    }
  },
});
