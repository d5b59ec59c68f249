/**
 * No pull request stalls the others: the server's scheduler gives its slots in turns, one installation after
 * another and, within one, one pull request after another. The real app through Probot against the fake
 * GitHub, with the server's background scheduler: a storm of pushes to one pull request (a script pushing
 * commit after commit) must not hold up another installation's pull request, nor another of its own; nor
 * may an installation whose reviews GitHub does not answer hold every slot until their deadlines; nor may
 * another pull request's review of the same head commit cancel the later retry of one GitHub failed.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../../src/app.js";
import { scaledClock } from "../../../src/github/api/clock.js";
import { ReviewScheduler } from "../../../src/github/delivery/scheduler.js";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub, GITHUB_ERRORS, REVIEW_ROUTES } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import { addedPatch, deliver, makeProbot, OWNER, pullRequestPayload, REPO } from "../harness.js";
import { within } from "../scenarios.js";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

const content = text(validHost());
const sha = (n: number) => n.toString(16).padStart(40, "d");

/** Pull request `number` of another installation (88), in another organisation ("beta"), at `headSha`. */
function otherInstallationPull(number: number, headSha: string) {
  const payload = pullRequestPayload("opened", { number, headSha });
  payload.installation.id = 88;
  for (const r of [payload.repository, payload.pull_request.base.repo, payload.pull_request.head.repo]) {
    r.owner.login = "beta";
    r.full_name = `beta/${REPO}`;
  }
  return payload;
}

describe("the server's scheduler: no pull request stalls the others", () => {
  it("40 pushes to one pull request queued first: another installation's and another pull request's runs come within a few turns", async () => {
    // GitHub's round trip, so that a review takes a while and the storm fills the queue.
    const gh = new FakeGitHub(
      REVIEW_ROUTES.filter((r) => r !== "createReview"),
      undefined,
      { latencyMs: 10 },
    );
    const scheduler = new ReviewScheduler({ background: { concurrency: 2 } });
    const { probot } = makeProbot({ app: createApp({ scheduler }) });
    const file = { filename: "p/plugin.json", status: "added" as const, patch: addedPatch(content) };

    const STORM = 40;
    gh.prFiles = [file];
    for (let i = 1; i <= STORM; i++) gh.file(`${OWNER}/${REPO}`, sha(i), "p/plugin.json", content);
    for (let i = 1; i <= STORM; i++)
      await deliver(probot, "pull_request", pullRequestPayload("synchronize", { headSha: sha(i) }));

    // Another pull request of the same installation.
    const otherPull = pullRequestPayload("opened", { number: 8, headSha: sha(1000) });
    gh.pullFiles.set(`${OWNER}/${REPO}#8`, [file]);
    gh.file(`${OWNER}/${REPO}`, sha(1000), "p/plugin.json", content);
    await deliver(probot, "pull_request", otherPull);
    // A pull request of another installation, in another organisation.
    const otherInstallation = otherInstallationPull(3, sha(2000));
    gh.pullFiles.set(`beta/${REPO}#3`, [file]);
    gh.file(`beta/${REPO}`, sha(2000), "p/plugin.json", content);
    await deliver(probot, "pull_request", otherInstallation);

    const stormRuns = () =>
      Array.from({ length: STORM }, (_, i) => gh.runsFor(sha(i + 1))).filter((r) => r.length > 0).length;
    await within(60_000, () => gh.runsFor(sha(1000)).length > 0 && gh.runsFor(sha(2000)).length > 0);
    // Counted, not timed: first in, first out, both waited for all 40.
    expect(stormRuns()).toBeLessThanOrEqual(8);
    expect(gh.runsFor(sha(1000))).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "success" }),
    ]);
    expect(gh.runsFor(sha(2000))).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "success" }),
    ]);

    // The storm is not dropped: every pushed commit gets its one completed run.
    await expect(scheduler.drain(60_000)).resolves.toBe(true);
    for (let i = 1; i <= STORM; i++)
      expect(gh.runsFor(sha(i))).toEqual([
        expect.objectContaining({ status: "completed", conclusion: "success" }),
      ]);
    gh.assertClean();
  });

  it("an installation whose reviews GitHub leaves unanswered holds at most half the slots: another installation's run comes while they hang", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    // The App's waits (request timeouts, the review's deadline, the later retries) at 1/10 of real time: a
    // review of the first installation hangs for 12 s, and a request of the other's that a cold start slows
    // past its 2 s is retried well before that.
    const SCALE = 0.1;
    const scheduler = new ReviewScheduler({ background: { concurrency: 4 }, clock: scaledClock(SCALE) });
    const { probot } = makeProbot({ timeScale: SCALE, appOptions: { scheduler } });
    const file = { filename: "p/plugin.json", status: "added" as const, patch: addedPatch(content) };
    // GitHub accepts the requests for the first installation's pull requests and never answers them: each of
    // its reviews runs until its deadline (2 minutes in real time).
    gh.hang("GET", new RegExp(`^/repos/${OWNER}/${REPO}/pulls/\\d+/files`));
    const STUCK = 8;
    for (let i = 1; i <= STUCK; i++) {
      gh.pullFiles.set(`${OWNER}/${REPO}#${i}`, [file]);
      gh.file(`${OWNER}/${REPO}`, sha(i), "p/plugin.json", content);
      await deliver(probot, "pull_request", pullRequestPayload("opened", { number: i, headSha: sha(i) }));
    }
    gh.pullFiles.set(`beta/${REPO}#3`, [file]);
    gh.file(`beta/${REPO}`, sha(2000), "p/plugin.json", content);
    await deliver(probot, "pull_request", otherInstallationPull(3, sha(2000)));

    const stuckRuns = () => Array.from({ length: STUCK }, (_, i) => gh.runsFor(sha(i + 1))).flat();
    await within(60_000, () => gh.runsFor(sha(2000)).some((r) => r.conclusion === "success"));
    // Counted, not timed: the other installation's run came while every one of the first's still hung.
    expect(stuckRuns()).toEqual([]);
    expect(gh.runsFor(sha(2000))).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "success" }),
    ]);

    // GitHub answers again: every stuck pull request still gets its one completed run.
    gh.recover();
    await within(60_000, () =>
      Array.from({ length: STUCK }, (_, i) => gh.runsFor(sha(i + 1))).every(
        (runs) => runs.length === 1 && runs[0]!.status === "completed",
      ),
    );
    await scheduler.drain(10_000);
    gh.assertClean();
  });

  it("a pull request whose review GitHub failed is still tried again when another pull request at the same head is reviewed meanwhile", async () => {
    // Pull requests 7 and 8 from one branch (into two bases, say): one head commit, two reviews.
    const gh = new FakeGitHub([
      "token",
      "getPull",
      "graphql",
      "files",
      "createCheckRun",
      "updateCheckRun",
      "createReview",
    ]);
    const scheduler = new ReviewScheduler({ background: { concurrency: 2 }, retriesMs: [4_000] });
    const { probot } = makeProbot({ app: createApp({ scheduler }) });
    const failing = text({ ...validHost(), version: "1" });
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: addedPatch(failing) }];
    gh.file(`${OWNER}/${REPO}`, sha(1), "p/plugin.json", failing);
    const [seven, eight] = [7, 8].map((number) => pullRequestPayload("opened", { number, headSha: sha(1) }));
    for (const p of [seven!, eight!]) gh.pulls.set(p.number as number, structuredClone(p.pull_request));
    // GitHub fails pull request 7's file list (502, and the retry plugin's three retries): its review fails
    // with its run completed as failure, and the scheduler is to try it again later.
    gh.fail("GET", /\/pulls\/7\/files/, 502, 4, GITHUB_ERRORS[502]);
    // Pull request 8's review waits for the head's turn, then ends while 7's retry waits (4 s: far longer
    // than 8's review takes; the retry is what 7 waits for, not a time).
    await deliver(probot, "pull_request", seven!);
    await deliver(probot, "pull_request", eight!);

    await within(60_000, () => gh.reviews.some((r) => r.pull === `${OWNER}/${REPO}#7`));
    expect(await scheduler.drain(10_000)).toBe(true);
    expect(gh.count("GET", /\/pulls\/7\/files/)).toBe(5);
    expect(gh.reviews.map((r) => r.pull).sort()).toEqual([`${OWNER}/${REPO}#7`, `${OWNER}/${REPO}#8`]);
    expect(gh.runsFor(sha(1))).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "failure" }),
    ]);
    gh.assertClean();
  });

  it("a pull request GitHub rate-limits for an hour frees its slot at once: the next pull request's run comes, and its own on the later retry", async () => {
    // One slot, the production Octokit (throttling on) and the real clock: the server's 2-minute deadline. A
    // review that slept GitHub's `retry-after` held the only slot until then, and pull request 8 waited.
    const gh = new FakeGitHub(["token", "getPull", "graphql", "files", "createCheckRun", "updateCheckRun"]);
    const scheduler = new ReviewScheduler({ background: { concurrency: 1 }, retriesMs: [1_000] });
    const { probot } = makeProbot({ productionThrottling: true, app: createApp({ scheduler }) });
    const file = { filename: "p/plugin.json", status: "added" as const, patch: addedPatch(content) };
    for (const number of [7, 8]) {
      gh.pullFiles.set(`${OWNER}/${REPO}#${number}`, [file]);
      gh.file(`${OWNER}/${REPO}`, sha(number), "p/plugin.json", content);
    }
    const [seven, eight] = [7, 8].map((number) =>
      pullRequestPayload("opened", { number, headSha: sha(number) }),
    );
    for (const p of [seven!, eight!]) gh.pulls.set(p.number as number, structuredClone(p.pull_request));
    gh.fail(
      "GET",
      /\/pulls\/7\/files/,
      403,
      1,
      {
        message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      },
      { "retry-after": "3600" },
    );
    await deliver(probot, "pull_request", seven!);
    await deliver(probot, "pull_request", eight!);

    // Far less than the deadline: pull request 8's run comes after 7's review gave up, not after its deadline.
    await within(30_000, () => gh.runsFor(sha(8)).some((r) => r.conclusion === "success"));
    await within(30_000, () => gh.runsFor(sha(7)).some((r) => r.conclusion === "success"));
    expect(await scheduler.drain(10_000)).toBe(true);
    expect(gh.count("GET", /\/pulls\/7\/files/)).toBe(2);
    expect(gh.runsFor(sha(7))).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "success" }),
    ]);
    gh.assertClean();
  }, 90_000);
});
