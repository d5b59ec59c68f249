/**
 * No pull request stalls the others: the server's scheduler gives its slots in turns, one installation after
 * another and, within one, one pull request after another. The real app through Probot against the fake
 * GitHub, with the server's background scheduler: a storm of pushes to one pull request (a script pushing
 * commit after commit) must not hold up another installation's pull request, nor another of its own.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../../src/app.js";
import { ReviewScheduler } from "../../../src/github/delivery/scheduler.js";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import { addedPatch, deliver, makeProbot, OWNER, pullRequestPayload, REPO } from "../harness.js";
import { within } from "../scenarios.js";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

const content = text(validHost());
const sha = (n: number) => n.toString(16).padStart(40, "d");

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
    const otherInstallation = pullRequestPayload("opened", { number: 3, headSha: sha(2000) });
    otherInstallation.installation.id = 88;
    for (const r of [
      otherInstallation.repository,
      otherInstallation.pull_request.base.repo,
      otherInstallation.pull_request.head.repo,
    ]) {
      r.owner.login = "beta";
      r.full_name = `beta/${REPO}`;
    }
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
});
