/**
 * Shared facts of a parsed descriptor: the structures several rules walk (metrics, chart series, key
 * metrics, alert settings, properties), each built lazily once per document, so that rules walking the same
 * structures do not walk them again. A fact is computed from one top-level member (`FACT_MEMBER`), which is
 * what the rule context notes as read when a rule asks for it (rule-context.ts).
 */
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

function keyed(list: unknown, pointer: string): KeyedEntry[] {
  return arr(list).map((value, index) => ({
    value,
    index,
    key: str(get(value, "key")),
    pointer: `${pointer}/${index}`,
  }));
}

function metricsOf(metrics: unknown): MetricEntry[] {
  return arr(metrics).flatMap((m, index) =>
    (["timeseries", "statetimeseries"] as const).flatMap((kind) => {
      const spec = obj(get(m, kind));
      return spec ? [{ index, kind, spec, key: str(spec.key), pointer: `/metrics/${index}/${kind}` }] : [];
    }),
  );
}

function seriesOf(ui: unknown): SeriesEntry[] {
  return (["keycharts", "charts"] as const).flatMap((list) =>
    arr(get(ui, list)).flatMap((chart, i) =>
      arr(get(chart, "series")).map((series, j) => ({
        series,
        key: str(get(series, "key")),
        pointer: `/ui/${list}/${i}/series/${j}`,
      })),
    ),
  );
}

function alertsOf(metrics: unknown): Entry[] {
  return arr(metrics).flatMap((m, i) =>
    arr(get(m, "alert_settings")).map((value, index) => ({
      value,
      index,
      pointer: `/metrics/${i}/alert_settings/${index}`,
    })),
  );
}

/** The facts, each with the top-level member it is computed from. */
const FACT_MEMBER = {
  metrics: "metrics",
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

  /** The fields of `configUI.properties`. */
  get configProperties(): readonly KeyedEntry[] {
    return this.fact("configProperties", (configUI) =>
      keyed(get(configUI, "properties"), "/configUI/properties"),
    );
  }
}
