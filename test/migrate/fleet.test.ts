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
import { plain } from "../../src/migrate/notes.js";
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

  it("is read as the review reads an extension.yaml: a flow list continued at its key's column, as Dynatrace's parser takes it", () => {
    // The review reads an extension.yaml so (formats.ts); `migrate --map` and the review's `migration_map`
    // refused the same style in the map ("Flow sequence in block collection must be sufficiently indented").
    const text =
      "plugins:\n  custom.jmx.a:\n    name: custom:acme.a\n    metrics: [acme.a.x,\n    acme.a.y]\n";
    const read = readMigrationMap(text, "m.yml");
    expect(read.ok && [...read.map.entries.values()]).toEqual([
      { plugin: "custom.jmx.a", name: "custom:acme.a", metrics: ["acme.a.x", "acme.a.y"], line: 2 },
    ]);
    // Its refusals are the review's too, at the line the review names.
    const bad = readMigrationMap("plugins:\n  a:\n    name: x\n   key_prefix: y\n", "m.yml");
    expect(bad.ok || bad.problems).toEqual([
      {
        message: expect.stringMatching(/^not readable as YAML: bad indentation of a mapping entry/),
        line: 4,
      },
    ]);
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
  it("names both descriptors of one derived EF2 name from their EF1 `name`, and converts them; the map's names win", () => {
    const inputs = [
      { file: "a/plugin.json", text: text(jmx("custom.jmx.a", "tech.same", ["x"])) },
      { file: "b/plugin.json", text: text(jmx("custom.jmx.b", "tech.same", ["y"])) },
      { file: "c/plugin.json", text: text(jmx("custom.jmx.c", "tech.other", ["x"])) },
    ];
    const run = migrateFleet(inputs);
    expect(run.collisions).toEqual([]);
    expect(
      run.resolved.map((c) => [c.kind, c.value, c.sides.map((s) => `${s.file}:${s.line} ${s.now}`)]),
    ).toEqual([
      ["name", "custom:tech.same", ["a/plugin.json:6 custom:jmx.a", "b/plugin.json:6 custom:jmx.b"]],
    ]);
    expect(run.entries.map((e) => e.result.converted && [e.result.name, e.renamed?.from])).toEqual([
      ["custom:jmx.a", "custom:tech.same"],
      ["custom:jmx.b", "custom:tech.same"],
      ["custom:tech.other", undefined],
    ]);
    // Its keys follow its name, and MIGRATION.md says why it is not the name Dynatrace's converter gives.
    const a = run.entries[0]!.result;
    expect(a.converted && a.keyMap.metrics.map((m) => m.ef2.key)).toEqual(["jmx.a.x"]);
    expect(a.files.find((f) => f.path === "MIGRATION.md")!.content).toContain(
      "- line 6, `metricGroup`: Dynatrace's converter would name the extension `custom:tech.same`, but `b/plugin.json` line 6 has that name too: it is named from its EF1 `name` instead",
    );
    expect(run.updates.map((u) => [u.plugin, u.name, u.keyPrefix])).toEqual([
      ["custom.jmx.a", "custom:jmx.a", "jmx.a"],
      ["custom.jmx.b", "custom:jmx.b", "jmx.b"],
      ["custom.jmx.c", "custom:tech.other", "tech.other"],
    ]);

    // The map gives b c's name: c, named as derived, takes its EF1 name; b keeps the one the map gives.
    const map = readMigrationMap("plugins:\n  custom.jmx.b:\n    name: custom:tech.other\n", "m.yml");
    if (!map.ok) throw new Error("map");
    const mapped = migrateFleet(inputs, { map: map.map });
    expect(mapped.collisions).toEqual([]);
    expect(mapped.entries.map((e) => e.result.converted && e.result.name)).toEqual([
      "custom:tech.same",
      "custom:tech.other",
      "custom:jmx.c",
    ]);
    // A key the map's key prefix gives b meets c's: c again.
    const keyed = readMigrationMap(
      "plugins:\n  custom.jmx.b:\n    name: custom:tech.b\n    key_prefix: tech.other\n",
      "m.yml",
    );
    if (!keyed.ok) throw new Error("map");
    const run3 = migrateFleet(
      [
        inputs[0]!,
        { file: "b/plugin.json", text: text(jmx("custom.jmx.b", "tech.same", ["x"])) },
        inputs[2]!,
      ],
      { map: keyed.map },
    );
    expect(run3.resolved.map((c) => [c.kind, c.value, c.sides.map((s) => s.now)])).toEqual([
      ["key", "tech.other.x", [undefined, "custom:jmx.c"]],
    ]);
  });

  it("refuses what naming from the EF1 `name` does not resolve: copies of one plugin, a name another descriptor derives", () => {
    const run = migrateFleet([
      { file: "a/plugin.json", text: text(jmx("custom.jmx.a", "tech.same", ["x"])) },
      { file: "b/plugin.json", text: text(jmx("custom.jmx.b", "tech.same", ["y"])) },
      // Its metricGroup derives the name a's EF1 name gives: a yields, d keeps it.
      { file: "d/plugin.json", text: text(jmx("custom.jmx.d", "jmx.a", ["z"])) },
      // Two copies of one EF1 plugin: nothing tells them apart.
      { file: "e1/plugin.json", text: text(jmx("custom.jmx.e", "tech.e", ["x"])) },
      { file: "e2/plugin.json", text: text(jmx("custom.jmx.e", "tech.e", ["x"])) },
    ]);
    expect(run.entries.map((e) => [e.file, e.result.converted && e.result.name])).toEqual([
      ["a/plugin.json", false],
      ["b/plugin.json", "custom:jmx.b"],
      ["d/plugin.json", "custom:jmx.a"],
      ["e1/plugin.json", false],
      ["e2/plugin.json", false],
    ]);
    expect(run.collisions.map((c) => [c.kind, c.value, c.sides.map((s) => s.file)])).toEqual([
      ["name", "custom:jmx.a", ["a/plugin.json", "d/plugin.json"]],
      ["name", "custom:tech.e", ["e1/plugin.json", "e2/plugin.json"]],
      ["name", "custom:tech.same", ["a/plugin.json", "b/plugin.json"]],
    ]);
    // a's reasons: the collision that had it renamed, then the one its EF1 name meets.
    const a = run.entries[0]!.result;
    expect(!a.converted && a.reasons.map((r) => plain(r.text))).toEqual([
      expect.stringMatching(/^its EF2 name `custom:tech\.same` is also the name of "b\/plugin\.json" line 6/),
      expect.stringMatching(/^its EF2 name `custom:jmx\.a` is also the name of "d\/plugin\.json" line 6/),
    ]);
    expect(run.resolved).toEqual([]);
  });

  it("says why a descriptor was not named from its EF1 `name`: the name that would be, over the limit, and what to do", () => {
    const long = "custom.jmx.a_very_long_plugin_name_that_goes_on_and_on_forever";
    const run = migrateFleet([
      { file: "a/plugin.json", text: text(jmx(long, "tech.same", ["x"])) },
      {
        file: "b/plugin.json",
        text: text(jmx("custom.jmx.another_very_long_plugin_name_that_goes_on_forever", "tech.same", ["y"])),
      },
    ]);
    const a = run.entries[0]!.result;
    expect(a.converted).toBe(false);
    const reason = !a.converted ? a.reasons[0]! : undefined;
    expect(plain(reason!.text)).toContain(
      'naming it from its EF1 `name` instead, as a fleet\'s collision otherwise is, would give "custom:jmx.a.very.long.plugin.name.that.goes.on.and.on.forever", which is not a valid EF2 name: it is 62 characters long (at most 50)',
    );
    expect(plain(reason!.fix!)).toBe(
      `give EF1 plugin "${long}" an EF2 name of at most 50 characters in the map (\`--map\`: \`plugins: <EF1 name>: { name: custom:… }\`), or migrate it alone with \`--name custom:…\`; docs/migrate.md, "Migrating a fleet"`,
    );
    const md = a.files.find((f) => f.path === "MIGRATION.md")!.content;
    expect(md).toContain(
      "`custom:jmx.a.very.long.plugin.name.that.goes.on.and.on.forever`, which is not a valid EF2 name",
    );
  });

  it("lists a collision as resolved only when every descriptor of it was converted: not with a copy refused", () => {
    const copy = text(jmx("custom.jmx.e", "tech.same", ["x"]));
    const run = migrateFleet([
      { file: "e1/plugin.json", text: copy },
      { file: "e2/plugin.json", text: copy },
      // Its metricGroup derives the copies' name: it is named from its EF1 `name`, the copies refused.
      { file: "b/plugin.json", text: text(jmx("custom.jmx.b", "tech.same", ["y"])) },
    ]);
    expect(run.entries.map((e) => [e.file, e.result.converted && e.result.name])).toEqual([
      ["e1/plugin.json", false],
      ["e2/plugin.json", false],
      ["b/plugin.json", "custom:jmx.b"],
    ]);
    expect(run.resolved).toEqual([]);
    // The collision that had b renamed is listed with the refused, b's side with the name it now has.
    expect(
      run.collisions.map((c) => [c.kind, c.value, c.sides.map((s) => `${s.file} ${s.now ?? "-"}`)]),
    ).toEqual([
      ["name", "custom:tech.same", ["e1/plugin.json -", "e2/plugin.json -"]],
      ["name", "custom:tech.same", ["e1/plugin.json -", "b/plugin.json custom:jmx.b"]],
    ]);
  });

  it("three copies of one plugin: each MIGRATION.md counts them and says what to do once", () => {
    const copy = text(jmx("custom.jmx.e", "tech.e", ["x"]));
    const run = migrateFleet(["e1", "e2", "e3"].map((f) => ({ file: `${f}/plugin.json`, text: copy })));
    for (const e of run.entries) {
      expect(e.result.converted).toBe(false);
      const md = e.result.files.find((f) => f.path === "MIGRATION.md")!.content;
      const todo = md.split("## What to do\n\n")[1]!.split("\n\n")[0]!;
      expect(todo).toBe(
        "- line 6: migrate one of the 3 copies of EF1 plugin `custom.jmx.e`: the map cannot tell them apart",
      );
    }
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

  it("keeps descriptor text inert in MIGRATION.md, refused or renamed (read with a Markdown parser)", () => {
    const evil = "custom.jmx.[x](http://evil) @octocat <img src=x>`";
    const evilFile = "evil <b>/[p](http://e)/plugin.json";
    // Two copies of one plugin (refused), and one whose name meets theirs (named from its EF1 `name`).
    const run = migrateFleet([
      { file: evilFile, text: text(jmx(evil, "tech.same", ["k"])) },
      { file: "copy/plugin.json", text: text(jmx(evil, "tech.same", ["k"])) },
      { file: "b/plugin.json", text: text(jmx("custom.jmx.b", "tech.same", ["k"])) },
    ]);
    expect(run.entries.map((e) => e.result.converted)).toEqual([false, false, true]);
    const docs = "https://github.com/plugin-review/plugin-review/blob/main/docs/migrate.md";
    const md = (i: number) => run.entries[i]!.result.files.find((f) => f.path === "MIGRATION.md")!.content;
    expect(md(0)).toMatch(/^# `+ ?custom\.jmx\.\[x\]/);
    expect(liveParts(md(0), { href: (h) => h === docs })).toEqual([]);
    expect(md(2)).toContain("but `evil <b>/[p](http://e)/plugin.json` line 6 has that name too");
    expect(liveParts(md(2), { href: (h) => h.startsWith(`${docs}#`) })).toEqual([]);
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
