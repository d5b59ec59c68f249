/**
 * How dashboards, SLOs, alerts and scripts name a metric, before and after the migration: the EF1 metric id
 * (`ext:<metricGroup>.<key>`, the metric group defaulting to the plugin's `name`: plugin-descriptor-spec.md
 * 2.1 rules 2 and 5; Dynatrace lists extension metrics under the `ext:` prefix), and the EF2 metric selector
 * that gives the same series: a count queried `:rate(1m)` (EF1's value was the change per one-minute
 * collection, whatever the resolution of the query), `:rate(1s)` where EF1 stored it per second, and a
 * `gauge_statcounter` queried with EF1's `source.aggregation` where EF1 combined several MBeans' values other
 * than by adding them up. Pure.
 */

/** `source.aggregation` values that a `gauge_statcounter` keeps (EF2 sums a plain gauge over the MBeans). */
export type StatAggregation = "avg" | "max" | "min";

/** The EF1 metric group of a descriptor: `metricGroup`, else (as the agent sets it) the plugin's `name`. */
export function ef1Group(metricGroup: unknown, name: unknown): string | undefined {
  if (typeof metricGroup === "string" && metricGroup !== "") return metricGroup;
  return typeof name === "string" && name !== "" ? name : undefined;
}

/** The metric id users query an EF1 metric by: `ext:tech.SAP.avail`. */
export function ef1MetricId(group: string, key: string): string {
  return `ext:${group}.${key}`;
}

/** A dimension key as a metric selector quotes it (`~` escapes `"` and `~` inside the quotes). */
export function quoteDimension(key: string): string {
  return `"${key.replace(/[~"]/g, (c) => `~${c}`)}"`;
}

/** `:splitBy("a","b")`, or nothing for no dimension. */
export function splitBy(dimensions: readonly string[]): string {
  return dimensions.length ? `:splitBy(${dimensions.map(quoteDimension).join(",")})` : "";
}

/** What the EF2 selector of an EF1 metric is made of (key-map.ts fills it from the descriptor). */
export interface SeriesShape {
  key: string;
  type?: "gauge" | "count";
  /** Collected as a `gauge_statcounter`: the aggregation that gives EF1's value. */
  aggregation?: StatAggregation;
  /** EF1's `calculateRate`: per second. */
  perSecond?: boolean;
}

/** EF2's JMX data source collects once a minute: a gauge EF1 divided by its interval is divided by 60. */
export const COLLECTION_SECONDS = 60;

/**
 * The EF2 selector of an EF1 metric's series: with `split`, `:splitBy(…)` after the key (`[]` merges every
 * series into one, and `merge` then says how a plain gauge's values are merged, AVG by default); without, the
 * series as stored. What gives EF1's value at every resolution of a query.
 */
export function ef2Selector(
  shape: SeriesShape,
  split?: readonly string[],
  merge?: "avg" | "max" | "min" | "sum",
): string {
  const base =
    split === undefined ? shape.key : `${shape.key}${split.length ? splitBy(split) : ":splitBy()"}`;
  if (shape.type === "count") return `${base}:rate(${shape.perSecond ? "1s" : "1m"})`;
  const how = shape.aggregation ?? (split !== undefined && split.length === 0 ? (merge ?? "avg") : undefined);
  const aggregated = how ? `${base}:${how}` : base;
  return shape.perSecond ? `${aggregated} / ${COLLECTION_SECONDS}` : aggregated;
}

/** `source.aggregation` as a statcounter keeps it, when it is one EF2's sum would change (AVG, MAX, MIN). */
export function statAggregation(aggregation: unknown): StatAggregation | undefined {
  const a = typeof aggregation === "string" ? aggregation.toLowerCase() : undefined;
  return a === "avg" || a === "max" || a === "min" ? a : undefined;
}

/**
 * May a JMX query match several MBeans in one series? Yes when a key property is a pattern (`*`, `?`) that no
 * dimension tells apart, when other key properties are allowed (`allowAdditionalKeys`), or when none is named.
 */
export function queryMayCombine(
  keyProperties: unknown,
  allowAdditionalKeys: unknown,
  splitProperties: readonly string[],
): boolean {
  if (allowAdditionalKeys === true) return true;
  if (typeof keyProperties !== "object" || keyProperties === null || Array.isArray(keyProperties))
    return true;
  const entries = Object.entries(keyProperties);
  if (entries.length === 0) return true;
  return entries.some(([k, v]) => typeof v === "string" && /[*?]/.test(v) && !splitProperties.includes(k));
}
