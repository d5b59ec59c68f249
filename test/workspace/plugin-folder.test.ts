/**
 * readPluginFolder (src/workspace/plugin-folder.ts): the files beside a plugin.json, as `migrate` copies them,
 * bounded because the folder is user input: no symbolic link followed, caches and VCS data left out, the
 * migration's own output and an EF2 extension beside the plugin left out, and over a bound nothing at all.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MANIFEST_FILE } from "../../src/migrate/manifest.js";
import { MAX_FILES, MIGRATION_RECORD, readPluginFolder } from "../../src/workspace/plugin-folder.js";
import { ROOT } from "../helpers.js";

let dir: string;
const put = (path: string, content: string | Buffer = "x") => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), content);
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "plugin-folder-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("readPluginFolder", () => {
  it("reads every file beside plugin.json, in order, with paths relative to the folder", () => {
    put("plugin/plugin.json", "{}");
    put("plugin/demo.py", "print(1)");
    put("plugin/lib/util.py");
    put("plugin/data/cert.der", Buffer.from([0, 1, 2, 255]));
    put("plugin/__pycache__/demo.cpython-311.pyc");
    put("plugin/demo.pyc");
    put("plugin/.git/HEAD");
    put("plugin/venv/lib/site.py");
    put("plugin/demo.egg-info/PKG-INFO");
    put("plugin/.env", "TOKEN=secret");
    const folder = readPluginFolder("plugin/plugin.json", dir);
    expect(folder.problem).toBeUndefined();
    expect(folder.folder).toBe("plugin");
    expect(folder.files.map((f) => f.path)).toEqual([
      "data/cert.der",
      "demo.py",
      "lib/util.py",
      "plugin.json",
    ]);
    expect([...folder.files[0]!.bytes]).toEqual([0, 1, 2, 255]);
    // a hidden file is said, not copied: the package the project makes is uploaded
    expect(folder.skipped).toEqual([{ path: ".env", why: expect.stringMatching(/^hidden: not copied/) }]);
  });

  it("names a named pipe it finds (never opened: it would wait for a writer) and copies the rest", () => {
    put("plugin/plugin.json", "{}");
    put("plugin/demo.py", "print(1)");
    spawnSync("mkfifo", [join(dir, "plugin", "data.fifo")]);
    mkdirSync(join(dir, "plugin", "run"));
    spawnSync("mkfifo", [join(dir, "plugin", "run", "control.py")]);
    const folder = readPluginFolder(join(dir, "plugin", "plugin.json"), dir);
    expect(folder.problem).toBeUndefined();
    expect(folder.files.map((f) => f.path)).toEqual(["demo.py", "plugin.json"]);
    expect(folder.skipped).toEqual([
      { path: "data.fifo", why: "a named pipe, not a file" },
      { path: "run/control.py", why: "a named pipe, not a file" },
    ]);
  });

  it("a file or folder it may not read is named as not copied; the rest is copied (migrate as a user without permission)", () => {
    put(
      "plugin/plugin.json",
      JSON.stringify({
        name: "custom.python.demo",
        version: "1.0",
        type: "python",
        source: { package: "demo", className: "Demo", activation: "Singleton" },
        metrics: [],
      }),
    );
    put(
      "plugin/demo.py",
      "from ruxit.api.base_plugin import BasePlugin\n\nclass Demo(BasePlugin):\n    pass\n",
    );
    put("plugin/secret.txt", "x");
    put("plugin/private/key.pem", "x");
    chmodSync(join(dir, "plugin", "secret.txt"), 0o000);
    chmodSync(join(dir, "plugin", "private"), 0o000);
    chmodSync(dir, 0o755);
    // root reads every file: the CLI is run as nobody then (setpriv), as a user without permission would run it
    const asRoot = process.getuid?.() === 0;
    const restore = () => {
      chmodSync(join(dir, "plugin", "secret.txt"), 0o644);
      chmodSync(join(dir, "plugin", "private"), 0o755);
    };
    const r = spawnSync(
      asRoot ? "setpriv" : process.execPath,
      [
        ...(asRoot ? ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath] : []),
        join(ROOT, "dist-cli", "plugin-review.mjs"),
        "migrate",
        join(dir, "plugin", "plugin.json"),
        "--format",
        "json",
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    restore();
    expect(r.status, r.stderr).toBe(0);
    const [d] = JSON.parse(r.stdout) as {
      files: { path: string; content: string }[];
      project: { code: boolean };
    }[];
    expect(d!.project.code).toBe(true);
    expect(d!.files.map((f) => f.path)).toContain("demo_ef2/plugin/demo.py");
    const md = d!.files.find((f) => f.path === "MIGRATION.md")!.content;
    expect(md).toContain("- `private/` was not copied: it could not be read (no permission).");
    expect(md).toContain("- `secret.txt` was not copied: it could not be read (no permission).");
  });

  it("follows no symbolic link: one could name any file of the machine", () => {
    put("plugin/plugin.json", "{}");
    symlinkSync("/etc/passwd", join(dir, "plugin", "passwd"));
    symlinkSync("/etc", join(dir, "plugin", "etc"));
    const folder = readPluginFolder(join(dir, "plugin", "plugin.json"), dir);
    expect(folder.files.map((f) => f.path)).toEqual(["plugin.json"]);
    expect(folder.skipped.map((x) => x.path)).toEqual(["etc", "passwd"]);
    expect(folder.skipped[0]!.why).toMatch(/^a symbolic link, not followed/);
  });

  it("leaves out the migration's output and an EF2 extension beside the plugin", () => {
    put("plugin.json", "{}");
    put("demo.py");
    put("migrated/extension/extension.yaml");
    put("migrated/demo_ef2/__main__.py");
    put("extension/extension.yaml");
    const folder = readPluginFolder("plugin.json", dir, ["migrated"]);
    expect(folder.files.map((f) => f.path)).toEqual(["demo.py", "plugin.json"]);
    expect(folder.skipped).toEqual([
      { path: "extension/", why: "an EF2 extension, not the plugin's code" },
      { path: "migrated/", why: "the migration's output" },
    ]);
  });

  it("lists the output folder inside it before it exists, where a run that finds it lists it", () => {
    put("plugin.json", "{}");
    put("demo.py");
    put("a/.env");
    put("z/x.txt");
    const before = readPluginFolder("plugin.json", dir, [], "b/ef2");
    put("b/ef2/MIGRATION.md");
    const after = readPluginFolder("plugin.json", dir, [], "b/ef2");
    expect(before).toEqual(after);
    expect(after.skipped.map((x) => `${x.path}: ${x.why.slice(0, 6)}`)).toEqual([
      "a/.env: hidden",
      "b/ef2/: the mi",
    ]);
  });

  it("leaves out in silence what migrate wrote there: hidden files and the extension too", () => {
    put("plugin.json", "{}");
    put("demo.py");
    put(".gitignore");
    put(".plugin-review-migrate.json");
    put("extension/extension.yaml");
    put(".env");
    const written = [".gitignore", ".plugin-review-migrate.json", "extension/extension.yaml"];
    const folder = readPluginFolder(
      "plugin.json",
      dir,
      written.map((f) => join(dir, f)),
    );
    expect(folder.files.map((f) => f.path)).toEqual(["demo.py", "plugin.json"]);
    expect(folder.skipped.map((x) => x.path)).toEqual([".env"]);
  });

  it("knows migrate's record by the name migrate gives it", () => {
    expect(MIGRATION_RECORD).toBe(MANIFEST_FILE);
  });

  it("leaves out in silence a migration's folder migrate wrote there (its record), not the plugin's code", () => {
    put("plugin.json", "{}");
    put("demo.py");
    put("tech.pool/.plugin-review-migrate.json", "{}");
    put("tech.pool/extension/extension.yaml");
    put("lib/util.py");
    const folder = readPluginFolder("plugin.json", dir);
    expect(folder.files.map((f) => f.path)).toEqual(["demo.py", "lib/util.py", "plugin.json"]);
    expect(folder.skipped).toEqual([]);
  });

  it("over a bound reads nothing, and says which", () => {
    put("plugin.json", "{}");
    for (let i = 0; i <= MAX_FILES; i++) put(`many/f${i}.txt`);
    const folder = readPluginFolder(join(dir, "plugin.json"), "/");
    expect(folder.files).toEqual([]);
    expect(folder.problem).toMatch(/was not copied: it holds more than 1000 files, more than migrate copies/);
  });

  it("a folder that cannot be read: the reason", () => {
    const folder = readPluginFolder(join(dir, "absent", "plugin.json"), "/");
    expect(folder.files).toEqual([]);
    expect(folder.problem).toMatch(/could not be read \(ENOENT\)/);
  });
});
