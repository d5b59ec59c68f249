/**
 * `plugin-review migrate` over a fleet, as a user runs it (the built CLI, real files): the fixture
 * test/migrate/fleet/ has two pairs of plugins that derive one EF2 name and two whose metric keys meet; the
 * run refuses them naming both sides, the map resolves them (and the map, read again, gives the same bytes),
 * the prefixes and the map's other plugins; refused descriptors get their MIGRATION.md; `--rewrite` rewrites
 * exported dashboards, SLOs and metric events (test/migrate/rewrite/) and leaves every other byte as it is.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, text, validHost } from "../helpers.js";
import { cli, ensureBuilt } from "./run.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-fleet-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FLEET = "test/migrate/fleet";
/** What migrate wrote in a migration's folder, with each file's digest (a later run overwrites only those). */
const MANIFEST = ".plugin-review-migrate.json";
const at = (folder: string) => `${FLEET}/${folder}/plugin.json`;
/** The CLI's output with each line it broke to fit 80 columns (COLUMNS unset) joined again. */
const joined = (output: string) => output.replace(/\n {4}/g, " ");

/** Every file below `root`, relative to it, sorted. */
function tree(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(root, join(d.parentPath, d.name)).split("\\").join("/"))
    .sort();
}

/** Every file below `root` with its bytes. */
function bytes(root: string): Record<string, string> {
  return Object.fromEntries(tree(root).map((f) => [f, readFileSync(join(root, f), "latin1")]));
}

interface MetricKeys {
  name: string;
  metrics: { ef1: { id: string }; ef2: { key: string; rateKey?: string; selector: string } }[];
}

function metricKeys(out: string): MetricKeys[] {
  return (
    tree(out)
      // <name>/metric-keys.json (a Python project holds a copy in its module)
      .filter((f) => /^[^/]+\/metric-keys\.json$/.test(f))
      .map((f) => JSON.parse(readFileSync(join(out, f), "utf8")) as MetricKeys)
  );
}

describe("plugin-review migrate: a fleet", () => {
  it("resolves two name collisions and a key collision by the EF1 names, naming both descriptors and their lines (exit 1); the map records them", () => {
    const work = join(dir, "colliding");
    const out = join(work, "out");
    const map = join(work, "migrate.yml");
    const r = cli(["migrate", FLEET, "--out", out, "--map", map]);
    expect(r.status).toBe(1);
    expect(joined(r.stderr)).toBe(
      'plugin-review: 2 name collisions and 1 key collision resolved: the descriptors involved were converted, named from their EF1 `name` instead of their `metricGroup` (record the names with --map: docs/migrate.md, "Migrating a fleet")\n' +
        `  name custom:tech.certificatecheck: ${at("cert-a")}:6 (now custom:remote.python.certcheck.a) and ${at("cert-b")}:7 (now custom:python.certcheck.b)\n` +
        `  name custom:tech.extension: ${at("ext-a")}:6 (now custom:remote.python.isilon) and ${at("ext-b")}:6 (now custom:remote.python.metricfilter)\n` +
        `  key tech.queue.messages.count: ${at("queue-jmx")}:10 (now custom:jmx.queue) and ${at("queue-py")}:11 (now custom:python.queue.messages)\n`,
    );
    // Nothing lost: every descriptor converted and written, under seven names and keys that meet nowhere.
    expect(joined(r.stdout)).toMatch(
      /✖ 7 descriptors: 2 converted, 5 partly \(MIGRATION\.md lists what is not carried over\), 0 refused\n$/,
    );
    const keys = metricKeys(out);
    expect(keys.map((k) => k.name).sort()).toEqual([
      "custom:jmx.queue",
      "custom:python.certcheck.b",
      "custom:python.queue.messages",
      "custom:remote.python.certcheck.a",
      "custom:remote.python.isilon",
      "custom:remote.python.metricfilter",
      "custom:tech.demo.pool",
    ]);
    const all = keys.flatMap((k) => k.metrics.map((m) => m.ef2.key));
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain("jmx.queue.messages.count");
    const md = readFileSync(join(out, "jmx.queue/MIGRATION.md"), "utf8");
    expect(md).toContain(
      `- line 7, \`metricGroup\`: Dynatrace's converter would name the extension \`custom:tech.queue\`, but its metric key \`tech.queue.messages.count\` would also be a key of \`${at("queue-py")}\` line 11: it is named from its EF1 \`name\` instead`,
    );
    // The map records the names; the same run again meets no collision (exit 0) and writes the same
    // extensions (MIGRATION.md no longer notes a collision: the map names them).
    expect(readFileSync(map, "utf8")).toMatch(/^ {2}custom\.jmx\.queue:\n {4}name: custom:jmx\.queue\n/m);
    // (and the record of what was written, which holds MIGRATION.md's digest)
    const extensions = () =>
      Object.entries(bytes(work)).filter(([f]) => !f.endsWith("MIGRATION.md") && !f.endsWith(MANIFEST));
    const before = extensions();
    const again = cli(["migrate", FLEET, "--out", out, "--map", map]);
    expect(joined(again.stderr)).toBe("");
    expect(again.status).toBe(0);
    expect(extensions()).toEqual(before);
  });

  it("refuses the collisions the EF1 names do not resolve (two copies of one plugin), naming both (exit 1)", () => {
    const work = join(dir, "copies");
    mkdirSync(join(work, "in/copy"), { recursive: true });
    cpSync(join(ROOT, FLEET, "ext-a"), join(work, "in/ext-a"), { recursive: true });
    cpSync(join(ROOT, FLEET, "ext-a/plugin.json"), join(work, "in/copy/plugin.json"));
    cpSync(join(ROOT, FLEET, "pool"), join(work, "in/pool"), { recursive: true });
    const r = cli(["migrate", "in", "--out", "out"], work);
    expect(r.status).toBe(1);
    expect(joined(r.stderr)).toContain(
      'plugin-review: 1 name collision: the descriptors involved were not converted (resolve with --map, --name-prefix or --key-prefix: docs/migrate.md, "Migrating a fleet")\n' +
        "  name custom:tech.extension: in/copy/plugin.json:6 and in/ext-a/plugin.json:6\n",
    );
    expect(joined(r.stderr)).toContain(
      'plugin-review: in/copy/plugin.json: not converted:\n  line 6: its EF2 name `custom:tech.extension` is also the name of "in/ext-a/plugin.json" line 6, the same EF1 plugin "custom.remote.python.isilon": in a Dynatrace environment the second upload would replace the first\n',
    );
    expect(joined(r.stdout)).toMatch(/✖ 3 descriptors: 0 converted, 1 partly .*, 2 refused\n$/);
    // Nothing of the copies but their MIGRATION.md, which says why and what to do.
    for (const folder of ["out/tech.extension", "out/tech.extension-2"])
      expect(tree(join(work, folder))).toEqual([MANIFEST, "MIGRATION.md"]);
    expect(readFileSync(join(work, "out/tech.extension/MIGRATION.md"), "utf8")).toMatch(
      /## What to do\n\n- line 6: migrate one of the two copies of EF1 plugin `custom\.remote\.python\.isilon`/,
    );
  });

  it("gives copies the same folders and the same MIGRATION.md whatever the order of the arguments; a re-run keeps each in its folder", () => {
    const work = join(dir, "copies-order");
    for (const copy of ["c1", "c2", "c3"]) {
      mkdirSync(join(work, "in", copy), { recursive: true });
      cpSync(join(ROOT, FLEET, "ext-a/plugin.json"), join(work, "in", copy, "plugin.json"));
    }
    const given = (order: string[], out: string) =>
      cli(["migrate", ...order.map((c) => `in/${c}`), "--out", out], work);
    expect(given(["c3", "c1", "c2"], "out1").status).toBe(1);
    const r = given(["c1", "c2", "c3"], "out2");
    expect(r.status).toBe(1);
    expect(bytes(join(work, "out1"))).toEqual(bytes(join(work, "out2")));
    // In the order of their paths; reported in the order given.
    expect(readFileSync(join(work, "out2/tech.extension-3", MANIFEST), "utf8")).toContain(
      '"from": "../../in/c3/plugin.json"',
    );
    expect(joined(given(["c3", "c1", "c2"], "out1").stderr)).toMatch(
      /^plugin-review: in\/c3\/plugin\.json: not converted:\n {2}line 6: its EF2 name `custom:tech\.extension` is also the name of "in\/c1\/plugin\.json"/,
    );
    // One copy gone: the others keep their folders (the first's is left as it is, its plugin gone).
    rmSync(join(work, "in/c1"), { recursive: true });
    expect(given(["c2", "c3"], "out2").status).toBe(1);
    for (const [folder, copy] of [
      ["tech.extension-2", "c2"],
      ["tech.extension-3", "c3"],
    ])
      expect(readFileSync(join(work, "out2", folder!, MANIFEST), "utf8")).toContain(
        `"from": "../../in/${copy}/plugin.json"`,
      );
    expect(readFileSync(join(work, "out2/tech.extension", MANIFEST), "utf8")).toContain(
      '"from": "../../in/c1/plugin.json"',
    );
  });

  it("lists as resolved only what was converted: a plugin renamed because of a refused copy's name is listed with the refused, with its new name", () => {
    const work = join(dir, "copies-and-other");
    mkdirSync(join(work, "in/copy"), { recursive: true });
    cpSync(join(ROOT, FLEET, "ext-a"), join(work, "in/ext-a"), { recursive: true });
    cpSync(join(ROOT, FLEET, "ext-a/plugin.json"), join(work, "in/copy/plugin.json"));
    // Another plugin of the same metricGroup: named from its EF1 `name`, converted.
    cpSync(join(ROOT, FLEET, "ext-b"), join(work, "in/ext-b"), { recursive: true });
    const r = cli(["migrate", "in", "--out", "out"], work);
    expect(r.status).toBe(1);
    expect(joined(r.stderr)).not.toContain("resolved");
    expect(joined(r.stderr)).toContain(
      'plugin-review: 2 name collisions: the descriptors involved were not converted, but those shown with the name they now have, named from their EF1 `name` (resolve with --map, --name-prefix or --key-prefix: docs/migrate.md, "Migrating a fleet")\n' +
        "  name custom:tech.extension: in/copy/plugin.json:6 and in/ext-a/plugin.json:6\n" +
        "  name custom:tech.extension: in/copy/plugin.json:6 and in/ext-b/plugin.json:6 (now custom:remote.python.metricfilter)\n",
    );
    expect(joined(r.stdout)).toMatch(/✖ 3 descriptors: 0 converted, 1 partly .*, 2 refused\n$/);
    expect(tree(join(work, "out/remote.python.metricfilter"))).toContain("extension/extension.yaml");
  });

  it("with --map, converts them all with unique names and keys (exit 0); the map read again gives the same bytes", () => {
    const work = join(dir, "mapped");
    mkdirSync(work);
    cpSync(join(ROOT, FLEET, "migrate.yml"), join(work, "migrate.yml"));
    const run = () =>
      cli(["migrate", join(ROOT, FLEET), "--map", join(work, "migrate.yml"), "--out", join(work, "out")]);
    const first = run();
    expect(joined(first.stderr)).toBe("");
    expect(first.status).toBe(0);
    expect(joined(first.stdout)).toMatch(/✔ 7 descriptors: 2 converted, 5 partly/);
    const keys = metricKeys(join(work, "out"));
    const names = keys.map((k) => k.name);
    expect(new Set(names).size).toBe(7);
    expect(names.sort()).toEqual([
      "custom:acme.certcheck.host",
      "custom:acme.certcheck.remote",
      "custom:acme.metricfilter",
      "custom:tech.demo.pool",
      "custom:tech.extension",
      "custom:tech.queue",
      "custom:tech.queue.messages",
    ]);
    const all = keys.flatMap((k) =>
      k.metrics.flatMap((m) => [m.ef2.key, ...(m.ef2.rateKey ? [m.ef2.rateKey] : [])]),
    );
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain("acme.queue.messages.count");
    // The map now records every plugin of the run: a later run (in steps) is checked against it.
    const map = readFileSync(join(work, "migrate.yml"), "utf8");
    expect(map).toMatch(
      /^ {2}custom\.python\.queue_messages:\n {4}name: custom:tech\.queue\.messages\n {4}key_prefix: acme\.queue\.messages\n/m,
    );
    expect(map).toMatch(/^ {2}custom\.jmx\.queue:\n {4}name: custom:tech\.queue\n/m);
    const before = bytes(work);
    const second = run();
    expect(second.status).toBe(0);
    expect(bytes(work)).toEqual(before);
  });

  it("--name-prefix and --key-prefix put a section before every derived name and key prefix", () => {
    const out = join(dir, "prefixed");
    const r = cli([
      "migrate",
      at("pool"),
      at("queue-jmx"),
      "--name-prefix",
      "acme",
      "--key-prefix",
      "corp",
      "--out",
      out,
    ]);
    expect(r.status).toBe(0);
    const keys = metricKeys(out);
    expect(keys.map((k) => k.name).sort()).toEqual(["custom:acme.tech.demo.pool", "custom:acme.tech.queue"]);
    expect(keys.flatMap((k) => k.metrics.map((m) => m.ef2.key))).toContain("corp.tech.demo.pool.pool_active");
    expect(keys.flatMap((k) => k.metrics.map((m) => m.ef2.key))).toContain("corp.tech.queue.messages.count");
    // Two plugins of one derived name: each named from its EF1 `name`, the prefix before it.
    const both = cli(["migrate", at("ext-a"), at("ext-b"), "--name-prefix", "acme", "--format", "json"]);
    expect(both.status).toBe(1);
    expect((JSON.parse(both.stdout) as { name: string }[]).map((s) => s.name)).toEqual([
      "custom:acme.remote.python.isilon",
      "custom:acme.remote.python.metricfilter",
    ]);
    const bad = cli(["migrate", at("pool"), "--key-prefix", "9x"]);
    expect(bad.status).toBe(2);
    expect(joined(bad.stderr)).toMatch(
      /^plugin-review: --key-prefix '9x' does not start EF2 metric keys: it starts with a digit/,
    );
  });

  it("checks names and keys against the map's other plugins, already migrated", () => {
    const map = join(dir, "existing.yml");
    writeFileSync(
      map,
      [
        "plugins:",
        "  custom.jmx.someone_else:",
        "    name: custom:tech.demo.pool",
        "    metrics: [tech.demo.pool.pool_idle]",
        "",
      ].join("\n"),
    );
    const r = cli(["migrate", at("pool"), "--map", map]);
    expect(r.status).toBe(1);
    // The map's plugin keeps its name (it is deployed): this one is named from its EF1 `name`.
    expect(joined(r.stderr)).toContain(
      `  name custom:tech.demo.pool: ${at("pool")}:6 (now custom:jmx.demo.pool) and custom.jmx.someone_else in the map ${map}:2\n`,
    );
    expect(joined(r.stderr)).toContain(
      `  key tech.demo.pool.pool_idle: ${at("pool")}:42 (now custom:jmx.demo.pool) and custom.jmx.someone_else in the map ${map}:2\n`,
    );
  });

  it("refuses an invalid map, naming its lines", () => {
    const map = join(dir, "bad.yml");
    writeFileSync(map, "plugins:\n  custom.jmx.a:\n    name: custom:Upper\n    keys: []\n");
    const r = cli(["migrate", at("pool"), "--map", map]);
    expect(r.status).toBe(2);
    expect(joined(r.stderr)).toBe(
      `plugin-review: the map '${map}' is not valid:\n` +
        `  ${map}:3: plugins.custom.jmx.a.name: not a valid EF2 name: it is not lower-case letters and digits in sections joined by \`.\` or \`-\`, the first starting with a letter\n` +
        `  ${map}:4: plugins.custom.jmx.a: unknown key \`keys\` (one of \`name\`, \`key_prefix\`, \`metrics\`)\n`,
    );
  });

  it("--format json: each descriptor's outcome, the name it would have had and the collisions that renamed it", () => {
    const r = cli(["migrate", at("ext-a"), at("ext-b"), at("pool"), "--format", "json"]);
    expect(r.status).toBe(1);
    const summary = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(summary.map((s) => [s.file, s.outcome, s.name])).toEqual([
      [at("ext-a"), "partly", "custom:remote.python.isilon"],
      [at("ext-b"), "partly", "custom:remote.python.metricfilter"],
      [at("pool"), "partly", "custom:tech.demo.pool"],
    ]);
    expect(summary[0]!.renamed).toEqual({
      from: "custom:tech.extension",
      collisions: [
        {
          kind: "name",
          value: "custom:tech.extension",
          sides: [
            {
              file: at("ext-a"),
              line: 6,
              plugin: "custom.remote.python.isilon",
              now: "custom:remote.python.isilon",
            },
            {
              file: at("ext-b"),
              line: 6,
              plugin: "custom.remote.python.metricfilter",
              now: "custom:remote.python.metricfilter",
            },
          ],
        },
      ],
    });
  });
});

describe("plugin-review migrate: where it writes", () => {
  it("--out the folder the plugins are in: migrates them, and a second run the same ones, not what the first wrote", () => {
    const work = join(dir, "out-is-in");
    cpSync(join(ROOT, FLEET, "pool"), join(work, "plugins/pool"), { recursive: true });
    cpSync(join(ROOT, "examples/remote-valid"), join(work, "plugins/remote"), { recursive: true });
    const run = () => cli(["migrate", "plugins", "--out", "plugins"], work);
    const first = run();
    expect(joined(first.stderr)).toBe("");
    expect(first.status).toBe(0);
    expect(joined(first.stdout)).toMatch(/✔ 2 descriptors: 0 converted, 2 partly/);
    expect(tree(join(work, "plugins"))).toEqual(
      expect.arrayContaining([
        "pool/plugin.json",
        "tech.demo.pool/extension/extension.yaml",
        "tech.demo.device/extension/extension.yaml",
      ]),
    );
    const before = bytes(work);
    const second = run();
    expect(second.status).toBe(0);
    expect(joined(second.stdout)).toMatch(/✔ 2 descriptors: 0 converted, 2 partly/);
    expect(bytes(work)).toEqual(before);
  });

  it("--out the folder the plugins are in: a plugin below one whose folder has its extension's name is migrated again, not passed over", () => {
    const work = join(dir, "out-is-in-nested");
    // The pool's extension is custom:tech.demo.pool: its migration goes to its own folder, and a plugin kept
    // below that folder (a deployment copy, a sub-plugin) is the user's, not what migrate wrote.
    cpSync(join(ROOT, FLEET, "pool"), join(work, "plugins/tech.demo.pool"), { recursive: true });
    cpSync(join(ROOT, "examples/remote-valid"), join(work, "plugins/tech.demo.pool/remote"), {
      recursive: true,
    });
    const run = () => cli(["migrate", "plugins", "--out", "plugins"], work);
    const first = run();
    expect(first.status).toBe(0);
    expect(joined(first.stdout)).toMatch(/✔ 2 descriptors: 0 converted, 2 partly/);
    expect(tree(join(work, "plugins"))).toEqual(
      expect.arrayContaining([
        "tech.demo.pool/MIGRATION.md",
        "tech.demo.pool/metric-keys.json",
        "tech.demo.pool/remote/plugin.json",
        "tech.demo.device/extension/extension.yaml",
      ]),
    );
    const before = bytes(work);
    const second = run();
    expect(joined(second.stderr)).toBe("");
    expect(second.status).toBe(0);
    expect(joined(second.stdout)).toMatch(/✔ 2 descriptors: 0 converted, 2 partly/);
    expect(joined(second.stdout)).toContain(
      "plugins/tech.demo.pool/remote/plugin.json: custom:tech.demo.device",
    );
    expect(bytes(work)).toEqual(before);
  });

  it("a folder migrates its plugin.json files, not the EF2 extensions beside them (a fleet half migrated)", () => {
    const work = join(dir, "half-migrated");
    cpSync(join(ROOT, FLEET, "pool"), join(work, "plugins/pool"), { recursive: true });
    cpSync(join(ROOT, "examples/remote-valid"), join(work, "plugins/remote"), { recursive: true });
    // The pool was migrated beside its plugin.json before (the layout the review of a migration pairs).
    expect(cli(["migrate", "plugins/pool/plugin.json", "--out", "plugins/pool"], work).status).toBe(0);
    const r = cli(["migrate", "plugins", "--out", "migrated"], work);
    expect(joined(r.stderr)).toBe("");
    expect(r.status).toBe(0);
    expect(joined(r.stdout)).toMatch(/✔ 2 descriptors: 0 converted, 2 partly/);
    expect(readdirSync(join(work, "migrated")).sort()).toEqual(["tech.demo.device", "tech.demo.pool"]);
    // A folder of extensions alone holds no plugin to migrate: said so, as a folder of nothing is.
    const none = cli(["migrate", "plugins/pool/extension", "--out", "migrated"], work);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^plugin-review: no plugin\.json found under 'plugins\/pool\/extension'/);
  });

  it("one plugin.json reached from two places (a link to it) is migrated once, saying so, not refused as its own copy", () => {
    const root = join(dir, "linked");
    mkdirSync(join(root, "a"), { recursive: true });
    mkdirSync(join(root, "b"));
    writeFileSync(join(root, "a", "plugin.json"), text(validHost()));
    symlinkSync("../a/plugin.json", join(root, "b", "plugin.json"));
    const r = cli(["migrate", "a", "b", "--out", "out"], root);
    expect(r.stderr).toBe(
      "plugin-review: b/plugin.json is the same file as a/plugin.json (through a symbolic link): migrated once, as a/plugin.json\n",
    );
    expect(r.stdout).toMatch(/1 descriptor: 0 converted, 1 partly/);
    expect(r.status).toBe(0);
    const json = cli(["migrate", "--format", "json", "b", "a"], root);
    expect((JSON.parse(json.stdout) as { file: string }[]).map((d) => d.file)).toEqual(["b/plugin.json"]);
    expect(json.stderr).toMatch(
      /^plugin-review: a\/plugin\.json is the same file as b\/plugin\.json .*migrated once/,
    );
    expect(json.status).toBe(0);
  });

  it("tells apart folders that differ only in case (one folder on macOS and Windows)", () => {
    const work = join(dir, "case");
    for (const folder of ["Alpha", "alpha"]) {
      mkdirSync(join(work, "in", folder), { recursive: true });
      writeFileSync(join(work, "in", folder, "plugin.json"), "{");
    }
    const r = cli(["migrate", "in", "--out", "out"], work);
    expect(r.status).toBe(2);
    expect(tree(join(work, "out"))).toEqual([
      `Alpha/${MANIFEST}`,
      "Alpha/MIGRATION.md",
      `alpha-2/${MANIFEST}`,
      "alpha-2/MIGRATION.md",
    ]);
  });
});

describe("plugin-review migrate: every descriptor gets its report", () => {
  it("PMI and a JMX plugin whose metrics name no MBean: exit 2, and a MIGRATION.md that says why and what to do", () => {
    const pmi = join(dir, "refused/pmi/plugin.json");
    const noMbean = join(dir, "refused/builtin/plugin.json");
    mkdirSync(join(pmi, ".."), { recursive: true });
    mkdirSync(join(noMbean, ".."), { recursive: true });
    writeFileSync(pmi, text({ ...validHost(), name: "custom.pmi.websphere", type: "PMI" }));
    writeFileSync(
      noMbean,
      text({
        name: "custom.jmx.builtin",
        version: "1.0",
        type: "JMX",
        entity: "PROCESS_GROUP_INSTANCE",
        metricGroup: "tech.builtin",
        metrics: [
          { timeseries: { key: "heap", unit: "Byte", displayname: "Heap" }, source: { attribute: "Heap" } },
        ],
      }),
    );
    const out = join(dir, "refused-out");
    const r = cli(["migrate", join(dir, "refused"), "--out", out]);
    expect(r.status).toBe(2);
    expect(joined(r.stdout)).toMatch(
      /✖ 2 descriptors: 0 converted, 0 partly \(MIGRATION\.md lists what is not carried over\), 2 refused\n$/,
    );
    expect(tree(out)).toEqual([
      `custom.pmi.websphere/${MANIFEST}`,
      "custom.pmi.websphere/MIGRATION.md",
      `tech.builtin/${MANIFEST}`,
      "tech.builtin/MIGRATION.md",
    ]);
    const pmiMd = readFileSync(join(out, "custom.pmi.websphere/MIGRATION.md"), "utf8");
    expect(pmiMd).toMatch(/^# `custom\.pmi\.websphere` was not migrated\n/);
    expect(pmiMd).toMatch(/## Why\n\n- line 4: PMI plugins have no EF2 form: EF2 has no PMI data source/);
    expect(pmiMd).toMatch(
      /## What to do\n\n- line 4: collect the same values another way: an EF2 JMX extension/,
    );
    expect(pmiMd).toMatch(/## Its metrics\n[\s\S]*- line \d+: `ext:tech\.python\.demo\.requests`/);
    const jmxMd = readFileSync(join(out, "tech.builtin/MIGRATION.md"), "utf8");
    expect(jmxMd).toMatch(/- line 14: metric `heap` names no MBean \(`source\.domain`\)/);
    expect(jmxMd).toMatch(
      /## What to do\n\n- line 14: name the MBean metric `heap` reads: `source\.domain` and `source\.keyProperties`/,
    );
  });
});

describe("plugin-review migrate --rewrite", () => {
  /** A JSON text as its non-string parts and its string literals: what byte-identical is checked on. */
  function tokens(json: string): { outside: string[]; strings: string[] } {
    const outside: string[] = [];
    const strings: string[] = [];
    let at = 0;
    for (const m of json.matchAll(/"(?:[^"\\]|\\.)*"/g)) {
      outside.push(json.slice(at, m.index));
      strings.push(m[0]);
      at = m.index + m[0].length;
    }
    outside.push(json.slice(at));
    return { outside, strings };
  }

  it("rewrites every EF1 selector of an exported dashboard, SLO and metric event, and leaves the rest byte-identical", () => {
    const work = join(dir, "rewrite");
    cpSync(join(ROOT, "test/migrate/rewrite"), work, { recursive: true });
    const files = ["dashboard.json", "metric-event.json", "slo.json"];
    const before = Object.fromEntries(files.map((f) => [f, readFileSync(join(work, f), "utf8")]));

    const dry = cli(["migrate", join(ROOT, "examples/jmx-valid/plugin.json"), "--rewrite", work]);
    expect(dry.status).toBe(0);
    expect(joined(dry.stdout)).toContain(
      `${join(work, "slo.json")}: would rewrite: 2 references replaced, 0 not rewritten\n`,
    );
    for (const f of files) expect(readFileSync(join(work, f), "utf8")).toBe(before[f]);

    const r = cli([
      "migrate",
      join(ROOT, "examples/jmx-valid/plugin.json"),
      "--rewrite",
      work,
      "--out",
      join(dir, "rewrite-out"),
    ]);
    expect(joined(r.stderr)).toBe("");
    expect(r.status).toBe(0);
    expect(joined(r.stdout)).toContain(
      `${join(work, "metric-event.json")}: rewrote: 2 references replaced, 0 not rewritten\n` +
        `  ${join(work, "metric-event.json")}:7:15 ext:tech.Demo_Pool.pool_created -> func:tech.demo.pool.pool_created.count_persec\n` +
        `  ${join(work, "metric-event.json")}:19:57 PoolName -> pool_name\n`,
    );
    for (const f of files) {
      const after = readFileSync(join(work, f), "utf8");
      expect(after, f).not.toMatch(/ext:tech\.Demo_Pool|"PoolName"/);
      expect(() => JSON.parse(after) as unknown, f).not.toThrow();
      const a = tokens(before[f]!);
      const b = tokens(after);
      // Everything but the strings holding a reference (or a dimension name beside one) is the same bytes.
      expect(b.outside, f).toEqual(a.outside);
      a.strings.forEach((s, i) => {
        if (s !== b.strings[i]) expect(s, `${f}: ${s}`).toMatch(/ext:tech\.Demo_Pool|^"PoolName"$/);
      });
    }
    const dashboard = JSON.parse(readFileSync(join(work, "dashboard.json"), "utf8")) as {
      tiles: { queries?: { metricSelector?: string; metric?: string; splitBy?: string[] }[] }[];
    };
    expect(dashboard.tiles[1]!.queries![0]!.metricSelector).toBe(
      'tech.demo.pool.pool_active:splitBy("dt.entity.process_group_instance","pool_name"):avg:auto:sort(value(avg,descending)):limit(20)',
    );
    expect(dashboard.tiles[1]!.queries![1]).toMatchObject({
      metric: "tech.demo.pool.pool_idle",
      splitBy: ["pool_name"],
    });
    expect(dashboard.tiles[3]!.queries![0]!.metricSelector).toBe(
      'tech.demo.pool.pool_created.count:filter(eq("pool_name","main")):splitBy():rate(1s)',
    );
    const slo = JSON.parse(readFileSync(join(work, "slo.json"), "utf8")) as { metricExpression: string };
    expect(slo.metricExpression).toBe(
      "(100)*(tech.demo.pool.pool_idle:splitBy())/(tech.demo.pool.pool_active:splitBy())",
    );
  });

  it("names what it cannot read in a folder or a glob (a named pipe, a folder named x.json), never opens a pipe, and goes on", () => {
    const work = join(dir, "rewrite-odd");
    mkdirSync(join(work, "x.json"), { recursive: true });
    execFileSync("mkfifo", [join(work, "pipe.json")]);
    writeFileSync(join(work, "slo.json"), '{"metricExpression": "ext:tech.Demo_Pool.pool_idle"}\n');
    const plugin = join(ROOT, "examples/jmx-valid/plugin.json");
    // A folder walked: the pipe is named; the folder named x.json is walked (its files would be rewritten).
    const walked = cli(["migrate", plugin, "--rewrite", work, "--out", join(dir, "odd-out")]);
    expect(walked.status).toBe(0);
    expect(joined(walked.stderr)).toContain(
      `${join(work, "pipe.json")}: skipped: cannot read it: it is a named pipe, not a file\n`,
    );
    expect(joined(walked.stdout)).toContain(`${join(work, "slo.json")}: rewrote: 1 reference replaced`);
    // A glob matches the folder without walking it: both are named.
    const globbed = cli(["migrate", plugin, "--rewrite", join(work, "*.json"), "--format", "json"]);
    expect(globbed.status).toBe(0);
    const rewrites = (JSON.parse(globbed.stdout) as { rewritten?: string; error?: string }[]).filter(
      (x) => x.rewritten !== undefined,
    );
    // A glob's matches are named relative to the working directory (the repository's root here).
    expect(rewrites.map((x) => [join(ROOT, x.rewritten!), x.error])).toEqual([
      [join(work, "pipe.json"), "cannot read it: it is a named pipe, not a file"],
      [join(work, "slo.json"), undefined],
      [join(work, "x.json"), "cannot read it: it is a directory, not a file"],
    ]);
  });

  it("reports each reference it cannot rewrite, with its file and line", () => {
    const notes = join(dir, "queries.md");
    writeFileSync(
      notes,
      'Pools: `ext:tech.Demo_Pool.pool_active:splitBy("PoolName")`\nOld: `ext:tech.Demo_Pool.nope` and `ext:cloud.aws.ec2.cpu`\nRate: `ext:tech.Demo_Pool.pool_created:avg`\n',
    );
    const r = cli([
      "migrate",
      join(ROOT, "examples/jmx-valid/plugin.json"),
      "--rewrite",
      notes,
      "--out",
      join(dir, "notes-out"),
    ]);
    expect(r.status).toBe(0);
    expect(readFileSync(notes, "utf8")).toMatch(
      /^Pools: `tech\.demo\.pool\.pool_active:splitBy\("pool_name"\)`\n/,
    );
    expect(joined(r.stderr)).toContain(
      `  ${notes}:2:7 not rewritten: ext:tech.Demo_Pool.nope: no metric of the EF1 plugin whose metric group is \`tech.Demo_Pool\` is named so\n`,
    );
    expect(joined(r.stderr)).toContain(
      `  ${notes}:2:37 not rewritten: ext:cloud.aws.ec2.cpu: not a metric of the plugins migrated in this run\n`,
    );
    expect(joined(r.stderr)).toMatch(
      /queries\.md:3:8 not rewritten: ext:tech\.Demo_Pool\.pool_created:avg: EF1's series is `tech\.demo\.pool\.pool_created\.count:rate\(1s\)`/,
    );
  });
});
