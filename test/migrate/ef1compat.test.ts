/**
 * The EF1 compatibility layer is kept as Python in src/migrate/ef1compat/ and embedded by scripts/ef1compat.mjs
 * in embedded.ts, which migrate writes into projects: the embedded text must be the files' (as the committed
 * bundle must be the sources'), and every Python file of it must compile.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { EF1COMPAT_FILES } from "../../src/migrate/ef1compat/embedded.js";
import { ROOT, itUnless } from "../helpers.js";

const python = spawnSync("python3", ["--version"]).status === 0;

describe("the embedded compatibility layer", () => {
  it("is the files of src/migrate/ef1compat/ (npm run ef1compat writes it)", () => {
    const r = spawnSync(process.execPath, ["scripts/ef1compat.mjs", "--check"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("holds the runner, the ruxit.api modules plugins import, and its README", () => {
    expect(EF1COMPAT_FILES.map((f) => f.path)).toEqual([
      "README.md",
      "__init__.py",
      "ruxit/__init__.py",
      "ruxit/api/__init__.py",
      "ruxit/api/base_plugin.py",
      "ruxit/api/data.py",
      "ruxit/api/events.py",
      "ruxit/api/exceptions.py",
      "ruxit/api/results.py",
      "ruxit/api/selectors.py",
      "ruxit/api/snapshot.py",
      "ruxit/api/topology_builder.py",
      "ruxit/select_plugins.py",
    ]);
  });

  itUnless(!python && "python3 is absent")("compiles, every Python file of it", () => {
    const script = `import json, sys\nfor f in json.load(sys.stdin):\n    compile(f["content"], f["path"], "exec")\n`;
    const r = spawnSync("python3", ["-c", script], {
      input: JSON.stringify(EF1COMPAT_FILES.filter((f) => f.path.endsWith(".py"))),
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
