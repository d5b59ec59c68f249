#!/usr/bin/env node
// CI's speed gate (issue 40): this commit's review figures beside a reference commit's, as bench/compare.mjs
// measures them (both builds in one process, alternating rounds), judged run by run. It fails when one
// corpus or 2 MB figure is more than 15% worse than the reference's in two runs out of three (a third run
// only when the first two disagree). `npm run build` first.
//   node bench/gate.mjs [ref] [--rounds N] [--planted]
// ref: the reference commit. Unsaid: $BENCH_BASE, else the merge base with main (origin/main when there is
// one), else (on main itself) the last release tag v*, else HEAD's first parent.
// --planted: the gate's own check. This build against a copy of it whose duplicate-metric-key rule sleeps
// 1 ms per metric (no worktree, no build): exits 0 when the gate fails it, as it must, and 1 when not.
// docs/development.md ("The speed gate") says how to read and rerun it.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { loadBuild, measure } from "./figures.mjs";
import { median, ms, ROOT, withBuiltCommit } from "./lib.mjs";

/** More than this ratio (this build over the reference) is a worse figure. */
const LIMIT = 1.15;
const RUNS = 3;
/** The figures judged: the corpus medians and the 2 MB descriptor's (not the slowest file alone: one file's noise). */
const judged = (figure) => figure.startsWith("corpus median") || figure.startsWith("2 MB");

/**
 * The verdict over the runs so far (each a map of figure to ratio): failed when one figure was worse in two
 * runs; passed when every figure was within the limit in two; otherwise undecided (a third run decides).
 */
function verdict(runs) {
  const figures = Object.keys(runs[0] ?? {}).filter(judged);
  const worse = figures.filter((f) => runs.filter((r) => r[f] > LIMIT).length >= 2);
  if (worse.length) return { failed: true, worse };
  const decided = figures.every((f) => runs.filter((r) => r[f] <= LIMIT).length >= 2);
  return decided ? { failed: false, worse: [] } : undefined;
}

/**
 * lib.mjs `time`, but a measurement stops once it has taken `budget` ms (after one warm-up and one timed run
 * at least), so that a build many times slower is judged in minutes, not hours; a build as fast as the
 * reference is timed (nearly) as compare.mjs times it.
 */
function cappedTime(fn, runs, warm, budget = Infinity) {
  const start = performance.now();
  for (let i = 0; i < warm && (i === 0 || performance.now() - start < budget); i++) fn();
  const xs = [];
  for (let i = 0; i < runs && (i === 0 || performance.now() - start < budget); i++) {
    const t = performance.now();
    fn();
    xs.push(performance.now() - t);
  }
  return median(xs);
}

const git = (...args) =>
  execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
const tryGit = (...args) => {
  try {
    return git(...args);
  } catch {
    return undefined;
  }
};

/** The reference commit: the change's merge base with main, or on main the last release tag, or HEAD~1. */
function reference() {
  if (process.env.BENCH_BASE) return { ref: process.env.BENCH_BASE, why: "$BENCH_BASE" };
  const head = git("rev-parse", "HEAD");
  for (const main of ["origin/main", "main"]) {
    const base = tryGit("merge-base", "HEAD", main);
    if (base && base !== head) return { ref: base, why: `the merge base with ${main}` };
  }
  const tag = tryGit("describe", "--tags", "--abbrev=0", "--match", "v*", "HEAD~1");
  if (tag) return { ref: tag, why: "the last release tag" };
  return { ref: "HEAD~1", why: "HEAD's first parent (no merge base apart from HEAD, no release tag)" };
}

/** A copy of this build whose duplicate-metric-key rule sleeps 1 ms per metric (inside the repository: its imports resolve). */
function plantedBuild() {
  const dir = join(ROOT, "node_modules/.cache/plugin-review-bench/planted");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, "dist"), join(dir, "dist"), { recursive: true });
  const rule = join(dir, "dist/src/core/rules/duplicate-metric-key.js");
  const text = readFileSync(rule, "utf8");
  const planted = text.replace(
    "check(context) {",
    "check(context) {\n        for (const _ of context.metrics) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);",
  );
  if (planted === text) throw new Error(`no place to plant the slowdown in ${rule}`);
  writeFileSync(rule, planted);
  return dir;
}

async function judge(previous, current, rounds) {
  const builds = [await loadBuild("reference", previous), await loadBuild("this commit", current)];
  const runs = [];
  let result;
  while (!result && runs.length < RUNS) {
    const { figures } = measure(builds, rounds, cappedTime);
    const ratios = Object.fromEntries(Object.keys(figures[0]).map((k) => [k, figures[1][k] / figures[0][k]]));
    runs.push(ratios);
    console.log(
      `run ${runs.length} of at most ${RUNS} (${rounds} alternating rounds), this commit / reference:`,
    );
    for (const [k, r] of Object.entries(ratios))
      console.log(
        `  ${r.toFixed(3)}  ${k} (${ms(figures[1][k])} against ${ms(figures[0][k])})${judged(k) && r > LIMIT ? "  WORSE" : ""}`,
      );
    result = verdict(runs);
  }
  return result ?? { failed: true, worse: ["(undecided after three runs)"] };
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: "string" }, planted: { type: "boolean" } },
});
// Five rounds a run: the median of three moved by one slow round (the same code measured 0.67–1.36 times itself).
const rounds = Number(values.rounds ?? (values.planted ? 1 : 5));

if (values.planted) {
  console.log("the gate's own check: this build against itself with a rule that sleeps 1 ms per metric");
  const dir = plantedBuild();
  try {
    const { failed, worse } = await judge(ROOT, dir, rounds);
    if (failed) console.log(`the gate fails the planted slowdown, as it must (worse: ${worse.join("; ")})`);
    else console.error("the gate let the planted slowdown through");
    process.exitCode = failed ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  const { ref, why } = positionals[0] ? { ref: positionals[0], why: "the command line" } : reference();
  console.log(
    `speed gate: this commit against ${ref} (${why}); a figure more than ${Math.round((LIMIT - 1) * 100)}% worse in two runs fails`,
  );
  // What the figures depend on: the same at both commits (a commit of docs, tests or the bundle alone), there is
  // nothing to judge, and timing the same code twice would judge only the machine's noise.
  const measured = ["src", "schemas", "package-lock.json", "tsconfig.json", "bench/figures.mjs"];
  let same = false;
  try {
    execFileSync("git", ["diff", "--quiet", ref, "HEAD", "--", ...measured], { cwd: ROOT, stdio: "ignore" });
    same = true;
  } catch {
    // Differences (or a ref git cannot read, which the build below reports).
  }
  if (same) {
    console.log(
      `speed gate passed: ${measured.join(", ")} are the same at ${ref} and HEAD, nothing to judge`,
    );
    process.exit(0);
  }
  await withBuiltCommit(ref, async (previous) => {
    const { failed, worse } = await judge(previous, ROOT, rounds);
    if (failed) console.error(`speed gate failed: more than 15% worse in two runs: ${worse.join("; ")}`);
    else console.log("speed gate passed");
    process.exitCode = failed ? 1 : 0;
  });
}
