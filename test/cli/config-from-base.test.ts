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
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { MIGRATION, text, validHost } from "../helpers.js";
import { FakeGitHub } from "../github/fake-github.js";
import { cleanup, disableNetwork } from "../github/github-mock.js";
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

  it("--config names a file read as the base has it", () => {
    const repo = repository(
      { "ci/plugin-review.yml": "fail_on: error\n", "a/plugin.json": text(validHost()) },
      { "ci/plugin-review.yml": LOOSE, "b/plugin.json": text(bad("custom.python.b")) },
    );
    const r = cli(
      ["check", "--base-ref", "main", "--config-from-base", "--config", "ci/plugin-review.yml"],
      repo,
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^configuration: ci\/plugin-review\.yml at main$/m);
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

describe("plugin-review check --config-from-base: the migration map, read as the base has it", () => {
  /** The example's extension with its metric keys under `acme.pool.` (what the map's `key_prefix` gives). */
  const prefixed = MIGRATION.extension.replace(/key: example\.pool\./g, "key: acme.pool.");
  const map = (prefix: string) =>
    `plugins:\n  custom.jmx.example_pool:\n    name: custom:example.pool\n    key_prefix: ${prefix}\n`;
  /** The migration of the example's plugin into `pool/extension/`, the base naming its map `migrate.yml`. */
  function migration(head: Record<string, string> = {}, baseMap: string | null = map("acme.pool")): string {
    const repo = repository(
      {
        ".github/plugin-review.yml": "migration_map: migrate.yml\n",
        ...(baseMap === null ? {} : { "migrate.yml": baseMap }),
        "pool/plugin.json": MIGRATION.plugin,
      },
      { "pool/extension/extension.yaml": prefixed, ...head },
    );
    git(repo, "rm", "-q", "pool/plugin.json");
    git(repo, "commit", "-q", "-m", "migrated");
    return repo;
  }

  it("compares the extension with the keys the base's map gives its plugin: passes, as in the App", () => {
    const r = cli(["check", "--base-ref", "main", "--config-from-base", "--format", "json"], migration());
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.status).toBe(0);
  });

  it("a map the change rewrites is not read: the base's judges it", () => {
    const repo = migration({ "migrate.yml": map("evil.pool") });
    const r = cli(["check", "--base-ref", "main", "--config-from-base", "--format", "json"], repo);
    expect(r.status).toBe(0);
    // The change's own map, read from the work tree, would judge the keys it chose.
    expect(cli(["check", "--base-ref", "main", "--format", "json"], repo).status).toBe(1);
  });

  it("a map the base's configuration names but the base lacks is a configuration error, not ignored", () => {
    const repo = migration({ "migrate.yml": map("acme.pool") }, null);
    const r = cli(["check", "--base-ref", "main", "--config-from-base"], repo);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/`migration_map` names `migrate\.yml`, which is not there/);
  });
});

describe("plugin-review check --config-from-base: `_extends`, read from GitHub as the App reads it", () => {
  beforeEach(() => disableNetwork());
  afterEach(() => cleanup());

  /** The CLI's `main` in this process (nock answers as GitHub), in `cwd`, with only `env`. */
  async function run(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
    let stdout = "";
    let stderr = "";
    const status = await main(args, {
      cwd,
      env,
      colour: false,
      stdout: (s) => void (stdout += s),
      stderr: (s) => void (stderr += s),
    });
    return { status, stdout, stderr };
  }

  /** The base's file extends `value`; the change loosens it (and would pass), its descriptor has an error. */
  function extending(value: string): string {
    const repo = repository(
      {
        ".github/plugin-review.yml": `fail_on: error\n_extends: ${value}\n`,
        "a/plugin.json": text(validHost()),
      },
      { ".github/plugin-review.yml": LOOSE, "b/plugin.json": text(bad("custom.python.b")) },
    );
    git(repo, "remote", "add", "origin", "git@github.com:acme/plugins.git");
    return repo;
  }

  const SHARED = ".github/plugin-review.yml";
  const TOKEN = { GITHUB_TOKEN: "ghp_not_a_real_token" };
  const ARGS = ["check", "--base-ref", "main", "--config-from-base", "--format", "json"];
  const UNCHANGED = "plugin-review: 1 descriptor unchanged since main was not checked\n";

  it("merges the extended file (its default branch) under the base's: the base's values win, the rest apply", async () => {
    const gh = new FakeGitHub(["contents"]);
    // The extended file makes invalid-value a notice and fails on notices; the base's own fail_on wins.
    gh.file("acme/shared", "HEAD", SHARED, "rules:\n  invalid-value: notice\nfail_on: notice\n");
    const repo = extending("shared"); // the owner is the remote's
    const r = await run(ARGS, repo, TOKEN);
    expect(r.stderr).toBe(UNCHANGED);
    expect((JSON.parse(r.stdout) as Json[]).map((f) => [f.ruleId, f.severity])).toEqual([
      ["invalid-value", "notice"],
    ]);
    expect(r.status).toBe(0);
    const textRun = await run(ARGS.slice(0, -2), repo, TOKEN);
    expect(textRun.stdout).toMatch(
      /^configuration: \.github\/plugin-review\.yml at main, extending acme\/shared:\.github\/plugin-review\.yml$/m,
    );
    gh.assertClean();
  });

  it("`owner/repo:path` names its file; GITHUB_REPOSITORY, as in Actions, names the owner before the remote", async () => {
    const gh = new FakeGitHub(["contents"]);
    gh.file(
      "policy/central",
      "HEAD",
      "ci/strict.yml",
      "fail_on: warning\nrules:\n  invalid-value: warning\n",
    );
    const named = await run(ARGS, extending("policy/central:ci/strict.yml"), TOKEN);
    expect(named.stderr).toBe(UNCHANGED);
    expect((JSON.parse(named.stdout) as Json[]).map((f) => f.severity)).toEqual(["warning"]);
    expect(named.status).toBe(0); // the base's `fail_on: error` wins over the extended `warning`
    gh.file("other/shared", "HEAD", SHARED, "rules:\n  invalid-value: off\n");
    const owner = await run(ARGS, extending("shared"), { ...TOKEN, GITHUB_REPOSITORY: "other/plugins" });
    expect(owner.stderr).toBe(UNCHANGED);
    expect(JSON.parse(owner.stdout)).toEqual([]);
    expect(owner.status).toBe(0);
    gh.assertClean();
  });

  it("never judges without it: no token, a repository without the file, an invalid file, GitHub refusing", async () => {
    const gh = new FakeGitHub(["contents"]);
    const repo = extending("shared");
    const noToken = await run(ARGS, repo, {});
    expect(noToken.status).toBe(2);
    expect(noToken.stdout).toBe("");
    expect(noToken.stderr).toBe(
      "plugin-review: the file named by `_extends: shared` in .github/plugin-review.yml at main is another repository's, read from GitHub as the App reads it (its default branch): set GITHUB_TOKEN to a token that can read it\n",
    );
    const missing = await run(ARGS, repo, TOKEN);
    expect(missing.stderr).toBe(
      "plugin-review: invalid configuration .github/plugin-review.yml at main:\n  - line 2, column 1: _extends: `shared` has no .github/plugin-review.yml\n",
    );
    expect(missing.status).toBe(2);
    gh.file("acme/shared", "HEAD", SHARED, "fail_on: sometimes\n");
    const invalid = await run(ARGS, repo, TOKEN);
    expect(invalid.stderr).toMatch(
      /^plugin-review: invalid configuration acme\/shared:\.github\/plugin-review\.yml:\n {2}- line 1, column 10: fail_on: /,
    );
    expect(invalid.status).toBe(2);
    gh.file("acme/shared", "HEAD", SHARED, "fail_on: error\n");
    gh.fail("GET", /\/contents\//, 403, 1, {
      message: "Resource not accessible by personal access token",
      documentation_url: "https://docs.github.com/rest",
      status: "403",
    });
    const refused = await run(ARGS, repo, TOKEN);
    expect(refused.stderr).toMatch(
      /^plugin-review: cannot read the file named by `_extends: shared` in \.github\/plugin-review\.yml at main: GitHub answered 403 \(Resource not accessible by personal access token/,
    );
    expect(refused.status).toBe(2);
    gh.assertClean();
    const noOwner = repository(
      { ".github/plugin-review.yml": "_extends: shared\n" },
      { "b/plugin.json": text(bad("custom.python.b")) },
    );
    const unknown = await run(ARGS, noOwner, TOKEN);
    expect(unknown.stderr).toMatch(
      /_extends: `shared` names a repository of this one's owner, which is not known here: name it as `owner\/shared`/,
    );
    expect(unknown.status).toBe(2);
  });
});
