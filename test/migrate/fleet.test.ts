/**
 * The fleet's parts on their own (src/migrate/fleet.ts, mapping.ts, rewrite.ts; core/ef2/mapping.ts): the map
 * read and written back (problems with their lines, plugin names YAML would misread), collisions between
 * descriptors and with the map, and descriptor text inert wherever the run writes it: MIGRATION.md read with a
 * real Markdown parser, the map read back by a YAML parser, the rewritten JSON parsed.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readMigrationMap } from "../../src/core/ef2/mapping.js";
import { keyMap } from "../../src/core/ef2/key-map.js";
import { migrateFleet } from "../../src/migrate/fleet.js";
import { writeMigrationMap } from "../../src/migrate/mapping.js";
import { rewriteReferences, rewriteTable } from "../../src/migrate/rewrite.js";
import { liveParts } from "../markdown.js";
import { text } from "../helpers.js";

function jmx(name: string, metricGroup: string, keys: string[], extra: Record<string, unknown> = {}) {
  return {
    name,
    version: "1.0",
    type: "JMX",
    entity: "PROCESS_GROUP_INSTANCE",
    metricGroup,
    metrics: keys.map((key) => ({
      timeseries: { key, unit: "Count", displayname: key, dimensions: ["rx_pid", "Pool"] },
      source: {
        domain: "com.example",
        keyProperties: { type: "Pool", name: "*" },
        attribute: "A",
        splitting: { name: "Pool", type: "keyProperty", keyProperty: "name" },
      },
    })),
    ...extra,
  };
}

describe("the migration map", () => {
  it("reads entries, and refuses what is not a map, each problem with its line", () => {
    const ok = readMigrationMap(
      "plugins:\n  custom.jmx.a:\n    name: custom:acme.a\n    key_prefix: acme.a\n",
      "m.yml",
    );
    expect(ok.ok && [...ok.map.entries.values()]).toEqual([
      { plugin: "custom.jmx.a", name: "custom:acme.a", keyPrefix: "acme.a", metrics: [], line: 2 },
    ]);
    const bad = readMigrationMap(
      [
        "plugins:",
        "  a:",
        "    name: custom:x",
        "  b:",
        "    name: custom:x", // line 5: the name of `a` too
        "    key_prefix: -x", // line 6
        "    metrics: [a.b, 'c d']", // line 7
        "other: 1", // line 8
      ].join("\n"),
      "m.yml",
    );
    expect(bad.ok || bad.problems).toEqual([
      { message: "plugins.b.name: `custom:x` is the name of `a` too", line: 5 },
      {
        message: "plugins.b.key_prefix: not a prefix of EF2 metric keys: it starts with a digit or `-`",
        line: 6,
      },
      {
        message: "plugins.b.metrics[1]: not an EF2 metric key: it has characters other than `A-Za-z0-9_-.`",
        line: 7,
      },
      { message: "unknown key `other` (a map has `plugins:`)", line: 8 },
    ]);
    expect(readMigrationMap("", "m.yml")).toMatchObject({ ok: true });
    expect(readMigrationMap("a: *x", "m.yml")).toMatchObject({ ok: false });
  });

  it("writes plugin names YAML would misread so that they read back as written, and reads its own output back", () => {
    const names = ["yes", "__proto__", "a: b #c", "custom.jmx.\u202eevil\u0007"];
    const written = writeMigrationMap(
      undefined,
      names.map((plugin, i) => ({ plugin, name: `custom:p${i}`, keyPrefix: `p${i}`, metrics: [`p${i}.x`] })),
    );
    // eslint-disable-next-line no-control-regex
    expect(written).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    const plugins = (parse(written) as { plugins: Record<string, unknown> }).plugins;
    expect(Object.keys(plugins)).toEqual(names);
    const read = readMigrationMap(written, "m.yml");
    expect(read.ok && [...read.map.entries.keys()]).toEqual(names);
    expect(read.ok && writeMigrationMap(read.map, [])).toBe(written);
  });
});

describe("migrateFleet", () => {
  it("refuses both descriptors of one EF2 name, and a key two extensions would share; the map resolves them", () => {
    const inputs = [
      { file: "a/plugin.json", text: text(jmx("custom.jmx.a", "tech.same", ["x"])) },
      { file: "b/plugin.json", text: text(jmx("custom.jmx.b", "tech.same", ["y"])) },
      { file: "c/plugin.json", text: text(jmx("custom.jmx.c", "tech.other", ["x"])) },
    ];
    const run = migrateFleet(inputs);
    expect(run.collisions.map((c) => [c.kind, c.value, c.sides.map((s) => `${s.file}:${s.line}`)])).toEqual([
      ["name", "custom:tech.same", ["a/plugin.json:6", "b/plugin.json:6"]],
    ]);
    expect(run.entries.map((e) => e.result.converted)).toEqual([false, false, true]);
    const map = readMigrationMap("plugins:\n  custom.jmx.b:\n    name: custom:tech.other\n", "m.yml");
    if (!map.ok) throw new Error("map");
    const mapped = migrateFleet(inputs, { map: map.map });
    // b now shares c's name: a name collision; a is free.
    expect(mapped.collisions.map((c) => [c.kind, c.value])).toEqual([["name", "custom:tech.other"]]);
    const fixed = readMigrationMap(
      "plugins:\n  custom.jmx.b:\n    name: custom:tech.b\n    key_prefix: tech.other\n",
      "m.yml",
    );
    if (!fixed.ok) throw new Error("map");
    // b keeps c's key prefix: b's `y` is free, but a `x` of b would meet c's.
    const keyed = migrateFleet(
      [
        inputs[0]!,
        { file: "b/plugin.json", text: text(jmx("custom.jmx.b", "tech.same", ["x"])) },
        inputs[2]!,
      ],
      { map: fixed.map },
    );
    expect(keyed.collisions.map((c) => [c.kind, c.value, c.sides.map((s) => s.file)])).toEqual([
      ["key", "tech.other.x", ["b/plugin.json", "c/plugin.json"]],
    ]);
    expect(keyed.updates.map((u) => [u.plugin, u.name, u.keyPrefix])).toEqual([
      ["custom.jmx.a", "custom:tech.same", "tech.same"],
    ]);
  });

  it("refuses one EF1 plugin given twice under two EF2 names: the map could keep one of them only", () => {
    const run = migrateFleet([
      { file: "a/plugin.json", text: text(jmx("custom.jmx.same", "tech.one", ["x"])) },
      { file: "b/plugin.json", text: text(jmx("custom.jmx.same", "tech.two", ["y"])) },
    ]);
    expect(run.collisions.map((c) => [c.kind, c.value, c.sides.map((s) => `${s.file}:${s.line}`)])).toEqual([
      ["plugin", "custom.jmx.same", ["a/plugin.json:2", "b/plugin.json:2"]],
    ]);
    expect(run.updates).toEqual([]);
  });

  it("keeps descriptor text inert in a refused descriptor's MIGRATION.md (read with a Markdown parser)", () => {
    const evil = "custom.jmx.[x](http://evil) @octocat <img src=x>`";
    const inputs = [
      { file: "evil <b>/[p](http://e)/plugin.json", text: text(jmx(evil, "tech.same", ["k"])) },
      { file: "b/plugin.json", text: text(jmx("custom.jmx.b", "tech.same", ["k"])) },
    ];
    const run = migrateFleet(inputs);
    const md = run.entries[0]!.result.files.find((f) => f.path === "MIGRATION.md")!.content;
    expect(md).toMatch(/^# `+ ?custom\.jmx\.\[x\]/);
    const docs = "https://github.com/plugin-review/plugin-review/blob/main/docs/migrate.md";
    expect(liveParts(md, { href: (h) => h === docs })).toEqual([]);
  });
});

describe("rewriteReferences", () => {
  const map = keyMap({
    ...jmx("custom.jmx.pool", "tech.Pool", ["active", "created", "peak"]),
    metrics: [
      ...jmx("custom.jmx.pool", "tech.Pool", ["active"]).metrics,
      {
        timeseries: { key: "created", unit: "Count", displayname: "Created", dimensions: ["rx_pid"] },
        source: {
          domain: "com.example",
          keyProperties: { type: "Pool" },
          attribute: "C",
          calculateDelta: true,
        },
      },
      {
        timeseries: { key: "peak", unit: "Count", displayname: "Peak", dimensions: ["rx_pid"] },
        source: {
          domain: "com.example",
          keyProperties: { type: "Pool", name: "*" },
          attribute: "P",
          aggregation: "MAX",
          calculateRate: true,
        },
      },
    ],
  })!;
  const table = rewriteTable([map], ["tech.Pool"]);

  it("maps dimension names, keeps transformations, wraps an expression, and refuses what EF2 cannot say", () => {
    const r = rewriteReferences(
      [
        'a ext:tech.Pool.active:filter(eq("Pool","main")):splitBy("rx_pid")',
        "b ext:tech.Pool.created:sum",
        "c ext:tech.Pool.created",
        "d (ext:tech.Pool.peak)*2",
        "e context:tech.Pool.active",
        "f ext:tech.Pool.peak:max",
      ].join("\n"),
      table,
    );
    expect(r.text.split("\n")).toEqual([
      'a tech.pool.active:filter(eq("pool","main")):splitBy("dt.entity.process_group_instance")',
      // A count's own aggregation is EF1's over its per-minute changes.
      "b tech.pool.created.count:sum",
      "c tech.pool.created.count:rate(1m)",
      "d ((tech.pool.peak:max / 60))*2",
      "e context:tech.Pool.active",
      "f ext:tech.Pool.peak:max",
    ]);
    expect(r.notRewritten).toEqual([
      expect.objectContaining({ line: 6, column: 3, reference: "ext:tech.Pool.peak:max" }),
    ]);
  });

  it("in JSON: a member that takes a key gets a key, or a report when only a selector gives EF1's series; other bytes stay", () => {
    const json =
      '{\n  "metricId" : "ext:tech.Pool.peak",\n  "n":"\\u00e9",\n  "q": "ext:tech.Pool.active"\n}\n';
    const r = rewriteReferences(json, table);
    expect(r.text).toBe(
      '{\n  "metricId" : "ext:tech.Pool.peak",\n  "n":"\\u00e9",\n  "q": "tech.pool.active"\n}\n',
    );
    expect(r.notRewritten).toEqual([
      expect.objectContaining({
        line: 2,
        reference: "ext:tech.Pool.peak",
        why: expect.stringMatching(/takes a metric key/),
      }),
    ]);
  });
});
