/**
 * `check --base-ref <ref> --config-from-base` in a real git repository: the configuration is the repository's
 * `.github/plugin-review.yml` as `<ref>` has it (or the `--config` file there), never a file the work tree
 * adds or changes; nested configuration files are not read; what it reads is named. Without the option,
 * configuration is found in the work tree as ESLint finds it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { text, validHost } from "../helpers.js";
import { cli, ensureBuilt } from "./run.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let dir: string;
let counter = 0;
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "pipe" }).toString();

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** A descriptor with a metric whose unit does not exist (one `invalid-value` error). */
function bad(name: string): Json {
  const d: Json = validHost();
  d.name = name;
  d.metrics.push({ timeseries: { key: "bad_metric", unit: "Secs", displayname: "Bad" } });
  return d;
}

const LOOSE = 'fail_on: never\nignore: [{paths: ["**"]}]\n';

/** A repository: `base` files committed on main, then `head` files written on a branch (committed). */
function repository(base: Record<string, string>, head: Record<string, string>): string {
  const repo = join(dir, `repo-${++counter}`);
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  git(repo, "config", "user.email", "t@example.com");
  git(repo, "config", "user.name", "t");
  git(repo, "config", "commit.gpgsign", "false");
  for (const [path, content] of Object.entries(base)) write(join(repo, path), content);
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "base");
  git(repo, "checkout", "-q", "-b", "feature");
  for (const [path, content] of Object.entries(head)) write(join(repo, path), content);
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "head");
  return repo;
}

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-config-from-base-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("plugin-review check --config-from-base", () => {
  it("a nested configuration the change adds, and the repository's file it loosens, judge nothing", () => {
    const repo = repository(
      { ".github/plugin-review.yml": "fail_on: error\n", "a/plugin.json": text(validHost()) },
      {
        ".github/plugin-review.yml": LOOSE,
        "plugins/evil/.github/plugin-review.yml": LOOSE,
        "plugins/evil/plugin.json": text(bad("custom.python.evil")),
      },
    );
    // Found as ESLint finds it, the change's own configuration lets it pass.
    expect(cli(["check", "--base-ref", "main"], repo).status).toBe(0);
    const r = cli(["check", "--base-ref", "main", "--config-from-base"], repo);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^plugins\/evil\/plugin\.json$/m);
    expect(r.stdout).toMatch(/invalid-value/);
    expect(r.stdout).toMatch(/^configuration: \.github\/plugin-review\.yml at main$/m);
  });

  it("a base without a configuration file means the built-in defaults, and says so", () => {
    const repo = repository(
      { "a/plugin.json": text(validHost()) },
      { ".github/plugin-review.yml": LOOSE, "b/plugin.json": text(bad("custom.python.b")) },
    );
    const r = cli(["check", "--base-ref", "main", "--config-from-base", "--format", "json"], repo);
    expect(r.status).toBe(1);
    expect((JSON.parse(r.stdout) as Json[]).map((f) => f.ruleId)).toEqual(["invalid-value"]);
    const textRun = cli(["check", "--base-ref", "main", "--config-from-base"], repo);
    expect(textRun.stdout).toMatch(
      /^configuration: none \(main has no \.github\/plugin-review\.yml: built-in defaults\)$/m,
    );
  });

  it("the base's `paths` decide what the base reviewed: a rename from a path the change adds to them is new", () => {
    const doc = bad("custom.python.fixture");
    const repo = repository(
      { ".github/plugin-review.yml": "fail_on: error\n", "fixtures/bad.json": text(doc) },
      { ".github/plugin-review.yml": 'paths: ["**/plugin.json", "fixtures/*.json"]\n' },
    );
    mkdirSync(join(repo, "plugins", "new"), { recursive: true });
    git(repo, "mv", "fixtures/bad.json", "plugins/new/plugin.json");
    git(repo, "commit", "-q", "-m", "move");
    const local = cli(["check", "--base-ref", "main", "--format", "json"], repo);
    expect((JSON.parse(local.stdout) as Json[]).map((f) => f.baseline)).toEqual(["existing"]);
    const r = cli(["check", "--base-ref", "main", "--config-from-base", "--format", "json"], repo);
    expect(r.status).toBe(1);
    expect((JSON.parse(r.stdout) as Json[]).map((f) => [f.file, f.baseline])).toEqual([
      ["plugins/new/plugin.json", "new"],
    ]);
  });

  it("--config names a file read as the base has it; `_extends` is not followed, and a note says so", () => {
    const repo = repository(
      {
        "ci/plugin-review.yml": "_extends: acme/.github\nfail_on: error\n",
        "a/plugin.json": text(validHost()),
      },
      { "ci/plugin-review.yml": LOOSE, "b/plugin.json": text(bad("custom.python.b")) },
    );
    const r = cli(
      ["check", "--base-ref", "main", "--config-from-base", "--config", "ci/plugin-review.yml"],
      repo,
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^configuration: ci\/plugin-review\.yml at main$/m);
    expect(r.stdout).toContain(
      "`_extends` in ci/plugin-review.yml at main is not followed (only the App reads other repositories' files)",
    );
  });

  it("is refused without --base-ref, with --no-config, and for a --config file the base lacks", () => {
    const repo = repository({ "a/plugin.json": text(validHost()) }, { "new.yml": "fail_on: never\n" });
    const cases: [string[], RegExp][] = [
      [
        ["--config-from-base", "."],
        /--config-from-base reads the configuration as the --base-ref commit has it: add --base-ref <ref>/,
      ],
      [
        ["--base-ref", "main", "--config-from-base", "--no-config"],
        /use either --config-from-base or --no-config, not both/,
      ],
      [
        ["--base-ref", "main", "--config-from-base", "--config", "new.yml"],
        /cannot read configuration 'new\.yml' at main: no such file there/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = cli(["check", ...args], repo);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
  });
});
