/**
 * The GraphQL reads against GitHub's answers as they really come: a repository that does not exist (most
 * organisations have no `.github` repository, or have not installed the app on it) is `null` beside a
 * NOT_FOUND error, and that is data, not a failed review; where GraphQL is refused altogether, the same
 * reads go through REST and the review is the same.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scaledClock } from "../../../../src/github/api/clock.js";
import { GraphqlAvailability } from "../../../../src/github/api/gateway.js";
import { REST_AFTER_GRAPHQL_FAILURE_MS } from "../../../../src/github/time-budget.js";
import { text, validHost } from "../../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES } from "../../fake-github.js";
import { cleanup, disableNetwork } from "../../github-mock.js";
import {
  BASE_SHA,
  deliver,
  deliverPush,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
} from "../../harness.js";

const R = `${OWNER}/${REPO}`;
const PATH = "p/plugin.json";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** A changed descriptor whose version was not bumped: one error. */
function unbumped(gh: FakeGitHub) {
  const before = validHost();
  const after = validHost();
  (after.metrics as { timeseries: { displayname: string } }[])[0]!.timeseries.displayname = "Renamed";
  gh.file(R, BASE_SHA, PATH, text(before)).file(R, HEAD_SHA, PATH, text(after));
  gh.prFiles = [{ filename: PATH, status: "modified", patch: "@@ -1,1 +1,1 @@\n-{\n+{" }];
}

/** The unbumped descriptor reviewed under an organisation policy that lowers version-not-bumped to a warning. */
async function reviewWithOrgPolicy(gh: FakeGitHub) {
  gh.file(`${OWNER}/.github`, "HEAD", ".github/plugin-review.yml", "rules:\n  version-not-bumped: warning\n");
  unbumped(gh);
  const { probot } = makeProbot();
  await deliver(probot, "pull_request", pullRequestPayload("opened"));
}

/** One run, green, whose only annotation is the policy's warning. */
function expectPolicyApplied(gh: FakeGitHub) {
  const [run, ...others] = gh.runsFor(HEAD_SHA);
  expect(others).toEqual([]);
  // A warning below the failing level: neutral (passing, with something to look at).
  expect(run!.conclusion).toBe("neutral");
  expect(run!.annotations.map((a) => [a.title, a.annotation_level])).toEqual([
    ["version-not-bumped", "warning"],
  ]);
}

describe("GraphQL reads", () => {
  it("an organisation without a .github repository: the review completes with the repository's own configuration", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    expect(gh.repoExists(OWNER, ".github")).toBe(false);
    unbumped(gh);
    const { probot } = makeProbot();
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run!.conclusion).toBe("failure");
    expect(run!.annotations.map((a) => a.title)).toEqual(["version-not-bumped"]);
    expect(gh.graphqlNotFound).toContain(
      `Could not resolve to a Repository with the name '${OWNER}/.github'.`,
    );
    gh.assertClean();
  });

  it("an organisation's .github repository with a policy: the policy applies", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    await reviewWithOrgPolicy(gh);
    expectPolicyApplied(gh);
    gh.assertClean();
  });

  it("GraphQL refused (404): the check run, configuration and descriptors are read through REST, same verdict", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "listCheckRuns", "contents"]);
    gh.graphqlUnavailable = true;
    await reviewWithOrgPolicy(gh);
    expectPolicyApplied(gh);
    // The REST reads: the run lookup, both configuration files, head and base of the descriptor.
    expect(gh.count("GET", /\/check-runs/)).toBe(1);
    expect(gh.count("GET", /\/contents\//)).toBe(4);
    gh.assertClean();
  });

  it("GraphQL failing (403) while REST works: the check run is still written, as a failure saying why", async () => {
    const gh = new FakeGitHub(["token", "graphql", "listCheckRuns", "createCheckRun"]);
    gh.fail("POST", /^\/graphql$/, 403, Infinity, { message: "Resource not accessible by integration" });
    unbumped(gh);
    const { probot } = makeProbot();
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run!.status).toBe("completed");
    expect(run!.conclusion).toBe("failure");
    expect(run!.output?.summary).toContain("Resource not accessible by integration");
    expect(gh.count("GET", /\/check-runs/)).toBe(1);
    gh.assertClean();
  });
});

describe("GraphQL refused: the installation reads through REST for a while", () => {
  it("switches once, logs it once, and the next review of the installation sends no GraphQL request", async () => {
    const gh = new FakeGitHub([
      ...REVIEW_ROUTES,
      "listCheckRuns",
      "contents",
      "listComments",
      "listReviews",
      "getPull",
    ]);
    gh.graphqlUnavailable = true;
    gh.pulls.set(7, pullRequestPayload("opened").pull_request); // REST reads where the pull request is now
    unbumped(gh);
    const { probot, logs } = makeProbot();
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.count("POST", /^\/graphql$/)).toBe(1);
    const next = "d".repeat(40);
    gh.file(R, next, PATH, gh.contents.get(`${R}@${HEAD_SHA}`)!.get(PATH)!);
    await deliverPush(probot, gh, next);
    expect(gh.count("POST", /^\/graphql$/)).toBe(1);
    expect(gh.reviews).toHaveLength(1); // the same finding: read through REST, not said twice
    expect(gh.runsFor(next)).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "failure" }),
    ]);
    expect(
      logs.filter((l) => /GraphQL refused .* through REST for the next 10 minutes/.test(l.msg)),
    ).toHaveLength(1);
    gh.assertClean();
  });

  it("tries GraphQL again once the while is over, for that installation only", async () => {
    const availability = new GraphqlAvailability(scaledClock(50 / REST_AFTER_GRAPHQL_FAILURE_MS));
    expect(availability.switchToRest("77")).toBe(true);
    expect(availability.switchToRest("77")).toBe(false); // already switched: not logged again
    expect([availability.usable("77"), availability.usable("78")]).toEqual([false, true]);
    await new Promise((r) => setTimeout(r, 60));
    expect(availability.usable("77")).toBe(true);
  });
});
