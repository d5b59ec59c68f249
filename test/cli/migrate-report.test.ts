/**
 * What `migrate` says and does as a fleet's owner runs it (the built CLI, real files): a path to nothing is a
 * usage error, not a folder with a MIGRATION.md; a reader that goes away (`| head -1`) stops the report, never
 * the writing; a re-run says which files it left as they were.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, text } from "../helpers.js";
import { BIN, cli, ensureBuilt } from "./run.js";

let dir: string;
const JMX = join(ROOT, "examples", "jmx-valid", "plugin.json");
const PYTHON = join(ROOT, "examples", "remote-valid");

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-migrate-report-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("an argument that names nothing on disk (a typo)", () => {
  it("is a usage error naming it, exit 2, and nothing is written", () => {
    const here = join(dir, "typo");
    mkdirSync(here);
    const r = cli(["migrate", "nope.json", "--out", "o"], here);
    expect([r.status, r.stdout, r.stderr]).toEqual([
      2,
      "",
      "plugin-review: cannot read 'nope.json': no such file or directory\n",
    ]);
    expect(readdirSync(here)).toEqual([]);
  });

  it("beside a descriptor that is there: each one named, nothing migrated", () => {
    const here = join(dir, "typos");
    mkdirSync(here);
    const r = cli(["migrate", "nope.json", JMX, "plugins/nope/plugin.json", "--out", "o"], here);
    expect([r.status, r.stdout, r.stderr]).toEqual([
      2,
      "",
      "plugin-review: 2 problems with the files given, so nothing was migrated:\n" +
        "  cannot read 'nope.json': no such file or directory\n" +
        "  cannot read 'plugins/nope/plugin.json': no such file or directory\n",
    ]);
    expect(readdirSync(here)).toEqual([]);
  });

  it("a descriptor that is there but broken keeps its MIGRATION.md, as before", () => {
    const here = join(dir, "broken");
    mkdirSync(here);
    writeFileSync(join(here, "plugin.json"), '{"name": ');
    const r = cli(["migrate", "plugin.json", "--out", "o"], here);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("wrote o/MIGRATION.md");
    expect(existsSync(join(here, "o", "MIGRATION.md"))).toBe(true);
  });
});

describe("migrate --out … | a reader that goes away", () => {
  /** 40 plugins of their own (names and metric groups apart) in plugins/. */
  function fleet(name: string): string {
    const root = join(dir, name);
    const jmx = JSON.parse(readFileSync(JMX, "utf8")) as Record<string, unknown>;
    for (let i = 0; i < 40; i++) {
      mkdirSync(join(root, "plugins", `pool${i}`), { recursive: true });
      writeFileSync(
        join(root, "plugins", `pool${i}`, "plugin.json"),
        text({ ...jmx, name: `custom.jmx.pool${i}`, metricGroup: `tech.Pool${i}` }),
      );
    }
    return root;
  }

  /**
   * Runs plugin-review with standard output a pipe whose reader is gone before it starts (bash waits until a
   * write of its own to the pipe fails), so that its first line meets the closed pipe: its status and stderr.
   */
  function closedFromTheStart(args: string[], cwd: string): { status: number; stderr: string } {
    const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
    const script = `{ trap '' PIPE; while echo 2>/dev/null; do sleep 0.01; done; "$NODE" "$BIN" ${quoted}; echo $? >status; } | true`;
    const r = spawnSync("bash", ["-c", script], {
      cwd,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, NODE: process.execPath, BIN, NO_COLOR: "1", COLUMNS: "" },
    });
    return { status: Number(readFileSync(join(cwd, "status"), "utf8")), stderr: r.stderr };
  }

  it.each(["text", "json"])(
    "%s: every folder and the map are written, then it exits 141 quietly",
    (format) => {
      const root = fleet(`fleet-${format}`);
      const r = closedFromTheStart(
        ["migrate", "plugins", "--out", "migrated", "--map", "map.json", "--format", format],
        root,
      );
      expect(r).toEqual({ status: 141, stderr: "" });
      const folders = readdirSync(join(root, "migrated")).sort();
      // Each named after its metric group, tech.PoolN.
      expect(folders).toEqual(Array.from({ length: 40 }, (_, i) => `tech.pool${i}`).sort());
      for (const f of folders)
        expect(readFileSync(join(root, "migrated", f, "extension", "extension.yaml"), "utf8")).toMatch(
          new RegExp(`^name: custom:${f.replace(".", "\\.")}$`, "m"),
        );
      // The map names each plugin: the next run keeps their names.
      const map = readFileSync(join(root, "map.json"), "utf8");
      for (let i = 0; i < 40; i++) expect(map).toContain(`custom.jmx.pool${i}`);
    },
  );
});

describe("a re-run over a migration nobody changed", () => {
  it("says `unchanged` for each file it would write as it is, and leaves it (its time too)", () => {
    const here = join(dir, "rerun");
    cpSync(PYTHON, join(here, "plugin"), { recursive: true });
    const first = cli(["migrate", "plugin/plugin.json", "--out", "out"], here);
    expect(first.status).toBe(0);
    const wrote = first.stdout.split("\n").filter((l) => l.startsWith("  wrote "));
    expect(wrote.length).toBeGreaterThan(3);
    const yaml = join(here, "out", "extension", "extension.yaml");
    const before = statSync(yaml).mtimeMs;

    const again = cli(["migrate", "plugin/plugin.json", "--out", "out"], here);
    expect(again.status).toBe(0);
    const lines = again.stdout.split("\n");
    expect(lines.filter((l) => l.startsWith("  wrote "))).toEqual([]);
    expect(lines.filter((l) => l.startsWith("  unchanged "))).toEqual(
      wrote.map((l) => l.replace(/^ {2}wrote /, "  unchanged ")),
    );
    expect(statSync(yaml).mtimeMs).toBe(before);

    // One file changed by the plugin.json: that one is written, the others stay unchanged.
    const plugin = JSON.parse(readFileSync(join(here, "plugin", "plugin.json"), "utf8")) as {
      version: string;
    };
    writeFileSync(join(here, "plugin", "plugin.json"), text({ ...plugin, version: "9.9.9" }));
    const changed = cli(["migrate", "plugin/plugin.json", "--out", "out", "--format", "json"], here);
    expect(changed.status).toBe(0);
    const [entry] = JSON.parse(changed.stdout) as {
      files: { path: string; written?: string; unchanged?: boolean }[];
    }[];
    const byPath = new Map(entry!.files.map((f) => [f.path, f]));
    expect(byPath.get("extension/extension.yaml")).toEqual({
      path: "extension/extension.yaml",
      written: "out/extension/extension.yaml",
    });
    expect(byPath.get("extension/activationSchema.json")).toMatchObject({ unchanged: true });
  });
});
