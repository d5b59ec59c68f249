/**
 * The text summary's mark says what the exit status says, as a user reads it: ✖ when the run fails, ✔ when it
 * passes, findings or not (a notice, a warning below `fail_on`, findings the base already had).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";
import { cli, ensureBuilt } from "./run.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-mark-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The summary line (the first after the findings) and the exit status. */
function summary(args: string[], cwd = ROOT) {
  const r = cli(["check", ...args], cwd);
  return { line: r.stdout.split("\n").find((l) => /^[✔✖] /.test(l)), status: r.status };
}

describe("the summary's mark follows the exit status", () => {
  it("a notice alone passes: ✔, and says none fails", () => {
    expect(summary(["examples/mistakes/stacked-line"])).toEqual({
      line: "✔ 1 finding (1 notice) in 1 of 1 descriptor, none failing",
      status: 0,
    });
  });

  it("a warning below fail_on passes; with --max-warnings 0 it fails: ✖", () => {
    expect(summary(["examples/mistakes/unknown-member"])).toEqual({
      line: "✔ 1 finding (1 warning) in 1 of 1 descriptor, none failing",
      status: 0,
    });
    expect(summary(["--max-warnings", "0", "examples/mistakes/unknown-member"])).toEqual({
      line: "✖ 1 finding (1 warning) in 1 of 1 descriptor",
      status: 1,
    });
  });

  it("errors fail: ✖; with fail_on: never they pass: ✔", () => {
    expect(summary(["examples/mistakes/remote-mistakes"])).toEqual({
      line: "✖ 4 findings (3 errors, 1 warning) in 1 of 1 descriptor",
      status: 1,
    });
    mkdirSync(join(dir, ".github"), { recursive: true });
    writeFileSync(join(dir, ".github/plugin-review.yml"), "fail_on: never\n");
    const plugin = join(ROOT, "examples/mistakes/remote-mistakes/plugin.json");
    expect(summary(["--config", join(dir, ".github/plugin-review.yml"), plugin], dir)).toEqual({
      line: "✔ 4 findings (3 errors, 1 warning) in 1 of 1 descriptor, none failing",
      status: 0,
    });
  });

  it("no findings: ✔", () => {
    expect(summary(["examples/host-valid"])).toEqual({
      line: "✔ 1 descriptor checked: no findings",
      status: 0,
    });
  });
});
