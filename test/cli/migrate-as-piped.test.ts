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
