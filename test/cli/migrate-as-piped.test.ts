/**
 * `migrate` as a user runs it over a fleet's folder and in a pipe: an extension lands in the folder of its name
 * whatever a refused descriptor found before it would take, and `-` is told apart from a missing file.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";
import { cli, ensureBuilt } from "./run.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-migrate-piped-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a fleet's folder: each extension in the folder of its name", () => {
  it("a broken plugin.json in a folder of the extension's name, found first, does not push it to name-2/", () => {
    // The layout many repositories have: one folder per plugin, named as its extension; one of them broken (and
    // found first: folders are read in name order).
    const fleet = join(dir, "fleet");
    mkdirSync(join(fleet, "plugins", "tech.demo.pool"), { recursive: true });
    writeFileSync(join(fleet, "plugins", "tech.demo.pool", "plugin.json"), '{"name": ');
    cpSync(join(ROOT, "examples", "jmx-valid"), join(fleet, "plugins", "vendor-pool"), { recursive: true });
    const r = cli(["migrate", "plugins", "--out", "migrated"], fleet);
    expect(r.status).toBe(2);
    expect(r.stdout).toContain("wrote migrated/tech.demo.pool/extension/extension.yaml");
    const yaml = readFileSync(
      join(fleet, "migrated", "tech.demo.pool", "extension", "extension.yaml"),
      "utf8",
    );
    expect(yaml).toMatch(/^name: custom:tech\.demo\.pool$/m);
    // The refused one keeps its MIGRATION.md, in a folder of its own.
    expect(readdirSync(join(fleet, "migrated")).sort()).toEqual(["tech.demo.pool", "tech.demo.pool-2"]);
    expect(readdirSync(join(fleet, "migrated", "tech.demo.pool-2")).sort()).toEqual([
      ".plugin-review-migrate.json",
      "MIGRATION.md",
    ]);
    expect(r.stderr).toContain("wrote migrated/tech.demo.pool-2/MIGRATION.md");
  });
});

describe("check over a migration written outside the clone and any repository", () => {
  it("reviews the Python project whole: the module, the activation schema, the files extension.yaml lists", () => {
    // A fresh clone, the migration written elsewhere (`--out /tmp/...`), then checked from the clone as written.
    const out = join(dir, "elsewhere");
    expect(cli(["migrate", "examples/remote-valid/plugin.json", "--out", out]).status).toBe(0);
    const whole = cli(["check", out]);
    expect([whole.status, whole.stdout.split("\n")[0], whole.stderr]).toEqual([
      0,
      "✔ 1 descriptor checked: no findings",
      "",
    ]);
    expect(whole.stdout).not.toContain("not checked");
    // What it checks: the module and an alert file gone are errors, not a pass with a note.
    rmSync(join(out, "demo_device_ef2"), { recursive: true });
    rmSync(join(out, "extension", "alerts"), { recursive: true });
    const broken = cli(["check", "--format", "json", out]);
    expect(broken.status).toBe(1);
    expect((JSON.parse(broken.stdout) as { ruleId: string }[]).map((f) => f.ruleId).sort()).toEqual([
      "asset-missing",
      "python-module-missing",
    ]);
  });
});

describe("`-` given to migrate", () => {
  it("is a usage error saying standard input is not migrated, not a missing file, and writes nothing", () => {
    const text = readFileSync(join(ROOT, "examples", "jmx-valid", "plugin.json"), "utf8");
    const out = join(dir, "stdin-out");
    const r = cli(["migrate", "-", "--out", out], dir, {}, text);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^plugin-review: '-' \(standard input\) cannot be migrated: /);
    expect(r.stderr).not.toContain("no such file");
    expect(r.stdout).toBe("");
    expect(existsSync(out)).toBe(false);
  });

  it("./- is a file named '-', migrated as any other", () => {
    const folder = join(dir, "dash");
    mkdirSync(folder);
    cpSync(join(ROOT, "examples", "jmx-valid", "plugin.json"), join(folder, "-"));
    const r = cli(["migrate", "./-", "--format", "json"], folder);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([{ name: "custom:tech.demo.pool" }]);
  });
});
