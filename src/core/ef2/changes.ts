/**
 * How an extension's metrics and feature sets moved between its base and head (the change rules' shared
 * reading of two ExtensionFacts): the keys each version has, the metrics whose type changed (the same key, or
 * the key with `.count` added or dropped), and the metrics renamed (another key reading the same value of the
 * same data source). Pure.
 */
import { isExtensionMetricType } from "../schema.js";
import type { ExtensionFacts, ReportedMetric } from "./extension.js";

/**
 * Every metric a version has: where the file declares what is reported, the keys its data sources report (as
 * Dynatrace ingests them) and its calculated metrics; otherwise (a Python extension's code, metrics ingested
 * elsewhere) the keys its metadata describes and its feature sets list.
 */
export function metricKeys(facts: ExtensionFacts): string[] {
  const described = facts.described.filter((d) => !facts.declarative || d.calculated).map((d) => d.key);
  return [
    ...new Set([
      ...facts.reported.map((r) => r.ingested),
      ...described,
      ...facts.pythonMetrics.map((p) => p.key),
    ]),
  ];
}

export interface TypeChange {
  before: ReportedMetric;
  after: ReportedMetric;
}

const bare = (key: string) => (key.endsWith(".count") ? key.slice(0, -".count".length) : key);

/**
 * The metric's type is one Dynatrace takes (or unsaid: a gauge). Of any other (`Count`, `5`: invalid-value
 * says so) whether it is a count, and so its ingested key, is a guess: a base that held it was never
 * uploaded, and replacing it (`Count` → `count`, invalid-value's fix) is fixing it, not changing the metric.
 */
export function typeTaken(r: ReportedMetric): boolean {
  return r.typeWritten === undefined || isExtensionMetricType(r.typeWritten);
}

/**
 * Where a metric of `facts` has a type Dynatrace does not take: its data source and its key without `.count`,
 * so that neither reading of the type (a gauge's key or a count's) counts as another metric's removal.
 */
export function guessedTypes(facts: ExtensionFacts): (r: ReportedMetric) => boolean {
  const at = (r: ReportedMetric) => `${r.source}\0${bare(r.key)}`;
  const guessed = new Set(facts.reported.filter((r) => !typeTaken(r)).map(at));
  return (r) => guessed.size > 0 && guessed.has(at(r));
}

/**
 * Metrics of one data source whose type went from gauge to count or back, under the same key as written or
 * with `.count` added or dropped (what real releases do when they make a gauge a count).
 */
export function typeChanges(base: ExtensionFacts, head: ExtensionFacts): TypeChange[] {
  const out: TypeChange[] = [];
  const said = new Set<string>();
  // Looked up, not searched: a document of hostile size reports tens of thousands of metrics.
  const sameMetric = (r: ReportedMetric, count: boolean) => `${r.source}\0${bare(r.key)}\0${count}`;
  const firstInBase = new Map<string, ReportedMetric>();
  for (const b of base.reported) {
    const at = sameMetric(b, b.count);
    if (!firstInBase.has(at)) firstInBase.set(at, b);
  }
  const inHead = new Set(head.reported.map((h) => `${h.ingested}\0${h.count}`));
  for (const after of head.reported) {
    if (!typeTaken(after)) continue;
    const before = firstInBase.get(sameMetric(after, !after.count));
    if (!before || !typeTaken(before) || inHead.has(`${before.ingested}\0${before.count}`)) continue;
    if (said.has(before.ingested)) continue;
    said.add(before.ingested);
    out.push({ before, after });
  }
  return out;
}

/**
 * For a base metric, the metric of head that reads what it read (same data source, same value such as its OID
 * or attribute, from the same query when its subgroup has one, same type) under a key the base does not have:
 * the base metric renamed. An attribute (`attribute:Count`) or column is another MBean's or row's under another
 * query. Head's metrics are indexed once by what they read, so that asking for each base metric costs a lookup.
 */
export function renames(
  base: ExtensionFacts,
  head: ExtensionFacts,
): (before: ReportedMetric) => ReportedMetric | undefined {
  const known = new Set(base.reported.map((r) => r.ingested));
  const reads = (r: ReportedMetric) => `${r.source}\0${r.query ?? ""}\0${r.value}\0${r.count}`;
  const candidates = new Map<string, ReportedMetric[]>();
  for (const h of head.reported) {
    if (h.value === undefined || known.has(h.ingested)) continue;
    const at = reads(h);
    const list = candidates.get(at);
    if (list) list.push(h);
    else candidates.set(at, [h]);
  }
  return (before) => {
    if (before.value === undefined) return undefined;
    const found = candidates.get(reads(before)) ?? [];
    return found.length && found.every((c) => c.ingested === found[0]!.ingested) ? found[0] : undefined;
  };
}

/** Each feature set's metrics (the keys Dynatrace ingests), by name. */
export function featureSetMetrics(facts: ExtensionFacts): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const f of facts.featureSets) if (!out.has(f.name)) out.set(f.name, new Set());
  const add = (name: string | undefined, key: string) => {
    if (name !== undefined) out.get(name)?.add(key);
  };
  for (const r of facts.reported) add(r.featureSet, r.ingested);
  for (const p of facts.pythonMetrics) add(p.featureSet, p.key);
  return out;
}
