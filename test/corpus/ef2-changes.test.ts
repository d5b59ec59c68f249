/**
 * The change rules on real extensions edited as real releases did (issue 41): counts' keys written with `.count`,
 * gauges made counts, a rollback that removed feature sets, a dimension dropped from many metrics, a metric's
 * type changed. Each pair is a corpus file (../shared/corpus/ef2/) and the same file edited, both written back by
 * the same YAML writer; the expected counts are computed here from the edit, not read from the tool. Skipped
 * when ../shared is absent.
 */
import { readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { resolveConfig } from "../../src/core/config.js";
import { analyseDescriptors } from "../../src/core/analyse.js";
import type { Finding } from "../../src/core/types.js";
import { describeUnless, withoutShared } from "../helpers.js";

const CORPUS = new URL("../../../shared/corpus/ef2/", import.meta.url);
type Obj = Record<string, unknown>;
type Metric = { key: string; type?: string; featureSet?: string; value?: string };
type Group = { featureSet?: string; dimensions?: { key: string }[]; metrics?: Metric[]; subgroups?: Group[] };

function corpus(prefix: string): Obj {
  const file = readdirSync(CORPUS).find((f) => f.startsWith(prefix))!;
  return parse(readFileSync(new URL(file, CORPUS), "utf8")) as Obj;
}

/** Every group and subgroup of a data source, with the feature set and dimensions its metrics inherit. */
function* levels(groups: Group[]): Generator<{ level: Group; featureSet?: string; dimensions: string[] }> {
  for (const g of groups) {
    const gDims = (g.dimensions ?? []).map((d) => d.key);
    yield { level: g, featureSet: g.featureSet, dimensions: gDims };
    for (const s of g.subgroups ?? [])
      yield {
        level: s,
        featureSet: s.featureSet ?? g.featureSet,
        dimensions: [...gDims, ...(s.dimensions ?? []).map((d) => d.key)],
      };
  }
}

const ingested = (m: Metric) =>
  /^count\b/.test(m.type ?? "") && !m.key.endsWith(".count") ? `${m.key}.count` : m.key;

/** The new findings of head against base (the change's own), by rule id. */
function newFindings(base: Obj, head: Obj): Map<string, Finding[]> {
  const [analysed] = analyseDescriptors(
    [
      {
        path: "src/extension.yaml",
        content: stringify(head),
        base: { path: "src/extension.yaml", content: stringify(base) },
        isNew: false,
      },
    ],
    resolveConfig(),
  );
  const out = new Map<string, Finding[]>();
  for (const f of analysed!.findings)
    if (f.baseline === "new") out.set(f.ruleId, [...(out.get(f.ruleId) ?? []), f]);
  return out;
}

const ids = (found: Map<string, Finding[]>) => [...found.keys()].sort();

describeUnless(withoutShared("corpus/ef2/"))(
  "change rules on releases made from the Extensions 2.0 corpus",
  () => {
    it("counts' keys written with `.count` (SNMP F5): the same metrics to Dynatrace, only the version rule", () => {
      const base = corpus("021");
      const head = structuredClone(base);
      let renamed = 0;
      for (const { level } of levels(head.snmp as Group[]))
        for (const m of level.metrics ?? [])
          if (m.type === "count" && !m.key.endsWith(".count")) {
            m.key += ".count";
            renamed++;
          }
      expect(renamed).toBeGreaterThan(50);
      const found = newFindings(base, head);
      expect(ids(found)).toEqual(["version-not-bumped"]);
      expect(found.get("version-not-bumped")![0]!.fix?.replacement).toBe('"2.2.1"');
    });

    it("gauges made counts, `.count` added to their keys (SNMP generic device): each is a type change", () => {
      const base = corpus("024");
      const head = structuredClone(base);
      head.version = "1.11.0";
      const changed: string[] = [];
      for (const { level } of levels(head.snmp as Group[]))
        for (const m of level.metrics ?? [])
          if ((m.type ?? "gauge") === "gauge" && changed.length < 12) {
            changed.push(m.key);
            m.type = "count";
            m.key += ".count";
          }
      const found = newFindings(base, head);
      expect(
        found
          .get("metric-type-changed")
          ?.map((f) => f.data?.key)
          .sort(),
      ).toEqual([...new Set(changed)].sort());
      expect(found.has("metric-removed")).toBe(false);
      expect(found.has("version-not-bumped")).toBe(false);
      for (const f of found.get("metric-type-changed")!) expect(f.severity).toBe("error");
    });

    it("a rollback (SNMP F5): the version lowered and four feature sets removed with their metrics", () => {
      const base = corpus("021");
      const head = structuredClone(base);
      head.version = "2.1.0";
      const dropped = new Set([
        "pool-advanced",
        "node-advanced",
        "virtualserver-advanced",
        "instance-memory-advanced",
      ]);
      const before = new Set<string>();
      const after = new Set<string>();
      for (const { level } of levels(base.snmp as Group[]))
        for (const m of level.metrics ?? []) before.add(ingested(m));
      for (const g of head.snmp as Group[]) {
        g.subgroups = (g.subgroups ?? []).filter((s) => !dropped.has(s.featureSet ?? g.featureSet ?? ""));
        for (const s of [g, ...g.subgroups])
          s.metrics = (s.metrics ?? []).filter(
            (m) => !dropped.has(m.featureSet ?? s.featureSet ?? g.featureSet ?? ""),
          );
      }
      for (const { level } of levels(head.snmp as Group[]))
        for (const m of level.metrics ?? []) after.add(ingested(m));
      const gone = [...before].filter((k) => !after.has(k));
      expect(gone.length).toBeGreaterThan(0);
      const found = newFindings(base, head);
      expect(found.get("version-decreased")).toHaveLength(1);
      expect(
        found
          .get("feature-set-removed")
          ?.map((f) => f.data?.name)
          .sort(),
      ).toEqual([...dropped].sort());
      expect(
        found
          .get("metric-removed")
          ?.map((f) => f.data?.key)
          .sort(),
      ).toEqual(gone.sort());
    });

    it("a dimension dropped from many metrics without a version change (Active Directory, `domain`)", () => {
      const base = corpus("004");
      base.version = "1.2.0"; // the build's placeholder, as the build writes it
      const head = structuredClone(base);
      const had = new Set<string>();
      for (const { level, dimensions } of levels(base.wmi as Group[]))
        if (dimensions.includes("domain")) for (const m of level.metrics ?? []) had.add(ingested(m));
      for (const { level } of levels(head.wmi as Group[]))
        if (level.dimensions) level.dimensions = level.dimensions.filter((d) => d.key !== "domain");
      // A key reported elsewhere with `domain` still has it.
      const still = new Set<string>();
      for (const { level, dimensions } of levels(head.wmi as Group[]))
        if (dimensions.includes("domain")) for (const m of level.metrics ?? []) still.add(ingested(m));
      const lost = [...had].filter((k) => !still.has(k));
      expect(lost.length).toBeGreaterThan(20);
      const found = newFindings(base, head);
      expect(ids(found)).toEqual(["metric-dimensions-changed", "version-not-bumped"]);
      expect(
        found
          .get("metric-dimensions-changed")
          ?.map((f) => f.data?.key)
          .sort(),
      ).toEqual(lost.sort());
      for (const f of found.get("metric-dimensions-changed")!) expect(f.data?.removed).toBe("`domain`");
    });

    it("one metric's type changed (SQL Oracle, a gauge made a count), with a higher version", () => {
      const base = corpus("025");
      base.version = "1.5.0";
      const head = structuredClone(base);
      head.version = "1.5.1";
      const group = (head.sqlOracle as Group[]).find((g) => g.metrics?.some((m) => m.type === "gauge"))!;
      const metric = group.metrics!.find((m) => m.type === "gauge")!;
      metric.type = "count";
      const found = newFindings(base, head);
      expect(found.get("metric-type-changed")?.map((f) => [f.data?.key, f.data?.ingested])).toEqual([
        [metric.key, `${metric.key}.count`],
      ]);
      expect(found.has("version-not-bumped")).toBe(false);
    });
  },
);
