/**
 * Review state follows the code: once the App's verdict on a pull request no longer requests changes (a push
 * that passes, `review: comment` or `none` now configured, the descriptor gone from the pull request), its
 * own earlier "changes requested" reviews are dismissed with a message naming the commit; people's reviews
 * are never touched. The real app, real payloads, the validated fake GitHub (REST and GraphQL).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, validHost } from "../../../helpers.js";
import { FakeGitHub, REVIEW_ROUTES, reviewState, type Route } from "../../fake-github.js";
import { cleanup, disableNetwork } from "../../github-mock.js";
import {
  addedPatch,
  BASE_SHA,
  deliver,
  deliverPush,
  HEAD_SHA,
  isWrite,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
  writesIn,
} from "../../harness.js";

const R = `${OWNER}/${REPO}`;
const PATH = "p/plugin.json";
const CONFIG = ".github/plugin-review.yml";
const NEXT = "d".repeat(40);
const REST_ROUTES: readonly Route[] = [
  ...REVIEW_ROUTES,
  "listCheckRuns",
  "contents",
  "getPull",
  "listComments",
  "listReviews",
  "reply",
  "dismissReview",
];

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** The descriptor changed without a version bump (version-not-bumped: an error); `fixed` bumps it. */
function descriptorAt(gh: FakeGitHub, sha: string, fixed: boolean): void {
  const doc = validHost();
  doc.requiredAgentVersion = "1.102.0";
  if (fixed) doc.version = "1.2.1";
  const content = text(doc);
  gh.file(R, sha, PATH, content);
  gh.prFiles = [{ filename: PATH, status: "modified", patch: addedPatch(content) }];
}

/**
 * A pull request the App reviewed with `review: request-changes` while it failed (its review requests changes),
 * where a person also requested changes. The fake's requests are cleared: what follows is the next event's.
 */
async function requestedChanges(routes: readonly Route[] = REVIEW_ROUTES) {
  const gh = new FakeGitHub(routes);
  const { probot, logs } = makeProbot();
  gh.file(R, BASE_SHA, PATH, text(validHost()));
  gh.file(R, "HEAD", CONFIG, "review: request-changes\n");
  descriptorAt(gh, HEAD_SHA, false);
  await deliver(probot, "pull_request", pullRequestPayload("opened"));
  expect(gh.reviews.map((r) => [r.user.type, reviewState(r)])).toEqual([["Bot", "CHANGES_REQUESTED"]]);
  gh.reviews.push({
    pull: `${R}#7`,
    id: 1,
    body: "Please also rename the plugin.",
    event: "REQUEST_CHANGES",
    commit_id: HEAD_SHA,
    user: { login: "alice", type: "User" },
  });
  gh.mock.requests.length = 0;
  const app = gh.reviews[0]!;
  const person = gh.reviews[1]!;
  return { gh, probot, logs, app, person };
}

const push = (gh: FakeGitHub, probot: Parameters<typeof deliver>[0], sha = NEXT) =>
  deliverPush(probot, gh, sha);

describe("GitHub App: the App's own 'changes requested' reviews follow the code", () => {
  it("the fixing push dismisses the App's review in the same write as its fixed threads; a person's review is untouched", async () => {
    const { gh, probot, app, person } = await requestedChanges();
    descriptorAt(gh, NEXT, true);
    await push(gh, probot);
    expect(gh.runsFor(NEXT)[0]).toMatchObject({ conclusion: "success" });
    expect(reviewState(app)).toBe("DISMISSED");
    expect(app.dismissed).toBe(
      "plugin-review no longer requests changes: `ddddddd` passes the `plugin-review` check.",
    );
    expect(reviewState(person)).toBe("CHANGES_REQUESTED");
    expect(person.dismissed).toBeUndefined();
    // Two writes, as for any push that fixes findings: the check run, and one GraphQL document that answers
    // and resolves the fixed thread and dismisses the review.
    expect(writesIn(gh.requests)).toEqual(["POST /check-runs", "POST /graphql"]);
    const mutation = gh.requests.filter(isWrite)[1]!.body as { query: string };
    expect(mutation.query).toMatch(/resolveReviewThread[\s\S]*dismiss0: dismissPullRequestReview/);
    expect(gh.resolved.size).toBe(1);
    gh.assertClean();
  });

  it("none is dismissed while findings remain, and nothing extra is written", async () => {
    const { gh, probot, app } = await requestedChanges();
    descriptorAt(gh, NEXT, false);
    await push(gh, probot);
    expect(gh.runsFor(NEXT)[0]).toMatchObject({ conclusion: "failure" });
    expect(reviewState(app)).toBe("CHANGES_REQUESTED");
    expect(gh.reviews.every((r) => r.dismissed === undefined)).toBe(true);
    // The finding was already commented on: no new review, no dismissal; the check run alone.
    expect(writesIn(gh.requests)).toEqual(["POST /check-runs"]);
    gh.assertClean();
  });

  it("`review: comment` now configured: the still-failing push comments and dismisses the earlier request", async () => {
    const { gh, probot, app, person } = await requestedChanges();
    gh.file(R, "HEAD", CONFIG, "review: comment\n");
    const doc = validHost();
    doc.requiredAgentVersion = "1.103.0";
    doc.favicon = "x.png"; // a new finding (unknown-member), so that there is a review to post
    const content = text(doc);
    gh.file(R, NEXT, PATH, content);
    gh.prFiles = [{ filename: PATH, status: "modified", patch: addedPatch(content) }];
    await push(gh, probot);
    expect(gh.runsFor(NEXT)[0]).toMatchObject({ conclusion: "failure" });
    expect(gh.reviews.at(-1)).toMatchObject({ event: "COMMENT", commit_id: NEXT });
    expect(app.dismissed).toBe(
      "plugin-review no longer requests changes: as of `ddddddd` the configuration says `review: comment`.",
    );
    expect(person.dismissed).toBeUndefined();
    // The new review and the dismissal in one document.
    expect(writesIn(gh.requests)).toEqual(["POST /check-runs", "POST /graphql"]);
    gh.assertClean();
  });

  it("`review: none` now configured: dismissed after a light read, one write", async () => {
    const { gh, probot, app, person } = await requestedChanges();
    gh.file(R, "HEAD", CONFIG, "review: none\n");
    descriptorAt(gh, NEXT, false);
    await push(gh, probot);
    expect(app.dismissed).toMatch(/as of `ddddddd` the configuration says `review: none`/);
    expect(person.dismissed).toBeUndefined();
    expect(writesIn(gh.requests)).toEqual(["POST /check-runs", "POST /graphql"]);
    const queries = gh.graphqlDocuments
      .map((d) => d.query)
      .filter((q) => /pluginReviewChangesRequested/.test(q));
    expect(queries).toHaveLength(1);
    gh.assertClean();
  });

  it("the descriptor removed from the pull request: dismissed, with a message that says so", async () => {
    const { gh, probot, app, person } = await requestedChanges();
    gh.prFiles = [{ filename: "README.md", status: "modified", patch: "@@ -1 +1 @@\n-a\n+b" }];
    await push(gh, probot);
    expect(gh.runsFor(NEXT)[0]).toMatchObject({ conclusion: "success" });
    expect(app.dismissed).toBe(
      "plugin-review no longer requests changes: as of `ddddddd` this pull request changes no descriptor.",
    );
    expect(person.dismissed).toBeUndefined();
    expect(writesIn(gh.requests)).toEqual(["POST /check-runs", "POST /graphql"]);
    gh.assertClean();
  });

  it("a push without descriptors and nothing of ours to dismiss writes the check run alone", async () => {
    const { gh, probot } = await requestedChanges();
    gh.reviews.splice(0, 1); // only the person's review is left
    gh.prFiles = [{ filename: "README.md", status: "modified", patch: "@@ -1 +1 @@\n-a\n+b" }];
    await push(gh, probot);
    expect(writesIn(gh.requests)).toEqual(["POST /check-runs"]);
    expect(gh.reviews[0]!.dismissed).toBeUndefined();
    gh.assertClean();
  });

  it("through REST (GraphQL refused): a dismissal request per review, people's untouched", async () => {
    const { gh, probot, app, person } = await requestedChanges(REST_ROUTES);
    gh.graphqlUnavailable = true;
    gh.pulls.set(7, pullRequestPayload("opened").pull_request); // REST reads where the pull request is now
    descriptorAt(gh, NEXT, true);
    await push(gh, probot);
    expect(app.dismissed).toMatch(/`ddddddd` passes/);
    expect(person.dismissed).toBeUndefined();
    expect(gh.count("PUT", /\/pulls\/7\/reviews\/\d+\/dismissals$/)).toBe(1);
    gh.assertClean();
  });

  it("through REST, a dismissal met by a secondary rate limit is tried again, not taken for a refusal", async () => {
    const { gh, probot, logs, app } = await requestedChanges(REST_ROUTES);
    gh.graphqlUnavailable = true;
    gh.pulls.set(7, pullRequestPayload("opened").pull_request); // REST reads where the pull request is now
    gh.fail(
      "PUT",
      /\/dismissals$/,
      403,
      1,
      {
        message: "You have exceeded a secondary rate limit.",
        documentation_url: "https://docs.github.com/rest",
      },
      { "retry-after": "1" },
    );
    descriptorAt(gh, NEXT, true);
    await push(gh, probot);
    expect(gh.count("PUT", /\/pulls\/7\/reviews\/\d+\/dismissals$/)).toBe(2);
    expect(app.dismissed).toMatch(/`ddddddd` passes/);
    expect(logs.some((l) => /GitHub refused to dismiss/.test(l.msg))).toBe(false);
    expect(logs.some((l) => /posting the review: GitHub answered 403 .*trying again in/.test(l.msg))).toBe(
      true,
    );
    gh.assertClean();
  });

  it("a dismissal GitHub refuses (a protected branch restricting who may dismiss) is logged; the check stands", async () => {
    const { gh, probot, logs, app } = await requestedChanges();
    gh.refuseDismissals = true;
    descriptorAt(gh, NEXT, true);
    await push(gh, probot);
    expect(gh.runsFor(NEXT)[0]).toMatchObject({ conclusion: "success" });
    expect(reviewState(app)).toBe("CHANGES_REQUESTED");
    expect(gh.resolved.size).toBe(1); // the rest of the document ran
    expect(logs.some((l) => /GitHub refused to dismiss the App's earlier review/.test(l.msg))).toBe(true);
    gh.assertClean();
  });

  it("a re-run of an already reviewed head after the configuration changed still dismisses", async () => {
    const { gh, probot, app } = await requestedChanges();
    gh.file(R, "HEAD", CONFIG, "review: comment\n");
    await push(gh, probot, HEAD_SHA); // the same head again (a redelivery or a re-run)
    expect(app.dismissed).toMatch(/as of `ccccccc` the configuration says `review: comment`/);
    expect(gh.reviews.filter((r) => r.user.type === "Bot")).toHaveLength(1); // no second review
    gh.assertClean();
  });
});
