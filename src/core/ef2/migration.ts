/**
 * An extension.yaml beside the EF1 plugin.json it replaces, as the migration rules read it: for every EF1 metric,
 * what the key map (key-map.ts, the one mapping `migrate` writes too) says it becomes, the EF2 metric the
 * extension holds under that key, or else one that reads the same MBean attribute under another key (a
 * rename), and where it should be when it is missing: the nearest place the extension has (the subgroup that
 * queries the same MBeans, the `metrics:` list, the `jmx:` or `python:` member, the root). Computed once per
 * document (rule-context.ts). Pure.
 */
import { arr, get, isObj, str } from "../guards.js";
import { childPointer, valueAt } from "../json/pointer.js";
import { keyMap, PROCESS_DIMENSION, type Framework, type MetricMapping } from "./key-map.js";
import { keyPrefixOf, type MigrationMap } from "./mapping.js";
import { quote } from "../quote.js";

/** The dimensions EF2's JMX data source adds to every metric itself: extension.yaml does not list them. */
export const JMX_AUTO_DIMENSIONS: ReadonlySet<string> = new Set([
  PROCESS_DIMENSION,
  "dt.entity.process_group",
  "dt.entity.host",
  "dt.entity.container_group_instance",
  "dt.metrics.source",
  "dt.extension.config.id",
]);

/** The EF1 descriptor an extension.yaml replaces, as the base holds it. */
export interface Ef1Source {
  /** Its path in the base. */
  path: string;
  /** Its parsed value; absent when it could not be read (`problem` says why). */
  value?: unknown;
  problem?: string;
  /** The 1-based line of a pointer in it (what a finding names: the EF1 metric it is about). */
  line(pointer: string): number;
  /** What the change does with it: deletes it, changes it, or leaves it as it is (or unknown: `kept`). */
  status: "kept" | "changed" | "deleted";
  /** The repository's migration map (`migration_map`), when the configuration names one. */
  map?: MigrationMap;
}

/** A JMX subgroup: where it is, the MBeans it queries, the dimensions its metrics have (EF2's own included). */
export interface Subgroup {
  pointer: string;
  /** `domain` and its sorted `key=value` properties (without `*`): what tells the same MBeans. */
  mbeans?: string;
  dimensions: ReadonlySet<string>;
  /** It has a `dimensions` member (a finding about a dropped dimension points there, else at its `query`). */
  hasDimensions: boolean;
}

/** A metric of the extension: in the JMX data source (with its subgroup), or in the `metrics:` list (Python). */
export interface Ef2Metric {
  pointer: string;
  key: string;
  type: unknown;
  /** The MBean attribute it reads (JMX `value: attribute:<name>`). */
  attribute?: string;
  subgroup?: Subgroup;
}

export interface MigratedMetric {
  mapping: MetricMapping;
  /** The EF1 metric for people: "`p/plugin.json` line 12", with what the change does with that file. */
  ef1: string;
  /** The EF2 metric under the key the key map gives. */
  found?: Ef2Metric;
  /** None under that key, but one reading the same attribute of the same MBeans under a key no EF1 metric maps to. */
  renamed?: Ef2Metric;
  /** Where the metric should be: the nearest place the extension has (a finding's pointer, at a member's name). */
  place: string;
}

export type Migration =
  | { kind: "compared"; framework: Framework; metrics: MigratedMetric[] }
  /** The plugin.json could not be read (too large, not UTF-8, not JSON). */
  | { kind: "unreadable"; path: string; why: string }
  /** The plugin.json is neither a JMX nor a Python plugin (`type`, as people read it): no key map to compare with. */
  | { kind: "unmapped"; path: string; type: string };

/** The first of `pointers` that names something in `doc`, else the root. */
function nearest(doc: unknown, pointers: readonly string[]): string {
  return pointers.find((p) => valueAt(doc, p) !== undefined) ?? "";
}

/** `domain` and sorted `key=value` properties: one name for the same MBeans, however the query is written. */
function mbeans(domain: string, properties: readonly string[]): string {
  return `${domain}:${properties
    .map((p) => p.trim())
    .filter((p) => p !== "" && p !== "*")
    .sort()
    .join(",")}`;
}

/** The MBeans an EF2 subgroup's `query` names (`domain:k=v,…[,*]`). */
function queryMbeans(query: unknown): string | undefined {
  const q = str(query);
  const colon = q?.indexOf(":") ?? -1;
  if (q === undefined || colon < 0) return undefined;
  return mbeans(q.slice(0, colon), q.slice(colon + 1).split(","));
}

/** The MBeans an EF1 JMX metric's `source` names (its `domain` and `keyProperties`, as `migrate` writes them). */
function sourceMbeans(source: unknown): string | undefined {
  const domain = str(get(source, "domain"));
  if (domain === undefined) return undefined;
  const properties = get(source, "keyProperties");
  const pairs = isObj(properties)
    ? Object.entries(properties).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    : [];
  return mbeans(domain, pairs);
}

/** The attribute an EF2 JMX metric's `value` reads: `attribute:<name>`, or `{attribute, accessor}`. */
function attributeOf(value: unknown): string | undefined {
  const s = str(value);
  if (s !== undefined) return s.startsWith("attribute:") ? s.slice("attribute:".length) : undefined;
  return str(get(value, "attribute"));
}

/** Every metric of the extension's JMX data source, with its subgroup. */
function jmxMetrics(doc: unknown): { metrics: Ef2Metric[]; subgroups: Subgroup[] } {
  const metrics: Ef2Metric[] = [];
  const subgroups: Subgroup[] = [];
  arr(get(get(doc, "jmx"), "groups")).forEach((group, g) => {
    arr(get(group, "subgroups")).forEach((sg, s) => {
      const pointer = `/jmx/groups/${g}/subgroups/${s}`;
      const dimensions = new Set(JMX_AUTO_DIMENSIONS);
      for (const d of arr(get(sg, "dimensions"))) {
        const key = str(get(d, "key"));
        if (key !== undefined) dimensions.add(key);
      }
      const found = queryMbeans(get(sg, "query"));
      const subgroup: Subgroup = {
        pointer,
        dimensions,
        hasDimensions: get(sg, "dimensions") !== undefined,
        ...(found ? { mbeans: found } : {}),
      };
      subgroups.push(subgroup);
      arr(get(sg, "metrics")).forEach((m, i) => {
        const key = str(get(m, "key"));
        if (key === undefined) return;
        const attribute = attributeOf(get(m, "value"));
        metrics.push({
          pointer: `${pointer}/metrics/${i}`,
          key,
          type: get(m, "type"),
          subgroup,
          ...(attribute !== undefined ? { attribute } : {}),
        });
      });
    });
  });
  return { metrics, subgroups };
}

/** The `metrics:` list's entries (metadata: what a Python extension declares of the metrics its code sends). */
function listedMetrics(doc: unknown): Ef2Metric[] {
  return arr(get(doc, "metrics")).flatMap((m, i) => {
    const key = str(get(m, "key"));
    return key === undefined ? [] : [{ pointer: `/metrics/${i}`, key, type: undefined }];
  });
}

/** "`p/plugin.json` line 12", and what the change does with that file. */
function describe(ef1: Ef1Source, pointer: string): string {
  const at = `${quote(ef1.path)} line ${ef1.line(`${pointer}/key`)}`;
  return ef1.status === "deleted"
    ? `${at}, a file this change deletes`
    : ef1.status === "changed"
      ? `${at} of the base version`
      : at;
}

/** The extension `doc` compared with the EF1 descriptor it replaces. */
export function migrationOf(doc: unknown, ef1: Ef1Source): Migration {
  if (ef1.value === undefined)
    return { kind: "unreadable", path: ef1.path, why: ef1.problem ?? "could not be read" };
  // Keys are prefixed as the repository's migration map says for this EF1 plugin, else with the extension's
  // own name, when it is a valid one (the key map checks it).
  const name = str(get(doc, "name"));
  const plugin = str(get(ef1.value, "name"));
  const entry = plugin === undefined ? undefined : ef1.map?.entries.get(plugin);
  const options: { name?: string; keyPrefix?: string } = {};
  if (name !== undefined) options.name = name;
  if (entry?.keyPrefix !== undefined || entry?.name !== undefined)
    options.keyPrefix = keyPrefixOf(entry, entry.name ?? "");
  const map = keyMap(ef1.value, options);
  if (!map) {
    const type = get(ef1.value, "type");
    const shown =
      type === undefined
        ? "missing"
        : quote((typeof type === "string" ? type : JSON.stringify(type)).slice(0, 40));
    return { kind: "unmapped", path: ef1.path, type: shown };
  }
  const jmx = map.framework === "JMX";
  const { metrics: present, subgroups } = jmx
    ? jmxMetrics(doc)
    : { metrics: listedMetrics(doc), subgroups: [] };
  const byKey = new Map<string, Ef2Metric>();
  for (const m of present) if (!byKey.has(m.key)) byKey.set(m.key, m);
  const expected = new Set(map.metrics.map((m) => m.ef2.key));
  const claimed = new Set<Ef2Metric>();
  const metrics = map.metrics.map((mapping): MigratedMetric => {
    const described = describe(ef1, mapping.pointer);
    // A Python metric's type is its code's: a counter's key ends in `.count` (migrate reads that from the code).
    const found =
      byKey.get(mapping.ef2.key) ??
      (!jmx && mapping.ef2.type === undefined ? byKey.get(`${mapping.ef2.key}.count`) : undefined);
    if (found) return { mapping, ef1: described, found, place: found.pointer };
    if (!jmx) return { mapping, ef1: described, place: nearest(doc, ["/metrics", "/python"]) };
    const source = valueAt(ef1.value, `${mapping.pointer.slice(0, mapping.pointer.lastIndexOf("/"))}/source`);
    const same = sourceMbeans(source);
    const attribute = str(get(source, "attribute"));
    const renamed = present.find(
      (m) =>
        !claimed.has(m) &&
        !expected.has(m.key) &&
        same !== undefined &&
        m.subgroup?.mbeans === same &&
        attribute !== undefined &&
        m.attribute === attribute,
    );
    if (renamed) claimed.add(renamed);
    const subgroup = subgroups.find((s) => same !== undefined && s.mbeans === same);
    const place = nearest(doc, [
      ...(subgroup
        ? [childPointer(subgroup.pointer, "metrics"), childPointer(subgroup.pointer, "query")]
        : []),
      "/jmx/groups",
      "/jmx",
    ]);
    return { mapping, ef1: described, place, ...(renamed ? { renamed } : {}) };
  });
  return { kind: "compared", framework: map.framework, metrics };
}
