/**
 * Every command stops quietly when the reader of its standard output goes away, as a user sees it: a shell
 * pipe to `head -1`, over the built bundle (bin/plugin-review.js), three runs each (when the pipe closes is a
 * race). Exit status 0 (all of it was written before `head` left) or 141 (cut short, as by SIGPIPE); never a
 * stack trace or "write EPIPE", and nothing on standard error but what the command says when its output was
 * whole. Outputs larger than a pipe holds make the cut certain; the commands as the issue names them show it
 * on the examples.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, text, validHost } from "../helpers.js";
import { BIN, ensureBuilt } from "./run.js";

let dir: string;
const JMX = "examples/jmx-valid/plugin.json";

/** Runs `plugin-review <args> | head -1` in bash, three times: each run's status (plugin-review's) and stderr. */
function piped(args: string[], cwd = ROOT): { status: number; stderr: string }[] {
  const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  const script = `"$NODE" "$BIN" ${quoted} | head -1 >/dev/null; exit "\${PIPESTATUS[0]}"`;
  return [1, 2, 3].map(() => {
    const r = spawnSync("bash", ["-c", script], {
      cwd,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, NODE: process.execPath, BIN, NO_COLOR: "1", COLUMNS: "" },
    });
    return { status: r.status ?? -1, stderr: r.stderr };
  });
}

/** Cut short or whole, never a crash; standard error empty, or (whole) what the command says on it anyway. */
function expectQuiet(runs: { status: number; stderr: string }[], whole: RegExp | "" = ""): void {
  for (const r of runs) {
    expect(r.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
    expect([0, 141]).toContain(r.status);
    if (r.status === 141 || whole === "") expect(r.stderr).toBe("");
    else expect(r.stderr).toMatch(whole);
  }
}

/** Outputs far beyond a pipe's 64 KiB: the reader is certainly gone before the last write. */
function expectCut(runs: { status: number; stderr: string }[]): void {
  expect(runs).toEqual([1, 2, 3].map(() => ({ status: 141, stderr: "" })));
}

beforeAll(() => {
  ensureBuilt();
  // 300 descriptors with two unknown members each (warnings: the check passes), hundreds of kilobytes of findings.
  dir = mkdtempSync(join(tmpdir(), "plugin-review-closed-output-"));
  for (let i = 0; i < 300; i++) {
    mkdirSync(join(dir, `p${i}`));
    const doc = { ...validHost(), name: `custom.python.p${i}`, colour: "#fff", favourite: true };
    writeFileSync(join(dir, `p${i}`, "plugin.json"), text(doc));
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("plugin-review … | head -1", () => {
  it("migrate, text and json, on the example", () => {
    const summary = /^✔ 1 of 1 descriptor converted \(nothing written: --out <dir> writes the files\)\n$/;
    expectQuiet(piped(["migrate", JMX]), summary);
    expectQuiet(piped(["migrate", JMX, "--format", "json"]));
  });

  it("migrate, text and json, of more than a pipe holds: cut short, status 141, nothing on standard error", () => {
    const many = Array.from({ length: 20 }, () => JMX);
    expectCut(piped(["migrate", ...many]));
    expectCut(piped(["migrate", ...many, "--format", "json"]));
  });

  it("check examples/ --format sarif", () => {
    // Unpiped it fails (exit 1: the examples include mistakes); piped, the output is cut before the verdict.
    expectCut(piped(["check", "examples/", "--format", "sarif"]));
  });

  it("check, text and json, of a passing review with many findings", () => {
    const whole = spawnSync(process.execPath, [BIN, "check", "."], { cwd: dir, encoding: "utf8" });
    expect(whole.status).toBe(0);
    expect(whole.stdout.length).toBeGreaterThan(200_000);
    expectCut(piped(["check", "."], dir));
    expectCut(piped(["check", ".", "--format", "json"], dir));
  });
});
