/**
 * "Re-run" on the check of a pull request from a fork. GitHub sends check_run and check_suite events of a
 * fork's pull request with `pull_requests` empty, so the Re-run named no pull request to review: a failing
 * check stayed failed, though its summary says "Re-run the check to try again", and a passing one was not
 * reviewed with today's policy. The commit's run names the pull requests reviewed at that commit (a run of an
 * earlier release, those whose reviews failed); each is read from GitHub and reviewed when it is open at that
 * head (its numbers are where to look, never what to trust).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../helpers.js";
import { APP_ID, FakeGitHub, REVIEW_ROUTES } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  BASE_SHA,
  checkSuitePayload,
  deliver,
  example,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
} from "../harness.js";

const R = `${OWNER}/${REPO}`;

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** Pull request 7, from a fork, changes the metric group, which can never change: its review fails. */
function forkPull(gh: FakeGitHub) {
  const head = validHost();
  gh.file(R, BASE_SHA, "p/plugin.json", text({ ...head, version: "1.1.0", metricGroup: "tech.old" }));
  gh.file(R, HEAD_SHA, "p/plugin.json", text(head));
  gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: "@@ -7,1 +7,1 @@\n-x\n+x" }];
  const opened = pullRequestPayload("opened", { fork: "outsider" });
  gh.pulls.set(7, { ...opened.pull_request });
  return opened;
}

/** Pull request 7, from a fork, changes the metric group while the default branch's policy allows it: it passes. */
function passingForkPull(gh: FakeGitHub) {
  const opened = forkPull(gh);
  gh.file(R, "HEAD", ".github/plugin-review.yml", "rules:\n  metric-group-changed: off\n");
  return opened;
}

/** The Re-run of one check run, as GitHub sends it for a fork's pull request: no pull request stubs. */
function forkRunRerun(opened: ReturnType<typeof pullRequestPayload>) {
  const rerun = example("check_run", "rerequested");
  rerun.installation = { id: 77 };
  rerun.repository = opened.repository;
  rerun.check_run.head_sha = HEAD_SHA;
  rerun.check_run.app.id = APP_ID;
  rerun.check_run.pull_requests = [];
  return rerun;
}

/** "Re-run all checks", as GitHub sends it for a fork's pull request. */
function forkSuiteRerun(opened: ReturnType<typeof pullRequestPayload>) {
  const suite = checkSuitePayload(opened, "rerequested");
  suite.check_suite.pull_requests = [];
  return suite;
}

describe("GitHub App: Re-run of a fork's pull request", () => {
  it.each([
    ["check_run", forkRunRerun],
    ["check_suite", forkSuiteRerun],
  ] as const)(
    "a Re-run (%s, no pull request stubs) reviews the pull request the failing run names, with today's policy",
    async (event, rerunOf) => {
      const gh = new FakeGitHub([...REVIEW_ROUTES, "getPull", "listCheckRuns"]);
      const { probot } = makeProbot();
      const opened = forkPull(gh);
      await deliver(probot, "pull_request", opened);
      expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);

      // The maintainers turn the rule off on the default branch, and re-run the fork's check.
      gh.file(R, "HEAD", ".github/plugin-review.yml", "rules:\n  metric-group-changed: off\n");
      await deliver(probot, event, rerunOf(opened));
      const runs = gh.runsFor(HEAD_SHA);
      expect(runs).toHaveLength(2);
      expect(runs[1]).toMatchObject({ status: "completed", conclusion: "success" });
      gh.assertClean();
    },
  );

  it.each([
    ["check_run", forkRunRerun],
    ["check_suite", forkSuiteRerun],
  ] as const)(
    "a Re-run (%s) of a fork's passing check reviews the pull request again, with today's policy",
    async (event, rerunOf) => {
      const gh = new FakeGitHub([...REVIEW_ROUTES, "getPull", "listCheckRuns"]);
      const { probot } = makeProbot();
      const opened = passingForkPull(gh);
      await deliver(probot, "pull_request", opened);
      expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "success" })]);

      // The maintainers turn the rule back on, and re-run the fork's passing check.
      gh.file(R, "HEAD", ".github/plugin-review.yml", "");
      await deliver(probot, event, rerunOf(opened));
      const runs = gh.runsFor(HEAD_SHA);
      expect(runs).toHaveLength(2);
      expect(runs[1]).toMatchObject({ status: "completed", conclusion: "failure" });
      expect(runs[1]!.annotations.map((a) => a.title)).toEqual(["metric-group-changed"]);
      gh.assertClean();
    },
  );

  it("a Re-run of a head two fork pull requests share makes one new run, naming both, and a later Re-run reviews both again", async () => {
    // Nothing to comment: no review is posted.
    const routes = REVIEW_ROUTES.filter((r) => r !== "createReview");
    const gh = new FakeGitHub([...routes, "getPull", "listCheckRuns", "updateCheckRun"]);
    const { probot, logs } = makeProbot();
    const opened = passingForkPull(gh);
    const opened8 = pullRequestPayload("opened", { fork: "outsider", number: 8 });
    gh.pulls.set(8, { ...opened8.pull_request });
    await deliver(probot, "pull_request", opened);
    await deliver(probot, "pull_request", opened8);
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "success" })]);

    const reviewed = () =>
      logs.filter((l) => l.msg === "check run completed").map((l) => String(l.pr).split("#")[1]);
    for (const rerun of [1, 2]) {
      logs.length = 0;
      await deliver(probot, "check_run", forkRunRerun(opened));
      expect(reviewed()).toEqual(["7", "8"]);
      expect(gh.runsFor(HEAD_SHA)).toHaveLength(1 + rerun);
    }
    expect(gh.runsFor(HEAD_SHA).at(-1)).toMatchObject({ status: "completed", conclusion: "success" });
    expect(gh.runsFor(HEAD_SHA).at(-1)!.external_id).toMatch(/:pulls=7,8$/);
    gh.assertClean();
  });

  it("a Re-run still reviews the pull requests the run names when GitHub no longer has one of them (404)", async () => {
    const routes = REVIEW_ROUTES.filter((r) => r !== "createReview");
    const gh = new FakeGitHub([...routes, "getPull", "listCheckRuns", "updateCheckRun"]);
    const { probot, logs } = makeProbot();
    const opened = passingForkPull(gh);
    const opened8 = pullRequestPayload("opened", { fork: "outsider", number: 8 });
    gh.pulls.set(8, { ...opened8.pull_request });
    await deliver(probot, "pull_request", opened8);
    await deliver(probot, "pull_request", opened);
    gh.absent(8);
    logs.length = 0;
    await deliver(probot, "check_run", forkRunRerun(opened));
    expect(logs.filter((l) => l.msg === "check run completed").map((l) => l.pr)).toEqual([`${R}#7`]);
    expect(gh.runsFor(HEAD_SHA)).toHaveLength(2);
    gh.assertClean();
  });

  it("a Re-run reads the run an earlier release wrote, which names only the failing pull requests", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "getPull", "listCheckRuns"]);
    const { probot } = makeProbot();
    const opened = forkPull(gh);
    await deliver(probot, "pull_request", opened);
    const [run] = gh.runsFor(HEAD_SHA);
    run!.external_id = run!.external_id!.replace(/:pulls=[0-9,]+$/, "");
    expect(run!.external_id).toMatch(/^plugin-review:v2:[0-9a-f]{40}:failing=7$/);
    gh.file(R, "HEAD", ".github/plugin-review.yml", "rules:\n  metric-group-changed: off\n");
    await deliver(probot, "check_run", forkRunRerun(opened));
    expect(gh.runsFor(HEAD_SHA).at(-1)).toMatchObject({ status: "completed", conclusion: "success" });
    gh.assertClean();
  });

  it("reviews nothing when the pull request the failing run names is closed, or has moved to another head", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "getPull", "listCheckRuns"]);
    const { probot, logs } = makeProbot();
    const opened = forkPull(gh);
    await deliver(probot, "pull_request", opened);
    gh.pulls.set(7, { ...opened.pull_request, state: "closed" });
    await deliver(probot, "check_run", forkRunRerun(opened));
    gh.pulls.set(7, { ...opened.pull_request, head: { ...opened.pull_request.head, sha: "f".repeat(40) } });
    await deliver(probot, "check_run", forkRunRerun(opened));
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    expect(logs.filter((l) => /no pull request at this head commit/.test(String(l.msg)))).toHaveLength(2);
    gh.assertClean();
  });
});
