import { alertEvents, selectedBy } from "../ef2/package.js";
import type { MetricReference } from "../ef2/extension.js";
import { get, str } from "../guards.js";
import { defineRule, type RuleContext } from "../rule.js";
import { Suggester } from "../suggest.js";

/** Charts and key metrics name metrics by key; a typo leaves an empty chart. State metrics count too. */
export const rule = defineRule({
  meta: {
    id: "unknown-metric-reference",
    kind: "document",
    defaultSeverity: "error",
    positionalData: ["suggestion"],
    nameData: ["key", "calculated", "path"],
    description: "A keymetric, keychart or chart series names a key that no metric of the plugin defines.",
    files: ["plugin.json", "extension.yaml"],
    messages: {
      unknown: "no metric has the key `{{key}}`{{suggestion}}",
      unknownExtension:
        "`{{key}}` is no metric this extension reports or describes: the chart or entity it feeds stays empty{{suggestion}}",
      unknownCalculated:
        "`{{key}}` is no metric this extension reports or describes: calculated metric `{{calculated}}` stays empty{{suggestion}}",
      unknownAlert:
        "alert `{{path}}` is on `{{key}}`, which this extension neither reports nor describes: its metric event never fires{{suggestion}}",
      unknownPrefix:
        "no metric this extension reports or describes starts with `{{key}}`: the entities this source creates never appear",
    },
  },
  check(context) {
    if (context.format === "extension.yaml") {
      checkExtension(context);
      return;
    }
    const known = context.metricsByKey;
    const near = new Suggester(context.metricKeys);
    for (const refs of [context.keymetrics, context.series])
      for (const ref of refs) {
        if (ref.key === undefined || known.has(ref.key)) continue;
        context.report({
          pointer: `${ref.pointer}/key`,
          messageId: "unknown",
          data: { key: ref.key, suggestion: near.didYouMean(ref.key) },
        });
      }
  },
});

/** Whether a key of `sorted` (in code-unit order) starts with `prefix`: the first key not before it, if any does. */
function startsAny(sorted: readonly string[], prefix: string): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]!.startsWith(prefix);
}

/**
 * Whether a key is of the extension's own namespace: it starts with the dot sections all its metrics share
 * (`com.dynatrace.extension.snmp-generic.`), or, when they share none, with the first section of one of them.
 */
function namespace(keys: readonly string[]): (key: string) => boolean {
  const split = keys.map((k) => k.split("."));
  const common: string[] = [];
  for (let i = 0; split.length && split.every((s) => s.length > i + 1 && s[i] === split[0]![i]); i++)
    common.push(split[0]![i]!);
  if (common.length) {
    const prefix = `${common.join(".")}.`;
    return (key) => key.startsWith(prefix);
  }
  const first = new Set(split.map((s) => s[0]));
  return (key) => first.has(key.split(".")[0]);
}

/**
 * An extension.yaml's `screens` (chart selectors) and `topology` (metric sources of entity types) name its
 * metrics by the keys Dynatrace ingests (a count's ends in `.count`). Judged only where the file declares what
 * is reported (a declarative data source), for keys of the extension's own namespace (`namespace`): `builtin:`, `ext:` and other extensions' metrics are not its to know. A warning: a
 * screen or entity breaks, not the extension (the latest Dynatrace no longer renders `screens`).
 */
function checkExtension(
  context: RuleContext<"unknownExtension" | "unknownCalculated" | "unknownPrefix" | "unknownAlert">,
): void {
  const ext = context.extension;
  if (!ext.declarative) return;
  const known = [
    ...new Set([
      ...ext.reported.map((r) => r.ingested),
      ...ext.described.map((d) => d.key),
      ...ext.pythonMetrics.map((p) => p.key),
    ]),
  ];
  const ours = namespace(known.map((k) => k.replace(/^func:/, "")));
  const firsts = new Set(known.map((k) => k.replace(/^func:/, "").split(".")[0]!));
  const exact = new Set(known);
  const sorted = [...known].sort();
  const near = new Suggester(known);
  const refs: (MetricReference & { alert?: string })[] = [...ext.references, ...alertReferences(context)];
  for (const ref of refs) {
    const { key } = ref;
    // A calculated metric named without its `func:`, as Dynatrace's own extensions name one in another's
    // selector, or a reported metric named with one, as sql-oracle's alert on `asm.used_pct` does: how
    // Dynatrace resolves either is not documented, so it is not said to be missing.
    const known =
      exact.has(key) || exact.has(`func:${key}`) || (key.startsWith("func:") && exact.has(key.slice(5)));
    if (ref.prefix ? startsAny(sorted, key) : known) continue;
    if (/^[A-Za-z]+:/.test(key) && !key.startsWith("func:")) continue;
    // An entity type's metric source is the extension's own: its first section is enough.
    if (ref.prefix ? !firsts.has(key.split(".")[0]!) : !ours(key.replace(/^func:/, ""))) continue;
    context.report(
      ref.prefix
        ? { pointer: ref.pointer, messageId: "unknownPrefix", data: { key }, severity: "warning" }
        : ref.alert !== undefined
          ? {
              pointer: ref.pointer,
              messageId: "unknownAlert",
              data: { key, path: ref.alert, suggestion: near.didYouMean(key) },
              severity: "warning",
            }
          : ref.calculated !== undefined
            ? {
                pointer: ref.pointer,
                messageId: "unknownCalculated",
                data: { key, calculated: ref.calculated, suggestion: near.didYouMean(key) },
                severity: "warning",
              }
            : {
                pointer: ref.pointer,
                messageId: "unknownExtension",
                data: { key, suggestion: near.didYouMean(key) },
                severity: "warning",
              },
    );
  }
}

/**
 * The metrics the alert files `alerts` lists are on (extensions-2.md §6: a metric event's `metricId`, or the
 * metrics its `metricSelector` names), reported at the alert's `path` in extension.yaml. Only the files the
 * caller read (`DescriptorInput.files`) and that hold a JSON object: an unread file says nothing, a broken one
 * is asset-missing's.
 */
function alertReferences(context: RuleContext<string>): (MetricReference & { alert: string })[] {
  const out: (MetricReference & { alert: string })[] = [];
  for (const { path, pointer, event } of alertEvents(context.package, context.extension.assets)) {
    const keys = new Set<string>();
    const metricId = str(get(event, "metricId"));
    if (metricId !== undefined) keys.add(metricId.trim());
    for (const r of selectedBy(event)) keys.add(r.key);
    for (const key of keys)
      if (key !== "") out.push({ key, prefix: false, dimensions: [], pointer, alert: path });
  }
  return out;
}
