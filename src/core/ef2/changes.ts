/**
 * How an extension's metrics and feature sets moved between its base and head (the change rules' shared
 * reading of two ExtensionFacts): the keys each version has, the metrics whose type changed (the same key, or
 * the key with `.count` added or dropped), and the metrics renamed (another key reading the same value of the
 * same data source). Pure.
 */
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
 * Metrics of one data source whose type went from gauge to count or back, under the same key as written or
 * with `.count` added or dropped (what real releases do when they make a gauge a count).
 */
export function typeChanges(base: ExtensionFacts, head: ExtensionFacts): TypeChange[] {
  const out: TypeChange[] = [];
  const said = new Set<string>();
  for (const after of head.reported) {
    const before = base.reported.find(
      (b) => b.source === after.source && bare(b.key) === bare(after.key) && b.count !== after.count,
    );
    if (!before || head.reported.some((h) => h.ingested === before.ingested && h.count === before.count))
      continue;
    if (said.has(before.ingested)) continue;
    said.add(before.ingested);
    out.push({ before, after });
  }
  return out;
}

/**
 * The metric of head that reads what a base metric read (same data source, same value such as its OID or
 * attribute, same type) under a key the base does not have: the base metric renamed.
 */
export function renamedTo(
  before: ReportedMetric,
  base: ExtensionFacts,
  head: ExtensionFacts,
): ReportedMetric | undefined {
  if (before.value === undefined) return undefined;
  const known = new Set(base.reported.map((r) => r.ingested));
  const candidates = head.reported.filter(
    (h) =>
      h.source === before.source &&
      h.value === before.value &&
      h.count === before.count &&
      !known.has(h.ingested),
  );
  return new Set(candidates.map((c) => c.ingested)).size === 1 ? candidates[0] : undefined;
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
