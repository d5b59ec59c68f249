// What the benchmark scripts share: medians and timing, and a previous commit built beside this one.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Median milliseconds of `fn` over `runs` runs after `warm` warm-up runs. */
export function time(fn, runs, warm = Math.min(20, runs)) {
  for (let i = 0; i < warm; i++) fn();
  const xs = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    xs.push(performance.now() - t);
  }
  return median(xs);
}

export const ms = (x) => `${x.toFixed(x < 1 ? 3 : 1)} ms`;

/**
 * Checks `ref` out in a temporary git worktree, builds it (`tsc`, with this checkout's node_modules), and
 * runs `fn` with its directory; the worktree is removed afterwards, whatever happens.
 */
export async function withBuiltCommit(ref, fn) {
  const tmp = mkdtempSync(join(tmpdir(), "plugin-review-previous-"));
  const dir = join(tmp, "previous");
  execFileSync("git", ["worktree", "add", "--detach", dir, ref], { cwd: ROOT, stdio: "ignore" });
  try {
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    execFileSync(
      process.execPath,
      [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
      {
        cwd: dir,
        stdio: "ignore",
      },
    );
    return await fn(dir);
  } finally {
    execFileSync("git", ["worktree", "remove", "--force", dir], { cwd: ROOT, stdio: "ignore" });
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The fake GitHub (TypeScript, test/github/fake-github.ts) bundled for the benchmarks' processes, its npm
 * imports left external; inside the repository, so that they resolve from node_modules. Its path. The file
 * is this process's own and removed when it exits: node_modules may be shared by several checkouts (git
 * worktrees), whose benchmarks must neither read each other's fake nor one half written.
 */
export async function bundleFakeGitHub() {
  const out = join(ROOT, `node_modules/.cache/plugin-review-bench/fake-github-${process.pid}.mjs`);
  process.once("exit", () => rmSync(out, { force: true }));
  const { buildSync } = await import("esbuild");
  buildSync({
    entryPoints: [join(ROOT, "test/github/fake-github.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outfile: out,
    logLevel: "error",
  });
  return out;
}
