/**
 * An Extensions 2.0 repository, after its migration: a pull request that changes only an `extension.yaml` (no
 * plugin.json anywhere) is reviewed as a plugin.json is. Its check run carries the findings as annotations (new
 * ones at their level, the base's as notices), its review comments them on their lines with their identity, an
 * organisation's lock on the version rule holds against the repository's file, another tool's extension.yaml
 * gets no finding; and `check --base-ref` over the same change in a real git repository gives the same verdict,
 * findings and identities. The real app, real webhook payloads, the OpenAPI-validated fake GitHub; the CLI's
 * bundle as users run it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { JsonFinding } from "../../../src/format/json.js";
import { cli, ensureBuilt } from "../../cli/run.js";
import { edit, lineOf, MIGRATION } from "../../helpers.js";
import { ZWSP } from "../../markdown.js";
import { FakeGitHub, REVIEW_ROUTES, type Route } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  BASE_SHA,
  deliver,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
  rewritePatch,
} from "../harness.js";

/**
 * The rule that judges the extension's `version`, which the organisation locks. ef2-version-format today; the
 * change rule `version-not-bumped` once it reviews extension.yaml files too: the change below fires both (the
 * content changed, and `version: 1.7` is YAML's number 1.7, not a higher `major.minor.patch` than "1.7.0").
 */
const VERSION_RULE = "ef2-version-format";

const R = `${OWNER}/${REPO}`;
const PATH = "pool/extension/extension.yaml";
const CONFIG = ".github/plugin-review.yml";

/** The base: the example extension, with one mistake of old (`name` twice under `author`). */
const BEFORE = edit(
  MIGRATION.extension,
  "  name: Example team\n",
  "  name: Example team\n  name: Example team\n",
);
/** The change: a metric's display name, and the version written as YAML's number 1.7. */
const AFTER = edit(
  edit(BEFORE, 'version: "1.7.0"', "version: 1.7"),
  "displayName: Active connections",
  "displayName: Connections in use",
);
const VERSION_LINE = lineOf(AFTER, "version: 1.7");
const OLD_LINE = lineOf(AFTER, "  name: Example team", 2);

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** The pull request: `pool/extension/extension.yaml` modified, nothing else, no plugin.json at base or head. */
function pullRequest(routes: readonly Route[] = REVIEW_ROUTES, configure?: (gh: FakeGitHub) => void) {
  const gh = new FakeGitHub(routes);
  const { probot } = makeProbot();
  gh.prFiles = [{ filename: PATH, status: "modified", patch: rewritePatch(BEFORE, AFTER) }];
  gh.file(R, HEAD_SHA, PATH, AFTER).file(R, BASE_SHA, PATH, BEFORE);
  configure?.(gh);
  return { gh, probot };
}

describe("GitHub App: a pull request that changes only an extension.yaml", () => {
  it("fails with the version finding as an annotation and a line comment; the base's mistake is an existing notice", async () => {
    const { gh, probot } = pullRequest();
    await deliver(probot, "pull_request", pullRequestPayload("opened"));

    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    const annotations = run!.annotations;
    expect(annotations).toContainEqual(
      expect.objectContaining({
        path: PATH,
        start_line: VERSION_LINE,
        end_line: VERSION_LINE,
        annotation_level: "failure",
        title: VERSION_RULE,
      }),
    );
    // What the base already had: a notice that says it predates the pull request, and no comment.
    expect(annotations).toContainEqual(
      expect.objectContaining({
        path: PATH,
        start_line: OLD_LINE,
        annotation_level: "notice",
        title: "duplicate-key",
        message: expect.stringMatching(/^Existing finding: it predates this pull request/),
      }),
    );
    expect(run!.output!.summary).toContain("`pool/extension/extension.yaml`");
    // New findings are commented on their lines of the diff, each with its identity.
    const commented = gh.comments.map((c) => [c.path, c.line, /`([a-z0-9-]+)`/.exec(c.body)?.[1]]);
    expect(commented).toContainEqual([PATH, VERSION_LINE, VERSION_RULE]);
    expect(commented.filter(([, , rule]) => rule === "duplicate-key")).toEqual([]);
    for (const c of gh.comments) expect(c.body).toMatch(/<!-- plugin-review:id=[0-9a-f]{32} -->/);
    gh.assertClean();
  });

  it("the organisation's lock on the version rule holds against the repository turning it off or ignoring it", async () => {
    for (const repoConfig of [
      `rules:\n  ${VERSION_RULE}: off\n`,
      `ignore:\n  - paths: ["pool/**"]\n    rules: [${VERSION_RULE}]\n`,
      'paths: ["nothing/**/plugin.json"]\n',
    ]) {
      const { gh, probot } = pullRequest(REVIEW_ROUTES, (fake) => {
        fake.file(`${OWNER}/.github`, "HEAD", CONFIG, `locked: [${VERSION_RULE}]\n`);
        fake.file(R, "HEAD", CONFIG, repoConfig);
      });
      await deliver(probot, "pull_request", pullRequestPayload("opened"));
      const [run] = gh.runsFor(HEAD_SHA);
      expect(run, repoConfig).toMatchObject({ status: "completed", conclusion: "failure" });
      expect(run!.annotations, repoConfig).toContainEqual(
        expect.objectContaining({ path: PATH, title: VERSION_RULE, annotation_level: "failure" }),
      );
      gh.assertClean();
      cleanup();
      disableNetwork();
    }
  });

  it("without the lock, the repository's file decides: the rule off, the check passes", async () => {
    const { gh, probot } = pullRequest(
      REVIEW_ROUTES.filter((r) => r !== "createReview"),
      (fake) => fake.file(R, "HEAD", CONFIG, `rules:\n  ${VERSION_RULE}: off\n`),
    );
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run!.annotations.map((a) => a.title)).not.toContain(VERSION_RULE);
    gh.assertClean();
  });

  it("another tool's extension.yaml (Firebase's) gets no finding: nothing to review, and the summary says why", async () => {
    const gh = new FakeGitHub(["token", "graphql", "files", "createCheckRun"]);
    const { probot } = makeProbot();
    const firebase = "name: storage-resize-images\nversion: 0.1\nspecVersion: v1beta\n";
    const next = `${firebase}displayName: Resize\n`;
    gh.prFiles = [
      { filename: "ext/extension.yaml", status: "modified", patch: rewritePatch(firebase, next) },
    ];
    gh.file(R, HEAD_SHA, "ext/extension.yaml", next).file(R, BASE_SHA, "ext/extension.yaml", firebase);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ conclusion: "success", output: { title: "No descriptors changed" } });
    expect(run!.annotations).toEqual([]);
    // As a reader sees it: the zero-width spaces that keep text from autolinking aside.
    expect(run!.output!.summary!.replace(ZWSP, "")).toContain(
      "> `ext/extension.yaml`: not an Extensions 2.0 extension (it has no `minDynatraceVersion` and no `custom:` name), so it is not reviewed.",
    );
    expect(gh.comments).toEqual([]);
    gh.assertClean();
  });

  it("another tool's extension.yaml made an extension: what it lacks is new (the base's review never read it), the check fails", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    const firebase = "name: counter\nversion: 0.2.0\nspecVersion: v1beta\n";
    const next = firebase.replace("name: counter", "name: custom:counter").replace("0.2.0", "0.2.1");
    gh.prFiles = [
      { filename: "ext/extension.yaml", status: "modified", patch: rewritePatch(firebase, next) },
    ];
    gh.file(R, HEAD_SHA, "ext/extension.yaml", next).file(R, BASE_SHA, "ext/extension.yaml", firebase);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    const annotations = run!.annotations.map((a) => [a.title, a.annotation_level, a.message]);
    expect(annotations).toContainEqual([
      "required-member",
      "failure",
      expect.stringContaining("`minDynatraceVersion`"),
    ]);
    expect(annotations.filter(([, , m]) => /Existing finding/.test(String(m)))).toEqual([]);
    gh.assertClean();
  });
});

describe("the same change through check --base-ref (a real git repository): the same verdict", () => {
  let dir: string;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" }).toString();
  const put = (path: string, content: string) => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  };

  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), "plugin-review-extension-"));
    git("init", "-q", "-b", "main");
    git("config", "user.email", "t@example.com");
    git("config", "user.name", "t");
    put(PATH, BEFORE);
    git("add", ".");
    git("commit", "-q", "-m", "base");
    git("checkout", "-q", "-b", "change");
    put(PATH, AFTER);
    git("commit", "-qam", "change");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fails (exit 1) with the App's findings, lines, baseline and identities", async () => {
    const r = cli(["check", "--base-ref", "main", "--format", "json"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    const findings = JSON.parse(r.stdout) as JsonFinding[];

    const { gh, probot } = pullRequest();
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run!.conclusion).toBe("failure");
    // Every annotation is a finding of check's, at the same place, new ones at their level and the base's as notices.
    const level = (f: JsonFinding) =>
      f.baseline === "existing" ? "notice" : f.severity === "error" ? "failure" : f.severity;
    expect(findings.map((f) => [f.file, f.line, f.column, f.ruleId, level(f)]).sort()).toEqual(
      run!.annotations
        .map((a) => [a.path, a.start_line, a.start_column ?? 1, a.title, a.annotation_level])
        .sort(),
    );
    expect(findings.map((f) => f.ruleId)).toContain(VERSION_RULE);
    // The comments' identities are check's fingerprints of the new findings.
    const ids = gh.comments.map((c) => /plugin-review:id=([0-9a-f]{32})/.exec(c.body)?.[1]).sort();
    expect(ids).toEqual(
      findings
        .filter((f) => f.baseline === "new")
        .map((f) => f.fingerprint)
        .sort(),
    );
    gh.assertClean();
  });
});
