/**
 * The JMX data source: each EF1 metric collected from the same MBeans (domain and key properties, `,*` for
 * `allowAdditionalKeys`) and attribute, as a `count` (`calculateDelta`) or a `gauge`, each splitting a
 * `property:` dimension read from the key property it names. Metrics that share a query and exactly the same
 * dimensions share a subgroup; subgroups are at most 10 to a group, groups at most 10.
 */
import { obj, str, type Obj } from "../core/guards.js";
import type { DescriptorMigration } from "./context.js";
import { PROCESS_DIMENSION, RX_PID, type Ef1Metric } from "../core/ef2/key-map.js";
import { dimensionKey } from "../core/ef2/names.js";
import { ef2Selector } from "../core/ef2/selectors.js";
import { q, said } from "./notes.js";
import { ef2Unit, rateUnits } from "./units.js";
import type { YamlValue } from "./yaml.js";

/** The documented limits: subgroups per group, groups per data source. */
export const MAX_SUBGROUPS = 10;
export const MAX_GROUPS = 10;

/** The members of an EF1 JMX metric's `source` that this mapping reads. */
const SOURCE_MEMBERS = new Set([
  "domain",
  "keyProperties",
  "allowAdditionalKeys",
  "attribute",
  "calculateDelta",
  "calculateRate",
  "aggregation",
  "splitting",
  "splittings",
]);

interface Subgroup {
  subgroup: string;
  query: string;
  dimensions: { key: string; value: string }[];
  metrics: { key: string; value: string; type: string }[];
}

export interface JmxSource {
  jmx?: YamlValue;
  /** The `metrics:` entries (metadata, and the calculated per-second metrics). */
  metadata: YamlValue[];
  subgroups: number;
}

/** The MBean query of an EF1 source: `domain:k=v,…`, then `,*` for `allowAdditionalKeys`. */
function queryOf(m: DescriptorMigration, source: Obj, pointer: string): string {
  const domain = str(source.domain)!;
  const properties = Object.entries(obj(source.keyProperties) ?? {}).map(
    ([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`,
  );
  if (properties.length === 0) {
    // Dynatrace's converter writes `domain:,*` (or `domain:`): no ObjectName pattern.
    m.note(
      "changed",
      `${pointer}/keyProperties`,
      source.allowAdditionalKeys === true
        ? said`no key property is named: the query is the domain ${q(domain)} and \`:*\`, every MBean of the domain`
        : said`no key property is named; an EF2 query needs at least a pattern, so it is the domain ${q(domain)} and \`:*\`, every MBean of the domain`,
    );
    return `${domain}:*`;
  }
  return `${domain}:${properties.join(",")}${source.allowAdditionalKeys === true ? ",*" : ""}`;
}

/** The entity type EF2 attaches the metric to: the metric's `entity`, else the plugin's, in lower case. */
function entityOf(m: DescriptorMigration, metric: Ef1Metric): string {
  for (const entity of [metric.element.entity, m.doc.entity]) {
    const type = typeof entity === "string" ? entity.toLowerCase().replace(/[^a-z_]/g, "") : "";
    if (type) return type;
  }
  return "process_group_instance";
}

/** Notes about what a metric's EF1 members become, beyond the data source itself. */
function noteMetric(m: DescriptorMigration, metric: Ef1Metric, source: Obj): void {
  const sourcePointer = `/metrics/${metric.index}/source`;
  for (const member of Object.keys(source))
    if (!SOURCE_MEMBERS.has(member))
      m.note("dropped", `${sourcePointer}/${member}`, said`EF2's JMX data source has no counterpart of it`);
  const kept = metric.ef2.aggregation;
  if (kept !== undefined && kept !== "avg") {
    // A statcounter gives EF1's per-minute value; over a longer interval EF2 takes the same aggregation of
    // the MBeans' values, where EF1's charts applied the timeseries' own (AVG unless it says otherwise).
    const rollup = str(metric.spec.aggregation)?.toLowerCase() ?? "avg";
    if (rollup !== kept)
      m.note(
        "changed",
        `${sourcePointer}/aggregation`,
        said`\`${metric.ef2.selector}\` is EF1's value at one-minute resolution (the ${kept === "max" ? "maximum" : "minimum"} of the MBeans'); over a longer interval it is the ${kept === "max" ? "maximum" : "minimum"} of all their values, where EF1 took the ${rollup === "sum" ? "sum" : rollup === "max" ? "maximum" : rollup === "min" ? "minimum" : "average"} of the per-minute values`,
      );
  }
  const summed = metric.ef2.sumsInsteadOf;
  if (summed !== undefined)
    m.note(
      "changed",
      `${sourcePointer}/aggregation`,
      said`EF1 took the ${summed === "max" ? "maximum" : summed === "min" ? "minimum" : "average"} of the changes of the MBeans the query matches; EF2 adds counts up, which differs when it matches more than one: give the subgroup a dimension for the key property that tells those MBeans apart (\`property:<key>\`) and query \`${metric.ef2.key}:splitBy(<the other dimensions>):${summed}\``,
    );
  for (const d of metric.ef1.dimensions)
    if (d !== RX_PID && !metric.splittings.some((s) => s.name === d))
      m.note(
        "dropped",
        `${metric.pointer}/dimensions`,
        said`dimension ${q(d)} of metric ${q(metric.ef1.key)}: no splitting fills it, so EF2 has no value for it`,
      );
  for (const s of metric.splittings)
    if (!metric.ef1.dimensions.includes(s.name))
      m.note(
        "changed",
        s.pointer,
        said`metric ${q(metric.ef1.key)} is split by ${q(s.name)} without listing it in its \`dimensions\`; EF2 keeps the split, as dimension \`${dimensionKey(s.name)}\``,
      );
}

/** The JMX data source and the metrics' metadata; what cannot be converted is a blocker on `m`. */
export function jmxSource(m: DescriptorMigration, metrics: readonly Ef1Metric[]): JmxSource {
  const subgroups: Subgroup[] = [];
  const byQueryAndDimensions = new Map<string, Subgroup>();
  // Looked up, not searched: a plugin.json of tens of thousands of metrics converts in linear time.
  const subgroupNames = new Set<string>();
  const keysOf = new Map<Subgroup, Set<string>>();
  const metadata: YamlValue[] = [];
  const described = new Set<string>();
  for (const metric of metrics) {
    const sourcePointer = `/metrics/${metric.index}/source`;
    const source = obj(metric.element.source) ?? {};
    if (str(source.domain) === undefined || str(source.domain) === "") {
      m.block(
        sourcePointer,
        said`metric ${q(metric.ef1.key)} names no MBean (\`source.domain\`): EF2's JMX data source collects only attributes of MBeans`,
        said`name the MBean metric ${q(metric.ef1.key)} reads: \`source.domain\` and \`source.keyProperties\` (the ObjectName \`domain:key=value,…\`); a metric the agent computed itself (no MBean behind it) has no EF2 JMX form and needs a Python extension`,
      );
      continue;
    }
    const attribute = str(source.attribute);
    if (attribute === undefined || attribute === "") {
      m.block(
        sourcePointer,
        said`metric ${q(metric.ef1.key)} names no MBean attribute (\`source.attribute\`)`,
        said`name the attribute of the MBean that metric ${q(metric.ef1.key)} reads in \`source.attribute\``,
      );
      continue;
    }
    const unknown = metric.splittings.find((s) => s.type !== undefined && s.type !== "keyProperty");
    if (unknown) {
      m.block(
        unknown.pointer,
        said`a splitting of type ${q(unknown.type)} has no EF2 form (only \`keyProperty\` splittings become \`property:\` dimensions)`,
        said`split by a key property of the MBean's name instead (\`"type": "keyProperty"\` with its \`keyProperty\`), or write that dimension in the extension by hand (\`attribute:\` dimensions read an attribute)`,
      );
      continue;
    }
    noteMetric(m, metric, source);
    const query = queryOf(m, source, sourcePointer);
    const dimensions = metric.splittings.map((s) => ({
      key: dimensionKey(s.name),
      value: `property:${s.keyProperty}`,
    }));
    const clash = metric.splittings.find((a, i) =>
      metric.splittings.some((b, j) => j < i && dimensionKey(a.name) === dimensionKey(b.name)),
    );
    if (clash) {
      m.block(
        clash.pointer,
        said`two splittings of metric ${q(metric.ef1.key)} become the one EF2 dimension \`${dimensionKey(clash.name)}\` (EF2 dimension keys are lower case): rename one`,
        said`rename one of the splittings of metric ${q(metric.ef1.key)} (its \`name\`), so that their lower-case forms differ`,
      );
      continue;
    }
    const type = metric.ef2.type!;
    const identity = `${query}\n${JSON.stringify([...dimensions].sort((a, b) => (a.key < b.key ? -1 : 1)))}`;
    let subgroup = byQueryAndDimensions.get(identity);
    if (!subgroup) {
      // Named by its query, as Dynatrace's converter names it; a second subgroup of that query by its dimensions.
      const taken = subgroupNames.has(query);
      subgroup = {
        subgroup: taken ? `${query} by ${dimensions.map((d) => d.key).join(", ") || "no dimension"}` : query,
        query,
        dimensions,
        metrics: [],
      };
      byQueryAndDimensions.set(identity, subgroup);
      subgroups.push(subgroup);
      subgroupNames.add(subgroup.subgroup);
      keysOf.set(subgroup, new Set());
    }
    const keys = keysOf.get(subgroup)!;
    if (keys.has(metric.ef2.key)) continue; // the same EF1 metric written twice
    keys.add(metric.ef2.key);
    subgroup.metrics.push({
      key: metric.ef2.key,
      value: `attribute:${attribute}`,
      // EF1 combined the MBeans' values with AVG, MAX or MIN: a statcounter keeps them (key-map.ts).
      type: metric.ef2.aggregation ? "gauge_statcounter" : type,
    });

    if (described.has(metric.ef2.key)) continue;
    described.add(metric.ef2.key);
    const displayName = str(metric.spec.displayname) ?? metric.ef1.key;
    const declared = ef2Unit(metric.spec.unit);
    if (declared === undefined)
      m.note(
        "changed",
        `${metric.pointer}/unit`,
        said`${q(metric.spec.unit ?? "(none)")} is not a unit: EF2 says \`Unspecified\``,
      );
    const unit = declared ?? "Unspecified";
    const rate = metric.ef2.rateKey !== undefined;
    const units = rate ? rateUnits(unit) : { collected: unit };
    const entry: Record<string, YamlValue> = {
      displayName,
      description: displayName,
      unit: units.collected,
      tags: ["JMX"],
      sourceEntityType: entityOf(m, metric),
    };
    const dims = metric.splittings.map((s) => ({ key: dimensionKey(s.name), displayName: s.name }));
    if (dims.length) entry.dimensions = dims;
    metadata.push({ key: metric.ef2.key, metadata: entry });
    if (rate) {
      // EF1's per-second series at every resolution: a count's `:rate(1s)`, a gauge EF1 divided by its interval.
      const selector = ef2Selector({
        key: metric.ef2.key,
        type,
        ...(metric.ef2.aggregation ? { aggregation: metric.ef2.aggregation } : {}),
        perSecond: true,
      });
      metadata.push({
        key: metric.ef2.rateKey!,
        metadata: {
          displayName: `${displayName} (per second)`,
          description: `${displayName} per second: ${selector}`,
          unit: units.rate ?? "Unspecified",
          tags: ["JMX"],
          sourceEntityType: entityOf(m, metric),
        },
        query: { metricSelector: selector },
      });
      if (!units.rate)
        m.note(
          "changed",
          `${sourcePointer}/calculateRate`,
          said`Dynatrace has no per-second unit of ${unit}: the unit of \`${metric.ef2.rateKey!}\` (\`${selector}\`, EF1's per-second value) is \`Unspecified\``,
        );
    }
  }
  const rxPid = metrics.find((x) => x.ef1.dimensions.includes(RX_PID));
  if (rxPid)
    m.note(
      "changed",
      `${rxPid.pointer}/dimensions`,
      said`\`rx_pid\` (the process) is \`${PROCESS_DIMENSION}\`, which EF2 adds to every JMX metric itself: a process group instance is one process on one host`,
    );
  if (subgroups.length > MAX_SUBGROUPS * MAX_GROUPS)
    m.block(
      "/metrics",
      said`the metrics need ${subgroups.length} subgroups (distinct queries and dimensions); EF2 allows ${MAX_GROUPS} groups of ${MAX_SUBGROUPS}`,
      said`split the plugin into several plugin.json files of at most ${MAX_GROUPS * MAX_SUBGROUPS} distinct queries each, and migrate each`,
    );
  if (subgroups.length === 0) return { metadata, subgroups: 0 };
  const groups: YamlValue[] = [];
  for (let i = 0; i < subgroups.length; i += MAX_SUBGROUPS)
    groups.push({
      group: i === 0 ? "jmx" : `jmx-${i / MAX_SUBGROUPS + 1}`,
      subgroups: subgroups.slice(i, i + MAX_SUBGROUPS).map((s) => ({
        subgroup: s.subgroup,
        query: s.query,
        ...(s.dimensions.length ? { dimensions: s.dimensions } : {}),
        metrics: s.metrics,
      })),
    });
  return { jmx: { groups }, metadata, subgroups: subgroups.length };
}
