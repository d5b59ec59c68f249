/**
 * readPluginFolder (src/workspace/plugin-folder.ts): the files beside a plugin.json, as `migrate` copies them,
 * bounded because the folder is user input: no symbolic link followed, caches and VCS data left out, the
 * migration's own output and an EF2 extension beside the plugin left out, and over a bound nothing at all.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_FILES, readPluginFolder } from "../../src/workspace/plugin-folder.js";

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
