#!/usr/bin/env node
// The CLI's start-up: `plugin-review check examples/host-valid` as a whole process (node started, the bundle
// read and parsed, one descriptor reviewed, the process ended), beside bare `node -e 0`.
// `node bench/startup.mjs [<git-ref>] [runs]`: with a ref, that commit's committed bundle (dist-cli/, taken with
// `git archive`; nothing is built) runs too, the three alternating run by run so that the load of a shared
// machine falls on all alike. Run `npm run bundle` first: the current bundle is what dist-cli/ holds.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median, ROOT } from "./lib.mjs";

const ref = process.argv[2];
const RUNS = Number(process.argv[3] ?? 40);
const target = join(ROOT, "examples", "host-valid");

// The CPU time of finished children (user + system, Linux's /proc, in ticks of 10 ms): far less disturbed by
// other processes than the time on the clock, and summed over all the runs, fine enough.
const TICK_MS = 10;
function childCpu() {
  if (!existsSync("/proc/self/stat")) return NaN;
  const stat = readFileSync("/proc/self/stat", "utf8");
  // After the command's name in parentheses: fields 3 onwards; cutime and cstime are fields 16 and 17.
  const [cutime, cstime] = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .slice(13, 15);
  return (Number(cutime) + Number(cstime)) * TICK_MS;
}

function timed(args, cpu) {
  const c = childCpu();
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
  const elapsed = performance.now() - t;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${r.status}: ${r.stderr}`);
  if (cpu) cpu.total += childCpu() - c;
  return elapsed;
}

const tmp = mkdtempSync(join(tmpdir(), "plugin-review-bench-startup-"));
try {
  const cases = [
    { label: "node -e 0", args: ["-e", "0"] },
    { label: "check, this checkout", args: [join(ROOT, "dist-cli", "plugin-review.mjs"), "check", target] },
  ];
  if (ref) {
    execFileSync("sh", ["-c", `git archive "$1" dist-cli package.json | tar -x -C "$2"`, "sh", ref, tmp], {
      cwd: ROOT,
    });
    cases.push({
      label: `check, ${ref}`,
      args: [join(tmp, "dist-cli", "plugin-review.mjs"), "check", target],
    });
  }
  for (const c of cases) for (let i = 0; i < 3; i++) timed(c.args); // warm: the files in the page cache
  const times = cases.map(() => []);
  const cpu = cases.map(() => ({ total: 0 }));
  for (let i = 0; i < RUNS; i++) cases.forEach((c, k) => times[k].push(timed(c.args, cpu[k])));
  const medians = times.map(median);
  const cpuMs = cpu.map((c) => c.total / RUNS);
  console.log(
    `CLI start-up, whole process (medians of ${RUNS} alternating runs; CPU time: their mean, user + system):`,
  );
  cases.forEach((c, k) => {
    const vs = k === 2 ? `  (this checkout: ${(medians[1] / medians[2]).toFixed(3)}x)` : "";
    const cpuVs = k === 2 ? ` (${(cpuMs[1] / cpuMs[2]).toFixed(3)}x)` : "";
    console.log(
      `  ${c.label.padEnd(24)} ${medians[k].toFixed(1)} ms${vs}; CPU time ${cpuMs[k].toFixed(1)} ms${cpuVs}`,
    );
  });
  if (ref)
    console.log(
      `  over bare node: this checkout ${(medians[1] - medians[0]).toFixed(1)} ms, ${ref} ${(medians[2] - medians[0]).toFixed(1)} ms`,
    );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
