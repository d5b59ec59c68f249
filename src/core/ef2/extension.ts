/**
 * What an extension.yaml says, as the EF2 rules read it, computed once per document (rule-context.ts
 * `extension`): the data sources and the metrics they report (with the key Dynatrace ingests, their type,
 * feature set and dimensions), the metric metadata, the vars and where they are used, the feature sets, and
 * the metrics and dimensions that `screens` and `topology` name. Pure; never throws on a document of the wrong
 * shape (values are read through the guards).
 */
import { arr, get, isObj, obj, str, type Obj } from "../guards.js";
import { escapeSegment } from "../json/pointer.js";
import { JMX_AUTO_DIMENSIONS } from "./migration.js";
import { selectorReferences, type SelectorReference } from "./selector.js";

/** The SQL data sources (one per database). */
export const SQL_SOURCES = [
  "sqlDb2",
  "sqlServer",
  "sqlMySql",
  "sqlOracle",
  "sqlPostgres",
  "sqlHana",
  "sqlSnowflake",
] as const;

/**
 * The data sources whose metrics the extension.yaml itself declares (groups, subgroups, metrics): what they
 * report is known from the file. A Python extension's metrics are reported by its code.
 */
export const DECLARATIVE_SOURCES = [
  "jmx",
  "snmp",
  "snmptraps",
  "wmi",
  "prometheus",
  ...SQL_SOURCES,
  "jdbc",
] as const;

/** Every data source member (extensions-2.md §1; Google Cloud's too). */
export const DATA_SOURCES = [...DECLARATIVE_SOURCES, "python", "gcp"] as const;

/** A metric a data source reports. */
export interface ReportedMetric {
  /** The key as written. */
  key: string;
  /**
   * The key Dynatrace ingests: a count's key gets `.count` unless it ends in `.count` or `_count` (metric
   * ingestion protocol). A Prometheus histogram or summary is ingested under several keys: one entry each.
   */
  ingested: string;
  /** The type as written (`gauge` when unsaid, or when written as no string), and whether it is a count. */
  type: string;
  count: boolean;
  /** `type` as written, when written: a type Dynatrace does not take (`Count`, `5`) leaves the above a guess. */
  typeWritten?: unknown;
  /** What it reads (`oid:…`, `attribute:…`, `column:…`), as written. */
  value?: string;
  /**
   * Its subgroup's (else its group's) `query`, as written: what `value` reads from (JMX's MBeans, WMI's and the
   * SQL sources' rows), so that `attribute:Count` of one query is not taken for `attribute:Count` of another.
   */
  query?: string;
  source: string;
  /** The metric element, and its key. */
  pointer: string;
  /** Its feature set: the metric's, else its subgroup's, else its group's. */
  featureSet?: string;
  /** Its dimensions (its group's and subgroup's), each with where it is declared. */
  dimensions: ReadonlyMap<string, string>;
  /** A Prometheus `histogram` or `summary`: every key Dynatrace ingests for it, this entry's among them. */
  parts?: readonly string[];
}

/** A metric the `metrics:` list describes. */
export interface DescribedMetric {
  key: string;
  index: number;
  pointer: string;
  /** `func:…`: a calculated metric (its `query.metricSelector`), which no data source reports. */
  calculated: boolean;
  unit?: string;
  /** The dimensions its metadata names. */
  dimensions: readonly string[];
}

/** Where a feature set is named: by a group, a subgroup or a metric of a data source, or by python.featureSets. */
export interface FeatureSetName {
  name: string;
  pointer: string;
  level: "group" | "subgroup" | "metric" | "python";
}

export interface VarDeclaration {
  id: string;
  type?: string;
  index: number;
  pointer: string;
}

/** A `var:<id>` in a data source (a dimension's value or filter). */
export interface VarUse {
  id: string;
  pointer: string;
}

/**
 * A metric (and the dimensions it is split or filtered by) that `screens`, `topology` or a calculated metric's
 * selector names.
 */
export interface MetricReference {
  key: string;
  /** The metric is matched by prefix (`$prefix(…)` of a topology source), not by its whole key. */
  prefix: boolean;
  dimensions: readonly string[];
  pointer: string;
  /** Named by this calculated metric's `query.metricSelector` (`func:…`). */
  calculated?: string;
}

export interface ExtensionFacts {
  /** The data source members present, in the order of the schema. */
  sources: readonly string[];
  /** It has a data source whose metrics the file declares (not Python's alone): `reported` is complete. */
  declarative: boolean;
  reported: readonly ReportedMetric[];
  described: readonly DescribedMetric[];
  featureSets: readonly FeatureSetName[];
  vars: readonly VarDeclaration[];
  varUses: readonly VarUse[];
  references: readonly MetricReference[];
  /** The metric keys python.featureSets lists (a Python extension's code reports them), and where. */
  pythonMetrics: readonly { key: string; featureSet?: string; pointer: string }[];
  /** python.runtime.module, and where. */
  module?: { name: string; pointer: string };
  /** The activation schemas python.activation names (`remote`, `local`), as written. */
  activations: readonly { where: "remote" | "local"; path: string; pointer: string }[];
  /** The files `alerts`, `dashboards` and `documents.dashboards` list by `path`, as written, and where. */
  assets: readonly { path: string; pointer: string }[];
}

/** The endings a count's key may already have: Dynatrace appends `.count` to any other (metric ingestion FAQ). */
const COUNT_SUFFIX = /[._]count$/;

/** The key Dynatrace ingests for a metric of this type (counts end in `.count` or `_count`). */
export function ingestedKey(key: string, count: boolean): string {
  return count && !COUNT_SUFFIX.test(key) ? `${key}.count` : key;
}

/**
 * What Dynatrace ingests for a Prometheus histogram or summary (Prometheus data source reference, `type`): its
 * count as `<key>_count`, its sum as `<key>_sum.count`, and a histogram's buckets as `<key>_bucket.count`
 * (collected when the monitoring configuration asks), a summary's quantiles under `<key>` (a gauge).
 */
const PROMETHEUS_PARTS: Readonly<Record<string, readonly { suffix: string; count: boolean }[]>> = {
  histogram: [
    { suffix: "_count", count: true },
    { suffix: "_sum", count: true },
    { suffix: "_bucket", count: true },
  ],
  summary: [
    { suffix: "_count", count: true },
    { suffix: "_sum", count: true },
    { suffix: "", count: false },
  ],
};

/** A type that ingests as a count (`count`, `count,delta`…). */
export function isCountType(type: unknown): boolean {
  return typeof type === "string" && /^count\b/.test(type.trim());
}

const VAR = /(?:^|[^A-Za-z0-9_.-])var:([A-Za-z0-9_.-]+)/g;

function varUses(value: unknown, pointer: string, out: VarUse[]): void {
  if (typeof value !== "string" || !value.includes("var:")) return;
  for (const m of value.matchAll(VAR)) out.push({ id: m[1]!, pointer });
}

interface Level {
  dimensions: Map<string, string>;
  featureSet?: string;
  query?: string;
}

/** A group's or subgroup's dimensions and feature set, added to its parent's. */
function level(
  element: Obj,
  pointer: string,
  parent: Level | undefined,
  facts: Building,
  name: "group" | "subgroup",
): Level {
  const dimensions = new Map(parent?.dimensions);
  arr(element.dimensions).forEach((d, i) => {
    const at = `${pointer}/dimensions/${i}`;
    const key = str(get(d, "key"));
    if (key !== undefined && !dimensions.has(key)) dimensions.set(key, at);
  });
  const own = str(element.featureSet);
  if (own !== undefined) facts.featureSets.push({ name: own, pointer: `${pointer}/featureSet`, level: name });
  const featureSet = own ?? parent?.featureSet;
  const query = str(element.query) ?? parent?.query;
  const out: Level = { dimensions };
  if (featureSet !== undefined) out.featureSet = featureSet;
  if (query !== undefined) out.query = query;
  return out;
}

function metricsOf(list: unknown, pointer: string, at: Level, source: string, facts: Building): void {
  arr(list).forEach((m, i) => {
    const element = obj(m);
    const key = str(get(m, "key"));
    const here = `${pointer}/metrics/${i}`;
    if (!element || key === undefined) return;
    const typeWritten = get(element, "type");
    const type = typeof typeWritten === "string" ? typeWritten : "gauge";
    const count = isCountType(type);
    const own = str(element.featureSet);
    if (own !== undefined)
      facts.featureSets.push({ name: own, pointer: `${here}/featureSet`, level: "metric" });
    const value = get(element, "value");
    const read = typeof value === "string" ? value : str(get(value, "attribute"));
    const featureSet = own ?? at.featureSet;
    const layout = source === "prometheus" ? PROMETHEUS_PARTS[type.trim()] : undefined;
    const ingested = layout?.map((p) => ({ key: ingestedKey(key + p.suffix, p.count), count: p.count })) ?? [
      { key: ingestedKey(key, count), count },
    ];
    for (const part of ingested) {
      const reported: ReportedMetric = {
        key,
        ingested: part.key,
        type,
        count: part.count,
        source,
        pointer: here,
        dimensions: at.dimensions,
      };
      if (layout) reported.parts = ingested.map((p) => p.key);
      if (typeWritten !== undefined) reported.typeWritten = typeWritten;
      if (read !== undefined) reported.value = read;
      if (at.query !== undefined) reported.query = at.query;
      if (featureSet !== undefined) reported.featureSet = featureSet;
      facts.reported.push(reported);
    }
  });
}

type Building = {
  [K in keyof ExtensionFacts]: ExtensionFacts[K] extends readonly (infer T)[] ? T[] : ExtensionFacts[K];
};

/** A declarative data source's groups (a list; JMX's are under `groups`), their subgroups and metrics. */
function walkSource(source: string, member: unknown, facts: Building): void {
  const base = `/${source}`;
  // JMX and JDBC hold their groups under `groups`, beside the data source's own settings.
  const nested = source === "jmx" || source === "jdbc";
  const groups = nested ? get(member, "groups") : member;
  const groupsAt = nested ? `${base}/groups` : base;
  const auto = source === "jmx" ? JMX_AUTO_DIMENSIONS : undefined;
  arr(groups).forEach((g, gi) => {
    const group = obj(g);
    if (!group) return;
    const gp = `${groupsAt}/${gi}`;
    const root: Level = { dimensions: new Map([...(auto ?? [])].map((d) => [d, base])) };
    const at = level(group, gp, root, facts, "group");
    metricsOf(group.metrics, gp, at, source, facts);
    arr(group.subgroups).forEach((s, si) => {
      const subgroup = obj(s);
      if (!subgroup) return;
      const sp = `${gp}/subgroups/${si}`;
      metricsOf(subgroup.metrics, sp, level(subgroup, sp, at, facts, "subgroup"), source, facts);
    });
  });
}

/** Every string under `value` (of members named `name`, when given), with its pointer, in document order. */
function strings(value: unknown, pointer: string, name?: string): { value: string; pointer: string }[] {
  const out: { value: string; pointer: string }[] = [];
  const stack: [unknown, string, string | undefined][] = [[value, pointer, undefined]];
  while (stack.length) {
    const [v, p, member] = stack.pop()!;
    if (typeof v === "string") {
      if (name === undefined || member === name) out.push({ value: v, pointer: p });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${p}/${i}`, undefined]);
    } else if (isObj(v)) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i]!;
        stack.push([x, `${p}/${escapeSegment(k)}`, k]);
      }
    }
  }
  return out;
}

/** A topology source's metric condition: `$prefix(key)` or `$eq(key)`. */
const CONDITION = /^\s*\$(prefix|eq)\(\s*([^()\s]+)\s*\)\s*$/;

function references(doc: Obj): MetricReference[] {
  const out: MetricReference[] = [];
  const add = (refs: SelectorReference[], pointer: string) => {
    for (const r of refs) out.push({ key: r.key, prefix: false, dimensions: r.dimensions, pointer });
  };
  for (const s of strings(doc.screens, "/screens", "metricSelector"))
    add(selectorReferences(s.value), s.pointer);
  // A calculated metric is its selector: a metric it names that is not there leaves it empty.
  arr(doc.metrics).forEach((m, i) => {
    const calculated = str(get(m, "key"));
    const selector = str(get(get(m, "query"), "metricSelector"));
    if (calculated === undefined || !calculated.startsWith("func:") || selector === undefined) return;
    const pointer = `/metrics/${i}/query/metricSelector`;
    for (const r of selectorReferences(selector))
      out.push({ key: r.key, prefix: false, dimensions: r.dimensions, pointer, calculated });
  });
  const topology = obj(doc.topology);
  const sources = [
    ...arr(topology?.types).flatMap((t, ti) =>
      arr(get(t, "rules")).flatMap((r, ri) =>
        arr(get(r, "sources")).map((s, si) => ({ s, at: `/topology/types/${ti}/rules/${ri}/sources/${si}` })),
      ),
    ),
    ...arr(topology?.relationships).flatMap((r, ri) =>
      arr(get(r, "sources")).map((s, si) => ({ s, at: `/topology/relationships/${ri}/sources/${si}` })),
    ),
  ];
  for (const { s, at } of sources) {
    if (str(get(s, "sourceType")) !== "Metrics") continue;
    const m = CONDITION.exec(str(get(s, "condition")) ?? "");
    if (m) out.push({ key: m[2]!, prefix: m[1] === "prefix", dimensions: [], pointer: `${at}/condition` });
  }
  return out;
}

/** What an extension.yaml says (an empty account of anything that is no mapping). */
export function extensionFacts(value: unknown): ExtensionFacts {
  const facts: Building = {
    sources: [],
    declarative: false,
    reported: [],
    described: [],
    featureSets: [],
    vars: [],
    varUses: [],
    references: [],
    pythonMetrics: [],
    activations: [],
    assets: [],
  };
  const doc = obj(value);
  if (!doc) return facts;
  for (const source of DATA_SOURCES) if (doc[source] !== undefined) facts.sources.push(source);
  for (const source of DECLARATIVE_SOURCES) {
    if (doc[source] === undefined) continue;
    facts.declarative = true;
    walkSource(source, doc[source], facts);
  }
  // A var is used wherever a data source writes `var:<id>`: a dimension's value or filter, a query, a value.
  for (const source of facts.sources)
    for (const { value: text, pointer } of strings(doc[source], `/${source}`))
      varUses(text, pointer, facts.varUses);
  const listed = (list: unknown, at: string) =>
    arr(list).forEach((entry, i) => {
      const path = str(get(entry, "path"));
      if (path !== undefined) facts.assets.push({ path, pointer: `${at}/${i}/path` });
    });
  listed(doc.alerts, "/alerts");
  listed(doc.dashboards, "/dashboards");
  listed(get(doc.documents, "dashboards"), "/documents/dashboards");
  const python = obj(doc.python);
  if (python) {
    const module = str(get(get(python, "runtime"), "module"));
    if (module !== undefined) facts.module = { name: module, pointer: "/python/runtime/module" };
    for (const where of ["remote", "local"] as const) {
      const path = str(get(get(get(python, "activation"), where), "path"));
      if (path !== undefined)
        facts.activations.push({ where, path, pointer: `/python/activation/${where}/path` });
    }
    arr(python.featureSets).forEach((f, i) => {
      const name = str(get(f, "featureSet"));
      if (name !== undefined)
        facts.featureSets.push({ name, pointer: `/python/featureSets/${i}/featureSet`, level: "python" });
      arr(get(f, "metrics")).forEach((m, j) => {
        const key = str(get(m, "key"));
        if (key === undefined) return;
        const metric: { key: string; featureSet?: string; pointer: string } = {
          key,
          pointer: `/python/featureSets/${i}/metrics/${j}`,
        };
        if (name !== undefined) metric.featureSet = name;
        facts.pythonMetrics.push(metric);
      });
    });
  }
  arr(doc.metrics).forEach((m, index) => {
    const key = str(get(m, "key"));
    if (key === undefined) return;
    const metadata = obj(get(m, "metadata"));
    const described: DescribedMetric = {
      key,
      index,
      pointer: `/metrics/${index}`,
      calculated: key.startsWith("func:"),
      dimensions: arr(metadata?.dimensions).flatMap((d) => {
        const k = str(get(d, "key"));
        return k === undefined ? [] : [k];
      }),
    };
    const unit = str(metadata?.unit);
    if (unit !== undefined) described.unit = unit;
    facts.described.push(described);
  });
  arr(doc.vars).forEach((v, index) => {
    const id = str(get(v, "id"));
    if (id === undefined) return;
    const declaration: VarDeclaration = { id, index, pointer: `/vars/${index}` };
    const type = str(get(v, "type"));
    if (type !== undefined) declaration.type = type;
    facts.vars.push(declaration);
  });
  facts.references = references(doc);
  return facts;
}
