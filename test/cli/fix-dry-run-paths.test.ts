/**
 * `check --fix-dry-run` as its diff is used: piped to `git apply` in the folder the command ran in, in a real
 * git repository, whatever way the descriptor was named (an absolute path, `./`, `..`, through a linked folder);
 * a descriptor outside that folder is named by its path in the repository, with a note saying where to apply it.
 */
import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { text, validHost } from "../helpers.js";
import { cli, ensureBuilt } from "./run.js";

let repo: string;
let link: string;
const HEAD = "plugins/demo/plugin.json";
const BASE = "plugins/demo/plugin.base.json";
let before: string;

function git(cwd: string, ...args: string[]) {
  return spawnSync("git", args, { cwd, encoding: "utf8" });
}

beforeAll(() => {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), "plugin-review-dry-run-"));
  repo = join(dir, "repo");
  mkdirSync(join(repo, "plugins/demo"), { recursive: true });
  mkdirSync(join(repo, "docs"));
  link = join(dir, "linked");
  symlinkSync(repo, link, "dir");
  // The base is 1.2.0; the head changed without a bump and with a unit in the wrong case: two fixes.
  const base = validHost();
  const head = structuredClone(base) as ReturnType<typeof validHost> & {
    metrics: { timeseries: { unit: string } }[];
  };
  head.requiredAgentVersion = "1.300";
  head.metrics[0]!.timeseries.unit = head.metrics[0]!.timeseries.unit.toUpperCase();
  writeFileSync(join(repo, BASE), text(base));
  before = text(head);
  writeFileSync(join(repo, HEAD), before);
  expect(git(repo, "init", "-q").status).toBe(0);
  expect(git(repo, "add", ".").status).toBe(0);
  expect(
    git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "demo").status,
  ).toBe(0);
});
afterAll(() => rmSync(join(repo, ".."), { recursive: true, force: true }));

/** What `--fix` writes, the file restored after. */
function fixed(): string {
  expect(cli(["check", "--fix", "--base", BASE, HEAD], repo).status).toBe(0);
  const after = readFileSync(join(repo, HEAD), "utf8");
  writeFileSync(join(repo, HEAD), before);
  return after;
}

/** The dry run's diff, written to a file outside the repository for `git apply`. */
function dryRun(cwd: string, base: string, head: string) {
  const r = cli(["check", "--fix-dry-run", "--base", base, head], cwd);
  expect(r.status).toBe(0);
  const patch = join(repo, "..", "fix.patch");
  writeFileSync(patch, r.stdout);
  return { ...r, patch };
}

describe("--fix-dry-run | git apply, where the command ran", () => {
  it.each([
    [
      "at the root, the file named by its absolute path",
      "",
      () => join(repo, HEAD),
      "plugins/demo/plugin.json",
    ],
    ["at the root, named with ./", "", () => `./${HEAD}`, "plugins/demo/plugin.json"],
    ["in plugins/, named with ..", "plugins", () => "../plugins/demo/plugin.json", "demo/plugin.json"],
    ["in plugins/demo/, by its absolute path", "plugins/demo", () => join(repo, HEAD), "plugin.json"],
    [
      "in the repository reached through a linked folder, by its real absolute path",
      "LINK",
      () => join(repo, HEAD),
      "plugins/demo/plugin.json",
    ],
  ])("%s", (_, folder, head, name) => {
    const cwd = folder === "LINK" ? link : join(repo, folder);
    const r = dryRun(cwd, join(repo, BASE), head());
    expect(r.stdout.split("\n").slice(0, 2)).toEqual([`--- a/${name}`, `+++ b/${name}`]);
    const check = git(cwd, "apply", "--check", r.patch);
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
    // Applied, it gives what --fix writes.
    const want = fixed();
    expect(git(cwd, "apply", r.patch).status).toBe(0);
    expect(readFileSync(join(repo, HEAD), "utf8")).toBe(want);
    writeFileSync(join(repo, HEAD), before);
  });

  it("a file outside the working directory: its path in the repository, and where to apply it", () => {
    const r = dryRun(join(repo, "docs"), join(repo, BASE), "../plugins/demo/plugin.json");
    expect(r.stdout).toMatch(/^--- a\/plugins\/demo\/plugin\.json\n\+\+\+ b\/plugins\/demo\/plugin\.json\n/);
    const root = realpathSync(repo);
    expect(r.stderr).toContain(
      `plugin-review: --fix-dry-run: the diff names files outside the working directory by their path below ${root}: apply it there (git -C ${root} apply)\n`,
    );
    expect(git(repo, "apply", "--check", r.patch).status).toBe(0);
  });
});
