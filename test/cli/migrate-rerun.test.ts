/**
 * `plugin-review migrate --out` run again over its own output, as a user does after editing the extension or
 * the plugin.json (the built CLI, real files): what migrate wrote and nobody changed is updated; a file edited
 * since, or one migrate did not write, is kept and nothing of that descriptor is written (exit 2) unless
 * `--force`; a Python project's local settings and passwords, once filled in, stay the user's.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";
import { BIN, cli, ensureBuilt } from "./run.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-rerun-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI's output with each line it broke to fit 80 columns (COLUMNS unset) joined again. */
const joined = (output: string) => output.replace(/\n {4}(?=\S)/g, " ");

/** A work folder with the JMX and the Python example plugins in `a/` and `b/`. */
function fleet(name: string): string {
  const work = join(dir, name);
  cpSync(join(ROOT, "examples/jmx-valid"), join(work, "a"), { recursive: true });
  cpSync(join(ROOT, "examples/host-valid"), join(work, "b"), { recursive: true });
  return work;
}

const read = (work: string, path: string) => readFileSync(join(work, path), "utf8");
const bump = (work: string, from: string, to: string) =>
  writeFileSync(join(work, "a/plugin.json"), read(work, "a/plugin.json").replace(from, to));
const YAML = "out/tech.demo.pool/extension/extension.yaml";

describe("plugin-review migrate: a second run over its output", () => {
  it("keeps a file edited since the first run, writes nothing of that descriptor (exit 2) and names the file; --force overwrites it", () => {
    const work = fleet("edited");
    const migrate = (...more: string[]) => cli(["migrate", "a", "b", "--out", "out", ...more], work);
    expect(migrate().status).toBe(0);
    const edited = `${read(work, YAML)}# tuned by hand\n`;
    writeFileSync(join(work, YAML), edited);
    const keysBefore = read(work, "out/tech.demo.pool/metric-keys.json");
    bump(work, '"version": "1.07"', '"version": "1.08"');

    const second = migrate();
    expect(second.status).toBe(2);
    expect(joined(second.stderr)).toContain(
      "not written: 1 file of its migration changed since migrate wrote it, or not written by migrate; kept as it is (--force overwrites it)\n" +
        `  kept ${join("out", "tech.demo.pool", "extension", "extension.yaml")}\n`,
    );
    expect(joined(second.stdout)).toMatch(/✖ 2 descriptors: 0 converted, 1 partly .*, 1 refused\n$/);
    // Nothing of it written: the edit is there, and the other files are the first run's (not half new).
    expect(read(work, YAML)).toBe(edited);
    expect(read(work, "out/tech.demo.pool/metric-keys.json")).toBe(keysBefore);
    // The other descriptor was migrated.
    expect(joined(second.stdout)).toContain("b/plugin.json: custom:tech.python.demo 1.2.0");

    const json = migrate("--format", "json");
    expect(json.status).toBe(2);
    const pool = (JSON.parse(json.stdout) as { file: string; outcome: string; kept?: string[] }[])[0]!;
    expect(pool).toMatchObject({
      file: "a/plugin.json",
      outcome: "refused",
      kept: [join("out", YAML.slice(4))],
    });

    const forced = migrate("--force");
    expect(forced.status).toBe(0);
    expect(read(work, YAML)).not.toContain("# tuned by hand");
    expect(read(work, YAML)).toContain('version: "1.8.0"');
    expect(readdirSync(join(work, "out/tech.demo.pool/extension")).filter((f) => f.endsWith(".tmp"))).toEqual(
      [],
    );
  });

  it("removes the files of its own that it no longer writes (an alert removed), unless edited since; never a file outside the folder", () => {
    const work = fleet("stale");
    const migrate = (...more: string[]) => cli(["migrate", "a", "b", "--out", "out", ...more], work);
    expect(migrate().status).toBe(0);
    const alerts = join(work, "out/tech.demo.pool/extension/alerts");
    const [alert] = readdirSync(alerts);
    expect(alert).toMatch(/\.json$/);
    // The plugin.json without its alert: the extension no longer has it, and a folder packaged would.
    const withoutAlert = (text: string) => {
      const doc = JSON.parse(text) as { metrics: { alert_settings?: unknown }[] };
      for (const m of doc.metrics) delete m.alert_settings;
      return JSON.stringify(doc, null, 2);
    };
    writeFileSync(join(work, "a/plugin.json"), withoutAlert(read(work, "a/plugin.json")));
    const second = migrate();
    expect(joined(second.stderr)).toBe("");
    expect(second.status).toBe(0);
    expect(joined(second.stdout)).toContain(
      `  removed ${join("out/tech.demo.pool/extension/alerts", alert!)} (an earlier run wrote it; this one does not)\n`,
    );
    expect(existsSync(alerts)).toBe(false);
    expect(read(work, YAML)).not.toContain("alerts:");
    const manifest = JSON.parse(read(work, "out/tech.demo.pool/.plugin-review-migrate.json")) as {
      files: Record<string, string>;
    };
    expect(Object.keys(manifest.files).filter((f) => f.startsWith("extension/alerts/"))).toEqual([]);

    // Edited since: left where it is, and said.
    cpSync(join(ROOT, "examples/jmx-valid/plugin.json"), join(work, "a/plugin.json"));
    expect(migrate().status).toBe(0);
    writeFileSync(join(alerts, alert!), "{}\n");
    writeFileSync(join(work, "a/plugin.json"), withoutAlert(read(work, "a/plugin.json")));
    const third = migrate("--format", "json");
    expect(third.status).toBe(0);
    const pool = (
      JSON.parse(third.stdout) as { file: string; leftOver?: string[]; removed?: string[] }[]
    )[0]!;
    expect(pool).toMatchObject({
      file: "a/plugin.json",
      leftOver: [join("out/tech.demo.pool/extension/alerts", alert!)],
    });
    expect(pool.removed).toBeUndefined();
    expect(read(work, join("out/tech.demo.pool/extension/alerts", alert!))).toBe("{}\n");

    // The record names a file outside its folder (edited by anybody): that file is not migrate's to remove.
    writeFileSync(join(work, "notes.txt"), "mine\n");
    const record = join(work, "out/tech.demo.pool/.plugin-review-migrate.json");
    const edited = JSON.parse(readFileSync(record, "utf8")) as { files: Record<string, string> };
    edited.files["../../notes.txt"] = createHash("sha256").update("mine\n").digest("hex");
    writeFileSync(record, JSON.stringify(edited));
    expect(migrate().status).toBe(0);
    expect(read(work, "notes.txt")).toBe("mine\n");
  });

  it("removes an extension's files when its descriptor is now refused: only its MIGRATION.md is left", () => {
    const work = fleet("refused");
    const migrate = () => cli(["migrate", "a", "b", "--out", "out"], work);
    expect(migrate().status).toBe(0);
    // No metric left: refused, its folder keeps its name from the metricGroup.
    const doc = JSON.parse(read(work, "a/plugin.json")) as { metrics: unknown[] };
    writeFileSync(join(work, "a/plugin.json"), JSON.stringify({ ...doc, metrics: [] }));
    const second = migrate();
    expect(second.status).toBe(2);
    expect(joined(second.stderr)).toContain(
      `  removed ${join("out", YAML.slice(4))} (an earlier run wrote it; this one does not)`,
    );
    expect(existsSync(join(work, YAML))).toBe(false);
    expect(existsSync(join(work, "out/tech.demo.pool/metric-keys.json"))).toBe(false);
    expect(existsSync(join(work, "out/tech.demo.pool/MIGRATION.md"))).toBe(true);
  });

  it("a plugin.json broken since: its MIGRATION.md goes to the folder its extension was in, not to a second one", () => {
    const work = fleet("broken");
    const migrate = () => cli(["migrate", "a", "b", "--out", "out"], work);
    expect(migrate().status).toBe(0);
    const folders = readdirSync(join(work, "out")).sort();
    // Not JSON: no EF1 name nor metricGroup to name a folder from.
    writeFileSync(join(work, "a/plugin.json"), '{ "name": "custom.jmx.demo.pool", ');
    const second = migrate();
    expect(second.status).toBe(2);
    expect(joined(second.stderr)).toContain(`  wrote ${join("out", "tech.demo.pool", "MIGRATION.md")}\n`);
    expect(joined(second.stderr)).toContain(
      `  removed ${join("out", YAML.slice(4))} (an earlier run wrote it; this one does not)\n`,
    );
    // One folder per plugin: the extension's files are gone, its MIGRATION.md says why.
    expect(readdirSync(join(work, "out")).sort()).toEqual(folders);
    expect(readdirSync(join(work, "out/tech.demo.pool")).sort()).toEqual([
      ".plugin-review-migrate.json",
      "MIGRATION.md",
    ]);
    expect(read(work, "out/tech.demo.pool/MIGRATION.md")).toMatch(/it is not JSON/);
    // Mended, it is migrated there again.
    cpSync(join(ROOT, "examples/jmx-valid/plugin.json"), join(work, "a/plugin.json"));
    expect(migrate().status).toBe(0);
    expect(readdirSync(join(work, "out")).sort()).toEqual(folders);
    expect(existsSync(join(work, YAML))).toBe(true);
  });

  it("an extension renamed since (its metricGroup): the earlier folder's files are removed, saying so, but one edited since", () => {
    const work = fleet("renamed");
    const migrate = () => cli(["migrate", "a", "b", "--out", "out"], work);
    expect(migrate().status).toBe(0);
    writeFileSync(join(work, "out/tech.demo.pool/metric-keys.csv"), "mine\n");
    bump(work, '"metricGroup": "tech.Demo_Pool"', '"metricGroup": "tech.Demo_Connections"');
    const second = migrate();
    expect(second.status).toBe(0);
    const out = joined(second.stdout);
    expect(out).toContain(`  wrote ${join("out", "tech.demo.connections", "extension", "extension.yaml")}\n`);
    expect(out).toContain(
      `  removed ${join("out", YAML.slice(4))} (an earlier run wrote it from this plugin.json; its migration is in ${join("out", "tech.demo.connections")} now)\n`,
    );
    expect(out).toContain(
      `  kept ${join("out", "tech.demo.pool", "metric-keys.csv")} (an earlier run wrote it, this one does not, and it was edited since: delete it if it is not yours)\n`,
    );
    // Of the earlier migration only the file edited since is left, still recorded: the next run says it again.
    expect(readdirSync(join(work, "out/tech.demo.pool")).sort()).toEqual([
      ".plugin-review-migrate.json",
      "metric-keys.csv",
    ]);
    expect(joined(migrate().stdout)).toContain(`  kept ${join("out", "tech.demo.pool", "metric-keys.csv")}`);
    // Deleted by hand, the folder goes with the next run.
    rmSync(join(work, "out/tech.demo.pool/metric-keys.csv"));
    expect(migrate().status).toBe(0);
    expect(readdirSync(join(work, "out")).sort()).toEqual(["tech.demo.connections", "tech.python.demo"]);
  });

  it("a fleet of one grown to two: the first one's files move from --out to its folder, none left behind", () => {
    const work = join(dir, "grown");
    cpSync(join(ROOT, "examples/jmx-valid"), join(work, "plugins/a"), { recursive: true });
    const migrate = () => cli(["migrate", "plugins", "--out", "out"], work);
    expect(migrate().status).toBe(0);
    expect(existsSync(join(work, "out/extension/extension.yaml"))).toBe(true);
    cpSync(join(ROOT, "examples/host-valid"), join(work, "plugins/b"), { recursive: true });
    const second = migrate();
    expect(second.status).toBe(0);
    expect(joined(second.stdout)).toContain(
      `  removed ${join("out", "extension", "extension.yaml")} (an earlier run wrote it from this plugin.json; its migration is in ${join("out", "tech.demo.pool")} now)\n`,
    );
    expect(readdirSync(join(work, "out")).sort()).toEqual(["tech.demo.pool", "tech.python.demo"]);
  });

  it("says which folder holds the migration of a plugin.json no longer there, and leaves it as it is", () => {
    const work = fleet("gone");
    cpSync(join(ROOT, "examples/remote-valid"), join(work, "c"), { recursive: true });
    const migrate = () => cli(["migrate", "*/plugin.json", "--out", "out"], work);
    expect(migrate().status).toBe(0);
    rmSync(join(work, "c"), { recursive: true });
    const second = migrate();
    expect(second.status).toBe(0);
    expect(second.stderr).toBe(
      `plugin-review: ${join("out", "tech.demo.device")} holds the migration of ${join("c", "plugin.json")}, which is no longer there: left as it is (delete the folder if its plugin is gone for good)\n`,
    );
    expect(existsSync(join(work, "out/tech.demo.device/extension/extension.yaml"))).toBe(true);
  });

  it("updates the files it wrote that nobody changed when the plugin.json changed (exit 0)", () => {
    const work = fleet("updated");
    const migrate = () => cli(["migrate", "a", "b", "--out", "out"], work);
    expect(migrate().status).toBe(0);
    bump(work, '"version": "1.07"', '"version": "1.08"');
    const second = migrate();
    expect(joined(second.stderr)).toBe("");
    expect(second.status).toBe(0);
    expect(read(work, YAML)).toContain('version: "1.8.0"');
  });

  it("keeps a file that was there before and that migrate did not write (a plugin's own setup.py)", () => {
    const work = fleet("theirs");
    const setup = "from setuptools import setup\nsetup(name='the-team-s-own')\n";
    mkdirSync(join(work, "b"), { recursive: true });
    writeFileSync(join(work, "b/setup.py"), setup);
    const r = cli(["migrate", "b/plugin.json", "--out", "b"], work);
    expect(r.status).toBe(2);
    expect(joined(r.stderr)).toContain(
      `kept as it is (--force overwrites it)\n  kept ${join("b", "setup.py")}\n`,
    );
    expect(read(work, "b/setup.py")).toBe(setup);
    expect(existsSync(join(work, "b/extension/extension.yaml"))).toBe(false);
  });

  it("keeps a link at a path it writes, and never writes through it", () => {
    const work = fleet("link");
    const outside = join(work, "outside.txt");
    writeFileSync(outside, "not migrate's\n");
    mkdirSync(join(work, "out"), { recursive: true });
    symlinkSync(outside, join(work, "out/MIGRATION.md"));
    const r = cli(["migrate", "a/plugin.json", "--out", "out"], work);
    expect(r.status).toBe(2);
    expect(read(work, "outside.txt")).toBe("not migrate's\n");
    const forced = cli(["migrate", "a/plugin.json", "--out", "out", "--force"], work);
    expect(forced.status).toBe(0);
    // The link is replaced by the file, and what it named is as it was.
    expect(read(work, "outside.txt")).toBe("not migrate's\n");
    expect(read(work, "out/MIGRATION.md")).toContain("custom:tech.demo.pool");
  });

  it("leaves the local run's settings and passwords the user filled in, also with --force", () => {
    const work = fleet("secrets");
    const migrate = (...more: string[]) => cli(["migrate", "a", "b", "--out", "out", ...more], work);
    expect(migrate().status).toBe(0);
    const secrets = "out/tech.python.demo/secrets.json";
    writeFileSync(join(work, secrets), '{ "password": "s3cret" }\n');
    for (const more of [[], ["--force"]]) {
      const r = migrate(...more);
      expect(r.status).toBe(0);
      expect(joined(r.stdout)).toContain(
        `  kept ${join("out", "tech.python.demo", "secrets.json")} (edited: yours to fill in)\n`,
      );
      expect(read(work, secrets)).toBe('{ "password": "s3cret" }\n');
    }
  });
});

describe("plugin-review migrate: a plugin's folder that is its migration's folder", () => {
  it("copies the plugin's code, never what an earlier run wrote there: the same files run after run", () => {
    const work = join(dir, "own-folder");
    // The plugin's folder has its extension's name: `--out` its parent writes the migration into it (with
    // several descriptors, each into the folder of its name).
    cpSync(join(ROOT, "examples/host-valid"), join(work, "plugins/tech.python.demo"), { recursive: true });
    writeFileSync(join(work, "plugins/tech.python.demo/demo_plugin.py"), "print('the plugin')\n");
    cpSync(join(ROOT, "examples/jmx-valid"), join(work, "plugins/pool"), { recursive: true });
    const files = () => readdirSync(join(work, "plugins"), { recursive: true }).map(String).sort();
    const migrate = () => cli(["migrate", "plugins", "--out", "plugins"], work);
    expect(migrate().status).toBe(0);
    const first = files();
    for (let run = 2; run <= 3; run++) {
      expect(migrate().status).toBe(0);
      expect(files()).toEqual(first);
    }
    const copied = readdirSync(join(work, "plugins/tech.python.demo/demo_plugin_ef2/plugin")).sort();
    expect(copied).toEqual(["__init__.py", "demo_plugin.py"]);
  });

  it("a Python plugin at the root of the fleet, --out the root: its code is never the fleet's migrations, run after run", () => {
    const work = join(dir, "root-plugin");
    cpSync(join(ROOT, "examples/host-valid"), join(work, "plugins"), { recursive: true });
    writeFileSync(join(work, "plugins/demo_plugin.py"), "print('the plugin')\n");
    cpSync(join(ROOT, "examples/jmx-valid"), join(work, "plugins/pool"), { recursive: true });
    const migrate = () => cli(["migrate", "plugins", "--out", "plugins"], work);
    const code = () =>
      readdirSync(join(work, "plugins/tech.python.demo/demo_plugin_ef2/plugin"), { recursive: true })
        .map(String)
        .sort();
    expect(migrate().status).toBe(0);
    // the other plugin's plugin.json is not copied; the migrations the run writes in the plugin's folder are not
    const first = code();
    expect(first).toEqual(["__init__.py", "demo_plugin.py"]);
    for (let run = 2; run <= 3; run++) {
      const again = migrate();
      expect(again.status).toBe(0);
      expect(again.stdout).not.toMatch(/^ {2}wrote /m);
      expect(code()).toEqual(first);
    }
  });

  it.each([
    ["the plugin's folder", "plugin", ""],
    ["a folder inside the plugin's", "plugin/ef2", "- `ef2/` was not copied: the migration's output.\n"],
  ])(
    "--out %s: the second run writes the same bytes (nothing), its MIGRATION.md lists none of migrate's own files",
    (_, out, listed) => {
      const work = join(dir, `own-folder-${out.replace("/", "-")}`);
      cpSync(join(ROOT, "examples/host-valid"), join(work, "plugin"), { recursive: true });
      writeFileSync(join(work, "plugin/demo_plugin.py"), "print('the plugin')\n");
      const migrate = () => cli(["migrate", "plugin/plugin.json", "--out", out], work);
      expect(migrate().status).toBe(0);
      const md = read(work, `${out}/MIGRATION.md`);
      const notCopied = (text: string) =>
        text
          .split("\n")
          .filter((l) => l.includes("was not copied"))
          .map((l) => `${l}\n`)
          .join("");
      expect(notCopied(md)).toBe(
        `${listed}- \`plugin.json\` was not copied: the descriptor is \`demo_plugin_ef2/ef1-plugin.json\` (the plugin's \`json_config\`), a name no review takes for an EF1 plugin's.\n`,
      );
      for (let run = 2; run <= 3; run++) {
        const again = migrate();
        expect(again.status).toBe(0);
        expect(again.stdout).not.toMatch(/^ {2}wrote /m);
        expect(read(work, `${out}/MIGRATION.md`)).toBe(md);
      }
    },
  );
});

describe("plugin-review migrate: Ctrl-C", () => {
  it("stops between two descriptors: each folder written whole or not at all, the count of those written, exit 130; a second run finishes", async () => {
    const work = join(dir, "interrupted");
    const plugin = read(ROOT, "examples/jmx-valid/plugin.json");
    for (let i = 1; i <= 200; i++) {
      mkdirSync(join(work, "in", `p${i}`), { recursive: true });
      // Names and metric groups of their own: 200 extensions that meet nowhere.
      writeFileSync(
        join(work, "in", `p${i}`, "plugin.json"),
        plugin
          .replace('"custom.jmx.demo_pool"', `"custom.jmx.p${i}"`)
          .replace('"tech.Demo_Pool"', `"tech.p${i}"`),
      );
    }
    const child = spawn(process.execPath, [BIN, "migrate", "in", "--out", "out"], { cwd: work });
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => void (stderr += b.toString()));
    child.stdout.resume();
    const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
    // Interrupted once the first folders are there.
    while (!existsSync(join(work, "out", "tech.p1", "MIGRATION.md")) && child.exitCode === null)
      await new Promise((wait) => setTimeout(wait, 5));
    child.kill("SIGINT");
    const status = await exited;
    expect(status).toBe(130);
    const written = /interrupted: (\d+) of 200 descriptors written/.exec(stderr);
    expect(written).not.toBeNull();
    const folders = readdirSync(join(work, "out"));
    expect(folders.length).toBe(Number(written![1]));
    expect(folders.length).toBeLessThan(200);
    for (const folder of folders) {
      const manifest = JSON.parse(read(work, `out/${folder}/.plugin-review-migrate.json`)) as {
        files: Record<string, string>;
      };
      expect(Object.keys(manifest.files).sort()).toEqual([
        "MIGRATION.md",
        "extension/alerts/pool_exhausted.json",
        "extension/dashboards/" + folder + ".json",
        "extension/extension.yaml",
        "metric-keys.csv",
        "metric-keys.json",
      ]);
    }
    const again = cli(["migrate", "in", "--out", "out"], work);
    expect(again.status).toBe(0);
    expect(readdirSync(join(work, "out"))).toHaveLength(200);
  });
});
