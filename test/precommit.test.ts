/**
 * The pre-commit hook (`.pre-commit-hooks.yaml`, docs/pre-commit.md): its definition, and its entry run
 * the way pre-commit runs it, with the staged descriptors as arguments.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BIN, cli, ensureBuilt } from "./cli/run.js";
import { ROOT } from "./helpers.js";

interface Hook {
  id: string;
  name: string;
  entry: string;
  language: string;
  files: string;
  pass_filenames: boolean;
  require_serial?: boolean;
  [key: string]: unknown;
}

const hooks = parse(readFileSync(join(ROOT, ".pre-commit-hooks.yaml"), "utf8")) as Hook[];
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };

function theHook(id = "plugin-review"): Hook {
  const hook = hooks.find((h) => h.id === id);
  if (!hook) throw new Error(`no ${id} hook in .pre-commit-hooks.yaml`);
  return hook;
}

/**
 * What pre-commit executes: the entry's words (the first is the package's bin, which `language: node`
 * installs), then the staged files that `files` selects. Here the bin runs from the work tree.
 */
function runHook(staged: string[], id = "plugin-review", cwd = ROOT) {
  const [command, ...args] = theHook(id).entry.split(/\s+/);
  expect(join(ROOT, pkg.bin[command!]!)).toBe(BIN);
  const selected = staged.filter((f) => new RegExp(theHook(id).files).test(f));
  return cli([...args, ...selected], cwd);
}

describe(".pre-commit-hooks.yaml", () => {
  it("defines the plugin-review hook", () => {
    expect(Array.isArray(hooks)).toBe(true);
    expect(hooks.map((h) => h.id)).toEqual(["plugin-review", "plugin-review-fix"]);
    expect(theHook()).toMatchObject({
      id: "plugin-review",
      name: "plugin-review",
      entry: "plugin-review check",
      language: "node",
      files: "(^|/)plugin\\.json$",
      pass_filenames: true,
      require_serial: true,
    });
  });

  it("defines the plugin-review-fix hook, the same files and one run, with --fix", () => {
    const { id, name, entry, description, ...rest } = theHook("plugin-review-fix");
    const { id: _i, name: _n, entry: _e, description: _d, ...same } = theHook();
    expect([id, name, entry, description !== undefined]).toEqual([
      "plugin-review-fix",
      "plugin-review (fix)",
      "plugin-review check --fix",
      true,
    ]);
    expect(rest).toEqual(same);
  });

  it("runs the package's command", () => {
    expect(Object.keys(pkg.bin)).toContain(theHook().entry.split(/\s+/)[0]);
  });

  it("selects descriptors by name, in any folder", () => {
    const files = new RegExp(theHook().files);
    for (const f of ["plugin.json", "plugins/jmx/plugin.json", "a b/plugin.json"])
      expect(files.test(f), f).toBe(true);
    for (const f of [
      "myplugin.json",
      "plugin.json.bak",
      "plugin.base.json",
      "plugin.json/README.md",
      "Plugin.json",
    ]) {
      expect(files.test(f), f).toBe(false);
    }
  });
});

describe("the hook on staged files", () => {
  beforeAll(() => ensureBuilt());

  it("passes (exit 0) on a valid descriptor", () => {
    const r = runHook(["examples/host-valid/plugin.json", "README.md"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/1 descriptor checked: no findings/);
  });

  it("fails (exit 1) on a descriptor with mistakes, naming file, line and rule", () => {
    const r = runHook(["examples/mistakes/remote-mistakes/plugin.json"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      /^examples\/mistakes\/remote-mistakes\/plugin\.json:4:11 +error +variant-mismatch /m,
    );
  });

  it("checks several staged descriptors in one run", () => {
    const r = runHook(["examples/host-valid/plugin.json", "examples/remote-valid/plugin.json"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/2 descriptors checked: no findings/);
  });
});

describe("the fix hook on staged files", () => {
  beforeAll(() => ensureBuilt());

  it("fixes in place; pre-commit then fails the hook because a file changed, and passes the next run", () => {
    const dir = mkdtempSync(join(tmpdir(), "plugin-review-hook-"));
    try {
      const file = join(dir, "plugin.json");
      copyFileSync(join(ROOT, "examples/host-valid/plugin.json"), file);
      const valid = readFileSync(file, "utf8");
      writeFileSync(
        file,
        valid.replace(/"unit": "(\w+)"/, (_m, u: string) => `"unit": "${u.toLowerCase()}"`),
      );
      const staged = readFileSync(file, "utf8");
      expect(staged).not.toBe(valid);
      // What pre-commit does with a fixer: run it, then fail when the exit status or the files changed.
      const first = runHook(["plugin.json"], "plugin-review-fix", dir);
      const failedByPreCommit = first.status !== 0 || readFileSync(file, "utf8") !== staged;
      expect(first.status).toBe(0); // nothing left to report
      expect(first.stdout).toMatch(/--fix: 1 fix\(es\) applied in 1 file\(s\)/);
      expect(readFileSync(file, "utf8")).toBe(valid);
      expect(failedByPreCommit).toBe(true);
      const second = runHook(["plugin.json"], "plugin-review-fix", dir);
      expect(second.status).toBe(0);
      expect(readFileSync(file, "utf8")).toBe(valid);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
