import { strings } from "../guards.js";
import type { ExtensionFacts } from "../ef2/extension.js";
import { defineRule, type RuleContext } from "../rule.js";
import { quote } from "../quote.js";

/** The same dimensions, whatever their order (the same order first: no sorting then). */
function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  if (a.every((x, i) => x === b[i])) return true;
  return [...a].sort().join("\0") === [...b].sort().join("\0");
}

const show = (d: readonly string[]) => (d.length ? d.map((x) => quote(x)).join(", ") : "none");

/** Existing data was split by the old dimensions; a changed set breaks its continuity. Order alone is no change. */
export const rule = defineRule({
  meta: {
    id: "metric-dimensions-changed",
    kind: "change",
    defaultSeverity: "warning",
    nameData: ["key"],
    files: ["plugin.json", "extension.yaml"],
    description: "An existing metric changed its dimensions (an extension's: lost one).",
    messages: {
      removed:
        "metric `{{key}}` no longer has the dimension{{s}} {{removed}}: its data is no longer split by {{them}}, and charts, alerts and dashboards that split or filter by {{them}} break",
      changed:
        "the dimensions of metric `{{key}}` changed from {{was}} to {{now}}; existing data and charts split by the old dimensions no longer line up",
    },
  },
  check(context) {
    if (!context.base) return;
    if (context.format === "extension.yaml") {
      checkExtension(context);
      return;
    }
    // The very same metrics, each key defined once (a base that differs elsewhere shares head's): nothing
    // changed. A key defined twice is compared with the base's first definition, so it may differ even so.
    if (context.base.metrics === context.metrics && context.metricsByKey.size === context.metricKeys.length)
      return;
    const before = context.base.metricsByKey;
    for (const m of context.metrics) {
      const old = m.key === undefined ? undefined : before.get(m.key);
      if (!old || m.key === undefined || old.spec.dimensions === m.spec.dimensions) continue;
      const was = strings(old.spec.dimensions);
      const now = strings(m.spec.dimensions);
      if (sameSet(was, now)) continue;
      context.report({
        pointer: `${m.pointer}/dimensions`,
        messageId: "changed",
        data: { key: m.key, was: show(was), now: show(now) },
        target: "key",
      });
    }
  },
});

/** Each ingested key's dimensions (every place that reports it), Dynatrace's own (`dt.…`) aside. */
function dimensionsOf(facts: ExtensionFacts): Map<string, { dimensions: Set<string>; pointer: string }> {
  const out = new Map<string, { dimensions: Set<string>; pointer: string }>();
  for (const r of facts.reported) {
    let entry = out.get(r.ingested);
    if (!entry) out.set(r.ingested, (entry = { dimensions: new Set(), pointer: `${r.pointer}/key` }));
    for (const d of r.dimensions.keys()) if (!d.startsWith("dt.")) entry.dimensions.add(d);
  }
  return out;
}

/**
 * An extension's metric that lost a dimension its data sources gave it (a dimension added splits new data
 * further and breaks nothing). Said at the metric, once per key; many metrics losing one dimension are one
 * repeated problem.
 */
function checkExtension(context: RuleContext<"removed">): void {
  const before = dimensionsOf(context.base!.extension);
  for (const [key, now] of dimensionsOf(context.extension)) {
    const was = before.get(key);
    if (!was) continue;
    const removed = [...was.dimensions].filter((d) => !now.dimensions.has(d)).sort();
    if (!removed.length) continue;
    context.report({
      pointer: now.pointer,
      messageId: "removed",
      data: {
        key,
        removed: show(removed),
        s: removed.length > 1 ? "s" : "",
        them: removed.length > 1 ? "them" : "it",
      },
    });
  }
}
