#!/usr/bin/env node
// One run of the speed gate (bench/gate.mjs starts it, once a run, each in a process of its own):
//   node --single-threaded --expose-gc bench/gate-run.mjs <reference-root> <this-root> <rounds>
// Prints the judged figures as JSON: for each, the ratio of this build's CPU time to the reference's and
// both times. A process of its own, because how V8 optimises two copies of the same code differs from process
// to process and stays so within one: runs in one process would repeat one process's luck. CPU time, not
// wall time: the time another process holds the CPU counts in wall time (on a loaded machine the same code
// measured 0.67 to 1.36 times itself so). --single-threaded puts V8's collector and compiler on this thread,
// so that the process's CPU time, which Node.js reads precisely for the calling thread, is the review's;
// --expose-gc allows the collections below (pairedCpuTime).
import { loadBuild, measurePaired } from "./figures.mjs";
import { performance } from "node:perf_hooks";
import { median } from "./lib.mjs";

/** CPU milliseconds this process has run (user and system; this thread's read at the moment of asking). */
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Calls of at least this many CPU ms a call are timed on a clean heap: a full collection before the
 * measurement and a minor one before each call (about 0.3 ms: too dear beside a corpus file's 0.3 ms call,
 * small beside the 2 MB descriptor's 40, whose garbage would otherwise be collected on the other build's time).
 */
const COLLECT_FROM = 5;

/**
 * Both builds' calls timed in turn (`fns`: the reference's, this commit's), one call each, which goes first
 * alternating, after `warm` warm-up calls each. Returns each build's median CPU ms a call and the median ratio
 * of this commit's call to the reference's beside it, in CPU time and in wall time (`wall`: what CPU time does
 * not see, a call that waits). A measurement stops once it has spent `budget` CPU ms a
 * build (after one warm-up and one timed pair at least), so that a build many times slower is judged in
 * minutes, not hours; a build as fast as the reference is timed in full.
 */
function pairedCpuTime(fns, runs, warm, budget = Infinity) {
  let start = cpuNow();
  const within = () => cpuNow() - start < 2 * budget;
  let calls = 0;
  for (let i = 0; i < warm && (i === 0 || within()); i++)
    for (const fn of fns) {
      fn();
      calls++;
    }
  const warmed = cpuNow() - start;
  const collect = warmed / calls >= COLLECT_FROM;
  if (collect) globalThis.gc();
  start = cpuNow() - warmed;
  const xs = [[], []];
  const walls = [[], []];
  for (let i = 0; i < runs && (i === 0 || within()); i++)
    for (const k of i % 2 ? [1, 0] : [0, 1]) {
      if (collect) globalThis.gc({ type: "minor" });
      const w = performance.now();
      const t = cpuNow();
      fns[k]();
      xs[k].push(cpuNow() - t);
      walls[k].push(performance.now() - w);
    }
  const ratio = (ys) => median(ys[1].map((y, i) => y / ys[0][i]));
  return { times: xs.map(median), ratio: ratio(xs), wall: ratio(walls) };
}

const [previous, current, rounds] = process.argv.slice(2);
const builds = [await loadBuild("reference", previous), await loadBuild("this commit", current)];
console.log(JSON.stringify(measurePaired(builds, Number(rounds), pairedCpuTime)));
