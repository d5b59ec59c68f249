/**
 * The real corpus (../shared/corpus/real/) as users migrate it: metric-keys.json names every EF1 metric by the
 * id dashboards query (`ext:<metricGroup>.<key>`) and gives the EF2 selector of the same series; every
 * descriptor with charts gets a dashboard of one tile per chart (and key metric), each reading a metric its
 * extension.yaml defines, valid against schemas/dashboard.schema.json (compiled here by a validator of its
 * own); and the corpus migrated as one fleet converts or refuses each descriptor with a MIGRATION.md, with no
 * two extensions of one name or one key. Skipped when the corpus is not beside the repository.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { expect, it } from "vitest";
import { migrate } from "../../src/migrate/migrate.js";
import { keysOf, migrateFleet } from "../../src/migrate/fleet.js";
import { describeUnless, ROOT } from "../helpers.js";
import { extensionOf, file, subgroupsOf, type Json } from "./helpers.js";

const CORPUS = new URL("../../../shared/corpus/real/", import.meta.url);
const exists = existsSync(CORPUS);
const files = exists
  ? readdirSync(CORPUS)
      .filter((f) => f.endsWith(".json"))
      .sort()
  : [];
const read = (f: string) => readFileSync(new URL(f, CORPUS), "utf8");

const dashboardSchema = JSON.parse(readFileSync(join(ROOT, "schemas/dashboard.schema.json"), "utf8")) as Json;
const validateDashboard = new Ajv({ allErrors: true, strict: false }).compile(dashboardSchema);

interface Keys {
  metrics: {
    ef1: { key: string; id?: string; selector?: string; dimensions: string[] };
    ef2: { key: string; selector: string; rateKey?: string };
  }[];
}

describeUnless(!exists && `${CORPUS.pathname} is absent`)("the real corpus, migrated as a fleet", () => {
  it.each(files)("%s: every metric's ext: id and EF2 selector; its charts as a dashboard", (f) => {
    const doc = JSON.parse(read(f)) as Json & { metricGroup?: string; name?: string; ui?: Json };
    const r = migrate(read(f));
    if (!r.converted) {
      // A descriptor that is not converted still names every metric's id, in its MIGRATION.md.
      const md = r.files.find((x) => x.path === "MIGRATION.md")!.content;
      for (const m of (doc.metrics as Json[] | undefined) ?? []) {
        const key = (m.timeseries as Json | undefined)?.key as string | undefined;
        if (key !== undefined) expect(md).toContain(`\`ext:${doc.metricGroup ?? doc.name}.${key}\``);
      }
      return;
    }
    const keys = JSON.parse(file(r, "metric-keys.json")) as Keys;
    const ext = extensionOf(r);
    const defined = new Set([
      ...subgroupsOf(r).flatMap((s) => s.metrics.map((m) => m.key)),
      ...((ext.metrics as { key: string }[] | undefined) ?? []).map((m) => m.key),
    ]);
    for (const m of keys.metrics) {
      expect(m.ef1.id).toBe(`ext:${doc.metricGroup ?? doc.name}.${m.ef1.key}`);
      expect(m.ef1.selector?.startsWith(m.ef1.id!)).toBe(true);
      expect(m.ef2.selector.startsWith(`${m.ef2.key}`)).toBe(true);
      expect(defined.has(m.ef2.key), m.ef2.key).toBe(true);
    }
    const csv = file(r, "metric-keys.csv").split("\r\n");
    expect(csv[0]).toMatch(/,ef1_id,ef1_selector,ef2_selector,dimension_keys,ef2_aggregation$/);

    const ui = (doc.ui ?? {}) as { charts?: unknown[]; keycharts?: unknown[]; keymetrics?: unknown[] };
    const charts = (ui.charts?.length ?? 0) + (ui.keycharts?.length ?? 0) + (ui.keymetrics?.length ?? 0);
    if (!charts) {
      expect(ext.dashboards).toBeUndefined();
      return;
    }
    const [listed] = ext.dashboards as { path: string }[];
    const dashboard = JSON.parse(file(r, `extension/${listed!.path}`)) as {
      tiles: { tileType: string; queries?: { metric: string; metricSelector: string }[] }[];
    };
    expect(validateDashboard(dashboard), JSON.stringify(validateDashboard.errors)).toBe(true);
    const data = dashboard.tiles.filter((t) => t.tileType === "DATA_EXPLORER");
    expect(data).toHaveLength(charts);
    for (const t of data)
      for (const q of t.queries!) {
        expect(defined.has(q.metric), q.metric).toBe(true);
        expect(q.metricSelector.startsWith(q.metric)).toBe(true);
      }
    expect(file(r, "MIGRATION.md")).toContain(`[extension/${listed!.path}](extension/${listed!.path})`);
  });

  it("one run over the whole corpus: each descriptor converted or refused with its MIGRATION.md, no name or key twice", () => {
    const run = migrateFleet(files.map((f) => ({ file: f, text: read(f) })));
    for (const e of run.entries) expect(e.result.files.map((x) => x.path)).toContain("MIGRATION.md");
    const converted = run.entries.flatMap((e) => (e.result.converted ? [e.result] : []));
    const names = converted.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    const keys = converted.flatMap(keysOf);
    expect(new Set(keys).size).toBe(keys.length);
    // The corpus holds copies of one EF1 plugin: they are refused, naming each other; and an unrelated plugin of
    // their metric group (`tech.extension`): it is converted, named from its EF1 `name`.
    expect(run.collisions.length).toBeGreaterThan(0);
    const convertedFiles = new Set(run.entries.filter((e) => e.result.converted).map((e) => e.file));
    for (const c of run.collisions) {
      for (const s of c.sides) expect(s.line).toBeGreaterThan(0);
      // Copies of one plugin; or a plugin named from its EF1 `name` (converted) and a copy refused.
      if (c.sides[0].plugin !== c.sides[1].plugin)
        expect(c.sides.map((s) => convertedFiles.has(s.file!) && s.now !== undefined).sort()).toEqual([
          false,
          true,
        ]);
    }
    // metric-filter shares `tech.extension` with the copies of isilonQuota (refused): named from its EF1 `name`.
    expect(run.collisions.map((c) => c.sides.map((s) => s.now))).toContainEqual([
      undefined,
      "custom:remote.python.metricfilter",
    ]);
    // Resolved: every descriptor of it converted (none in this corpus: the copies are refused).
    for (const c of run.resolved) for (const s of c.sides) expect(convertedFiles.has(s.file!)).toBe(true);
  });
});
