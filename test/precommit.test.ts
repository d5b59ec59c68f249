/**
 * The pre-commit hook (`.pre-commit-hooks.yaml`, docs/pre-commit.md): its definition, and its entry run
 * the way pre-commit runs it, with the staged descriptors as arguments.
 */
import { readFileSync } from "node:fs";
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

function theHook(): Hook {
  const hook = hooks.find((h) => h.id === "plugin-review");
  if (!hook) throw new Error("no plugin-review hook in .pre-commit-hooks.yaml");
  return hook;
}

/**
 * What pre-commit executes: the entry's words (the first is the package's bin, which `language: node`
 * installs), then the staged files that `files` selects. Here the bin runs from the work tree.
 */
function runHook(staged: string[]) {
  const [command, ...args] = theHook().entry.split(/\s+/);
  expect(join(ROOT, pkg.bin[command!]!)).toBe(BIN);
  const selected = staged.filter((f) => new RegExp(theHook().files).test(f));
  return cli([...args, ...selected]);
}

describe(".pre-commit-hooks.yaml", () => {
  it("defines the plugin-review hook", () => {
    expect(Array.isArray(hooks)).toBe(true);
    expect(hooks.map((h) => h.id)).toEqual(["plugin-review"]);
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
