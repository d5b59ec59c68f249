/**
 * The key map: for every EF1 metric of a descriptor, the EF2 metric `plugin-review migrate` makes of it (its key,
 * dimensions and type) and the EF2 extension's name. `migrate` writes it as metric-keys.json; the review of a
 * migration compares an extension.yaml with it. Pure: a parsed descriptor (or its text) in, the map out.
 *
 * This is a stable interface (docs/migrate.md, "The key map"): fields are added, never changed in meaning.
 */
import { parseJsonFast } from "../json/parse.js";
import { detectVariant } from "../formats.js";
import { arr, get, isObj, obj, str, strings, type Obj } from "../guards.js";
import { deriveName, dimensionKey, keyPrefix, metricKey } from "./names.js";
import {
  ef1Group,
  ef1MetricId,
  ef2Selector,
  queryMayCombine,
  splitBy,
  statAggregation,
  type StatAggregation,
} from "./selectors.js";

/** The dimension EF2 adds to every JMX metric, which stands for EF1's `rx_pid` (the process). */
export const PROCESS_DIMENSION = "dt.entity.process_group_instance";
/** The EF1 dimension that means "the process" (at index 0 of a timeseries' `dimensions`). */
export const RX_PID = "rx_pid";
/** The dimension a state metric's state is reported in (EF2 has no state metrics: a gauge of 1 per state). */
export const STATE_DIMENSION = "state";
/** The dimensions a remote Python plugin's group and device become (the compatibility layer sends them). */
export const TOPOLOGY_DIMENSION_KEYS = [
  "group",
  "group.name",
  "device",
  "device.name",
  "device.address",
] as const;

export type Framework = "JMX" | "python";
export type Ef2Type = "gauge" | "count";

export interface MetricMapping {
  /** JSON pointer of the EF1 metric's `timeseries` or `statetimeseries` object (`/metrics/3/timeseries`). */
  pointer: string;
  ef1: {
    key: string;
    /** As the descriptor lists them (`rx_pid` included). */
    dimensions: string[];
    kind: "timeseries" | "statetimeseries";
    /** The metric id users query: `ext:<metricGroup>.<key>` (absent without `metricGroup` and `name`). */
    id?: string;
    /** The id split by the metric's dimensions as written: `ext:g.k:splitBy("rx_pid","PoolName")`. */
    selector?: string;
  };
  ef2: {
    key: string;
    /**
     * The EF2 dimension keys the metric has: each EF1 dimension's (`rx_pid` as `dt.entity.process_group_instance`,
     * which EF2 adds itself and extension.yaml does not list), then a JMX splitting's that EF1 did not list, then
     * `state` for a state metric. An EF1 dimension that has no EF2 value (a JMX one no splitting fills) is absent.
     */
    dimensions: string[];
    /**
     * JMX: `count` (`calculateDelta`) or `gauge`; a state metric: `gauge`; other Python metrics: undefined (the code
     * decides; `migrate`, which reads the code, makes one it reports with `relative` a `count` with a `.count` key).
     */
    type?: Ef2Type;
    /** `calculateRate`: the calculated per-second metric, `func:<key>_persec`. */
    rateKey?: string;
    /**
     * JMX: collected as a `gauge_statcounter`, and queried with this aggregation, because EF1 combined the
     * values of several MBeans with it (`source.aggregation`) where a gauge would add them up.
     */
    aggregation?: StatAggregation;
    /**
     * JMX: a count whose query may match several MBeans that EF1 combined with this aggregation; EF2 adds
     * counts up, and no selector gives EF1's value back (MIGRATION.md says what to do).
     */
    sumsInsteadOf?: StatAggregation;
    /** The EF2 metric selector of EF1's series, split by the EF2 dimensions (`selectors.ts`). */
    selector: string;
  };
  /** Each EF1 dimension (and splitting) with the EF2 dimension key it becomes; none when EF2 has no value for it. */
  dimensions: { ef1: string; ef2?: string }[];
}

export interface KeyMap {
  framework: Framework;
  /** The EF2 extension's name (`custom:…`); undefined when it cannot be derived (`nameProblem` says why). */
  name?: string;
  /** Why there is no name, or why Dynatrace's derivation had to be made valid. */
  nameProblem?: string;
  /** What the metric keys start with, when it is not the name without `custom:` (`--key-prefix`, the map). */
  keyPrefix?: string;
  /** One per EF1 metric that has a key, in document order. */
  metrics: MetricMapping[];
}

/** `JMX` or `python` (in any letter case) as the framework, else undefined (PMI, a mistake). */
export function frameworkOf(doc: unknown): Framework | undefined {
  const type = str(get(doc, "type"))?.toLowerCase();
  return type === "jmx" ? "JMX" : type === "python" ? "python" : undefined;
}

export interface Splitting {
  /** The EF1 name: the dimension's name in `timeseries.dimensions`. */
  name: string;
  /** The MBean key property it reads (`keyProperty`, else its name). */
  keyProperty: string;
  type?: string;
  pointer: string;
}

/** A JMX metric's splittings: `source.splitting` and `source.splittings[]`, in that order. */
export function splittingsOf(source: unknown, sourcePointer: string): Splitting[] {
  const out: Splitting[] = [];
  const add = (s: unknown, pointer: string) => {
    const name = str(get(s, "name"));
    if (name === undefined) return;
    const type = str(get(s, "type"));
    out.push({ name, keyProperty: str(get(s, "keyProperty")) ?? name, pointer, ...(type ? { type } : {}) });
  };
  if (isObj(get(source, "splitting"))) add(get(source, "splitting"), `${sourcePointer}/splitting`);
  arr(get(source, "splittings")).forEach((s, i) => add(s, `${sourcePointer}/splittings/${i}`));
  return out;
}

/**
 * A Python metric's EF2 dimension key of each EF1 dimension (each name once): by the rule, and where two names
 * make one key (`Shop` and `shop`), or a name makes a key the layer sends itself (a state metric's `state`, a
 * remote plugin's `device` and `group`), the later one `<key>_2` (`_3`, …), so that the plugin's values stay apart
 * as EF1 kept them.
 */
export function pythonDimensionKeys(
  dims: readonly string[],
  state: boolean,
  remote: boolean,
): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>([
    ...(state ? [STATE_DIMENSION] : []),
    ...(remote ? TOPOLOGY_DIMENSION_KEYS : []),
  ]);
  for (const d of dims) {
    if (out.has(d)) continue;
    const base = d === RX_PID ? PROCESS_DIMENSION : dimensionKey(d);
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}_${n}`;
    used.add(key);
    out.set(d, key);
  }
  return out;
}

/**
 * The EF2 dimensions of an EF1 metric (see MetricMapping.ef2.dimensions). `pythonKeys`: a Python metric's
 * pythonDimensionKeys, undefined for JMX.
 */
function ef2Dimensions(
  pythonKeys: Map<string, string> | undefined,
  dims: string[],
  splittings: Splitting[],
  state: boolean,
): string[] {
  if (pythonKeys) return [...pythonKeys.values(), ...(state ? [STATE_DIMENSION] : [])];
  const out: string[] = [];
  const add = (k: string) => {
    if (!out.includes(k)) out.push(k);
  };
  for (const d of dims) {
    if (d === RX_PID) add(PROCESS_DIMENSION);
    else if (splittings.some((s) => s.name === d)) add(dimensionKey(d));
  }
  for (const s of splittings) if (!dims.includes(s.name)) add(dimensionKey(s.name));
  if (state) add(STATE_DIMENSION);
  return out;
}

/** Each EF1 dimension and splitting with its EF2 dimension key (MetricMapping.dimensions). */
function dimensionPairs(
  pythonKeys: Map<string, string> | undefined,
  dims: string[],
  splittings: Splitting[],
): { ef1: string; ef2?: string }[] {
  if (pythonKeys) return [...pythonKeys].map(([ef1, ef2]) => ({ ef1, ef2 }));
  const out: { ef1: string; ef2?: string }[] = [];
  for (const d of dims) {
    if (out.some((x) => x.ef1 === d)) continue;
    if (d === RX_PID) out.push({ ef1: d, ef2: PROCESS_DIMENSION });
    else if (splittings.some((s) => s.name === d)) out.push({ ef1: d, ef2: dimensionKey(d) });
    else out.push({ ef1: d });
  }
  for (const s of splittings)
    if (!out.some((x) => x.ef1 === s.name)) out.push({ ef1: s.name, ef2: dimensionKey(s.name) });
  return out;
}

/** One EF1 metric as the key map reads it, with what the JMX data source needs beside. */
export interface Ef1Metric extends MetricMapping {
  /** Index in `metrics`. */
  index: number;
  /** The metric element (`metrics[index]`). */
  element: Obj;
  spec: Obj;
  splittings: Splitting[];
}

/** Every EF1 metric with a key, mapped: the key map's rows with what `migrate` builds the data source from. */
export function mapMetrics(doc: unknown, framework: Framework, prefix: string): Ef1Metric[] {
  const out: Ef1Metric[] = [];
  const group = ef1Group(get(doc, "metricGroup"), get(doc, "name"));
  const remote = detectVariant(doc) === "remote";
  arr(get(doc, "metrics")).forEach((element, index) => {
    if (!isObj(element)) return;
    for (const kind of ["timeseries", "statetimeseries"] as const) {
      const spec = obj(element[kind]);
      const key = str(get(spec, "key"));
      if (!spec || key === undefined) continue;
      const pointer = `/metrics/${index}/${kind}`;
      const source = get(element, "source");
      const splittings = framework === "JMX" ? splittingsOf(source, `/metrics/${index}/source`) : [];
      const state = kind === "statetimeseries";
      const type: Ef2Type | undefined =
        framework === "JMX"
          ? get(source, "calculateDelta") === true
            ? "count"
            : "gauge"
          : state
            ? "gauge"
            : undefined;
      const ef2Key = metricKey(key, prefix, type);
      const dimensions = strings(spec.dimensions);
      const pythonKeys = framework === "python" ? pythonDimensionKeys(dimensions, state, remote) : undefined;
      const ef2Dims = ef2Dimensions(pythonKeys, dimensions, splittings, state);
      const combined =
        framework === "JMX" &&
        queryMayCombine(
          get(source, "keyProperties"),
          get(source, "allowAdditionalKeys"),
          splittings.map((s) => s.keyProperty),
        )
          ? statAggregation(get(source, "aggregation"))
          : undefined;
      const perSecond = framework === "JMX" && get(source, "calculateRate") === true;
      const aggregation = type === "gauge" && !state ? combined : undefined;
      const id = group === undefined ? undefined : ef1MetricId(group, key);
      out.push({
        pointer,
        index,
        element,
        spec,
        splittings,
        ef1: {
          key,
          dimensions,
          kind,
          ...(id !== undefined ? { id, selector: `${id}${splitBy(dimensions)}` } : {}),
        },
        ef2: {
          key: ef2Key,
          dimensions: ef2Dims,
          ...(type ? { type } : {}),
          ...(perSecond ? { rateKey: `func:${ef2Key}_persec` } : {}),
          ...(aggregation ? { aggregation } : {}),
          ...(type === "count" && combined ? { sumsInsteadOf: combined } : {}),
          selector: ef2Selector(
            { key: ef2Key, type, aggregation, perSecond },
            ef2Dims.length ? ef2Dims : undefined,
          ),
        },
        dimensions: dimensionPairs(pythonKeys, dimensions, splittings),
      });
    }
  });
  return out;
}

/**
 * The key map of a parsed EF1 descriptor (the value the core's parser gives), or undefined when it is neither
 * a JMX nor a Python plugin. `name`: the EF2 name to prefix keys with (`--name`, or the name an extension.yaml
 * already has); by default the one derived from the descriptor.
 */
export function keyMap(
  doc: unknown,
  options: { name?: string; keyPrefix?: string } = {},
): KeyMap | undefined {
  const framework = frameworkOf(doc);
  if (!framework) return undefined;
  const derived = deriveName(doc, options.name);
  const named = keyPrefix(derived.name ?? derived.dynatrace ?? "custom:");
  const prefix = options.keyPrefix ?? named;
  return {
    framework,
    ...(derived.name ? { name: derived.name } : {}),
    ...(derived.problem ? { nameProblem: derived.problem } : {}),
    ...(prefix !== named ? { keyPrefix: prefix } : {}),
    metrics: mapMetrics(doc, framework, prefix).map(({ pointer, ef1, ef2, dimensions }) => ({
      pointer,
      ef1,
      ef2,
      dimensions,
    })),
  };
}

/** The key map of a descriptor's text; undefined when it is not JSON, or neither JMX nor Python. */
export function keyMapOfText(text: string, options: { name?: string } = {}): KeyMap | undefined {
  const parsed = parseJsonFast(text);
  return parsed.ok ? keyMap(parsed.value, options) : undefined;
}
