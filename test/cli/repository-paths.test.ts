/**
 * How the CLI names a descriptor, run as a user runs it (the built CLI, a real git repository): a nested
 * configuration's `paths` and `ignore` globs read the path below the folder holding its `.github/`, with or
 * without `--base-ref`; `--base-ref` finds a file reached through a symbolic link; and a finding's
 * fingerprint names the file by its path in the repository, whatever the working directory, the
 * configuration or the link it was reached through, so that it equals the App's for the same file.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readFingerprint } from "../../src/github/review/pull-review/fingerprint.js";
import { FakeGitHub, LATER_REVIEW_ROUTES } from "../github/fake-github.js";
import { cleanup, disableNetwork } from "../github/github-mock.js";
import {
  BASE_SHA,
  deliver,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
} from "../github/harness.js";
import { BASE, CHANGED, HEAD, nestedRepo, writeIn } from "./nested-repo.js";
import { cli, ensureBuilt } from "./run.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let dir: string;
let repo: string;
const write = (rel: string, content: string) => writeIn(dir, rel, content);

beforeAll(() => {
  ensureBuilt();
  dir = realpathSync(mkdtempSync(join(tmpdir(), "plugin-review-paths-")));
  repo = nestedRepo(dir, true);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const json = (stdout: string) => JSON.parse(stdout) as Json[];
const found = (stdout: string) => json(stdout).map((f) => `${f.file} ${f.ruleId}`);

describe("a nested configuration's ignore globs, relative to the folder holding its .github/", () => {
  it("ignore sub/legacy for check, with --base-ref (the file, every changed one, --stdin) alike", () => {
    for (const base of [[], ["--base-ref", "HEAD"]]) {
      const ignored = cli(["check", ...base, "--format", "json", "sub/legacy/plugin.json"], repo);
      expect(ignored.stderr).toBe("");
      expect(json(ignored.stdout)).toEqual([]);
      expect(ignored.status).toBe(0);
      const reviewed = cli(["check", ...base, "--format", "json", "sub/current/plugin.json"], repo);
      expect(found(reviewed.stdout)).toContain("sub/current/plugin.json invalid-value");
      expect(reviewed.status).toBe(1);
    }
    // Every changed descriptor, from the repository's root and from sub/: sub/legacy has nothing to say.
    for (const [cwd, prefix] of [
      [repo, "sub/"],
      [join(repo, "sub"), ""],
    ] as const) {
      const all = cli(["check", "--base-ref", "HEAD", "--format", "json"], cwd);
      expect(found(all.stdout)).toEqual(CHANGED.map((id) => `${prefix}current/plugin.json ${id}`));
      expect(all.status).toBe(1);
    }
    const args = ["check", "--stdin", "--stdin-filename", "sub/legacy/plugin.json", "--format", "json"];
    const stdin = cli([...args, "--base-ref", "HEAD"], repo, {}, HEAD);
    expect(json(stdin.stdout)).toEqual([]);
    expect(stdin.status).toBe(0);
  });
});

describe("--base-ref through a symbolic link", () => {
  it("compares a descriptor reached through a linked folder with its version at the ref", () => {
    // From inside the repository, the folder and the file named through `link`, a link to it.
    const viaFolder = cli(
      ["check", "--base-ref", "HEAD", "--format", "json", join(dir, "link", "sub", "current")],
      repo,
    );
    expect(viaFolder.stderr).not.toMatch(/unchanged/);
    expect(json(viaFolder.stdout).map((f) => f.ruleId)).toEqual(CHANGED);
    expect(viaFolder.status).toBe(1);
    const file = join(dir, "link", "sub", "current", "plugin.json");
    const viaFile = cli(["check", "--base-ref", "HEAD", "--format", "json", file], repo);
    // Modified, not added: the change rules run against the base (an added file has no version to bump).
    expect(json(viaFile.stdout).map((f) => f.ruleId)).toEqual(CHANGED);
    // The nested configuration's ignore holds through the link too.
    const legacy = cli(
      ["check", "--base-ref", "HEAD", "--format", "json", join(dir, "link", "sub", "legacy")],
      repo,
    );
    expect(json(legacy.stdout)).toEqual([]);
    expect(legacy.status).toBe(0);
  });
});

describe("a finding's fingerprint names the file by its path in the repository", () => {
  afterEach(() => cleanup());

  /** The fingerprint of the bad unit's finding, from `--format json` and from SARIF's partialFingerprints. */
  function fingerprints(args: string[], cwd: string): string[] {
    const j = cli(["check", "--format", "json", ...args], cwd);
    const s = cli(["check", "--format", "sarif", ...args], cwd);
    const sarif = JSON.parse(s.stdout) as Json;
    const results = sarif.runs[0].results as Json[];
    return [
      json(j.stdout).find((f) => f.ruleId === "invalid-value")?.fingerprint as string,
      results.find((r) => r.ruleId === "invalid-value")?.partialFingerprints["pluginReview/v3"] as string,
    ];
  }

  it("is the same from any folder, with --no-config, --config elsewhere, through a link, and equals the App's", async () => {
    const elsewhere = write("elsewhere/strict.yml", "fail_on: warning\n");
    const runs = [
      fingerprints(["sub/current/plugin.json"], repo),
      fingerprints(["current/plugin.json"], join(repo, "sub")),
      fingerprints(["--no-config", "sub/current/plugin.json"], repo),
      fingerprints(["--no-config", "plugin.json"], join(repo, "sub", "current")),
      fingerprints(["--config", elsewhere, "g1/sub/current/plugin.json"], dir),
      fingerprints(["--config", elsewhere, "plugin.json"], join(repo, "sub", "current")),
      fingerprints(["--base-ref", "HEAD", "current/plugin.json"], join(repo, "sub")),
      fingerprints([join(dir, "link", "sub", "current", "plugin.json")], "/"),
    ];
    const [first] = runs[0]!;
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(runs.flat()).toEqual(runs.flat().map(() => first));

    // The App reviewing a pull request that changes sub/current/plugin.json: its comment's fingerprint.
    disableNetwork();
    const path = "sub/current/plugin.json";
    const gh = new FakeGitHub(LATER_REVIEW_ROUTES);
    const { probot } = makeProbot();
    const lines = HEAD.replace(/\n$/, "").split("\n");
    const line = lines.findIndex((l) => l.includes('"PerSecnd"')) + 1;
    gh.prFiles = [
      {
        filename: path,
        status: "modified",
        patch: `@@ -${line},1 +${line},1 @@\n-${BASE.split("\n")[line - 1]}\n+${lines[line - 1]}`,
      },
    ];
    gh.file(`${OWNER}/${REPO}`, HEAD_SHA, path, HEAD).file(`${OWNER}/${REPO}`, BASE_SHA, path, BASE);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const comment = gh.comments.find((c) => c.body?.includes("invalid-value"));
    expect(readFingerprint(comment?.body)).toBe(first);
  });
});
