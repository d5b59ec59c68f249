/**
 * One check run serves every pull request of a head commit. A second pull request opened from the same head
 * into another branch (one where the descriptor is new, so no change rule runs) must not turn the first's
 * failing check green: a passing review is not written over another open pull request's failing one.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../helpers.js";
import { APP_ID, completesRun, FakeGitHub, GITHUB_ERRORS, REVIEW_ROUTES } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  BASE_SHA,
  deliver,
  example,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
} from "../harness.js";

const R = `${OWNER}/${REPO}`;
type Json = Record<string, unknown>;
const OTHER_BASE = "e".repeat(40);
const NEAR_BASE = "d".repeat(40);

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** Pull request 7 (into main) changes the metric group, which can never change: its review fails. */
function failingPull7(gh: FakeGitHub) {
  const head = validHost();
  gh.file(R, BASE_SHA, "p/plugin.json", text({ ...head, version: "1.1.0", metricGroup: "tech.old" }));
  gh.file(R, HEAD_SHA, "p/plugin.json", text(head));
  gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: "@@ -7,1 +7,1 @@\n-x\n+x" }];
  // Pull request 8: the same head commit, into a branch that has no such descriptor (it is new there).
  gh.pullFiles.set(`${R}#8`, [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+x" }]);
  gh.retarget(8, OTHER_BASE);
}

function pull8Opened() {
  const p = pullRequestPayload("opened", { number: 8 });
  p.pull_request.base.sha = OTHER_BASE;
  p.pull_request.base.ref = "gh-pages";
  return p;
}

describe("GitHub App: one head commit, two pull requests", () => {
  it.each([
    ["GraphQL", false],
    ["REST (GraphQL unavailable)", true],
  ])(
    "keeps the failing check of #7 when #8, from the same head into a branch without the descriptor, passes; until #7 closes (%s)",
    async (_, rest) => {
      const gh = new FakeGitHub([
        ...REVIEW_ROUTES,
        "getPull",
        "updateCheckRun",
        ...(rest ? (["listCheckRuns", "contents", "listComments", "listReviews"] as const) : []),
      ]);
      gh.graphqlUnavailable = rest;
      const { probot, logs } = makeProbot();
      failingPull7(gh);
      gh.pulls.set(7, pullRequestPayload("opened").pull_request);
      await deliver(probot, "pull_request", pullRequestPayload("opened"));
      expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);

      await deliver(probot, "pull_request", pull8Opened());
      const [run, ...others] = gh.runsFor(HEAD_SHA);
      expect(others).toEqual([]);
      expect(run).toMatchObject({ status: "completed", conclusion: "failure", updates: 0 });
      expect(run!.annotations.map((a) => a.title)).toEqual(["metric-group-changed"]);
      expect(logs.some((l) => /#7's failing review of this commit/.test(String(l.msg)))).toBe(true);

      // #7 is closed: nothing holds #8's review back any more (its next delivery, here a reopening).
      gh.pulls.set(7, { ...pullRequestPayload("closed").pull_request, state: "closed" });
      const reopened = pull8Opened();
      reopened.action = "reopened";
      await deliver(probot, "pull_request", reopened);
      expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "success" })]);
      gh.assertClean();
    },
  );

  it("keeps #7's failure when #8 first fails too and is then retargeted to a branch where it passes", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "getPull", "updateCheckRun", "listAnnotations"]);
    const { probot, logs } = makeProbot();
    failingPull7(gh);
    gh.pulls.set(7, pullRequestPayload("opened").pull_request);
    // #8 is first opened into a branch where the metric group differs too (so its failure is written over
    // #7's), then moved to a branch without the descriptor.
    const head = validHost();
    gh.file(R, NEAR_BASE, "p/plugin.json", text({ ...head, version: "1.1.0", metricGroup: "tech.other" }));
    const opened8 = pull8Opened();
    opened8.pull_request.base.sha = NEAR_BASE;
    gh.retarget(8, NEAR_BASE);
    const added = gh.pullFiles.get(`${R}#8`)!;
    gh.pullFiles.set(`${R}#8`, gh.prFiles);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    await deliver(probot, "pull_request", opened8);
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    gh.pullFiles.set(`${R}#8`, added);
    gh.retarget(8, OTHER_BASE);
    const edited8 = pull8Opened();
    edited8.action = "edited";
    edited8.changes = { base: { ref: { from: "release" }, sha: { from: NEAR_BASE } } };
    await deliver(probot, "pull_request", edited8);
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    expect(logs.some((l) => /#7's failing review of this commit/.test(String(l.msg)))).toBe(true);
    gh.assertClean();
  });

  it.each([
    ["", false],
    [" (GitHub failing the new run's first write: it is made in progress, then completed)", true],
  ])(
    "keeps #7's failure when a Re-run that names only #8 makes a new run, and #8 then moves to a branch where it passes%s",
    async (_, failFirstWrite) => {
      const gh = new FakeGitHub([
        ...REVIEW_ROUTES,
        "getPull",
        "updateCheckRun",
        "listAnnotations",
        ...(failFirstWrite ? (["listCheckRuns"] as const) : []),
      ]);
      const { probot, logs } = makeProbot();
      failingPull7(gh);
      gh.pulls.set(7, pullRequestPayload("opened").pull_request);
      // #8 into a branch where the metric group differs too: both reviews of the commit fail.
      const head = validHost();
      gh.file(R, NEAR_BASE, "p/plugin.json", text({ ...head, version: "1.1.0", metricGroup: "tech.other" }));
      const opened8 = pull8Opened();
      opened8.pull_request.base.sha = NEAR_BASE;
      gh.retarget(8, NEAR_BASE);
      const added = gh.pullFiles.get(`${R}#8`)!;
      gh.pullFiles.set(`${R}#8`, gh.prFiles);
      await deliver(probot, "pull_request", pullRequestPayload("opened"));
      await deliver(probot, "pull_request", opened8);
      expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
      // "Re-run" on the check. GitHub's stubs name the pull requests of the suite's head branch only: #8's
      // branch was pushed first, #7 comes from another branch (or a fork) at the same commit.
      const rerun = example("check_run", "rerequested");
      rerun.installation = { id: 77 };
      rerun.repository = opened8.repository;
      rerun.check_run.head_sha = HEAD_SHA;
      rerun.check_run.app.id = APP_ID;
      rerun.check_run.pull_requests = [
        {
          number: 8,
          id: 8,
          url: "",
          head: { sha: HEAD_SHA, ref: "y", repo: { id: 1, name: REPO, url: "" } },
          base: { sha: NEAR_BASE, ref: "release", repo: { id: 1, name: REPO, url: "" } },
        },
      ];
      if (failFirstWrite) gh.fail("POST", /\/check-runs$/, 502, 1, GITHUB_ERRORS[502]);
      await deliver(probot, "check_run", rerun);
      const runs = gh.runsFor(HEAD_SHA);
      expect(runs.map((r) => r.conclusion)).toEqual(["failure", "failure"]);
      if (failFirstWrite)
        expect(
          gh.requests.filter(
            (r) =>
              r.method === "POST" &&
              /\/check-runs$/.test(r.path) &&
              (r.body as Json).status === "in_progress",
          ),
        ).toHaveLength(1);
      // #8 moves to a branch without the descriptor: its review passes, but #7, still open at this head into
      // main, fails; GitHub shows the newest run on #7 too, so that run must not turn green.
      gh.pullFiles.set(`${R}#8`, added);
      gh.retarget(8, OTHER_BASE);
      const edited8 = pull8Opened();
      edited8.action = "edited";
      edited8.changes = { base: { ref: { from: "release" }, sha: { from: NEAR_BASE } } };
      await deliver(probot, "pull_request", edited8);
      expect(gh.runsFor(HEAD_SHA).map((r) => r.conclusion)).toEqual(["failure", "failure"]);
      expect(logs.some((l) => /#7's failing review of this commit/.test(String(l.msg)))).toBe(true);
      gh.assertClean();
    },
  );

  /**
   * #7's failing review, GitHub taking writes but none that completes a run: its result (and its failure
   * report) is never written, its run is created in progress, and its review is to be tried again later.
   */
  async function cutOffPull7(retried: boolean): Promise<FakeGitHub> {
    // On this clock #7's 2-minute deadline passes in 6 s. Only #7's retry posts a review.
    const routes = REVIEW_ROUTES.filter((r) => retried || r !== "createReview");
    const gh = new FakeGitHub([...routes, "getPull", "updateCheckRun", "listCheckRuns"]);
    const { probot } = makeProbot({ timeScale: 0.05 });
    failingPull7(gh);
    gh.pulls.set(7, pullRequestPayload("opened").pull_request);
    gh.failFor("POST", /\/check-runs$/, 3_600_000, { when: completesRun });
    gh.failFor("PATCH", /\/check-runs\/\d+$/, 3_600_000, { when: completesRun });
    await expect(deliver(probot, "pull_request", pullRequestPayload("opened"))).rejects.toThrow();
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ status: "in_progress" })]);
    // A write the first attempt sent just before its deadline must not land after recover() (see
    // reliability.test.ts): its token is revoked.
    gh.revokeTokens();
    gh.recover();
    return gh;
  }

  it("keeps #7's failure when GitHub cut off its write (run left in progress, retry pending) and #8 passes meanwhile", async () => {
    const gh = await cutOffPull7(true);
    // #8, from the same head into a branch without the descriptor, passes before #7's retry: the run must not
    // turn green (a required check passing on #7, whose review failed).
    const next = makeProbot();
    await deliver(next.probot, "pull_request", pull8Opened());
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ status: "in_progress" })]);
    expect(next.logs.some((l) => /#7's failing review of this commit/.test(String(l.msg)))).toBe(true);
    // #7's retry writes its failure; #8's next delivery keeps it.
    await deliver(next.probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    const reopened = pull8Opened();
    reopened.action = "reopened";
    await deliver(next.probot, "pull_request", reopened);
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    gh.assertClean();
  });

  it("holds #8's pass back when GitHub took none of #7's failing writes (no run yet), until #7's retry writes its failure", async () => {
    // On this clock #7's 2-minute deadline passes in 6 s.
    const gh = new FakeGitHub([...REVIEW_ROUTES, "getPull", "listCheckRuns"]);
    const { probot, logs } = makeProbot({ timeScale: 0.05 });
    failingPull7(gh);
    gh.pulls.set(7, pullRequestPayload("opened").pull_request);
    gh.failFor("POST", /\/check-runs$/, 3_600_000);
    await expect(deliver(probot, "pull_request", pullRequestPayload("opened"))).rejects.toThrow();
    expect(gh.runsFor(HEAD_SHA)).toEqual([]);
    gh.revokeTokens(); // as in cutOffPull7
    gh.recover();
    // #8 passes before #7's retry, in the same process, which knows #7's failing result is unwritten: no
    // green run (none at all: the commit's required check waits), until #7's retry writes its failure.
    await deliver(probot, "pull_request", pull8Opened());
    expect(gh.runsFor(HEAD_SHA)).toEqual([]);
    expect(logs.some((l) => /#7's failing review of this commit/.test(String(l.msg)))).toBe(true);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    gh.assertClean();
  });

  it("completes the run with #8's pass when #7, whose failing write GitHub cut off, is closed before its retry", async () => {
    const gh = await cutOffPull7(false);
    gh.pulls.set(7, { ...pullRequestPayload("closed").pull_request, state: "closed" });
    await deliver(makeProbot().probot, "pull_request", pull8Opened());
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "success" }),
    ]);
    gh.assertClean();
  });

  it("fails the check when #8, reviewed after a passing #7, fails against its own base", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "updateCheckRun"]);
    const { probot } = makeProbot();
    const head = validHost();
    gh.file(R, BASE_SHA, "p/plugin.json", text({ ...head, version: "1.1.0" }));
    gh.file(R, OTHER_BASE, "p/plugin.json", text({ ...head, version: "1.1.0", metricGroup: "tech.old" }));
    gh.file(R, HEAD_SHA, "p/plugin.json", text(head));
    gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: "@@ -7,1 +7,1 @@\n-x\n+x" }];
    gh.pullFiles.set(`${R}#8`, gh.prFiles);
    gh.retarget(8, OTHER_BASE);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "success" })]);
    await deliver(probot, "pull_request", pull8Opened());
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    gh.assertClean();
  });
});
