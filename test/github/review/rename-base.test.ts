/**
 * A base is only what was reviewed there (core/base-path.ts): a pull request that renames a file the base never
 * reviewed (outside the configuration's `paths`) into a descriptor path has no base for it, so every finding is
 * new and the check fails; a rename between reviewed paths still compares with the old path. Real app, real
 * payloads, GitHub faked over nock, its file list in GitHub's shape for a rename (`status: renamed`,
 * `previous_filename`, the patch of the edit), every request validated against the OpenAPI description.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../helpers.js";
import { ZWSP } from "../../markdown.js";
import { FakeGitHub, REVIEW_ROUTES, type Route } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import { BASE_SHA, deliver, HEAD_SHA, makeProbot, OWNER, pullRequestPayload, REPO } from "../harness.js";

const R = `${OWNER}/${REPO}`;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** A descriptor with three metrics whose unit does not exist (three `invalid-value` errors). */
function bad(): Json {
  const d: Json = validHost();
  for (let i = 0; i < 3; i++)
    d.metrics.push({ timeseries: { key: `bad_metric${i}`, unit: "Secs", displayname: `Bad ${i}` } });
  return d;
}

/** GitHub's patch of a rename whose content changed on one line: that line's hunk, with context. */
function oneLinePatch(before: string, after: string): string {
  const a = before.split("\n");
  const b = after.split("\n");
  const line = b.findIndex((l, i) => l !== a[i]) + 1;
  const from = Math.max(1, line - 3);
  const to = Math.min(b.length - 1, line + 3);
  const out: string[] = [];
  for (let i = from; i <= to; i++) {
    if (i === line) out.push(`-${a[i - 1]}`, `+${b[i - 1]}`);
    else out.push(` ${b[i - 1]}`);
  }
  return `@@ -${from},${to - from + 1} +${from},${to - from + 1} @@\n${out.join("\n")}`;
}

/** Pull request 7 renames `from` to `to` and edits it (by default, as the attack does: the plugin's name). */
function renamed(
  routes: readonly Route[],
  from: string,
  to: string,
  edit: Json = { name: "custom.python.new" },
) {
  const gh = new FakeGitHub(routes);
  const { probot } = makeProbot();
  const doc = bad();
  const before = text(doc);
  const after = text({ ...doc, ...edit });
  gh.prFiles = [
    { filename: to, previous_filename: from, status: "renamed", patch: oneLinePatch(before, after) },
  ];
  gh.file(R, BASE_SHA, from, before).file(R, HEAD_SHA, to, after);
  return { gh, probot };
}

describe("GitHub App: a renamed file's base is its old path only when the base reviewed it", () => {
  it("a file from outside `paths` renamed into a descriptor path: every finding new, the check fails", async () => {
    const { gh, probot } = renamed(REVIEW_ROUTES, "fixtures/bad.json", "plugins/new/plugin.json");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.output!.title).toBe("3 errors, 0 warnings, 0 notices in 1 descriptor");
    const annotations = run!.annotations as Json[];
    expect(annotations.map((a) => [a.path, a.annotation_level, a.title])).toEqual(
      Array.from({ length: 3 }, () => ["plugins/new/plugin.json", "failure", "invalid-value"]),
    );
    for (const a of annotations) expect(a.message).not.toMatch(/Existing finding/);
    const summary = run!.output!.summary as string;
    expect(summary).not.toMatch(/existing finding/i);
    expect(summary).toContain(
      "`plugins/new/plugin.json` is reviewed as a new file: it was renamed from `fixtures/bad.json`, which the configuration's `paths` do not review",
    );
    // The file the base never reviewed is not read as a base at all.
    expect(gh.graphqlFiles).not.toContain(`${R}@${BASE_SHA}:fixtures/bad.json`);
    expect(gh.reviews).toHaveLength(1);
    gh.assertClean();
  });

  it("a rename between paths the configuration reviews keeps the old path as its base", async () => {
    const { gh, probot } = renamed(
      REVIEW_ROUTES.filter((r) => r !== "createReview"),
      "plugins/old/plugin.json",
      "plugins/new/plugin.json",
      { version: "1.2.1" },
    );
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run!.output!.title).toBe("No new findings · 3 existing findings not counted");
    expect(gh.graphqlFiles).toContain(`${R}@${BASE_SHA}:plugins/old/plugin.json`);
    gh.assertClean();
  });

  it("the default branch's `paths` decide: a folder they name was reviewed, so a rename from it keeps its base", async () => {
    const { gh, probot } = renamed(
      REVIEW_ROUTES.filter((r) => r !== "createReview"),
      "fixtures/bad.json",
      "plugins/new/plugin.json",
      { version: "1.2.1" },
    );
    gh.file(R, "HEAD", ".github/plugin-review.yml", 'paths: ["**/plugin.json", "fixtures/*.json"]\n');
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run!.output!.title).toBe("No new findings · 3 existing findings not counted");
    gh.assertClean();
  });

  it("an extension.yaml renamed to a plugin.json: reviewed by other rules before, so every finding is new", async () => {
    // JSON is YAML: the base's review read it as an extension.yaml (here: not an extension at all, so nothing).
    const { gh, probot } = renamed(REVIEW_ROUTES, "plugins/old/extension.yaml", "plugins/new/plugin.json", {
      version: "1.2.1",
    });
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.output!.title).toBe("3 errors, 0 warnings, 0 notices in 1 descriptor");
    // As a reader sees it: the zero-width spaces that keep text from autolinking aside.
    expect(run!.output!.summary!.replaceAll(ZWSP, "")).toContain(
      "`plugins/new/plugin.json` is reviewed as a new file: it was renamed from `plugins/old/extension.yaml`, which was reviewed as an extension.yaml, by other rules, so every finding is new.",
    );
    gh.assertClean();
  });

  for (const [what, ignore] of [
    ["every rule", '  - paths: ["legacy/**"]\n'],
    ["the rule", '  - paths: ["legacy/**"]\n    rules: [invalid-value]\n'],
  ])
    it(`a rename out of a folder whose \`ignore\` covers ${what}: findings the base never showed are new`, async () => {
      const { gh, probot } = renamed(REVIEW_ROUTES, "legacy/plugin.json", "plugins/new/plugin.json", {
        version: "1.2.1",
      });
      gh.file(R, "HEAD", ".github/plugin-review.yml", `ignore:\n${ignore}`);
      await deliver(probot, "pull_request", pullRequestPayload("opened"));
      const [run] = gh.runsFor(HEAD_SHA);
      expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
      expect(run!.output!.title).toBe("3 errors, 0 warnings, 0 notices in 1 descriptor");
      expect((run!.annotations as Json[]).map((a) => [a.annotation_level, a.title])).toEqual(
        Array.from({ length: 3 }, () => ["failure", "invalid-value"]),
      );
      gh.assertClean();
    });
});

/**
 * A base is one file's: GitHub pairs renames by similarity, and a file it lists as renamed from a path that the
 * change still has, or that another rename took, is a copy of that base, not its continuation (core/base-path.ts
 * copiedRenames). Compared with it, the base's findings passed as existing in two files.
 */
describe("GitHub App: a base claimed by two files is no file's rename", () => {
  const A = "plugins/a/plugin.json";
  const B = "plugins/b/plugin.json";
  const C = "plugins/c/plugin.json";
  const PATCH = "@@ -1,1 +1,1 @@\n-x\n+y";
  /** Levels of the `invalid-value` annotations on `path`. */
  const on = (run: Json, path: string) =>
    (run.annotations as Json[])
      .filter((a) => a.path === path && a.title === "invalid-value")
      .map((a) => [a.annotation_level, a.title]);
  /** The base's plugin under another name (its own plugin: no duplicate-plugin-name), edited. */
  const copy = (name: string) => text({ ...bad(), name, version: "1.2.1" });
  const notices = Array.from({ length: 3 }, () => ["notice", "invalid-value"]);
  const failures = Array.from({ length: 3 }, () => ["failure", "invalid-value"]);

  it("renamed from a path the change still has (edited in place): the copy's findings are new, the check fails", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    gh.prFiles = [
      { filename: A, status: "modified", patch: PATCH },
      { filename: B, previous_filename: A, status: "renamed", patch: PATCH },
    ];
    gh.file(R, BASE_SHA, A, text(bad()))
      .file(R, HEAD_SHA, A, text({ ...bad(), version: "1.2.1" }))
      .file(R, HEAD_SHA, B, copy("custom.python.copy"));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(on(run!, A)).toEqual(notices);
    expect(on(run!, B)).toEqual(failures);
    expect(run!.output!.summary!.replaceAll(ZWSP, "")).toContain(
      "`plugins/b/plugin.json` is reviewed as a new file: GitHub lists it as renamed from `plugins/a/plugin.json`, which this change still has or another file was renamed from, so it is a copy and every finding is new.",
    );
    // Its base is not read for it (the path is read once, as the base of the file still there).
    expect(gh.graphqlFiles.filter((f) => f === `${R}@${BASE_SHA}:${A}`)).toHaveLength(1);
    gh.assertClean();
  });

  it("two files renamed from one path: the first keeps the base, the second is new, the check fails", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    const { probot } = makeProbot();
    gh.prFiles = [
      { filename: B, previous_filename: A, status: "renamed", patch: PATCH },
      { filename: C, previous_filename: A, status: "renamed", patch: PATCH },
    ];
    gh.file(R, BASE_SHA, A, text(bad()))
      .file(R, HEAD_SHA, B, copy("custom.python.b"))
      .file(R, HEAD_SHA, C, copy("custom.python.c"));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(on(run!, B)).toEqual(notices);
    expect(on(run!, C)).toEqual(failures);
    gh.assertClean();
  });
});
