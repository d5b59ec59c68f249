import { alertEvents, selectedBy } from "../ef2/package.js";
import type { MetricReference } from "../ef2/extension.js";
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
    nameData: ["key", "dimension", "path"],
    description: "A chart series names a dimension that its metric does not define.",
    files: ["plugin.json", "extension.yaml"],
    messages: {
      unknown: "metric `{{key}}` has no dimension `{{dimension}}`{{defined}}",
      unknownExtension:
        "metric `{{key}}` has no dimension `{{dimension}}`{{defined}}: splitting or filtering by it gives one empty series",
      unknownAlert:
        "alert `{{path}}`: metric `{{key}}` has no dimension `{{dimension}}`{{defined}}: splitting or filtering by it gives one empty series, and the metric event watches no data",
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
 * An extension.yaml's chart selectors (and its alert files' `metricSelector`) split and filter metrics by
 * dimensions: those its data source gives the
 * metric (its group's and subgroup's), those its metadata names, and Dynatrace's own (`dt.…`: entities,
 * the source). Metrics it does not report (Python's, calculated ones) are not judged, nor Prometheus's, whose
 * labels become dimensions without the file naming them. A warning, as for
 * unknown-metric-reference.
 */
function checkExtension(context: RuleContext<"unknownExtension" | "unknownAlert">): void {
  const ext = context.extension;
  // The places that report each key (as ingested or as written) and the metadata of each key, looked up once
  // per chart, and each key's dimensions gathered once however many charts name it.
  const reporting = new Map<string, (typeof ext.reported)[number][]>();
  const add = (key: string, r: (typeof ext.reported)[number]) => {
    const list = reporting.get(key);
    if (!list) reporting.set(key, [r]);
    else if (list[list.length - 1] !== r) list.push(r);
  };
  for (const r of ext.reported) {
    add(r.ingested, r);
    add(r.key, r);
  }
  const describedDimensions = new Map<string, Set<string>>();
  for (const d of ext.described) {
    let names = describedDimensions.get(d.key);
    if (!names) describedDimensions.set(d.key, (names = new Set()));
    for (const k of d.dimensions) names.add(k);
  }
  // A subgroup's metrics share one map of dimensions: its dimensions of their own are listed once for all.
  const ownOfMap = new WeakMap<ReadonlyMap<string, string>, string[]>();
  const own = (instances: readonly (typeof ext.reported)[number][], described: ReadonlySet<string>) => {
    const only = instances.length === 1 && !described.size ? instances[0]!.dimensions : undefined;
    const cached = only && ownOfMap.get(only);
    if (cached) return cached;
    const all = new Set(instances.flatMap((r) => [...r.dimensions.keys()]));
    for (const k of described) all.add(k);
    const out = [...all].filter((k) => !k.startsWith("dt."));
    if (only) ownOfMap.set(only, out);
    return out;
  };
  const refs: (MetricReference & { alert?: string })[] = [...ext.references, ...alertReferences(context)];
  for (const ref of refs) {
    if (ref.prefix || !ref.dimensions.length) continue;
    const instances = reporting.get(ref.key) ?? [];
    // Prometheus ingests a scraped metric's labels as dimensions: its dimensions are not all in the file.
    if (!instances.length || instances.some((r) => r.source === "prometheus")) continue;
    const described = describedDimensions.get(ref.key) ?? new Set<string>();
    for (const dimension of new Set(ref.dimensions)) {
      if (dimension.startsWith("dt.") || instances.some((r) => r.dimensions.has(dimension))) continue;
      if (described.has(dimension)) continue;
      const mine = own(instances, described);
      const defined = mine.length
        ? ` (its dimensions: ${listed(mine)})`
        : " (it has no dimensions of its own)";
      context.report({
        pointer: ref.pointer,
        ...(ref.alert === undefined
          ? { messageId: "unknownExtension", data: { key: ref.key, dimension, defined } }
          : { messageId: "unknownAlert", data: { key: ref.key, dimension, defined, path: ref.alert } }),
        severity: "warning",
      });
    }
  }
}

/**
 * The metrics and dimensions the `metricSelector` of each alert file `alerts` lists names (extensions-2.md §6),
 * at the alert's `path` in extension.yaml: only the files the caller read and that hold a JSON object, as for
 * unknown-metric-reference.
 */
function alertReferences(context: RuleContext<string>): (MetricReference & { alert: string })[] {
  const out: (MetricReference & { alert: string })[] = [];
  for (const { path, pointer, event } of alertEvents(context.package, context.extension.assets))
    for (const r of selectedBy(event))
      out.push({ key: r.key, prefix: false, dimensions: r.dimensions, pointer, alert: path });
  return out;
}

/** At most this many of a metric's dimensions are listed in a message: a hostile file gives one thousands. */
const LISTED = 20;

function listed(dimensions: readonly string[]): string {
  const shown = dimensions
    .slice(0, LISTED)
    .map((x) => quote(x))
    .join(", ");
  const more = dimensions.length - LISTED;
  return more > 0 ? `${shown} and ${more.toLocaleString("en-US")} more` : shown;
}
