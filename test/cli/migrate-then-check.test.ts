/**
 * What a user does after `plugin-review migrate`, run as they run it (the built CLI, real files, a real shell):
 * MIGRATION.md's to-dos name `extension/extension.yaml:<line>` in the written folder, and its check command,
 * run as written in that folder, reviews the extension against the plugin.json it replaces; an error has the
 * CLI's one prefix; docs/migrate.md's `--out` examples leave nothing for git to show in a clone.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, text, validHost } from "../helpers.js";
import { BIN, cli, ensureBuilt } from "./run.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-migrate-then-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The commands of MIGRATION.md's closing `sh` block. */
function commands(md: string): string[] {
  const block = /\n(`{3,})sh\n([\s\S]*?)\n\1\n$/.exec(md);
  expect(block, "MIGRATION.md ends with a sh block").not.toBeNull();
  return block![2]!.split("\n");
}

/** A command line as a shell runs it, with `npx plugin-review` standing for this checkout's CLI. */
function shell(command: string, cwd: string) {
  const line = command.replace(/^npx plugin-review /, `"${process.execPath}" "${BIN}" `);
  return spawnSync("sh", ["-c", line], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", COLUMNS: "" },
  });
}

describe("migrate, then what MIGRATION.md says", () => {
  it("names the author's line, extension/extension.yaml:5, in the written file", () => {
    const out = join(dir, "pool");
    expect(cli(["migrate", "examples/jmx-valid/plugin.json", "--out", out]).status).toBe(0);
    const md = readFileSync(join(out, "MIGRATION.md"), "utf8");
    const author = /^- `(extension\/extension\.yaml):(\d+)`: `author\.name` is `Your name here`/m.exec(md);
    expect(author?.slice(1)).toEqual(["extension/extension.yaml", "5"]);
    const yaml = readFileSync(join(out, author![1]!), "utf8").split("\n");
    expect(yaml[Number(author![2]) - 1]).toBe("  name: Your name here");
  });

  it.each([
    ["--out beside the plugin.json", ["examples/jmx-valid/plugin.json"], "pool-here", undefined],
    ["an absolute --out elsewhere", [join(ROOT, "examples/host-valid/plugin.json")], "abs", undefined],
    [
      "several, into folders named after each (a path with a space and a quote)",
      [join(ROOT, "examples/jmx-valid/plugin.json"), "my plugins/it's/plugin.json"],
      "many",
      "tech.python.demo",
    ],
  ])("ends with a check that works as written in the folder: %s", (_, files, out, folder) => {
    const cwd = mkdtempSync(join(dir, "run-"));
    cpSync(join(ROOT, "examples"), join(cwd, "examples"), { recursive: true });
    mkdirSync(join(cwd, "my plugins/it's"), { recursive: true });
    writeFileSync(join(cwd, "my plugins/it's/plugin.json"), text(validHost()));
    const target = out === "abs" ? join(dir, "abs-out") : out;
    const r = cli(["migrate", ...files, "--out", target], cwd);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const written = resolve(cwd, target, folder ?? "");
    const [check, ...build] = commands(readFileSync(join(written, "MIGRATION.md"), "utf8"));
    expect(check).toMatch(/^npx plugin-review check --base \S.* extension\/extension\.yaml$/);
    expect(build.length).toBeGreaterThan(0);
    const run = shell(check!, written);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^✔ 1 descriptor checked: no findings\n0 new, 0 existing\n/);
    expect(run.status).toBe(0);
  });

  it("the check it ends with fails when the extension loses a metric", () => {
    const out = join(dir, "lossy");
    expect(cli(["migrate", "examples/jmx-valid/plugin.json", "--out", out]).status).toBe(0);
    const yaml = join(out, "extension/extension.yaml");
    writeFileSync(
      yaml,
      readFileSync(yaml, "utf8").replace(
        /\n {12}- key: tech\.demo\.pool\.pool_idle\n {14}value: attribute:IdleCount\n {14}type: gauge/,
        "",
      ),
    );
    const [check] = commands(readFileSync(join(out, "MIGRATION.md"), "utf8"));
    const run = shell(check!, out);
    expect(run.stdout).toMatch(/migration-metric-missing/);
    expect(run.status).toBe(1);
  });
});

describe("migrate's errors", () => {
  it("a file it cannot read: one `plugin-review: ` prefix, as every other error has", () => {
    // There, but not text (a path to nothing is a usage error: test/cli/migrate-report.test.ts).
    writeFileSync(join(dir, "binary.json"), Buffer.from([0x7b, 0xff, 0x7d]));
    const r = cli(["migrate", "binary.json"], dir);
    expect(r.stderr).toBe(
      "plugin-review: binary.json: not converted:\n" +
        "  it is not UTF-8 text (byte 1)\n" +
        "✖ 1 descriptor: 0 converted, 0 partly (MIGRATION.md lists what is not carried\n" +
        "    over), 1 refused (nothing written: --out <dir> writes the files)\n",
    );
    expect(r.status).toBe(2);
  });

  it("a descriptor it cannot convert, and a folder it cannot write: the same prefix", () => {
    const pmi = join(dir, "pmi.json");
    writeFileSync(pmi, text({ ...validHost(), type: "PMI" }));
    expect(cli(["migrate", pmi]).stderr.replace(/\n {4}/g, " ")).toMatch(
      /^plugin-review: .*pmi\.json: not converted:\n {2}line 4: /,
    );
    const blocked = join(dir, "blocked");
    mkdirSync(blocked);
    writeFileSync(join(blocked, "extension"), "a file where the folder would go");
    const r = cli(["migrate", "examples/jmx-valid/plugin.json", "--out", blocked]);
    const stderr = r.stderr.replace(/\n {4}/g, " ");
    expect(stderr).toMatch(/^plugin-review: examples\/jmx-valid\/plugin\.json: custom:tech\.demo\.pool /);
    expect(stderr).toMatch(/\n {2}cannot write '.*blocked\/extension\/extension\.yaml': /);
    expect(r.status).toBe(2);
  });
});

describe("docs/migrate.md's --out examples in a clone", () => {
  it("leave nothing git would show: the folder they write is ignored", () => {
    const clone = mkdtempSync(join(dir, "clone-"));
    const git = (...args: string[]) => {
      const r = spawnSync("git", args, { cwd: clone, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    };
    git("init", "-q");
    cpSync(join(ROOT, ".gitignore"), join(clone, ".gitignore"));
    cpSync(join(ROOT, "examples"), join(clone, "examples"), { recursive: true });
    // Dashboards, SLOs and alerts exported from Dynatrace, for the `--rewrite` example.
    cpSync(join(ROOT, "test/migrate/rewrite"), join(clone, "exports"), { recursive: true });
    git("add", ".");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "clone");
    const documented = readFileSync(join(ROOT, "docs/migrate.md"), "utf8")
      .split("\n")
      .filter((l) => /^npx plugin-review migrate .* --out /.test(l))
      .map((l) => l.replace(/\s+#\s.*$/, ""));
    expect(documented.length).toBeGreaterThanOrEqual(2);
    for (const command of documented) {
      const r = cli(command.split(/\s+/).slice(2), clone);
      expect(r.status, command).toBe(0);
    }
    // Outside `migrated/`, only what the user asked to be written there: the fleet's map (`--map`, to commit)
    // and the exported files rewritten in place (`--rewrite ... --out`).
    const status = git("status", "--porcelain", "--untracked-files=all").split("\n").filter(Boolean);
    expect(documented.some((c) => / --map migrate\.yml /.test(c))).toBe(true);
    expect(status.filter((l) => !/^( M exports\/|\?\? migrate\.yml$)/.test(l))).toEqual([]);
    expect(status).toContain("?? migrate.yml");
    expect(status.some((l) => l.startsWith(" M exports/"))).toBe(true);
  });
});
