/**
 * A fork pull request's head is read where GitHub keeps it: the base repository, by sha (GitHub keeps a
 * pull request's head commits there as `refs/pull/<n>/head`). A fork deleted after the pull request was
 * opened (its reads answer 404; GitHub then sends `head.repo: null`) changes nothing; a changed descriptor
 * that cannot be read anywhere fails the check, naming it and why, whatever the configuration says.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES, type Route } from "../fake-github.js";
import { cleanup, disableNetwork } from "../github-mock.js";
import {
  addedPatch,
  BASE_SHA,
  deliver,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
} from "../harness.js";

const R = `${OWNER}/${REPO}`;
const FORK = `contributor/${REPO}`;

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** A descriptor with one error (no metricGroup) that the pull request adds. */
const broken = () => text({ ...validHost(), metricGroup: undefined });

/** The real `pull_request.opened` payload of a fork's pull request; `deleted`: as GitHub sends it once the fork is gone. */
function forkPayload(deleted = false) {
  const p = pullRequestPayload("opened", { fork: "contributor" });
  expect(p.pull_request.head.repo.fork).toBe(true);
  if (deleted) p.pull_request.head.repo = null;
  return p;
}

/** The fork, deleted after the pull request was opened: every read of it answers 404 (REST and GraphQL). */
function deleteFork(gh: FakeGitHub, content: string) {
  gh.file(FORK, HEAD_SHA, "p/plugin.json", content);
  gh.hidden.add(FORK);
}

function setup(routes: readonly Route[] = REVIEW_ROUTES) {
  const gh = new FakeGitHub(routes);
  const { probot, logs } = makeProbot();
  return { gh, probot, logs };
}

describe("GitHub App: a fork pull request's head", () => {
  it.each([
    ["the fork's repository in the payload", false],
    ["head.repo null, as GitHub sends it for a deleted fork", true],
  ])(
    "deleted fork (%s): the head is read from the base repository by sha and its findings reported",
    async (_, nullRepo) => {
      const { gh, probot } = setup();
      const content = broken();
      gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: addedPatch(content) }];
      deleteFork(gh, content);
      gh.file(R, HEAD_SHA, "p/plugin.json", content);
      await deliver(probot, "pull_request", forkPayload(nullRepo));
      const [run, ...others] = gh.runsFor(HEAD_SHA);
      expect(others).toEqual([]);
      expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
      expect(run!.annotations.map((a) => [a.path, a.title])).toEqual([
        ["p/plugin.json", "metric-group-missing"],
      ]);
      expect(gh.reviews).toHaveLength(1);
      expect(gh.comments.map((c) => c.path)).toEqual(["p/plugin.json"]);
      expect(gh.graphqlFiles.filter((f) => f.endsWith("p/plugin.json"))).toEqual([
        `${R}@${HEAD_SHA}:p/plugin.json`,
      ]);
      expect(gh.requests.filter((r) => r.path.includes("/contributor/"))).toEqual([]);
      gh.assertClean();
    },
  );

  it("deleted fork, read through REST (GraphQL unavailable): the same reads, from the base repository", async () => {
    const { gh, probot } = setup([
      "token",
      "graphql",
      "files",
      "listCheckRuns",
      "contents",
      "createCheckRun",
      "createReview",
    ]);
    gh.graphqlUnavailable = true;
    const content = broken();
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: addedPatch(content) }];
    deleteFork(gh, content);
    gh.file(R, HEAD_SHA, "p/plugin.json", content);
    await deliver(probot, "pull_request", forkPayload());
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations.map((a) => a.title)).toEqual(["metric-group-missing"]);
    const reads = gh.requests.filter((r) => r.path.includes("/contents/p"));
    expect(reads.map((r) => r.path.split("?")[0])).toEqual([`/repos/${R}/contents/p%2Fplugin.json`]);
    expect(gh.requests.filter((r) => r.path.includes("/contributor/"))).toEqual([]);
    gh.assertClean();
  });

  it("deleted fork with more files than GitHub lists: the head's tree is read from the base repository too", async () => {
    const { gh, probot } = setup([...REVIEW_ROUTES, "compare", "tree"]);
    gh.file(R, BASE_SHA, "README.md", "# plugins\n");
    for (let i = 0; i < 3000; i++) {
      const path = `gen/file-${String(i).padStart(4, "0")}.txt`;
      gh.file(R, HEAD_SHA, path, `${i}\n`);
      gh.prFiles.push({ filename: path, status: "added", patch: "@@ -0,0 +1,1 @@\n+x" });
    }
    // Beyond the 3,000 files GitHub lists: only the head's tree shows it.
    const content = broken();
    deleteFork(gh, content);
    gh.file(R, HEAD_SHA, "z/plugin.json", content);
    await deliver(probot, "pull_request", forkPayload());
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.annotations.map((a) => [a.path, a.title])).toEqual([
      ["z/plugin.json", "metric-group-missing"],
    ]);
    expect(gh.count("GET", new RegExp(`^/repos/${R}/git/trees/[bc]{40}$`))).toBe(2);
    expect(gh.requests.filter((r) => r.path.includes("/contributor/"))).toEqual([]);
    gh.assertClean();
  });

  it("a head that cannot be read anywhere fails the check, naming the file and why, even with fail_on: never", async () => {
    // No review: the descriptor read has nothing to say, the check run says what was not read.
    const { gh, probot, logs } = setup(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    gh.file(R, "HEAD", ".github/plugin-review.yml", "fail_on: never\n");
    const content = broken();
    // The fork is gone and the head commit is nowhere: no read of it answers.
    gh.prFiles = [
      { filename: "p/plugin.json", status: "added", patch: addedPatch(content) },
      { filename: "q/plugin.json", status: "modified", patch: "@@ -1,1 +1,1 @@\n-{\n+{" },
    ];
    deleteFork(gh, content);
    const fine = text(validHost());
    gh.file(R, BASE_SHA, "q/plugin.json", fine).file(R, HEAD_SHA, "q/plugin.json", fine);
    await deliver(probot, "pull_request", forkPayload(true));
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.output!.title).toBe(
      "1 changed descriptor not reviewed · 0 errors, 0 warnings, 0 notices in 1 descriptor",
    );
    const summary = run!.output!.summary;
    expect(summary).toMatch(/\*\*Failing\*\*: 1 changed descriptor was not reviewed/);
    expect(summary).toContain(
      `GitHub has no such file at the head commit ${HEAD_SHA.slice(0, 7)} (it answered "not found"), so it could not be read:\n- \`p/plugin.json\``,
    );
    // What was read is reviewed and shown as always.
    expect(summary).toMatch(/\| `q\/plugin\.json` \| 0 \| 0 \| 0 \|/);
    expect(logs.some((l) => l.msg === "check run completed" && l.notReviewed === 1)).toBe(true);
    gh.assertClean();
  });
});
