/**
 * `migrate --rewrite`: the EF1 metrics that dashboards, SLOs, metric events, notebooks and scripts query
 * (`ext:<metricGroup>.<key>`, with their transformations) rewritten to the EF2 selectors that give the same
 * series, from the key maps of the descriptors migrated in the same run. Every byte that is not a reference
 * stays as it is: a JSON file is parsed with positions and only the strings that change are written again
 * (JSON-encoded); any other file is rewritten in place of each reference. Each replacement is reported with
 * its line, and each reference that could not be rewritten with why. Pure: text in, text and report out.
 */
import { parseJson, type JsonNode } from "../core/json/parse.js";
import { LineIndex } from "../core/locate.js";
import type { KeyMap } from "../core/ef2/key-map.js";
import { ef1Group, ef2Selector, quoteDimension } from "../core/ef2/selectors.js";

/** What an EF1 metric id becomes. */
export interface RewriteTarget {
  id: string;
  /** The EF2 metric key. */
  key: string;
  /** What follows the key in a selector to give EF1's series (`:rate(1m)`, `:max`, ` / 60`, none). */
  suffix: string;
  /** An EF2 metric key with EF1's series, for members that take a key (`metricId`); none when a key cannot. */
  keyOnly?: string;
  /** Each EF1 dimension name and its EF2 key (undefined: EF2 has no value for it). */
  dimensions: Map<string, string | undefined>;
}

export interface RewriteTable {
  byId: Map<string, RewriteTarget>;
  /** The EF1 metric groups of the migrated plugins: an unknown metric of one is reported. */
  groups: Set<string>;
}

/** The table of the descriptors migrated: each EF1 id with its EF2 series. */
export function rewriteTable(
  maps: readonly KeyMap[],
  groups: readonly (string | undefined)[] = [],
): RewriteTable {
  const byId = new Map<string, RewriteTarget>();
  const known = new Set<string>(groups.filter((g): g is string => g !== undefined));
  for (const map of maps)
    for (const m of map.metrics) {
      if (m.ef1.id === undefined || byId.has(m.ef1.id)) continue;
      const series = ef2Selector({
        key: m.ef2.key,
        ...(m.ef2.type ? { type: m.ef2.type } : {}),
        ...(m.ef2.aggregation ? { aggregation: m.ef2.aggregation } : {}),
        ...(m.ef2.rateKey ? { perSecond: true } : {}),
      });
      const suffix = series.slice(m.ef2.key.length);
      // A key alone gives EF1's series: a gauge as read, a count per minute, a rate's calculated metric.
      const keyOnly = m.ef2.aggregation ? undefined : (m.ef2.rateKey ?? m.ef2.key);
      byId.set(m.ef1.id, {
        id: m.ef1.id,
        key: m.ef2.key,
        suffix,
        ...(keyOnly !== undefined ? { keyOnly } : {}),
        dimensions: new Map(m.dimensions.map((d) => [d.ef1, d.ef2])),
      });
    }
  return { byId, groups: known };
}

/** The EF1 metric group of a descriptor (for `rewriteTable`'s `groups`). */
export { ef1Group };

export interface Replacement {
  line: number;
  column: number;
  from: string;
  to: string;
}

export interface NotRewritten {
  line: number;
  column: number;
  reference: string;
  why: string;
}

export interface Rewritten {
  text: string;
  replacements: Replacement[];
  notRewritten: NotRewritten[];
}

/** `ext:` and the characters of a metric group and key (letters, digits, `_`, `-`, `.`). */
const REFERENCE = /ext:[A-Za-z0-9_.-]+/g;
const AGGREGATIONS = /^(avg|min|max|sum|count|value|median|percentile|auto)$/i;
/** JSON members that hold a metric key, not a selector. */
const KEY_MEMBERS = new Set(["metric", "metricId", "metricKey", "timeseriesId"]);
/** JSON members beside a key member that name the metric's dimensions. */
const DIMENSION_MEMBERS = new Set([
  "splitBy",
  "dimensions",
  "metricDimensions",
  "dimensionFilter",
  "filterBy",
]);
const DIMENSION_NAME_MEMBERS = new Set(["name", "key", "dimensionKey", "dimension", "filter"]);

interface Span {
  start: number;
  end: number;
  to: string;
}

/** The transformation chain after a reference: `:name(args…)` repeated; its end, and its quoted strings. */
function chainOf(
  s: string,
  from: number,
): { end: number; names: string[]; strings: { start: number; end: number; value: string }[] } {
  const names: string[] = [];
  const strings: { start: number; end: number; value: string }[] = [];
  let i = from;
  while (s[i] === ":") {
    const name = /^[A-Za-z]+/.exec(s.slice(i + 1, i + 41));
    if (!name) break;
    names.push(name[0]);
    let j = i + 1 + name[0].length;
    if (s[j] === "(") {
      let depth = 0;
      for (; j < s.length; j++) {
        const c = s[j];
        if (c === '"') {
          const start = j;
          let value = "";
          for (j++; j < s.length && s[j] !== '"'; j++) {
            if (s[j] === "~" && j + 1 < s.length) j++;
            value += s[j];
          }
          strings.push({ start, end: j + 1, value });
        } else if (c === "(") depth++;
        else if (c === ")" && --depth === 0) {
          j++;
          break;
        }
      }
      if (depth !== 0) return { end: i, names: names.slice(0, -1), strings };
    }
    i = j;
  }
  return { end: i, names, strings };
}

interface Found {
  spans: Span[];
  /** The targets of the references replaced. */
  targets: Set<RewriteTarget>;
  replaced: { offset: number; from: string; to: string }[];
  refused: { offset: number; reference: string; why: string }[];
}

/** The references in a string of selector text, each with its replacement or why there is none. */
function inSelector(s: string, table: RewriteTable, keyOnly: boolean): Found {
  const found: Found = { spans: [], targets: new Set(), replaced: [], refused: [] };
  for (const match of s.matchAll(REFERENCE)) {
    const offset = match.index;
    // `ext:` inside a longer word (`text:`) is no reference.
    if (offset > 0 && /[A-Za-z0-9_.:-]/.test(s[offset - 1]!)) continue;
    let id = match[0];
    while (id.endsWith(".")) id = id.slice(0, -1);
    const target = table.byId.get(id);
    if (!target) {
      const group = [...table.groups].find((g) => id.startsWith(`ext:${g}.`));
      found.refused.push({
        offset,
        reference: id,
        why:
          group !== undefined
            ? `no metric of the EF1 plugin whose metric group is \`${group}\` is named so`
            : "not a metric of the plugins migrated in this run",
      });
      continue;
    }
    const end = offset + id.length;
    if (keyOnly) {
      if (target.keyOnly === undefined)
        found.refused.push({
          offset,
          reference: id,
          why: `this member takes a metric key, and EF1's series is the selector \`${target.key}${target.suffix}\`: use a metric selector`,
        });
      else {
        found.spans.push({ start: offset, end, to: target.keyOnly });
        found.targets.add(target);
        found.replaced.push({ offset, from: id, to: target.keyOnly });
      }
      continue;
    }
    const chain = chainOf(s, end);
    const ownAggregation = chain.names.some((n) => AGGREGATIONS.test(n) || /^rate$/i.test(n));
    let suffix = target.suffix;
    if (ownAggregation) {
      // A count's own aggregation is EF1's over its per-minute changes; per second or the MBeans' maximum is not.
      if (suffix === ":rate(1m)" || suffix === "") suffix = "";
      else {
        found.refused.push({
          offset,
          reference: s.slice(offset, chain.end),
          why: `EF1's series is \`${target.key}${target.suffix}\`, and the query aggregates it again: no EF2 selector gives that; query \`${target.key}${target.suffix}\` and aggregate it as needed`,
        });
        continue;
      }
    }
    const missing = chain.strings.find(
      (q) => target.dimensions.has(q.value) && target.dimensions.get(q.value) === undefined,
    );
    if (missing) {
      found.refused.push({
        offset,
        reference: s.slice(offset, chain.end),
        why: `dimension \`${missing.value}\` has no EF2 value (no splitting fills it)`,
      });
      continue;
    }
    let rest = "";
    let at = end;
    for (const q of chain.strings) {
      const to = target.dimensions.get(q.value);
      rest += s.slice(at, q.start) + (to !== undefined ? quoteDimension(to) : s.slice(q.start, q.end));
      at = q.end;
    }
    rest += s.slice(at, chain.end);
    const expression = suffix.includes(" ");
    const to = expression ? `(${target.key}${rest}${suffix})` : `${target.key}${rest}${suffix}`;
    found.spans.push({ start: offset, end: chain.end, to });
    found.targets.add(target);
    found.replaced.push({ offset, from: s.slice(offset, chain.end), to });
  }
  return found;
}

function splice(s: string, spans: readonly Span[]): string {
  let out = "";
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    out += s.slice(at, span.start) + span.to;
    at = span.end;
  }
  return out + s.slice(at);
}

/** Rewrites a text file: every reference in it, as selector text. */
function rewritePlain(text: string, table: RewriteTable): Rewritten {
  const index = new LineIndex(text);
  const found = inSelector(text, table, false);
  const at = (offset: number) => index.position(offset);
  return {
    text: splice(text, found.spans),
    replacements: found.replaced.map((r) => ({ ...at(r.offset), from: r.from, to: r.to })),
    notRewritten: found.refused.map((r) => ({ ...at(r.offset), reference: r.reference, why: r.why })),
  };
}

/** Rewrites a JSON file: the strings that hold references (and the dimension names beside a key). */
function rewriteJson(text: string, root: JsonNode, table: RewriteTable): Rewritten {
  const index = new LineIndex(text);
  const spans: Span[] = [];
  const replacements: Replacement[] = [];
  const notRewritten: NotRewritten[] = [];
  const at = (offset: number) => index.position(offset);

  const stringNode = (node: JsonNode, keyOnly: boolean): RewriteTarget | undefined => {
    const raw = text.slice(node.start, node.end);
    const value = JSON.parse(raw) as string;
    if (!value.includes("ext:")) return undefined;
    const exact = keyOnly && table.byId.get(value);
    const found = inSelector(value, table, keyOnly && !!exact);
    const where = at(node.start);
    for (const r of found.refused) notRewritten.push({ ...where, reference: r.reference, why: r.why });
    if (found.spans.length) {
      const to = splice(value, found.spans);
      spans.push({ start: node.start, end: node.end, to: JSON.stringify(to) });
      for (const r of found.replaced) replacements.push({ ...where, from: r.from, to: r.to });
    }
    // The one metric the string names: the dimension names beside it are that metric's.
    return found.targets.size === 1 ? [...found.targets][0] : undefined;
  };

  /** Dimension names (exactly an EF1 dimension of `target`) in the members beside its key or selector. */
  const dimensionNames = (node: JsonNode, target: RewriteTarget, named: boolean): void => {
    if (node.kind === "string") {
      if (!named) return;
      const value = JSON.parse(text.slice(node.start, node.end)) as string;
      if (!target.dimensions.has(value)) return;
      const to = target.dimensions.get(value);
      if (to === undefined)
        notRewritten.push({
          ...at(node.start),
          reference: value,
          why: `dimension \`${value}\` has no EF2 value`,
        });
      else if (to !== value) {
        spans.push({ start: node.start, end: node.end, to: JSON.stringify(to) });
        replacements.push({ ...at(node.start), from: value, to });
      }
    } else if (node.kind === "array") for (const item of node.items) dimensionNames(item, target, named);
    else if (node.kind === "object")
      for (const m of node.members) dimensionNames(m.value, target, DIMENSION_NAME_MEMBERS.has(m.key));
  };

  const walk = (node: JsonNode, member: string | undefined): void => {
    if (node.kind === "string") {
      stringNode(node, member !== undefined && KEY_MEMBERS.has(member));
      return;
    }
    if (node.kind === "array") {
      for (const item of node.items) walk(item, undefined);
      return;
    }
    if (node.kind !== "object") return;
    let target: RewriteTarget | undefined;
    for (const m of node.members) {
      if (m.value.kind === "string") target = stringNode(m.value, KEY_MEMBERS.has(m.key)) ?? target;
      else walk(m.value, m.key);
    }
    if (target)
      for (const m of node.members)
        if (DIMENSION_MEMBERS.has(m.key))
          dimensionNames(m.value, target, m.value.kind === "array" && m.key === "splitBy");
  };
  walk(root, undefined);
  const byPlace = (a: { line: number; column: number }, b: { line: number; column: number }) =>
    a.line - b.line || a.column - b.column;
  return {
    text: splice(text, spans),
    replacements: replacements.sort(byPlace),
    notRewritten: notRewritten.sort(byPlace),
  };
}

/** Rewrites one file's text: as JSON when it is JSON (exported dashboards, SLOs, events), else as text. */
export function rewriteReferences(text: string, table: RewriteTable): Rewritten {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    const parsed = parseJson(text);
    if (parsed.ok) return rewriteJson(text, parsed.root, table);
  }
  return rewritePlain(text, table);
}
