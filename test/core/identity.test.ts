/**
 * A finding's identity (src/core/identity.ts; interfaces.md "A finding's identity"): rule, file, place named
 * by content, message id and the message's data other than positions. Inserting, deleting or reordering
 * array elements that carry no finding (metrics, alerts, properties, charts, series, key metrics, a series'
 * dimensions) keeps every other finding's identity; changing the offending value changes it. Held over
 * generated documents (the shipped examples and random edits of them, always) and over every real
 * descriptor (when ../shared is present).
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/core/config.js";
import { fingerprint, identityPath, problemKey } from "../../src/core/identity.js";
import { escapeSegment, splitPointer } from "../../src/core/json/pointer.js";
import { analyseDescriptors } from "../../src/core/analyse.js";
import type { Finding } from "../../src/core/types.js";
import { check, itUnless, text, validHost, withoutShared } from "../helpers.js";
import { exampleSamples, generatedDocuments, random, type Sample } from "./generate.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CONFIG = resolveConfig();
const review = (doc: unknown): Finding[] =>
  analyseDescriptors([{ path: "p/plugin.json", content: text(doc) }], CONFIG)[0]!.findings;

// ---- the arrays whose elements move, and fresh elements that carry no finding ------------------------------

interface ArrayAt {
  /** RFC 6901 pointer of the array. */
  pointer: string;
  kind: "metrics" | "alerts" | "properties" | "charts" | "series" | "keymetrics" | "dimensions";
  items: unknown[];
  /** For a series' dimensions: the series' metric key. */
  metric?: unknown;
}

const isArr = (v: unknown): v is unknown[] => Array.isArray(v);
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function arraysOf(doc: Json): ArrayAt[] {
  const out: ArrayAt[] = [];
  const add = (pointer: string, kind: ArrayAt["kind"], v: unknown, metric?: unknown) => {
    if (isArr(v)) out.push({ pointer, kind, items: v, ...(metric !== undefined ? { metric } : {}) });
  };
  add("/metrics", "metrics", doc.metrics);
  if (isArr(doc.metrics))
    doc.metrics.forEach(
      (m, i) => isObj(m) && add(`/metrics/${i}/alert_settings`, "alerts", m.alert_settings),
    );
  add("/properties", "properties", doc.properties);
  const ui = isObj(doc.ui) ? doc.ui : {};
  add("/ui/keymetrics", "keymetrics", ui.keymetrics);
  for (const list of ["charts", "keycharts"]) {
    add(`/ui/${list}`, "charts", ui[list]);
    if (isArr(ui[list]))
      (ui[list] as unknown[]).forEach((c, i) => {
        if (!isObj(c)) return;
        add(`/ui/${list}/${i}/series`, "series", c.series);
        if (isArr(c.series))
          c.series.forEach(
            (s, j) =>
              isObj(s) && add(`/ui/${list}/${i}/series/${j}/dimensions`, "dimensions", s.dimensions, s.key),
          );
      });
  }
  return out;
}

/** The dimensions of the timeseries `key` (what a series of it may name). */
function dimensionsOf(doc: Json, key: unknown): unknown[] {
  const m = (isArr(doc.metrics) ? doc.metrics : []).find(
    (x) => isObj(x) && isObj(x.timeseries) && x.timeseries.key === key,
  );
  return isObj(m) && isArr(m.timeseries.dimensions) ? m.timeseries.dimensions : [];
}

/** The metric keys the document defines (series and key metrics name one). */
function metricKeys(doc: Json): string[] {
  return (isArr(doc.metrics) ? doc.metrics : []).flatMap((m) => {
    const key = isObj(m) && isObj(m.timeseries) ? m.timeseries.key : undefined;
    return typeof key === "string" ? [key] : [];
  });
}

/**
 * A valid element of a kind whose name no sibling has (a unique key, id or title; a series or key metric
 * of a metric the document defines, with an aggregation no sibling of that metric uses), or undefined.
 */
function fresh(kind: ArrayAt["kind"], doc: Json, siblings: unknown[], n: number, metric?: unknown): unknown {
  const key = `zz_probe_${n}`;
  switch (kind) {
    case "metrics":
      return { timeseries: { key, unit: "Count", displayname: `Probe ${n}` } };
    case "alerts":
      return {
        alert_id: key,
        event_type: "PERFORMANCE_EVENT",
        event_name: "Probe",
        threshold: 1,
        alert_condition: "ABOVE",
        samples: 5,
        violating_samples: 3,
        dealerting_samples: 5,
      };
    case "properties":
      return { key, type: "STRING" };
    case "charts":
      return {
        group: "Probe",
        title: `Probe ${n}`,
        series: metricKeys(doc)
          .slice(0, 1)
          .map((k) => ({ key: k })),
      };
    case "dimensions":
      // A dimension of the series' metric that the series does not name yet.
      return dimensionsOf(doc, metric).find((d) => typeof d === "string" && !siblings.includes(d));
    case "series":
    case "keymetrics": {
      // Aggregations in any case, the default (AVG) written out or not: one name.
      const agg = (a: unknown) => (typeof a === "string" ? a.toUpperCase() : (a ?? "AVG"));
      const used = new Set(
        siblings.map((x) => (isObj(x) ? JSON.stringify([x.key, agg(x.aggregation)]) : "")),
      );
      for (const k of metricKeys(doc))
        for (const aggregation of ["AVG", "SUM", "MIN", "MAX"])
          if (!used.has(JSON.stringify([k, aggregation]))) return { key: k, aggregation };
      return undefined;
    }
  }
}

/** The segments of a pointer under `array` (index first), or undefined when it is not under it. */
function under(pointer: string, array: string): string[] | undefined {
  const p = splitPointer(pointer);
  const a = splitPointer(array);
  if (p.length <= a.length || a.some((s, i) => p[i] !== s)) return undefined;
  return p.slice(a.length);
}

/** The finding is about the array itself or something above it (its count, say): moving elements may change it. */
const aboutArray = (f: Finding, array: string) =>
  array === f.pointer || array.startsWith(`${f.pointer}/`) || f.pointer === "";

const join = (segments: string[]) => segments.map((s) => `/${escapeSegment(s)}`).join("");

/** Where each index went: `moved(i)` is the element's new index, or undefined when it was deleted. */
function remap(pointer: string, array: string, moved: (i: number) => number | undefined): string | undefined {
  const rest = under(pointer, array);
  if (!rest) return pointer;
  const to = moved(Number(rest[0]));
  return to === undefined ? undefined : array + join([String(to), ...rest.slice(1)]);
}

// ---- the property -----------------------------------------------------------------------------------------

interface Tally {
  /** Findings that stayed (at their moved place, same rule and message) and kept their identity. */
  kept: number;
  /** Offending values changed, each of which changed its finding's identity. */
  changed: number;
  problems: string[];
}

/** An element's own label, its content's digest (`@…`) and its occurrence among copies (`#n`) set aside. */
const ownName = (label: string) => label.replace(/(@[0-9a-f]{32})?(#\d+)?\]$/, "]");

/** The label of the element at `pointer` (an array element's), as identityPath writes it. */
const labelOf = (doc: unknown, pointer: string) => identityPath(doc, pointer).split("/").pop()!;

/**
 * The finding is inside an element that shares its name with a sibling (a duplicate key, itself an error):
 * such elements are told apart by their content, so moving one of them may swap them.
 */
function inSharedName(doc: unknown, pointer: string): boolean {
  const segs = splitPointer(pointer);
  let node: unknown = doc;
  for (let d = 0; d < segs.length; d++) {
    const seg = segs[d]!;
    if (isArr(node) && /^\d+$/.test(seg)) {
      const base = join(segs.slice(0, d));
      const name = (j: number) => ownName(labelOf(doc, `${base}/${j}`));
      const mine = name(Number(seg));
      if (node.some((_, j) => j !== Number(seg) && name(j) === mine)) return true;
      node = node[Number(seg)];
    } else node = isObj(node) ? node[seg] : undefined;
  }
  return false;
}

/**
 * The edited array is inside an element of the finding's place that is named by its content (it has no name
 * of its own, or shares it): editing that element is changing it, and renames its findings (fail-closed).
 */
function editsContentNamed(doc: unknown, pointer: string, array: string | undefined): boolean {
  if (array === undefined) return false;
  const segs = splitPointer(pointer);
  let node: unknown = doc;
  for (let d = 0; d < segs.length; d++) {
    const at = join(segs.slice(0, d + 1));
    if (isArr(node) && /^\d+$/.test(segs[d]!) && /@[0-9a-f]{32}(#\d+)?\]$/.test(labelOf(doc, at)))
      if (array.startsWith(`${at}/`)) return true;
    node = isArr(node) ? node[Number(segs[d])] : isObj(node) ? node[segs[d]!] : undefined;
  }
  return false;
}

/** Every finding still there after the edit (same rule and message at its moved place) has the same identity. */
function keeps(
  doc: unknown,
  name: string,
  before: Finding[],
  after: Finding[],
  array: string | undefined,
  moved: (i: number) => number | undefined,
  what: string,
  t: Tally,
) {
  for (const f of before) {
    if ((array !== undefined && aboutArray(f, array)) || inSharedName(doc, f.pointer)) continue;
    if (editsContentNamed(doc, f.pointer, array)) continue;
    const at = array === undefined ? f.pointer : remap(f.pointer, array, moved);
    if (at === undefined) continue; // inside a deleted element (which carried no finding: never here)
    const there = after.filter(
      (g) => g.pointer === at && g.ruleId === f.ruleId && g.messageId === f.messageId,
    );
    if (!there.length) continue; // gone for a reason of its own (a duplicate's first definition deleted)
    if (there.some((g) => g.fingerprint === f.fingerprint)) t.kept++;
    else
      t.problems.push(
        `${name}: ${what}${array === undefined ? "" : ` ${array}`}: ${f.ruleId} ${f.pointer} → ${at} changed identity (${f.message})`,
      );
  }
}

/** Another value of the same type in every character (so that it differs wherever the finding looks). */
function otherValue(v: unknown): unknown {
  if (typeof v === "boolean") return !v;
  if (typeof v === "number") return v + 7;
  if (typeof v !== "string") return undefined;
  const shifted = v.replace(/[A-Za-z0-9]/g, (c) =>
    c === "z" ? "a" : c === "Z" ? "A" : c === "9" ? "0" : String.fromCharCode(c.charCodeAt(0) + 1),
  );
  return shifted === v ? `${v}a` : shifted;
}

function valueAt(doc: unknown, pointer: string): { parent: Json | unknown[]; key: string } | undefined {
  const segs = splitPointer(pointer);
  if (!segs.length) return undefined;
  let node: unknown = doc;
  for (const s of segs.slice(0, -1)) node = isArr(node) ? node[Number(s)] : isObj(node) ? node[s] : undefined;
  const key = segs[segs.length - 1]!;
  if (isArr(node) || isObj(node)) {
    const v = isArr(node) ? node[Number(key)] : node[key];
    return v === undefined ? undefined : { parent: node, key };
  }
  return undefined;
}

/** The sample's document, when it parses to an object. */
function objectOf(source: string): Json | undefined {
  try {
    const doc = JSON.parse(source) as unknown;
    return isObj(doc) ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** The document with the members of every object in reverse order. */
function reverseMembers(v: unknown): unknown {
  if (isArr(v)) return v.map(reverseMembers);
  if (!isObj(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, reverseMembers(x)]),
  );
}

/** What names an element of each kind (removed, it leaves the element unnamed). */
const NAMES: Partial<Record<ArrayAt["kind"], string[]>> = {
  alerts: ["alert_id"],
  properties: ["key"],
  charts: ["group", "title"],
  series: ["key"],
  keymetrics: ["key"],
};

/**
 * The samples with unnamed elements: in each, the first element of every array of alerts, properties,
 * charts, series and key metrics loses its name (elements with a name missing are reported, and named by
 * their content).
 */
function unnamedSamples(samples: readonly Sample[]): Sample[] {
  const out: Sample[] = [];
  for (const { name, text: source } of samples) {
    const doc = objectOf(source);
    if (!doc) continue;
    let any = false;
    for (const a of arraysOf(doc)) {
      const first = a.items[0];
      if (!isObj(first)) continue;
      for (const m of NAMES[a.kind] ?? []) if (m in first) any = delete first[m];
    }
    if (any) out.push({ name: `${name} (unnamed)`, text: text(doc) });
  }
  return out;
}

function holdsIdentity(samples: readonly Sample[], seed: number): Tally {
  const next = random(seed);
  const t: Tally = { kept: 0, changed: 0, problems: [] };
  let n = 0;
  for (const { name, text: source } of samples) {
    const doc = objectOf(source);
    if (!doc) continue;
    const before = review(doc);
    if (!before.length) continue;
    for (const a of arraysOf(doc)) {
      const path = splitPointer(a.pointer);
      const withItems = (items: unknown[]) => {
        const copy = structuredClone(doc) as Json;
        let node: Json = copy;
        for (const s of path.slice(0, -1)) node = (isArr(node) ? node[Number(s)] : node[s]) as Json;
        node[path[path.length - 1]!] = items;
        return copy;
      };
      // Insert a fresh element (it carries no finding) anywhere.
      const element = fresh(a.kind, doc, a.items, n++, a.metric);
      if (element !== undefined) {
        const at = Math.floor(next() * (a.items.length + 1));
        const inserted = [...a.items];
        inserted.splice(at, 0, element);
        const moved = (i: number) => (i < at ? i : i + 1);
        keeps(doc, name, before, review(withItems(inserted)), a.pointer, moved, "insert", t);
      }
      // Delete an element that carries no finding; move another one elsewhere (a reorder).
      const free = a.items
        .map((_, i) => i)
        .filter((i) => !before.some((f) => under(f.pointer, a.pointer)?.[0] === String(i)));
      if (free.length) {
        const gone = free[Math.floor(next() * free.length)]!;
        const deleted = a.items.filter((_, i) => i !== gone);
        const moved = (i: number) => (i === gone ? undefined : i < gone ? i : i - 1);
        keeps(doc, name, before, review(withItems(deleted)), a.pointer, moved, "delete", t);
        const from = free[Math.floor(next() * free.length)]!;
        const to = Math.floor(next() * a.items.length);
        if (to !== from) {
          const order = a.items.map((_, i) => i);
          order.splice(to, 0, ...order.splice(from, 1));
          const where = new Map(order.map((i: number, j: number) => [i, j] as const));
          const reordered = order.map((i) => a.items[i]);
          keeps(
            doc,
            name,
            before,
            review(withItems(reordered)),
            a.pointer,
            (i) => where.get(i),
            "reorder",
            t,
          );
        }
      }
    }
    // Reverse the members of every object: member order alone is no change (rules.md), so nothing moves.
    const reversed = review(reverseMembers(doc));
    keeps(doc, name, before, reversed, undefined, (i) => i, "member order", t);
    // Change each offending scalar value: its finding's identity changes.
    for (const f of before) {
      if (f.target !== "value" || inSharedName(doc, f.pointer)) continue;
      const place = valueAt(doc, f.pointer);
      if (!place) continue;
      const was = isArr(place.parent) ? place.parent[Number(place.key)] : place.parent[place.key];
      const now = otherValue(was);
      if (now === undefined) continue;
      const copy = structuredClone(doc) as Json;
      const there = valueAt(copy, f.pointer)!;
      if (isArr(there.parent)) there.parent[Number(there.key)] = now;
      else there.parent[there.key] = now;
      const count = (fs: Finding[]) => fs.filter((g) => g.fingerprint === f.fingerprint).length;
      if (count(review(copy)) < count(before)) t.changed++;
      else
        t.problems.push(
          `${name}: ${f.ruleId} ${f.pointer}: ${JSON.stringify(was)} → ${JSON.stringify(now)} kept its identity`,
        );
    }
  }
  return t;
}

describe("a finding's identity (property)", () => {
  it("over generated documents: moving other elements keeps it, changing the offending value changes it", () => {
    const samples = generatedDocuments(exampleSamples(), 2, 16);
    const t = holdsIdentity(samples, 4);
    expect(t.problems).toEqual([]);
    // About something: many findings stayed through many edits, and many values changed.
    expect(t.kept).toBeGreaterThan(samples.length * 10);
    expect(t.changed).toBeGreaterThan(samples.length / 2);
  });

  it("over generated documents with unnamed elements (an alert without alert_id, a chart without title)", () => {
    const samples = unnamedSamples(generatedDocuments(exampleSamples(), 1, 24));
    const t = holdsIdentity(samples, 6);
    expect(t.problems).toEqual([]);
    // About something: many findings stayed through many edits, and many values changed.
    expect(t.kept).toBeGreaterThan(samples.length * 10);
    expect(t.changed).toBeGreaterThan(samples.length / 2);
  });

  const REAL = new URL("../../../shared/corpus/real/", import.meta.url);
  itUnless(withoutShared("corpus/real/"))("over every real descriptor", () => {
    const corpus = readdirSync(REAL)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => ({ name: f, text: readFileSync(new URL(f, REAL), "utf8") }));
    const t = holdsIdentity(corpus, 8);
    expect(t.problems).toEqual([]);
    expect(t.kept).toBeGreaterThan(corpus.length * 10);
    expect(t.changed).toBeGreaterThan(corpus.length);
  });
});

describe("a series' identity: its key and aggregation, never its dimensions", () => {
  /** The valid example with its `requests` series (SUM, split by endpoint) holding two findings. */
  function withSeries(change: (series: Json, chart: Json) => void): Finding[] {
    const d: Json = validHost();
    const chart = d.ui.charts[0];
    const series = chart.series.find((s: Json) => s.key === "requests");
    Object.assign(series, { dimensions: ["nope"], seriestype: "line", stacked: true });
    change(series, chart);
    return review(d).filter((f) => /^\/ui\/charts\/0\/series\/\d+\/(dimensions|stacked)/.test(f.pointer));
  }
  const ids = (fs: Finding[]) => fs.map((f) => [f.ruleId, f.fingerprint]).sort();
  const before = withSeries(() => {});

  it("finds the two findings the cases below move", () => {
    expect(before.map((f) => f.ruleId).sort()).toEqual(["stacked-line", "unknown-dimension-reference"]);
  });

  it.each<[string, (series: Json, chart: Json) => void]>([
    ["a dimension added before the unknown one", (s) => void s.dimensions.unshift("endpoint")],
    ["the aggregation in another case", (s) => void (s.aggregation = "sum")],
    [
      "another series of the same metric (another aggregation) inserted before it",
      (s, c) => void c.series.unshift({ key: "requests", aggregation: "MAX" }),
    ],
  ])("keeps its findings' identities: %s", (_name, change) => {
    expect(ids(withSeries(change))).toEqual(ids(before));
  });

  it("the default aggregation written out or left out is one series", () => {
    const avg = (a: string | undefined) =>
      ids(
        withSeries((s) => {
          if (a === undefined) delete s.aggregation;
          else s.aggregation = a;
        }),
      );
    expect(avg("AVG")).toEqual(avg(undefined));
    expect(avg("avg")).toEqual(avg(undefined));
  });
});

describe("a long offending value: the message quotes it cut short, the identity holds all of it", () => {
  const long = (tail: string) => "X".repeat(70) + tail;
  const cases: [string, (v: string) => Json][] = [
    [
      "invalid-value",
      (v) => {
        const d: Json = validHost();
        d.metrics[0].alert_settings[0].event_type = v;
        return d;
      },
    ],
    ["name-format", (v) => ({ ...validHost(), name: `custom.python.${v}!` })],
    [
      "invalid-format",
      (v) => {
        const d: Json = validHost();
        d.ui.charts[0].series[0].color = v;
        return d;
      },
    ],
  ];
  it.each(cases)("%s: values that differ past the cut are different findings", (rule, make) => {
    const [a, b] = [long("A"), long("B")].map((v) => review(make(v)).filter((f) => f.ruleId === rule));
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
    expect(a![0]!.message).toBe(b![0]!.message); // cut short the same way
    expect(a![0]!.message).toMatch(/…/);
    expect(a![0]!.fingerprint).not.toBe(b![0]!.fingerprint);
    // Still one problem when grouping repeated findings (the quoted value is set aside there).
    expect(problemKey(a![0]!)).toBe(problemKey(b![0]!));
  });
});

describe("an element without a name: named by its content, never by its order among unnamed siblings", () => {
  /** The example with its alert's alert_id missing and its samples at 0 (two findings inside it). */
  function withAlert(change: (alert: Json, alerts: Json[]) => void): Finding[] {
    const d: Json = validHost();
    const alerts: Json[] = d.metrics[0].alert_settings;
    delete alerts[0]!.alert_id;
    alerts[0]!.samples = 0;
    change(alerts[0]!, alerts);
    return review(d).filter((f) => f.pointer.startsWith("/metrics/0/alert_settings/"));
  }
  const ids = (fs: Finding[]) => fs.map((f) => [f.ruleId, f.fingerprint]).sort();
  const before = withAlert(() => {});

  it("finds the two findings the cases below keep", () => {
    expect(before.map((f) => f.ruleId).sort()).toEqual(["alert-samples", "required-member"]);
  });

  it.each<[string, (alert: Json, alerts: Json[]) => void]>([
    ["its members reordered", (a, all) => void (all[0] = Object.fromEntries(Object.entries(a).reverse()))],
    [
      "a named alert inserted before it",
      (a, all) => void all.unshift({ ...a, alert_id: "zz_named", samples: 5 }),
    ],
  ])("keeps its findings' identities: %s", (_name, change) => {
    expect(ids(withAlert(change))).toEqual(ids(before));
  });

  it("keeps them when another unnamed alert is inserted before it; the inserted one's are its own", () => {
    const after = withAlert((a, all) => void all.unshift({ ...a, threshold: Number(a.threshold) + 1 }));
    const was = new Set(ids(before).map((x) => x.join()));
    const at = (i: number) =>
      ids(after.filter((f) => f.pointer.startsWith(`/metrics/0/alert_settings/${i}`)));
    expect(at(1).every((x) => was.has(x.join()))).toBe(true);
    expect(at(0).some((x) => was.has(x.join()))).toBe(false);
  });

  it("editing it (another of its members, or the offending value) is another element: its findings renamed", () => {
    for (const change of [
      (a: Json) => void (a.threshold = Number(a.threshold) + 1),
      (a: Json) => void (a.samples = -1),
    ]) {
      const after = new Map(ids(withAlert(change)) as [string, string][]);
      const was = new Map(ids(before) as [string, string][]);
      expect(after.get("alert-samples")).not.toBe(was.get("alert-samples"));
      expect(after.get("required-member")).not.toBe(was.get("required-member"));
    }
  });
});

describe("a finding's identity (examples)", () => {
  const doc: Json = validHost();
  doc.metrics.push({ timeseries: { key: "errors", unit: "Count", displayname: "errors" } });
  doc.metrics.push({ timeseries: { key: "errors", unit: "Count", displayname: "Errors again" } });

  it("names the place by content: the metric's key, not its index (a key two metrics share: with their content)", () => {
    const [f] = check(doc).filter((x) => x.ruleId === "displayname-equals-key");
    expect(identityPath(doc, f!.pointer)).toMatch(
      /^\/metrics\/\[metric="errors"@[0-9a-f]{32}\]\/timeseries\/displayname$/,
    );
    const single: Json = validHost();
    single.metrics.push({ timeseries: { key: "errors", unit: "Count", displayname: "errors" } });
    const [g] = check(single).filter((x) => x.ruleId === "displayname-equals-key");
    expect(identityPath(single, g!.pointer)).toBe('/metrics/[metric="errors"]/timeseries/displayname');
  });

  it("leaves positional data out (the index of the first definition), keeps the rest (the key)", () => {
    const dup = check(doc).find((x) => x.ruleId === "duplicate-metric-key")!;
    expect(dup.data).toMatchObject({ key: "errors", first: 2 });
    const moved = { ...dup, data: { ...dup.data, first: 7 } };
    expect(fingerprint(doc, "p.json", moved)).toBe(fingerprint(doc, "p.json", dup));
    const other = { ...dup, data: { ...dup.data, key: "errors2" } };
    expect(fingerprint(doc, "p.json", other)).not.toBe(fingerprint(doc, "p.json", dup));
    // The file is part of it.
    expect(fingerprint(doc, "q.json", dup)).not.toBe(fingerprint(doc, "p.json", dup));
  });

  it("groups repeated findings by rule, message id and data, positions and quoted names aside", () => {
    const f = check(doc).find((x) => x.ruleId === "displayname-equals-key")!;
    expect(problemKey({ ...f, data: { key: "other" } })).toBe(problemKey(f));
    expect(problemKey({ ...f, messageId: "other" })).not.toBe(problemKey(f));
  });

  it("a renamed file: its base is identified under head's path, so its findings stay existing", () => {
    const head = { ...doc, version: "1.2.1" };
    const [r] = analyseDescriptors(
      [
        {
          path: "new/plugin.json",
          content: text(head),
          base: { path: "old/plugin.json", content: text(doc) },
        },
      ],
      CONFIG,
    );
    const mine = r!.findings.filter((f) => f.ruleId === "displayname-equals-key");
    expect(mine.map((f) => f.baseline)).toEqual(["existing"]);
    expect(r!.fixed).toBe(0);
  });
});
