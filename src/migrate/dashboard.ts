/**
 * EF1's charts as an EF2 dashboard: a Dynatrace dashboard (the Configuration API's dashboard JSON, which an
 * extension packages under `dashboards:`) with one Data Explorer tile per EF1 chart, querying the same series
 * by their EF2 selectors, with the chart's title, its series' names, units, colours and types; the key
 * metrics and key charts are a group of tiles at its top, each chart group a group of tiles below.
 * schemas/dashboard.schema.json is the structure written (checked before anything is written, check.ts).
 */
import { arr, get, isObj, str, type Obj } from "../core/guards.js";
import type { Ef1Metric } from "../core/ef2/key-map.js";
import { ef2Selector, type SeriesShape } from "../core/ef2/selectors.js";
import type { DescriptorMigration } from "./context.js";
import { q, said, type Quoted } from "./notes.js";
import { ef2Unit, rateUnits } from "./units.js";

/** The dashboard grid: Dynatrace lays tiles out on 38-pixel units; three charts to a row. */
const UNIT = 38;
const CHART = { width: 12 * UNIT, height: 8 * UNIT };
const KEY_METRIC = { width: 6 * UNIT, height: 4 * UNIT };
const ROW_WIDTH = 3 * CHART.width;
const HEADER_HEIGHT = UNIT;
/** Data Explorer runs at most ten queries in a tile. */
const MAX_QUERIES = 10;
const QUERY_IDS = "ABCDEFGHIJ";
/** Colours Dynatrace draws: HTML hex or rgb()/rgba(); anything else is its default. */
const COLOR =
  /^(#[0-9a-f]{3}|#[0-9a-f]{6}|#[0-9a-f]{8}|rgba?\(\s*\d{1,3}(\s*,\s*\d{1,3}){2}(\s*,\s*(0|1|0?\.\d+))?\s*\))$/i;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Dashboard {
  /** Relative to extension.yaml: `dashboards/<name>.json`. */
  path: string;
  content: Json;
  /** Data Explorer tiles, one per chart, key chart and key metric. */
  tiles: number;
}

interface Layout {
  top: number;
  left: number;
  rowHeight: number;
}

function bounds(layout: Layout, size: { width: number; height: number }): Json {
  if (layout.left + size.width > ROW_WIDTH) {
    layout.top += layout.rowHeight;
    layout.left = 0;
    layout.rowHeight = 0;
  }
  const b = { top: layout.top, left: layout.left, width: size.width, height: size.height };
  layout.left += size.width;
  layout.rowHeight = Math.max(layout.rowHeight, size.height);
  return b;
}

/** A group's header: a tile across the row, below whatever came before. */
function header(layout: Layout, name: string): Json {
  if (layout.left > 0) {
    layout.top += layout.rowHeight;
    layout.left = 0;
  }
  const tile = {
    name,
    tileType: "HEADER",
    configured: true,
    bounds: { top: layout.top, left: 0, width: ROW_WIDTH, height: HEADER_HEIGHT },
    tileFilter: {},
  };
  layout.top += HEADER_HEIGHT;
  layout.rowHeight = 0;
  return tile;
}

const shapeOf = (metric: Ef1Metric): SeriesShape => ({
  key: metric.ef2.key,
  ...(metric.ef2.type ? { type: metric.ef2.type } : {}),
  ...(metric.ef2.aggregation ? { aggregation: metric.ef2.aggregation } : {}),
  ...(metric.ef2.rateKey ? { perSecond: true } : {}),
});

/** EF1's merge of several dimensions' values (`mergeaggregation`), as a selector aggregation. */
function mergeOf(value: unknown): "avg" | "max" | "min" | "sum" {
  const v = str(value)?.toLowerCase();
  return v === "max" || v === "min" || v === "sum" ? v : "avg";
}

const TIME_AGGREGATIONS = new Set(["AVG", "SUM", "MIN", "MAX"]);

/** The unit a series is shown in: its own, else its metric's (per second for a rate), as Dynatrace names it. */
function unitOf(series: Obj, metric: Ef1Metric): string {
  const declared = ef2Unit(metric.spec.unit) ?? "Unspecified";
  const metricUnit = metric.ef2.rateKey ? (rateUnits(declared).rate ?? "Unspecified") : declared;
  return ef2Unit(series.unit) ?? metricUnit;
}

/** EF1's `seriestype` (default area) and `stacked` as Data Explorer's series type. */
function seriesType(series: Obj): string {
  const type = str(series.seriestype)?.toLowerCase();
  const stacked = series.stacked === true;
  if (type === "line") return "LINE";
  if (type === "bar") return stacked ? "STACKED_COLUMN" : "COLUMN";
  return stacked ? "STACKED_AREA" : "AREA";
}

interface Query {
  query: Json;
  rule: Json;
  right: boolean;
}

/** One series of a chart (or a key metric) as a Data Explorer query, merged into one series or split. */
function queryOf(id: string, series: Obj, metric: Ef1Metric, merged: boolean): Query {
  const split = merged ? [] : metric.ef2.dimensions;
  const merge = mergeOf(series.mergeaggregation);
  const time = str(series.aggregation)?.toUpperCase();
  const color = str(series.color);
  const alias = str(series.displayname) ?? str(series.displayName);
  return {
    query: {
      id,
      metric: metric.ef2.key,
      spaceAggregation: merged ? merge.toUpperCase() : "AVG",
      timeAggregation: time !== undefined && TIME_AGGREGATIONS.has(time) ? time : "DEFAULT",
      splitBy: split,
      filterBy: { nestedFilters: [], criteria: [] },
      metricSelector: ef2Selector(shapeOf(metric), split, merge),
      enabled: true,
    },
    rule: {
      matcher: `${id}:`,
      unitTransform: unitOf(series, metric),
      properties: {
        color: color !== undefined && COLOR.test(color) ? color : "DEFAULT",
        seriesType: seriesType(series),
        ...(alias !== undefined ? { alias } : {}),
      },
      seriesOverrides: [],
    },
    right: series.rightaxis === true,
  };
}

/** A Data Explorer tile of queries: a graph (a chart) or a single value (a key metric). */
function dataTile(name: string, queries: Query[], type: "GRAPH_CHART" | "SINGLE_VALUE", at: Json): Json {
  const axis = (position: "LEFT" | "RIGHT", ids: string[], defaultAxis: boolean) => ({
    displayName: "",
    visible: true,
    min: "AUTO",
    max: "AUTO",
    position,
    queryIds: ids,
    defaultAxis,
  });
  const left = queries.filter((x) => !x.right).map((x) => str(get(x.query, "id"))!);
  const right = queries.filter((x) => x.right).map((x) => str(get(x.query, "id"))!);
  const yAxes = [axis("LEFT", left, true), ...(right.length ? [axis("RIGHT", right, false)] : [])];
  return {
    name,
    tileType: "DATA_EXPLORER",
    configured: true,
    bounds: at,
    tileFilter: {},
    customName: name,
    queries: queries.map((x) => x.query),
    visualConfig: {
      type,
      global: {},
      rules: queries.map((x) => x.rule),
      axes: { xAxis: { displayName: "", visible: true }, yAxes },
    },
  };
}

/** Chart and series members a Data Explorer tile shows; the others are listed (noteLeftOut). */
const CHART_MEMBERS = new Set(["group", "title", "series", "displayname"]);
const SERIES_MEMBERS = new Set([
  "key",
  "displayname",
  "displayName",
  "seriestype",
  "color",
  "rightaxis",
  "aggregation",
  "mergeaggregation",
  "stacked",
  "unit",
]);
const KEY_METRIC_MEMBERS = new Set([
  "key",
  "displayname",
  "displayName",
  "aggregation",
  "mergeaggregation",
  "unit",
]);

/** One note per `ui` member: which members of its charts (or key metrics) no tile shows, and how many have them. */
function noteLeftOut(m: DescriptorMigration, ui: Obj): void {
  for (const member of ["keymetrics", "keycharts", "charts"] as const) {
    const items = arr(ui[member]);
    const left = new Map<string, number>();
    const count = (name: string) => left.set(name, (left.get(name) ?? 0) + 1);
    for (const item of items) {
      if (!isObj(item)) continue;
      if (member === "keymetrics") {
        for (const k of Object.keys(item)) if (!KEY_METRIC_MEMBERS.has(k)) count(k);
        continue;
      }
      for (const k of Object.keys(item)) if (!CHART_MEMBERS.has(k)) count(k);
      for (const series of arr(item.series))
        if (isObj(series))
          for (const k of Object.keys(series)) if (!SERIES_MEMBERS.has(k)) count(`series.${k}`);
    }
    if (!left.size) continue;
    const what = member === "keymetrics" ? "key metrics" : member === "keycharts" ? "key charts" : "charts";
    const phrase: (string | Quoted)[] = [
      ...said`a dashboard tile has no place for these members of the ${what}, so they are left out: `,
    ];
    [...left].forEach(([k, n], i) => phrase.push(...(i ? [", "] : []), q(k), ` (${n})`));
    m.note("dropped", `/ui/${member}`, phrase);
  }
}

/**
 * The dashboard of a descriptor's `ui` (none when it has no chart, key chart or key metric); what cannot be
 * drawn (a series of a metric the plugin does not have, more than ten series) is a note on `m`.
 */
export function dashboardOf(
  m: DescriptorMigration,
  metrics: readonly Ef1Metric[],
  extensionName: string,
  owner: string,
): Dashboard | undefined {
  const ui = get(m.doc, "ui");
  if (!isObj(ui)) return undefined;
  noteLeftOut(m, ui);
  const byKey = new Map<string, Ef1Metric>();
  for (const metric of metrics) if (!byKey.has(metric.ef1.key)) byKey.set(metric.ef1.key, metric);
  const layout: Layout = { top: 0, left: 0, rowHeight: 0 };
  const tiles: Json[] = [];
  let dataTiles = 0;

  const chartTile = (chart: unknown, pointer: string, merged: boolean): Json | undefined => {
    if (!isObj(chart)) return undefined;
    const title = str(chart.title) ?? str(chart.displayname) ?? "(untitled chart)";
    const queries: Query[] = [];
    arr(chart.series).forEach((series, i) => {
      if (!isObj(series)) return;
      const key = str(series.key);
      const metric = key === undefined ? undefined : byKey.get(key);
      if (!metric) {
        m.note(
          "dropped",
          `${pointer}/series/${i}`,
          said`chart ${q(title)}: the plugin has no metric ${q(key ?? "(no key)")}, so the dashboard has no series for it`,
        );
        return;
      }
      if (queries.length >= MAX_QUERIES) {
        m.note(
          "dropped",
          `${pointer}/series/${i}`,
          said`chart ${q(title)}: a Data Explorer tile runs at most ${MAX_QUERIES} queries, so the dashboard leaves out this series`,
        );
        return;
      }
      queries.push(queryOf(QUERY_IDS[queries.length]!, series, metric, merged));
    });
    if (!queries.length) {
      m.note(
        "dropped",
        pointer,
        said`chart ${q(title)} has no series to draw: the dashboard has no tile for it`,
      );
      return undefined;
    }
    dataTiles++;
    return dataTile(title, queries, "GRAPH_CHART", bounds(layout, CHART));
  };

  const keymetrics = arr(ui.keymetrics);
  const keycharts = arr(ui.keycharts);
  const charts = arr(ui.charts);
  if (keymetrics.length || keycharts.length) {
    tiles.push(header(layout, "Key metrics"));
    keymetrics.forEach((km, i) => {
      if (!isObj(km)) return;
      const key = str(km.key);
      const metric = key === undefined ? undefined : byKey.get(key);
      if (!metric) {
        m.note(
          "dropped",
          `/ui/keymetrics/${i}`,
          said`the plugin has no metric ${q(key ?? "(no key)")}, so the dashboard has no tile for this key metric`,
        );
        return;
      }
      const name =
        str(km.displayname) ?? str(km.displayName) ?? str(metric.spec.displayname) ?? metric.ef1.key;
      dataTiles++;
      tiles.push(
        dataTile(name, [queryOf("A", km, metric, true)], "SINGLE_VALUE", bounds(layout, KEY_METRIC)),
      );
    });
    // Key charts show no dimensions: EF1 merged them (`mergeaggregation`).
    keycharts.forEach((chart, i) => {
      const tile = chartTile(chart, `/ui/keycharts/${i}`, true);
      if (tile) tiles.push(tile);
    });
  }
  // One group per EF1 chart group (the section it was shown in), in the order they first appear.
  const groups = new Map<string, { chart: unknown; pointer: string }[]>();
  charts.forEach((chart, i) => {
    const group = str(get(chart, "group")) ?? "Charts";
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group)!.push({ chart, pointer: `/ui/charts/${i}` });
  });
  for (const [group, members] of groups) {
    const before = tiles.length;
    tiles.push(header(layout, group));
    for (const { chart, pointer } of members) {
      const tile = chartTile(chart, pointer, false);
      if (tile) tiles.push(tile);
    }
    if (tiles.length === before + 1) tiles.pop();
  }
  if (!dataTiles) return undefined;

  const title = str(get(get(m.doc, "configUI"), "displayName")) ?? str(m.doc.name) ?? extensionName;
  const file = extensionName.replace(/^custom:/, "");
  return {
    path: `dashboards/${file}.json`,
    tiles: dataTiles,
    content: {
      dashboardMetadata: {
        name: title,
        shared: true,
        owner,
        tags: [extensionName],
        preset: true,
      },
      tiles,
    },
  };
}
