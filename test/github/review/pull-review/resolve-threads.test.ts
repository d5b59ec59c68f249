/**
 * Fixed findings' threads (interfaces.md, "Fixed findings"): a later push that fixes a finding resolves the App's
 * thread with `resolveReviewThread`, with a reply naming the fixing commit; a thread whose finding is still there
 * stays open; a finding that comes back later gets a new comment. Real app, real payloads, GitHub faked over nock:
 * REST requests validated against the OpenAPI description, every GraphQL document against GitHub's schema.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writePublication, type ReviewInput } from "../../../../src/github/api/graphql/writes.js";
import type { Octokit } from "../../../../src/github/api/octokit/octokit.js";
import type { Logger } from "../../../../src/github/api/port.js";
import { text, validHost } from "../../../helpers.js";
import { FakeGitHub, LATER_REVIEW_ROUTES, type Comment, type Route } from "../../fake-github.js";
import { cleanup, disableNetwork } from "../../github-mock.js";
import {
  BASE_SHA,
  deliver,
  deliverPush,
  HEAD_SHA,
  isAppRequest,
  isWrite,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
  rewritePatch,
  writesIn,
} from "../../harness.js";

const R = `${OWNER}/${REPO}`;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** The version bumped and three new metrics, those in `bad` with a unit that does not exist (one error each). */
function head(bad: number[]): string {
  const d: Json = validHost();
  d.version = "1.2.1";
  for (let i = 0; i < 3; i++)
    d.metrics.push({
      timeseries: {
        key: `new_metric${i}`,
        unit: bad.includes(i) ? "Secs" : "Count",
        displayname: `New ${i}`,
      },
    });
  return text(d);
}

/** Pushes `content` as the pull request's new head and delivers `synchronize`. */
async function push(
  gh: FakeGitHub,
  probot: ReturnType<typeof makeProbot>["probot"],
  sha: string,
  content: string,
) {
  const before = text(validHost());
  gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: rewritePatch(before, content) }];
  gh.file(R, sha, "p/plugin.json", content);
  const from = gh.requests.length;
  await deliverPush(probot, gh, sha);
  return gh.requests.slice(from);
}

const roots = (gh: FakeGitHub) => gh.comments.filter((c) => !c.in_reply_to_id);
/** The line of metric `i`'s unit (the same in every head: only the units' values change). */
const unitLine = (i: number) => {
  const t = head([]);
  const at = t.indexOf(`"unit"`, t.indexOf(`new_metric${i}`));
  return t.slice(0, at).split("\n").length;
};
const onMetric = (gh: FakeGitHub, i: number) =>
  roots(gh).filter((c) => c.user.type === "Bot" && c.line === unitLine(i));
const repliesTo = (gh: FakeGitHub, c: Comment) => gh.comments.filter((x) => x.in_reply_to_id === c.id);

/** A pull request opened with a unit error on the metrics in `bad`: one thread each (t0, t1, t2 by metric). */
async function openedWith(bad: number[], extraRoutes: readonly Route[] = []) {
  const gh = new FakeGitHub([...LATER_REVIEW_ROUTES, ...extraRoutes]);
  const { probot, logs } = makeProbot();
  const before = text(validHost());
  const first = head(bad);
  gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: rewritePatch(before, first) }];
  gh.file(R, HEAD_SHA, "p/plugin.json", first).file(R, BASE_SHA, "p/plugin.json", before);
  await deliver(probot, "pull_request", pullRequestPayload("opened"));
  expect(roots(gh)).toHaveLength(bad.length);
  const [t0, t1, t2] = [0, 1, 2].map((i) => onMetric(gh, i)[0]!);
  return { gh, probot, logs, t0: t0!, t1: t1!, t2 };
}

describe("GitHub App: fixed findings' threads", () => {
  it("resolves the fixed threads in one request with a reply naming the commit, keeps the others open, and comments a finding that comes back", async () => {
    const gh = new FakeGitHub(LATER_REVIEW_ROUTES);
    const { probot } = makeProbot();
    const before = text(validHost());
    const first = head([0, 1, 2]);
    gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: rewritePatch(before, first) }];
    gh.file(R, HEAD_SHA, "p/plugin.json", first).file(R, BASE_SHA, "p/plugin.json", before);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(roots(gh)).toHaveLength(3);
    const [t0, t1, t2] = [0, 1, 2].map((i) => onMetric(gh, i)[0]!);
    // A person quotes our comment (marker and all) in a thread of their own: never ours to resolve.
    gh.comments.push({
      ...t0!,
      id: 1,
      body: `Is this right?\n> ${t0!.body}`,
      user: { login: "octocat", type: "User" },
    });

    // Push 2 fixes metrics 0 and 2; metric 1 is still wrong.
    const second = "d".repeat(40);
    const calls = await push(gh, probot, second, head([1]));
    expect(gh.runsFor(second)[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect([...gh.resolved].sort()).toEqual([t0!.id, t2!.id].sort());
    for (const t of [t0!, t2!])
      expect(repliesTo(gh, t)).toEqual([
        expect.objectContaining({ body: expect.stringMatching(/^Fixed in ddddddd: this finding is gone\./) }),
      ]);
    expect(repliesTo(gh, t1!)).toEqual([]);
    expect(gh.resolved.has(1)).toBe(false);
    // Nothing new to say: no review; two resolutions in one mutation. Writes: the check run and the mutation.
    expect(gh.reviews).toHaveLength(1);
    const mutations = calls.filter((r) => r.path === "/graphql" && isWrite(r));
    expect(mutations).toHaveLength(1);
    expect(String((mutations[0]!.body as { query: string }).query)).toMatch(/resolve1: resolveReviewThread/);
    expect(writesIn(calls)).toEqual(["POST /check-runs", "POST /graphql"]);
    // Reads: one GraphQL query for threads and reviews (instead of two REST listings).
    const threadQueries = calls.filter(
      (r) => r.path === "/graphql" && /reviewThreads/.test((r.body as { query: string }).query),
    );
    expect(threadQueries).toHaveLength(1);
    // Within the budget of a later push (7, the App's own requests aside: its token and its account).
    expect(calls.filter((r) => !isAppRequest(r)).length).toBeLessThanOrEqual(7);

    // Push 3: nothing changes; the resolved threads are not answered again, the open one not commented again.
    const third = "e".repeat(40);
    await push(gh, probot, third, head([1]));
    expect(gh.comments.filter((c) => c.in_reply_to_id)).toHaveLength(2);
    expect(roots(gh)).toHaveLength(4); // three of ours and the person's
    expect(gh.reviews).toHaveLength(1);

    // Push 4: metric 0 is wrong again. Its old thread stays resolved; the finding is commented anew.
    const fourth = "f".repeat(40);
    const calls4 = await push(gh, probot, fourth, head([0, 1]));
    expect(onMetric(gh, 0)).toHaveLength(2);
    const fresh = onMetric(gh, 0)[1]!;
    expect(gh.resolved.has(fresh.id)).toBe(false);
    expect(fresh.commit_id).toBe(fourth);
    expect(onMetric(gh, 1)).toHaveLength(1);
    expect(gh.reviews).toHaveLength(2);
    expect(calls4.filter(isWrite)).toHaveLength(2);
    expect(gh.graphqlDocuments.length).toBeGreaterThanOrEqual(4);
    gh.assertClean();
  });

  it("a push that fixes one finding and adds another: the review, the reply and the resolution in one GraphQL document", async () => {
    const { gh, probot, t0, t1 } = await openedWith([0, 1]);
    const second = "d".repeat(40);
    const calls = await push(gh, probot, second, head([1, 2]));
    expect([...gh.resolved]).toEqual([t0.id]);
    expect(repliesTo(gh, t0)).toEqual([
      expect.objectContaining({ body: expect.stringMatching(/^Fixed in ddddddd/) }),
    ]);
    expect(repliesTo(gh, t1)).toEqual([]);
    // One new thread, on metric 2, in this push's review (its commit, its head marker).
    expect(onMetric(gh, 2)).toEqual([expect.objectContaining({ commit_id: second })]);
    expect(onMetric(gh, 1)).toHaveLength(1);
    expect(gh.reviews).toHaveLength(2);
    expect(gh.reviews[1]).toMatchObject({ commit_id: second, event: "COMMENT" });
    expect(gh.reviews[1]!.body).toContain(`plugin-review:head=${second}`);
    expect(writesIn(calls)).toEqual(["POST /check-runs", "POST /graphql"]);
    // A redelivery of the same push writes nothing: the run already says it (no update), and no review.
    const before = gh.requests.length;
    await deliverPush(probot, gh, second);
    expect(gh.requests.slice(before).filter(isWrite)).toEqual([]);
    expect(gh.reviews).toHaveLength(2);
    expect(gh.comments.filter((c) => c.in_reply_to_id)).toHaveLength(1);
    gh.assertClean();
  });

  it("GitHub refuses the document's review (a line no longer in the diff): threads still closed, every new finding in a body-only review", async () => {
    const { gh, probot, logs, t0 } = await openedWith([0, 1]);
    // The diff moved after the App listed the files: GitHub accepts no line comment on the new metric.
    gh.reviewDiff = [{ filename: "p/plugin.json", status: "modified", patch: "@@ -1,1 +1,1 @@\n-{\n+{" }];
    const second = "d".repeat(40);
    const calls = await push(gh, probot, second, head([1, 2]));
    expect([...gh.resolved]).toEqual([t0.id]);
    expect(gh.graphqlUnprocessable).toEqual(["Line could not be resolved"]);
    expect(onMetric(gh, 2)).toEqual([]);
    expect(gh.reviews).toHaveLength(2);
    const review = gh.reviews[1]!;
    expect(review).toMatchObject({ commit_id: second, event: "COMMENT" });
    expect(review.body).toMatch(new RegExp(`\`p/plugin\\.json:${unitLine(2)}\` .*unit`));
    expect(review.body).toContain(`plugin-review:head=${second}`);
    expect(logs.some((l) => /refused \(unprocessable\); posting every finding in the body/.test(l.msg))).toBe(
      true,
    );
    // The fallback is the one extra write: the check run, the document, the body-only review.
    expect(writesIn(calls)).toEqual(["POST /check-runs", "POST /graphql", "POST /pulls/7/reviews"]);
    gh.assertClean();
  });

  it("review threads refused by GraphQL (an older schema): listed through REST, fixed threads answered but not resolved, nothing repeated", async () => {
    const { gh, probot, logs, t0, t1 } = await openedWith(
      [0, 1],
      ["listComments", "listReviews", "reply", "listCheckRuns", "contents", "getPull"],
    );
    gh.graphqlRefuses = /reviewThreads/;
    gh.pulls.set(7, pullRequestPayload("opened").pull_request); // REST reads where the pull request is now
    const second = "d".repeat(40);
    const calls = await push(gh, probot, second, head([1, 2]));
    expect(gh.runsFor(second)[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(gh.resolved.size).toBe(0);
    expect(repliesTo(gh, t0)).toEqual([
      expect.objectContaining({ body: expect.stringMatching(/^Fixed in ddddddd/) }),
    ]);
    expect(repliesTo(gh, t1)).toEqual([]);
    expect(onMetric(gh, 1)).toHaveLength(1);
    expect(onMetric(gh, 2)).toEqual([expect.objectContaining({ commit_id: second })]);
    expect(gh.reviews).toHaveLength(2);
    expect(
      logs.some((l) =>
        /GraphQL refused \(the review threads query\): this installation reads and writes through REST .*fixed threads get a reply but cannot be resolved/.test(
          l.msg,
        ),
      ),
    ).toBe(true);
    expect(
      calls.filter((r) => r.method === "GET").map((r) => r.path.replace(/\/repos\/[^/]+\/[^/]+/, "")),
    ).toEqual(expect.arrayContaining(["/pulls/7/comments", "/pulls/7/reviews"]));
    // The next push changes nothing: the answered thread is not answered again, nothing is commented twice
    // (the installation reads through REST for a while after GraphQL refused).
    await push(gh, probot, "e".repeat(40), head([1, 2]));
    expect(gh.comments.filter((c) => c.in_reply_to_id)).toHaveLength(1);
    expect(gh.reviews).toHaveLength(2);
    gh.assertClean();
  });

  it("GraphQL refuses the mutation (an older schema): the threads answered and the review posted through REST", async () => {
    const { gh, probot, logs, t0 } = await openedWith([0, 1], ["reply"]);
    gh.graphqlRefuses = /^mutation/;
    const second = "d".repeat(40);
    const calls = await push(gh, probot, second, head([1, 2]));
    expect(gh.resolved.size).toBe(0);
    expect(repliesTo(gh, t0)).toEqual([
      expect.objectContaining({ body: expect.stringMatching(/^Fixed in ddddddd/) }),
    ]);
    expect(onMetric(gh, 2)).toEqual([expect.objectContaining({ commit_id: second })]);
    expect(gh.reviews).toHaveLength(2);
    expect(
      logs.some((l) =>
        /GraphQL refused \(the fixed threads' mutation\): this installation .* REST/.test(l.msg),
      ),
    ).toBe(true);
    expect(writesIn(calls)).toEqual([
      "POST /check-runs",
      "POST /graphql",
      `POST /pulls/7/comments/${t0.id}/replies`,
      "POST /pulls/7/reviews",
    ]);
    gh.assertClean();
  });

  it("no GraphQL at all (404): a later push's review is still posted, and an unchanged push adds nothing", async () => {
    const routes = ["listComments", "listReviews", "reply", "listCheckRuns", "contents", "getPull"] as const;
    const { gh, probot, t0 } = await openedWith([0, 1], routes);
    gh.graphqlUnavailable = true;
    gh.pulls.set(7, pullRequestPayload("opened").pull_request); // REST reads where the pull request is now
    const second = "d".repeat(40);
    await push(gh, probot, second, head([1, 2]));
    expect(gh.runsFor(second)).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "failure" }),
    ]);
    expect(repliesTo(gh, t0)).toHaveLength(1);
    expect(onMetric(gh, 2)).toEqual([expect.objectContaining({ commit_id: second })]);
    expect(gh.reviews).toHaveLength(2);
    await push(gh, probot, "e".repeat(40), head([1, 2]));
    expect(gh.reviews).toHaveLength(2);
    expect(gh.comments.filter((c) => c.in_reply_to_id)).toHaveLength(1);
    gh.assertClean();
  });

  it("a document GitHub's schema rejects fails the fake (the validation is real)", async () => {
    const gh = new FakeGitHub(["graphql"]);
    const res = await fetch("https://api.github.com/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "token x" },
      body: JSON.stringify({ query: "mutation { resolveReviewThread(input: { id: 1 }) { thread { id } } }" }),
    });
    const body = (await res.json()) as { errors?: { message: string }[] };
    expect(body.errors?.length).toBeGreaterThan(0);
    expect(() => gh.assertClean()).toThrow(/invalid GraphQL/);
  });
});

describe("writePublication: more than one document", () => {
  it("a later document refused whole: the review and the first 50 threads stand, nothing is thrown for a fallback to post again", async () => {
    const documents: Record<string, unknown>[] = [];
    const octokit = {
      graphql: async (_query: string, variables: Record<string, unknown>) => {
        documents.push(variables);
        if (documents.length === 2) throw Object.assign(new Error("Not Found"), { status: 404 });
        return { review: { pullRequestReview: { id: "R", comments: { totalCount: 1 } } } };
      },
    } as unknown as Octokit;
    const warnings: string[] = [];
    const log = { warn: (_o: unknown, msg: string) => warnings.push(msg) } as unknown as Logger;
    const threads = Array.from({ length: 60 }, (_, i) => `T${i}`);
    const review: ReviewInput = {
      pullRequestId: "PR",
      commitOID: "d".repeat(40),
      event: "COMMENT",
      body: "review",
      threads: [{ path: "p/plugin.json", line: 3, side: "RIGHT", body: "finding" }],
    };
    const written = await writePublication(octokit, log, {
      threadIds: threads,
      reply: "Fixed in ddddddd",
      review,
    });
    expect(written).toEqual({ closed: 50, review: "posted", left: 10 });
    expect(documents.map((d) => "review" in d)).toEqual([true, false]);
    expect(warnings).toEqual([expect.stringMatching(/closed by the next review/)]);
  });

  it("the first document refused whole: thrown, so that the caller falls back for everything", async () => {
    const octokit = {
      graphql: async () => {
        throw Object.assign(new Error("Not Found"), { status: 404 });
      },
    } as unknown as Octokit;
    const log = { warn: () => undefined } as unknown as Logger;
    await expect(writePublication(octokit, log, { threadIds: ["T0"], reply: "Fixed" })).rejects.toThrow(
      "Not Found",
    );
  });
});
