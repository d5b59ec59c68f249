#!/usr/bin/env node
// CI's speed gate (issue 40): this commit's review figures beside a reference commit's, as bench/compare.mjs
// loads them (both builds in one process), judged run by run. It fails when one
// corpus or 2 MB figure is more than 15% worse than the reference's in two runs out of three (a third run
// only when the first two disagree). `npm run build` first.
//   node bench/gate.mjs [ref] [--rounds N] [--force] [--planted] [--reference]
// ref: the reference commit. Unsaid: $BENCH_BASE, else the merge base with main (origin/main when there is
// one), else (on main itself) the last release tag v*, else the last landing bench/reference names, else HEAD's
// first parent. --reference: print which, and why, and stop.
// Each run is a process of its own (bench/gate-run.mjs) that times both builds call by call in CPU time, not
// wall time, which another process's turn on a loaded machine inflated (the same code measured 0.67 to 1.36
// times itself so); gate-run.mjs says how.
// --force: judge even when what the figures depend on is the same at both commits (to see the machine's noise).
// --planted: the gate's own check. This build against a copy of it whose duplicate-metric-key rule sleeps
// 1 ms per metric (no worktree, no build): exits 0 when the gate fails it, as it must, and 1 when not.
// docs/development.md ("The speed gate") says how to read and rerun it.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ms, ROOT, withBuiltCommit } from "./lib.mjs";

/** More than this ratio of CPU time (this build over the reference) is a worse figure. */
const LIMIT = 1.15;
/**
 * Or more than this ratio of wall time: a slowdown CPU time does not see (a rule that waits, as issue 40's planted
 * rule sleeps 1 ms per metric). Wider than LIMIT: wall time carries the machine's load, and identical code
 * measured up to 1.36 times itself in wall time on a loaded machine.
 */
const WALL_LIMIT = 2;
/** A figure of one run worse than the reference's. */
const isWorse = ({ ratio, wall }) => ratio > LIMIT || wall > WALL_LIMIT;
const RUNS = 3;
/** The figures judged: the corpus medians and the 2 MB descriptor's (not the slowest file alone: one file's noise). */
const judged = (figure) => figure.startsWith("corpus median") || figure.startsWith("2 MB");

/**
 * The verdict over the runs so far (each a map of figure to ratio): failed when one figure was worse in two
 * runs; passed when every figure was within the limit in two; otherwise undecided (a third run decides).
 */
function verdict(runs) {
  const figures = Object.keys(runs[0] ?? {}).filter(judged);
  const worse = figures.filter((f) => runs.filter((r) => isWorse(r[f])).length >= 2);
  if (worse.length) return { failed: true, worse };
  const decided = figures.every((f) => runs.filter((r) => !isWorse(r[f])).length >= 2);
  return decided ? { failed: false, worse: [] } : undefined;
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
  // Without a tag, HEAD~1 alone would judge a landing of many commits by its last one (often a rebuild of the
  // bundle): the landing before this one, which bench/reference records, holds the whole change to account.
  const recorded = recordedReference();
  if (recorded) {
    const commit = tryGit("rev-parse", "--verify", "--quiet", `${recorded}^{commit}`);
    if (commit && commit !== head && tryGit("merge-base", "--is-ancestor", commit, "HEAD") !== undefined)
      return { ref: recorded, why: "the last landing, as bench/reference records it" };
  }
  return { ref: "HEAD~1", why: "HEAD's first parent (no merge base apart from HEAD, no release tag)" };
}

/** The commit bench/reference names (its first line that is not a comment), if any. */
function recordedReference() {
  let text;
  try {
    text = readFileSync(join(ROOT, "bench/reference"), "utf8");
  } catch {
    return undefined;
  }
  return text
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line && !line.startsWith("#"));
}

/**
 * A copy of this build whose duplicate-metric-key rule sleeps 1 ms per metric (issue 40's planted slowdown), in
 * a folder of its own inside the repository (its imports resolve; node_modules may be shared with other
 * checkouts). A sleep costs no CPU time: the wall-time bound (WALL_LIMIT) is what catches it.
 */
function plantedBuild() {
  const cache = join(ROOT, "node_modules/.cache/plugin-review-bench");
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, "planted-"));
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

/** One run, in a process of its own (bench/gate-run.mjs): each judged figure's ratio and times. */
function measureOnce(previous, current, rounds) {
  const out = execFileSync(
    process.execPath,
    ["--single-threaded", "--expose-gc", join(ROOT, "bench/gate-run.mjs"), previous, current, String(rounds)],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 24 },
  );
  return JSON.parse(out.trim().split("\n").at(-1));
}

function judge(previous, current, rounds) {
  const runs = [];
  let result;
  while (!result && runs.length < RUNS) {
    const figures = measureOnce(previous, current, rounds);
    runs.push(figures);
    console.log(
      `run ${runs.length} of at most ${RUNS} (${rounds} rounds), this commit / reference, CPU time:`,
    );
    for (const [k, { ratio, wall, times }] of Object.entries(figures))
      console.log(
        `  ${ratio.toFixed(3)}  ${k} (${ms(times[1])} against ${ms(times[0])}; wall time ${wall.toFixed(3)})${judged(k) && isWorse(figures[k]) ? "  WORSE" : ""}`,
      );
    result = verdict(runs);
  }
  return result ?? { failed: true, worse: ["(undecided after three runs)"] };
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string" },
    planted: { type: "boolean" },
    force: { type: "boolean" },
    reference: { type: "boolean" },
  },
});
const rounds = Number(values.rounds ?? (values.planted ? 1 : 3));

if (values.reference) {
  // Which commit the gate would judge against, and why, without building or timing anything.
  const { ref, why } = reference();
  console.log(`${ref} (${why})`);
} else if (values.planted) {
  console.log("the gate's own check: this build against itself with a rule that sleeps 1 ms per metric");
  const dir = plantedBuild();
  try {
    const { failed, worse } = judge(ROOT, dir, rounds);
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
  const measured = [
    "src",
    "schemas",
    "package-lock.json",
    "tsconfig.json",
    "bench/figures.mjs",
    "bench/gate-run.mjs",
  ];
  let same = false;
  try {
    execFileSync("git", ["diff", "--quiet", ref, "HEAD", "--", ...measured], { cwd: ROOT, stdio: "ignore" });
    same = true;
  } catch {
    // Differences (or a ref git cannot read, which the build below reports).
  }
  if (same && !values.force) {
    console.log(
      `speed gate passed: ${measured.join(", ")} are the same at ${ref} and HEAD, nothing to judge`,
    );
    process.exit(0);
  }
  await withBuiltCommit(ref, async (previous) => {
    const { failed, worse } = judge(previous, ROOT, rounds);
    if (failed) console.error(`speed gate failed: more than 15% worse in two runs: ${worse.join("; ")}`);
    else console.log("speed gate passed");
    process.exitCode = failed ? 1 : 0;
  });
}
