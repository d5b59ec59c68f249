/**
 * Shared facts of a parsed descriptor: the structures several rules walk (metrics, chart series, key
 * metrics, alert settings, properties), each built lazily once per document, so that rules walking the same
 * structures do not walk them again. A fact is computed from one top-level member (`FACT_MEMBER`), which is
 * what the rule context notes as read when a rule asks for it (rule-context.ts).
 */
import { extensionFacts, type ExtensionFacts } from "./ef2/extension.js";
import { arr, get, obj, str, type Obj } from "./guards.js";
import { timed, type AnalysisTiming } from "./timing.js";

export interface MetricEntry {
  /** Index in `metrics`. */
  index: number;
  kind: "timeseries" | "statetimeseries";
  /** The timeseries/statetimeseries object. */
  spec: Obj;
  key?: string;
  pointer: string;
}

/** A series of a chart in `ui.keycharts` (first) or `ui.charts`. */
export interface SeriesEntry {
  series: unknown;
  key?: string;
  pointer: string;
}

/** An element of `ui.keymetrics`, `metrics[i].alert_settings`, `properties` or `configUI.properties`. */
export interface Entry {
  value: unknown;
  index: number;
  pointer: string;
}

/** An element that names something by its `key` member (a key metric, a property). */
export interface KeyedEntry extends Entry {
  key?: string;
}

// The builders are plain loops: they run over every element of a large descriptor, once per document.

function keyed(list: unknown, pointer: string): KeyedEntry[] {
  const items = arr(list);
  const out: KeyedEntry[] = [];
  for (let index = 0; index < items.length; index++) {
    const value = items[index];
    out.push({ value, index, key: str(get(value, "key")), pointer: `${pointer}/${index}` });
  }
  return out;
}

const METRIC_KINDS = ["timeseries", "statetimeseries"] as const;

function metricsOf(metrics: unknown): MetricEntry[] {
  const items = arr(metrics);
  const out: MetricEntry[] = [];
  for (let index = 0; index < items.length; index++) {
    const m = items[index];
    for (const kind of METRIC_KINDS) {
      const spec = obj(get(m, kind));
      if (spec) out.push({ index, kind, spec, key: str(spec.key), pointer: `/metrics/${index}/${kind}` });
    }
  }
  return out;
}

function seriesOf(ui: unknown): SeriesEntry[] {
  const out: SeriesEntry[] = [];
  for (const list of ["keycharts", "charts"] as const) {
    const charts = arr(get(ui, list));
    for (let i = 0; i < charts.length; i++) {
      const series = arr(get(charts[i], "series"));
      for (let j = 0; j < series.length; j++) {
        const s = series[j];
        out.push({ series: s, key: str(get(s, "key")), pointer: `/ui/${list}/${i}/series/${j}` });
      }
    }
  }
  return out;
}

function alertsOf(metrics: unknown): Entry[] {
  const items = arr(metrics);
  const out: Entry[] = [];
  for (let i = 0; i < items.length; i++) {
    const alerts = arr(get(items[i], "alert_settings"));
    for (let index = 0; index < alerts.length; index++)
      out.push({ value: alerts[index], index, pointer: `/metrics/${i}/alert_settings/${index}` });
  }
  return out;
}

/** The first definition of each metric key, in document order (a key defined again is reported elsewhere). */
function byKey(metrics: readonly MetricEntry[]): Map<string, MetricEntry> {
  const out = new Map<string, MetricEntry>();
  for (const m of metrics) if (m.key !== undefined && !out.has(m.key)) out.set(m.key, m);
  return out;
}

/** Every metric definition's key, in document order, each as often as it is defined. */
function keysOf(metrics: readonly MetricEntry[]): string[] {
  const out: string[] = [];
  for (const m of metrics) if (m.key !== undefined) out.push(m.key);
  return out;
}

/** The facts, each with the top-level member it is computed from. */
const FACT_MEMBER = {
  metrics: "metrics",
  metricsByKey: "metrics",
  metricKeys: "metrics",
  series: "ui",
  keymetrics: "ui",
  alerts: "metrics",
  properties: "properties",
  configProperties: "configUI",
} as const;
type FactName = keyof typeof FACT_MEMBER;

/** A parsed descriptor and the structures rules walk; each list is built on first use and kept. */
export class DocumentFacts {
  private readonly cache: { [K in FactName]?: unknown } = {};
  private extensionCache?: ExtensionFacts;

  /** The parsed document as it is (`value` is what rules see). */
  protected readonly doc: unknown;

  /**
   * @param like another version of the document (head, for its base): a fact whose member is the very same
   *   value there (a base parsed as an edit of head shares head's unchanged members) is taken from it
   */
  constructor(
    value: unknown,
    private readonly like?: DocumentFacts,
    private readonly factTiming?: AnalysisTiming,
  ) {
    this.doc = value;
  }

  get value(): unknown {
    return this.doc;
  }

  /** A top-level member a fact is computed from (RuleContext notes it as read by the running rule). */
  protected member(key: string): unknown {
    return get(this.doc, key);
  }

  private fact<T>(name: FactName, build: (member: unknown) => T): T {
    const member = this.member(FACT_MEMBER[name]);
    if (this.cache[name] === undefined) {
      const like = this.like;
      this.cache[name] =
        like && typeof member === "object" && member !== null && get(like.doc, FACT_MEMBER[name]) === member
          ? like.fact(name, build)
          : timed(this.factTiming, "step", "shared facts", () => build(member));
    }
    return this.cache[name] as T;
  }

  /** Every metric definition's timeseries or statetimeseries (both when an element holds both). */
  get metrics(): readonly MetricEntry[] {
    return this.fact("metrics", metricsOf);
  }

  /** The first metric definition of each key (timeseries or statetimeseries), by key. */
  get metricsByKey(): ReadonlyMap<string, MetricEntry> {
    return this.fact("metricsByKey", () => byKey(this.metrics));
  }

  /** Every metric definition's key, in document order, each as often as it is defined. */
  get metricKeys(): readonly string[] {
    return this.fact("metricKeys", () => keysOf(this.metrics));
  }

  /** The series of every chart, key charts first. */
  get series(): readonly SeriesEntry[] {
    return this.fact("series", seriesOf);
  }

  get keymetrics(): readonly KeyedEntry[] {
    return this.fact("keymetrics", (ui) => keyed(get(ui, "keymetrics"), "/ui/keymetrics"));
  }

  /** Every metric's alert settings, in document order. */
  get alerts(): readonly Entry[] {
    return this.fact("alerts", alertsOf);
  }

  /** The top-level `properties`. */
  get properties(): readonly KeyedEntry[] {
    return this.fact("properties", (properties) => keyed(properties, "/properties"));
  }

  /**
   * An extension.yaml's account (ef2/extension.ts): its data sources, what they report, its metadata, vars,
   * feature sets and references; computed from the whole document.
   */
  get extension(): ExtensionFacts {
    return (this.extensionCache ??= extensionFacts(this.doc));
  }

  /** The fields of `configUI.properties`. */
  get configProperties(): readonly KeyedEntry[] {
    return this.fact("configProperties", (configUI) =>
      keyed(get(configUI, "properties"), "/configUI/properties"),
    );
  }
}
