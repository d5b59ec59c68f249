/**
 * Integration tests: the real app, real webhook payloads, GitHub faked over HTTP with nock (every request
 * validated against GitHub's OpenAPI description, no interceptor left unused).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost, validRemote } from "../helpers.js";
import { createApp } from "../../src/app.js";
import { ReviewScheduler } from "../../src/github/delivery/scheduler.js";
import {
  APP_ID,
  FakeGitHub,
  GITHUB_ERRORS,
  LATER_REVIEW_ROUTES,
  REVIEW_ROUTES,
  type Route,
} from "./fake-github.js";
import { within } from "./scenarios.js";
import { cleanup, disableNetwork } from "./github-mock.js";
import {
  addedFile,
  addedPatch,
  BASE_SHA,
  checkSuitePayload,
  deliver,
  deliverPush,
  example,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
} from "./harness.js";

const R = `${OWNER}/${REPO}`;

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** A diff with one hunk that changes line `line` and shows three lines of context around it. */
function changedLinePatch(before: string, after: string, line: number): string {
  const a = after.split("\n");
  const b = before.split("\n");
  const from = Math.max(1, line - 3);
  const to = Math.min(a.length - 1, line + 3);
  const out: string[] = [];
  for (let i = from; i <= to; i++) {
    if (i === line) out.push(`-${b[i - 1]}`, `+${a[i - 1]}`);
    else out.push(` ${a[i - 1]}`);
  }
  return `@@ -${from},${to - from + 1} +${from},${to - from + 1} @@\n${out.join("\n")}`;
}

function lineOfText(t: string, needle: string): number {
  return t.slice(0, t.indexOf(needle)).split("\n").length;
}

function setup(routes: readonly Route[] = REVIEW_ROUTES) {
  const gh = new FakeGitHub(routes);
  const { probot, logs } = makeProbot();
  return { gh, probot, logs };
}

describe("GitHub App: pull request review", () => {
  it("passes a valid new plugin: one completed check run, no review needed", async () => {
    const { gh, probot } = setup(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const plugin = text(validHost());
    addedFile(gh, "plugins/demo/plugin.json", plugin);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ name: "plugin-review", status: "completed", conclusion: "success" });
    expect(run!.output?.title).toBe("0 errors, 0 warnings, 0 notices in 1 descriptor");
    expect(gh.reviews).toEqual([]);
    gh.assertClean();
  });

  it("reports a change without a version bump whose version line is outside the diff", async () => {
    const { gh, probot } = setup(LATER_REVIEW_ROUTES);
    const before = text(validHost());
    const head = validHost();
    (head.ui as Record<string, unknown>).keymetrics = [];
    const after = text(head);
    const changedAt = lineOfText(after, '"keymetrics": []');
    gh.prFiles = [
      { filename: "p/plugin.json", status: "modified", patch: changedLinePatch(before, after, changedAt) },
    ];
    gh.file(R, HEAD_SHA, "p/plugin.json", after).file(R, BASE_SHA, "p/plugin.json", before);
    await deliver(probot, "pull_request", pullRequestPayload("synchronize"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.annotations).toEqual([
      expect.objectContaining({
        path: "p/plugin.json",
        title: "version-not-bumped",
        annotation_level: "failure",
        start_line: lineOfText(after, '"version"'),
      }),
    ]);
    // Line 3 is not in the diff: the finding goes to the review body, not to a line comment GitHub would refuse.
    expect(gh.comments).toEqual([]);
    expect(gh.reviews).toHaveLength(1);
    expect(gh.reviews[0]!.event).toBe("COMMENT");
    expect(gh.reviews[0]!.body).toMatch(/`p\/plugin\.json:3` \[`version-not-bumped`\]/);
    gh.assertClean();
  });

  it("comments on diff lines, with a suggestion where the fix is mechanical", async () => {
    const { gh, probot } = setup();
    const base = validHost();
    const before = text(base);
    const after = text({ ...base, requiredAgentVersion: "1.102.0" });
    const at = lineOfText(after, '"requiredAgentVersion"');
    gh.prFiles = [
      { filename: "p/plugin.json", status: "modified", patch: changedLinePatch(before, after, at) },
    ];
    gh.file(R, HEAD_SHA, "p/plugin.json", after).file(R, BASE_SHA, "p/plugin.json", before);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    // The version line is context of the hunk around the changed line, so it can carry a suggestion.
    expect(gh.comments).toEqual([
      expect.objectContaining({ path: "p/plugin.json", line: lineOfText(after, '"version"'), side: "RIGHT" }),
    ]);
    expect(gh.comments[0]!.body).toContain('```suggestion\n  "version": "1.2.1",\n```');
    expect(gh.comments[0]!.body).toMatch(/<!-- plugin-review:id=[0-9a-f]{32} -->/);
    gh.assertClean();
  });

  it("fails on a metricGroup change and suggests restoring it on its line", async () => {
    const { gh, probot } = setup();
    const base = validHost();
    const before = text(base);
    const after = text({ ...base, version: "1.3.0", metricGroup: "tech.python.other" }).replace(
      '"1.3.0"',
      '"1.3.0"',
    );
    const at = lineOfText(after, '"metricGroup"');
    gh.prFiles = [
      { filename: "p/plugin.json", status: "modified", patch: changedLinePatch(before, after, at) },
    ];
    gh.file(R, HEAD_SHA, "p/plugin.json", after).file(R, BASE_SHA, "p/plugin.json", before);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ conclusion: "failure" });
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations.map((a) => a.title)).toEqual(["metric-group-changed"]);
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]).toMatchObject({ line: at });
    expect(gh.comments[0]!.body).toContain('```suggestion\n  "metricGroup": "tech.python.demo",\n```');
    gh.assertClean();
  });
});

describe("GitHub App: inputs and outputs", () => {
  it("reports invalid JSON at the first bad character and skips the other rules", async () => {
    const { gh, probot } = setup();
    const broken = '{\n  "name": "custom.python.x",\n  "version": "1.0",\n}\n';
    addedFile(gh, "x/plugin.json", broken);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ conclusion: "failure" });
    expect(run!.annotations).toEqual([
      expect.objectContaining({
        title: "invalid-json",
        start_line: 3,
        start_column: 19,
        end_column: 19,
        annotation_level: "failure",
      }),
    ]);
    expect(gh.comments).toEqual([expect.objectContaining({ path: "x/plugin.json", line: 3 })]);
    gh.assertClean();
  });

  it("completes a successful check when no descriptor changed, without reviewing", async () => {
    const { gh, probot } = setup(["token", "graphql", "files", "createCheckRun"]);
    gh.prFiles = [{ filename: "README.md", status: "modified", patch: "@@ -1 +1 @@\n-a\n+b" }];
    gh.file(R, "HEAD", ".github/plugin-review.yml", "fail_on: warning\n");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({
      status: "completed",
      conclusion: "success",
      output: { title: "No descriptors changed" },
    });
    expect(run!.output!.summary).toMatch(/No descriptors changed/);
    gh.assertClean();
  });

  it("reviews several descriptors: a rename against its old path, a removal skipped, duplicate names across the PR", async () => {
    const { gh, probot } = setup();
    const a = validHost();
    const renamedBefore = text(a);
    const renamedAfter = text({ ...a, version: "1.3.0" });
    const b = text({ ...validRemote() });
    const dup = text({ ...validRemote(), metricGroup: "tech.other" });
    gh.prFiles = [
      {
        filename: "new/place/plugin.json",
        previous_filename: "old/place/plugin.json",
        status: "renamed",
        patch: changedLinePatch(renamedBefore, renamedAfter, 3),
      },
      { filename: "gone/plugin.json", status: "removed" },
      { filename: "remote/plugin.json", status: "added", patch: addedPatch(b) },
      { filename: "remote2/plugin.json", status: "added", patch: addedPatch(dup) },
      { filename: "docs/readme.md", status: "added", patch: "@@ -0,0 +1 @@\n+x" },
    ];
    gh.file(R, BASE_SHA, "old/place/plugin.json", renamedBefore)
      .file(R, HEAD_SHA, "new/place/plugin.json", renamedAfter)
      .file(R, HEAD_SHA, "remote/plugin.json", b)
      .file(R, HEAD_SHA, "remote2/plugin.json", dup);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run!.annotations.map((x) => [x.path, x.title])).toEqual([
      ["remote/plugin.json", "duplicate-plugin-name"],
      ["remote2/plugin.json", "duplicate-plugin-name"],
    ]);
    expect(run!.output!.summary).toMatch(/1 removed descriptor is not reviewed: `gone\/plugin\.json`/);
    expect(run!.output!.summary).toMatch(/\| `new\/place\/plugin\.json` \| 0 \| 0 \| 0 \|/);
    // The base was read at the old path and the base commit.
    expect(gh.graphqlFiles).toContain(`${R}@${BASE_SHA}:old/place/plugin.json`);
    expect(gh.graphqlFiles.some((f) => f.includes("gone"))).toBe(false);
    gh.assertClean();
  });

  it("reads a fork pull request's head and base from the base repository, never from the fork", async () => {
    const { gh, probot } = setup(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const before = text(validHost());
    const after = text({ ...validHost(), version: "1.2.1", technologies: ["PYTHON", "TOMCAT"] });
    gh.prFiles = [
      { filename: "p/plugin.json", status: "modified", patch: changedLinePatch(before, after, 3) },
    ];
    // GitHub keeps the pull request's head commits in the base repository (refs/pull/7/head).
    gh.file(`contributor/${REPO}`, HEAD_SHA, "p/plugin.json", after)
      .file(R, HEAD_SHA, "p/plugin.json", after)
      .file(R, BASE_SHA, "p/plugin.json", before);
    await deliver(probot, "pull_request", pullRequestPayload("opened", { fork: "contributor" }));
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ conclusion: "success" });
    expect(gh.graphqlFiles.filter((f) => f.endsWith(":p/plugin.json"))).toEqual([
      `${R}@${HEAD_SHA}:p/plugin.json`,
      `${R}@${BASE_SHA}:p/plugin.json`,
    ]);
    // Check runs and reviews belong to the base repository.
    expect(gh.requests.filter((r) => r.method !== "GET" && r.path.includes("/contributor/"))).toEqual([]);
    gh.assertClean();
  });

  it("sends 120 findings as annotations in batches of 50 and keeps the summary within limits", async () => {
    const { gh, probot } = setup([...REVIEW_ROUTES, "updateCheckRun"]);
    const doc = validHost();
    doc.metrics = Array.from({ length: 120 }, (_, i) => ({
      timeseries: { key: `m${i}`, unit: "Count", displayname: `m${i}` },
    }));
    delete doc.ui;
    const plugin = text(doc);
    addedFile(gh, "big/plugin.json", plugin);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    // Created completed, with its verdict and the first 50 annotations; the rest follow in updates.
    const writes = gh.requests.filter((r) => /\/check-runs/.test(r.path) && r.method !== "GET");
    expect(
      writes.map(
        (u) => ((u.body as { output?: { annotations?: unknown[] } }).output?.annotations ?? []).length,
      ),
    ).toEqual([50, 50, 20]);
    expect(writes.map((u) => `${u.method} ${(u.body as { status?: string }).status ?? ""}`)).toEqual([
      "POST completed",
      "PATCH ",
      "PATCH ",
    ]);
    expect(run!.annotations).toHaveLength(120);
    expect(run!.output!.summary.length).toBeLessThanOrEqual(65_535);
    // One review; the problem repeated 120 times is one line comment listing the lines (annotations stay 120).
    expect(gh.reviews).toHaveLength(1);
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]!.body).toMatch(/reported 120 times in `big\/plugin\.json`, on lines \d+, \d+/);
    expect(gh.reviews[0]!.body).not.toMatch(/\[`displayname-equals-key`\]/);
    gh.assertClean();
  });

  it("reads a descriptor over 1 MB through the blob API, and reports one over max_file_size without downloading it", async () => {
    const { gh, probot } = setup([...REVIEW_ROUTES, "blob"]);
    const doc = validRemote();
    (doc.metrics as unknown[]).push(
      ...Array.from({ length: 8000 }, (_, i) => ({
        timeseries: { key: `metric_${i}`, unit: "Count", displayname: `Metric number ${i}` },
      })),
    );
    const big = text(doc);
    expect(big.length).toBeGreaterThan(1024 * 1024);
    gh.prFiles = [
      { filename: "big/plugin.json", status: "added" },
      { filename: "huge/plugin.json", status: "added" },
    ];
    gh.file(R, HEAD_SHA, "big/plugin.json", big).file(
      R,
      HEAD_SHA,
      "huge/plugin.json",
      Buffer.alloc(3 * 1024 * 1024, 0x20),
    );
    gh.file(R, "HEAD", ".github/plugin-review.yml", "max_file_size: 2097152\n");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run!.annotations.map((a) => [a.path, a.title])).toEqual([["huge/plugin.json", "file-too-large"]]);
    expect(gh.count("GET", /\/git\/blobs\//)).toBe(1);
    gh.assertClean();
  });

  it("reads a blob over 1 MB byte for byte, raw, whatever charset GitHub's answer names: bytes that are not UTF-8 are said to be", async () => {
    const { gh, probot } = setup([...REVIEW_ROUTES, "blob"]);
    const doc = text(validRemote());
    // Latin-1's "é" in a member name, past 1 MB: decoded as UTF-8 text (the fake's raw answer says
    // `charset=utf-8`), it would become U+FFFD and the file would look like UTF-8.
    const bytes = Buffer.concat([
      Buffer.from(doc.replace(/}\s*$/, `, "caf`)),
      Buffer.from([0xe9]),
      Buffer.from(`": "${"x".repeat(1024 * 1024)}"}`),
    ]);
    gh.prFiles = [{ filename: "big/plugin.json", status: "added" }];
    gh.file(R, HEAD_SHA, "big/plugin.json", bytes);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run!.annotations.map((a) => [a.path, a.title, a.message])).toEqual([
      ["big/plugin.json", "invalid-json", expect.stringMatching(/not valid UTF-8/)],
    ]);
    expect(gh.count("GET", /\/git\/blobs\//)).toBe(1);
    gh.assertClean();
  });
});

describe("GitHub App: idempotency and later pushes", () => {
  function noBump() {
    const before = text(validHost());
    const head = validHost();
    head.requiredAgentVersion = "1.102.0";
    const after = text(head);
    return {
      before,
      after,
      patch: changedLinePatch(before, after, lineOfText(after, '"requiredAgentVersion"')),
    };
  }

  it("a redelivered webhook completes the same run without re-sending annotations, a Re-run starts a new one, no comment is repeated", async () => {
    const { gh, probot } = setup([...LATER_REVIEW_ROUTES, "getPull"]);
    const { before, after, patch } = noBump();
    gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch }];
    gh.file(R, HEAD_SHA, "p/plugin.json", after).file(R, BASE_SHA, "p/plugin.json", before);
    const payload = pullRequestPayload("opened");
    await deliver(probot, "pull_request", payload);
    await deliver(probot, "pull_request", payload); // the same delivery again
    // "Re-run" in the checks tab.
    const rerun = example("check_run", "rerequested");
    rerun.installation = { id: 77 };
    rerun.repository = payload.repository;
    rerun.check_run.head_sha = HEAD_SHA;
    rerun.check_run.app.id = APP_ID; // GitHub sends a re-run to the app that created the check run
    rerun.check_run.pull_requests = [
      {
        number: 7,
        head: { sha: HEAD_SHA, ref: "x", repo: { id: 1, name: REPO, url: "" } },
        base: { sha: BASE_SHA, ref: "main", repo: { id: 1, name: REPO, url: "" } },
        id: 1,
        url: "",
      },
    ];
    gh.pulls.set(7, { ...payload.pull_request });
    expect(gh.checkRuns).toHaveLength(1);
    // The redelivery found the run already saying what it found (its external_id): not written again.
    expect(gh.checkRuns[0]!.updates).toBe(0);
    await deliver(probot, "check_run", rerun);
    await deliver(probot, "check_run", rerun);
    // GitHub shows the newest run; each holds its annotation once (no 3, 6, 9).
    expect(gh.checkRuns).toHaveLength(3);
    for (const run of gh.checkRuns) {
      expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
      expect(run.annotations.map((a) => a.title)).toEqual(["version-not-bumped"]);
    }
    expect(gh.reviews).toHaveLength(1);
    expect(gh.comments).toHaveLength(1);
    gh.assertClean();
  });

  it("a Re-run whose pull request GitHub fails to read (502) is tried again by the server's scheduler, not dropped", async () => {
    const gh = new FakeGitHub(["token", "graphql", "files", "createCheckRun", "getPull"]);
    const said: string[] = [];
    const scheduler = new ReviewScheduler({
      background: { concurrency: 1 },
      retriesMs: [100],
      log: { warn: (m) => said.push(m), error: (_, m) => said.push(m) },
    });
    const { probot } = makeProbot({ app: createApp({ scheduler }) });
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: addedPatch(text(validHost())) }];
    gh.file(R, HEAD_SHA, "p/plugin.json", text(validHost()));
    const payload = pullRequestPayload("opened");
    gh.pulls.set(7, { ...payload.pull_request });
    // GitHub answers 502 to the pull request's read and to the retry plugin's three retries of it.
    gh.fail("GET", /\/pulls\/7$/, 502, 4, GITHUB_ERRORS[502]);
    await deliver(probot, "check_suite", checkSuitePayload(payload, "rerequested"));
    await within(10_000, () => gh.runsFor(HEAD_SHA).length > 0);
    expect(await scheduler.drain(5_000)).toBe(true);
    expect(gh.count("GET", /\/pulls\/7$/)).toBe(5);
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "success" }),
    ]);
    expect(said).toEqual([
      expect.stringMatching(/reading the pull request: GitHub answered 502.*trying again in 0.1 s/),
    ]);
    gh.assertClean();
  });

  it("a later push that fixes a finding resolves its thread with a reply naming the commit, once", async () => {
    const { gh, probot } = setup(LATER_REVIEW_ROUTES);
    const { before, after, patch } = noBump();
    gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch }];
    gh.file(R, HEAD_SHA, "p/plugin.json", after).file(R, BASE_SHA, "p/plugin.json", before);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.comments).toHaveLength(1);
    // Push 2: the version is bumped, and a new problem appears on a changed line.
    const next = "d".repeat(40);
    const fixed = after
      .replace('"version": "1.2.0"', '"version": "1.2.1"')
      .replace('"requiredAgentVersion": "1.102.0"', '"requiredAgentVersion": "1.102"');
    gh.prFiles = [
      {
        filename: "p/plugin.json",
        status: "modified",
        patch: `@@ -1,7 +1,7 @@\n {\n   "name": "custom.python.demo_plugin",\n-  "version": "1.2.0",\n+  "version": "1.2.1",\n   "type": "python",\n-  "requiredAgentVersion": "1.101.0",\n+  "requiredAgentVersion": "1.102",\n   "entity": "PROCESS_GROUP_INSTANCE",`,
      },
    ];
    gh.file(R, next, "p/plugin.json", fixed);
    await deliverPush(probot, gh, next);
    expect(gh.runsFor(next)[0]).toMatchObject({ conclusion: "success" });
    const replies = gh.comments.filter((c) => c.in_reply_to_id);
    expect(replies).toEqual([
      expect.objectContaining({
        in_reply_to_id: gh.comments[0]!.id,
        body: expect.stringMatching(/^Fixed in dddddd/),
      }),
    ]);
    expect([...gh.resolved]).toEqual([gh.comments[0]!.id]);
    // A third push with nothing new: no second "fixed" reply, no new review.
    const third = "e".repeat(40);
    gh.file(R, third, "p/plugin.json", fixed);
    await deliverPush(probot, gh, third);
    expect(gh.comments.filter((c) => c.in_reply_to_id)).toHaveLength(1);
    expect(gh.reviews).toHaveLength(1);
    gh.assertClean();
  });
});

describe("GitHub App: configuration", () => {
  it("uses the default branch's configuration, not the one the pull request edits", async () => {
    const { gh, probot } = setup();
    const { before, after, patch } = (() => {
      const b = text(validHost());
      const h = validHost();
      h.requiredAgentVersion = "1.102.0";
      const a = text(h);
      return { before: b, after: a, patch: changedLinePatch(b, a, lineOfText(a, '"requiredAgentVersion"')) };
    })();
    gh.prFiles = [
      { filename: "p/plugin.json", status: "modified", patch },
      {
        filename: ".github/plugin-review.yml",
        status: "modified",
        patch: "@@ -1 +1 @@\n-fail_on: error\n+rules: { version-not-bumped: off }",
      },
    ];
    gh.file(R, HEAD_SHA, "p/plugin.json", after).file(R, BASE_SHA, "p/plugin.json", before);
    gh.file(R, "HEAD", ".github/plugin-review.yml", "fail_on: error\n");
    gh.file(R, HEAD_SHA, ".github/plugin-review.yml", "rules: { version-not-bumped: off }\n");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ conclusion: "failure" });
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations.map((a) => a.title)).toEqual(["version-not-bumped"]);
    // The configuration was read without a ref (the default branch), never at the head commit.
    const configReads = gh.requests.filter((r) => r.path.endsWith("plugin-review.yml"));
    expect(configReads.every((r) => r.query.ref === undefined)).toBe(true);
    gh.assertClean();
  });

  it("keeps an organisation-locked rule at its severity, whatever the repository says", async () => {
    const { gh, probot } = setup();
    const plugin = text({ ...validHost(), name: "custom.python.other_team" });
    addedFile(gh, "p/plugin.json", plugin);
    gh.file(
      `${OWNER}/.github`,
      "HEAD",
      ".github/plugin-review.yml",
      'policy:\n  name_pattern: "^custom\\\\.python\\\\.acme_"\nlocked: [policy-name]\n',
    );
    gh.file(
      R,
      "HEAD",
      ".github/plugin-review.yml",
      'rules:\n  policy-name: notice\npolicy:\n  name_pattern: ".*"\nignore:\n  - paths: ["p/**"]\n    rules: [policy-name]\n',
    );
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ conclusion: "failure" });
    expect(run!.annotations).toEqual([
      expect.objectContaining({ title: "policy-name", annotation_level: "failure" }),
    ]);
    expect(run!.output!.summary).toMatch(/rule `policy-name` is locked by the organisation/);
    gh.assertClean();
  });

  it("requests changes when configured and the check fails; posts no review with `review: none`", async () => {
    const plugin = text({ ...validHost(), version: "1" });
    const run = async (yml: string, routes: readonly Route[]) => {
      const { gh, probot } = setup(routes);
      addedFile(gh, "p/plugin.json", plugin);
      gh.file(R, "HEAD", ".github/plugin-review.yml", yml);
      await deliver(probot, "pull_request", pullRequestPayload("opened"));
      gh.assertClean();
      cleanup();
      disableNetwork();
      return gh;
    };
    const changes = await run("review: request-changes\n", REVIEW_ROUTES);
    expect(changes.reviews.map((r) => r.event)).toEqual(["REQUEST_CHANGES"]);
    const none = await run(
      "review: none\n",
      REVIEW_ROUTES.filter((r) => r !== "createReview"),
    );
    expect(none.reviews).toEqual([]);
    expect(none.runsFor(HEAD_SHA)[0]).toMatchObject({ conclusion: "failure" });
  });

  it("follows `_extends` to another repository's file, below the repository's own settings", async () => {
    const { gh, probot } = setup([...REVIEW_ROUTES, "contents"]);
    const plugin = text({ ...validHost(), version: "1" });
    addedFile(gh, "p/plugin.json", plugin);
    gh.file(
      R,
      "HEAD",
      ".github/plugin-review.yml",
      "_extends: shared-config\nrules:\n  version-format: warning\n",
    );
    gh.file(
      `${OWNER}/shared-config`,
      "HEAD",
      ".github/plugin-review.yml",
      "fail_on: warning\nrules:\n  version-format: notice\n",
    );
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    // version-format is a warning (the repository wins) and fails the check (fail_on from the extended file).
    expect(run).toMatchObject({ conclusion: "failure" });
    expect(run!.annotations).toEqual([
      expect.objectContaining({ title: "version-format", annotation_level: "warning" }),
    ]);
    gh.assertClean();
  });

  it("fails the check with an explanation when the configuration is invalid", async () => {
    const { gh, probot } = setup(["token", "graphql", "createCheckRun"]);
    gh.file(R, "HEAD", ".github/plugin-review.yml", "rules:\n  unknown-membr: off\nfail_on: sometimes\n");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({
      status: "completed",
      conclusion: "failure",
      output: { title: "Invalid plugin-review configuration" },
    });
    expect(run!.output!.summary).toMatch(/fail_on: "sometimes" is not one of error, warning, notice, never/);
    gh.assertClean();
  });
});

describe("GitHub App: failures", () => {
  it("retries a 500 and carries on", async () => {
    const { gh, probot } = setup(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const plugin = text(validHost());
    addedFile(gh, "p/plugin.json", plugin);
    gh.fail("GET", /\/pulls\/7\/files$/, 500, 1);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.count("GET", /\/pulls\/7\/files$/)).toBe(2);
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ conclusion: "success" });
    gh.assertClean();
  });

  it("retries a secondary rate limit (with the production Octokit: throttling on)", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const { probot, logs } = makeProbot({ productionThrottling: true });
    const plugin = text(validHost());
    addedFile(gh, "p/plugin.json", plugin);
    gh.fail(
      "GET",
      /\/pulls\/7\/files$/,
      403,
      1,
      {
        message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      },
      { "retry-after": "1" },
    );
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.count("GET", /\/pulls\/7\/files$/)).toBe(2);
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ conclusion: "success" });
    expect(logs.some((l) => /secondary rate limit .* retrying/.test(l.msg))).toBe(true);
    gh.assertClean();
  });

  it("falls back to a review without line comments when GitHub answers 422, losing nothing", async () => {
    const { gh, probot, logs } = setup();
    const plugin = text({ ...validHost(), version: "1" });
    addedFile(gh, "p/plugin.json", plugin);
    gh.fail("POST", /\/pulls\/7\/reviews$/, 422, 1, {
      message: "Validation Failed",
      errors: ["pull_request_review_thread.line must be part of the diff"],
    });
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations.map((a) => a.title)).toEqual(["version-format"]);
    expect(gh.reviews).toHaveLength(1);
    expect(gh.comments).toEqual([]);
    expect(gh.reviews[0]!.body).toMatch(/`p\/plugin\.json:3` .*version-format/);
    expect(logs.some((l) => /refused \(422\)/.test(l.msg))).toBe(true);
    gh.assertClean();
  });

  it("completes the check run as failure with the reason when reading files fails, and names the permission", async () => {
    const { gh, probot, logs } = setup(["token", "graphql", "files", "createCheckRun"]);
    gh.fail("GET", /\/pulls\/7\/files$/, 403, 1, { message: "Resource not accessible by integration" });
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({
      status: "completed",
      conclusion: "failure",
      output: { title: "plugin-review could not complete" },
    });
    expect(run!.output!.summary).toMatch(/lacks a permission.*`pull_requests: read`/s);
    expect(logs.some((l) => l.level >= 50 && /review failed/.test(l.msg))).toBe(true);
    gh.assertClean();
  });

  it("keeps every finding in the check run when the review cannot be posted (permission missing)", async () => {
    const { gh, probot, logs } = setup();
    const plugin = text({ ...validHost(), version: "1" });
    addedFile(gh, "p/plugin.json", plugin);
    gh.fail("POST", /\/pulls\/7\/reviews$/, 403, 1, { message: "Resource not accessible by integration" });
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(1);
    expect(logs.find((l) => /posting the review/.test(l.msg))?.msg).toMatch(/pull_requests: write/);
    gh.assertClean();
  });

  it("never logs the installation token or the private key, and tags log lines with the delivery id", async () => {
    const { gh, probot, logs } = setup(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const plugin = text(validHost());
    addedFile(gh, "p/plugin.json", plugin);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const all = JSON.stringify(logs);
    expect(all).not.toContain("ghs_test_token_not_a_secret");
    expect(all).not.toContain("PRIVATE KEY");
    expect(logs.find((l) => l.msg === "check run completed")).toMatchObject({
      id: expect.any(String),
      pr: `${R}#7`,
    });
    gh.assertClean();
  });
});

describe("GitHub App: check suites", () => {
  it("reviews the pull requests of a requested check suite, reusing the head commit's check run", async () => {
    const { gh, probot } = setup([
      ...LATER_REVIEW_ROUTES.filter((r) => r !== "createReview"),
      "updateCheckRun",
      "getPull",
    ]);
    const plugin = text(validRemote());
    addedFile(gh, "r/plugin.json", plugin);
    const pr = pullRequestPayload("opened");
    // The pull request's review fails (GitHub down): its run completes as failure, saying so.
    gh.fail("GET", /\/pulls\/7\/files$/, 503, 100);
    await expect(deliver(probot, "pull_request", pr)).rejects.toThrow(/503/); // so that it is redelivered
    expect(gh.checkRuns[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    gh.recover();
    const suite = checkSuitePayload(pr);
    gh.pulls.set(7, { ...pr.pull_request });
    await deliver(probot, "check_suite", suite);
    // The suite's review completes the same run again, now with its verdict.
    expect(gh.checkRuns).toHaveLength(1);
    expect(gh.checkRuns[0]).toMatchObject({ status: "completed", conclusion: "success", updates: 1 });
    // A redelivery of the suite finds the run already saying what it finds: no write.
    await deliver(probot, "check_suite", suite);
    expect(gh.checkRuns[0]).toMatchObject({ conclusion: "success", updates: 1 });
    gh.assertClean();
  });
});
