/**
 * test/no-warnings.ts, as the suite loads it (vitest.config.ts's `setupFiles`): a run of test files that pass but
 * make their process warn fails, naming each warning and the test it came from; a run that warns nothing passes.
 * The files run in a vitest of their own, in a temporary folder that finds this checkout's node_modules.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import config from "../vitest.config.js";
import { ROOT } from "./helpers.js";

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "plugin-review-warnings-"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
});
afterAll(() => {
  unlinkSync(join(dir, "node_modules"));
  rmSync(dir, { recursive: true, force: true });
});

/** Runs one test file (its body given) with the suite's setup files; the run's status and output. */
function runFile(name: string, body: string) {
  writeFileSync(join(dir, `${name}.test.ts`), `import { it } from "vitest";\n${body}\n`);
  const setupFiles = [config.test?.setupFiles ?? []].flat().map((f) => resolve(ROOT, f));
  writeFileSync(
    join(dir, `${name}.config.mjs`),
    `export default ${JSON.stringify({ test: { include: [`${name}.test.ts`], setupFiles } })};\n`,
  );
  const r = spawnSync(
    process.execPath,
    [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", `${name}.config.mjs`, "--color=false"],
    { cwd: dir, encoding: "utf8", timeout: 100_000, env: { ...process.env, CI: "true", NO_COLOR: "1" } },
  );
  return { status: r.status, output: r.stdout + r.stderr };
}

describe("a test that makes its process warn", () => {
  it("fails on a Node.js warning, printed or not, naming it and its test", () => {
    const r = runFile(
      "node-warning",
      `it("leaks listeners", () => { process.emitWarning("Possible EventEmitter memory leak detected", "MaxListenersExceededWarning"); });
it("warns nothing", () => {});`,
    );
    expect(r.status, r.output).toBe(1);
    expect(r.output).toMatch(/leaks listeners/);
    expect(r.output).toMatch(
      /this test made this process warn[^\n]*\n {2}MaxListenersExceededWarning: Possible EventEmitter memory leak detected/,
    );
    expect(r.output).toMatch(/1 failed \| 1 passed/);
  });

  it("fails on a known tool's warning written to its output (Powertools', npm's)", () => {
    const r = runFile(
      "printed",
      `it("publishes nothing", () => { process.stderr.write("No application metrics to publish. The cold-start metric may be published if enabled.\\n"); });
it("installs", () => { process.stdout.write("npm warn install-scripts 1 package has install scripts not yet covered by allowScripts:\\n"); });`,
    );
    expect(r.status, r.output).toBe(1);
    expect(r.output).toContain("No application metrics to publish");
    expect(r.output).toContain("npm warn install-scripts 1 package has install scripts");
    expect(r.output).toMatch(/2 failed/);
  });

  it("fails the file on a warning outside its tests, and keeps a failing test's own failure", () => {
    const r = runFile(
      "outside",
      `process.emitWarning("the old way", "DeprecationWarning");
it("fails by itself", () => { throw new Error("its own failure"); });`,
    );
    expect(r.status, r.output).toBe(1);
    expect(r.output).toContain("its own failure");
    expect(r.output).toMatch(
      /this file, outside its tests .* made this process warn[^\n]*\n {2}DeprecationWarning: the old way/,
    );
  });

  it("passes a file that warns nothing, whatever its findings say", () => {
    const r = runFile(
      "quiet",
      `it("prints a finding", () => { process.stdout.write("  7:3   warning  \`processTypeNames\` is ignored  ignored-member\\n"); });`,
    );
    expect(r.status, r.output).toBe(0);
  });
});
