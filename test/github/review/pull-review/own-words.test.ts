/**
 * Only the App's own words count (interfaces.md, "Trust"): the App learns its own account once (`GET /app`
 * with its JWT: its slug, so its bot login `<slug>[bot]`) and reads its hidden markers (a reviewed push's
 * head marker, a finding's fingerprint, the "fixed" reply's) only from what that account wrote. A person
 * (here one whose login is the App's slug, as anyone may register it), a copied marker or another bot
 * changes nothing: through GraphQL (whose `Bot` logins lack REST's `[bot]`) and through REST alike. The real
 * app, real payloads, the validated fake GitHub.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIXED_MARKER, fingerprintMarker } from "../../../../src/github/review/pull-review/fingerprint.js";
import { check, text, validHost } from "../../../helpers.js";
import {
  APP_SLUG,
  FakeGitHub,
  LATER_REVIEW_ROUTES,
  REVIEW_ROUTES,
  type Comment,
  type Review,
  type Route,
} from "../../fake-github.js";
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
  rewritePatch,
} from "../../harness.js";

const R = `${OWNER}/${REPO}`;
const PATH = "p/plugin.json";
const BASE = text(validHost());
const NEXT = "d".repeat(40);
const LAST = "e".repeat(40);
/** The App's bot account, as REST names it. */
const APP_LOGIN = `${APP_SLUG}[bot]`;
/** A person who registered the App's slug as their login: GraphQL gives the App's bot the same login. */
const PERSON = { login: APP_SLUG, type: "User" };
/** Another App, quoting ours. */
const OTHER_BOT = { login: "copycat[bot]", type: "Bot" };
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

type Api = "graphql" | "rest";
const APIS: Api[] = ["graphql", "rest"];

/** The fake GitHub, read through GraphQL or (GraphQL answering 404) through REST; `rest`: REST's extra routes. */
function fake(api: Api, rest: Route[] = []): FakeGitHub {
  const gh = new FakeGitHub(
    api === "graphql"
      ? LATER_REVIEW_ROUTES
      : [...REVIEW_ROUTES, "listCheckRuns", "contents", "getPull", "listComments", "listReviews", ...rest],
  );
  if (api === "rest") {
    gh.graphqlUnavailable = true;
    gh.pulls.set(7, pullRequestPayload("opened").pull_request);
  }
  gh.file(R, BASE_SHA, PATH, BASE);
  return gh;
}

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

/** The line of metric `i`'s unit (the same in every head). */
const unitLine = (i: number) => {
  const t = head([]);
  return t.slice(0, t.indexOf(`"unit"`, t.indexOf(`new_metric${i}`))).split("\n").length;
};

/** The finding on metric `i`'s unit in `content`, as the App identifies it. */
const fingerprintOf = (content: string, i: number) =>
  check(content, { base: BASE, path: PATH }).find((f) => f.line === unitLine(i))!.fingerprint;

/** The pull request's head commit `sha` holds `content`, every line of it in the diff. */
function at(gh: FakeGitHub, sha: string, content: string): void {
  gh.prFiles = [{ filename: PATH, status: "modified", patch: rewritePatch(BASE, content) }];
  gh.file(R, sha, PATH, content);
}

const appThreads = (gh: FakeGitHub, i: number) =>
  gh.comments.filter((c) => !c.in_reply_to_id && c.user.login === APP_LOGIN && c.line === unitLine(i));
const appReplies = (gh: FakeGitHub) =>
  gh.comments.filter((c) => c.in_reply_to_id && c.user.login === APP_LOGIN);
const appReviews = (gh: FakeGitHub) => gh.reviews.filter((r) => r.user.login === APP_LOGIN);
const identityRequests = (gh: FakeGitHub) =>
  gh.requests.filter((r) => r.method === "GET" && r.path === "/app");

describe.each(APIS)("GitHub App, through %s: only the App's own words count", (api) => {
  it("a person's review and another bot's holding the App's head marker and its findings' markers: the push is reviewed as if they were not there", async () => {
    const gh = fake(api);
    const { probot } = makeProbot();
    const content = head([0, 1]);
    gh.file(R, HEAD_SHA, PATH, content);
    // Only the first line is in the diff: both findings go to the review's body, each with its marker.
    gh.prFiles = [{ filename: PATH, status: "modified", patch: "@@ -1,1 +1,1 @@\n-{\n+{" }];
    const markers = [0, 1].map((i) => fingerprintMarker(fingerprintOf(content, i)));
    for (const [id, user] of [
      [1, PERSON],
      [2, OTHER_BOT],
    ] as const)
      gh.reviews.push({
        pull: `${R}#7`,
        id,
        body: `Reviewed. <!-- plugin-review:head=${HEAD_SHA} --> ${markers.join(" ")}`,
        event: "COMMENT",
        commit_id: HEAD_SHA,
        user,
      });
    await deliver(probot, "pull_request", pullRequestPayload("synchronize"));
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    const mine = appReviews(gh);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.body).toContain(`<!-- plugin-review:head=${HEAD_SHA} -->`);
    for (const m of markers) expect(mine[0]!.body).toContain(m);
    // Redelivered: now the App's own review says that this push was reviewed.
    await deliver(probot, "pull_request", pullRequestPayload("synchronize"));
    expect(appReviews(gh)).toHaveLength(1);
    gh.assertClean();
  });

  it("a person's and another bot's \"fixed\" reply on the App's thread: the thread stays open while its finding is there, and is answered (and resolved) once it is fixed", async () => {
    const gh = fake(api, ["reply"]);
    const { probot } = makeProbot();
    at(gh, HEAD_SHA, head([0]));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [thread] = appThreads(gh, 0);
    expect(thread).toBeDefined();
    for (const [id, user] of [
      [1, PERSON],
      [2, OTHER_BOT],
    ] as const)
      gh.comments.push({ ...thread!, id, body: `Done. ${FIXED_MARKER}`, in_reply_to_id: thread!.id, user });

    // A push that leaves the finding: its thread is the App's, open, so nothing is said again.
    at(gh, NEXT, head([0]));
    await deliverPush(probot, gh, NEXT);
    expect(gh.runsFor(NEXT)[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(appThreads(gh, 0)).toEqual([thread]);
    expect(appReviews(gh)).toHaveLength(1);
    expect(appReplies(gh)).toEqual([]);
    expect(gh.resolved.size).toBe(0);

    // The push that fixes it: the App answers its thread (and resolves it where GraphQL can).
    at(gh, LAST, head([]));
    await deliverPush(probot, gh, LAST);
    expect(appReplies(gh)).toEqual([
      expect.objectContaining({
        in_reply_to_id: thread!.id,
        body: expect.stringMatching(/^Fixed in eeeeeee: this finding is gone\./),
      }),
    ]);
    expect([...gh.resolved]).toEqual(api === "graphql" ? [thread!.id] : []);
    gh.assertClean();
  });

  it("another bot's and a person's comments carrying the App's fingerprint marker: the finding is still commented, and only the App's own thread is answered once it is fixed", async () => {
    const gh = fake(api, ["reply"]);
    const { probot } = makeProbot();
    const content = head([0]);
    at(gh, HEAD_SHA, content);
    const marker = fingerprintMarker(fingerprintOf(content, 0));
    const copied: Comment = {
      pull: `${R}#7`,
      id: 1,
      path: PATH,
      line: unitLine(0),
      side: "RIGHT",
      body: `Same here. ${marker}`,
      commit_id: HEAD_SHA,
      user: OTHER_BOT,
    };
    gh.comments.push(copied, { ...copied, id: 2, user: PERSON });
    await deliver(probot, "pull_request", pullRequestPayload("synchronize"));
    const [thread] = appThreads(gh, 0);
    expect(thread).toMatchObject({ commit_id: HEAD_SHA, body: expect.stringContaining(marker) });

    at(gh, NEXT, head([]));
    await deliverPush(probot, gh, NEXT);
    expect(appReplies(gh).map((c) => c.in_reply_to_id)).toEqual([thread!.id]);
    expect([...gh.resolved]).toEqual(api === "graphql" ? [thread!.id] : []);
    gh.assertClean();
  });

  it("another bot's and a person's \"changes requested\" reviews carrying the App's markers are never dismissed", async () => {
    const gh = fake(api, ["reply", "dismissReview"]);
    const { probot } = makeProbot();
    gh.file(R, "HEAD", ".github/plugin-review.yml", "review: request-changes\n");
    at(gh, HEAD_SHA, head([0]));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [own] = gh.reviews;
    expect(own).toMatchObject({ event: "REQUEST_CHANGES", user: { login: APP_LOGIN } });
    const copy: Review = { ...own!, id: 1, user: OTHER_BOT };
    const person: Review = { ...own!, id: 2, user: PERSON };
    gh.reviews.push(copy, person);

    at(gh, NEXT, head([]));
    await deliverPush(probot, gh, NEXT);
    expect(own!.dismissed).toMatch(/^plugin-review no longer requests changes: `ddddddd` passes/);
    expect(copy.dismissed).toBeUndefined();
    expect(person.dismissed).toBeUndefined();
    gh.assertClean();
  });
});

describe("GitHub App: how it knows its own account", () => {
  it("asks GitHub once per process, with the App's JWT (GitHub refuses an installation's token there), and only when it reads what is on a pull request", async () => {
    const gh = fake("graphql");
    const { probot, logs } = makeProbot();
    at(gh, HEAD_SHA, head([0]));
    // Just opened: nothing of the App's can be there yet, so nothing is read and no identity is needed.
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(identityRequests(gh)).toEqual([]);
    at(gh, NEXT, head([0, 1]));
    await deliverPush(probot, gh, NEXT);
    at(gh, LAST, head([1]));
    await deliverPush(probot, gh, LAST);
    const asked = identityRequests(gh);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.headers.authorization).toMatch(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(logs.filter((l) => l.msg === `the App's own account is ${APP_LOGIN} (GET /app)`)).toHaveLength(1);
    // And it reads its own threads: metric 1's finding commented once, metric 0's thread answered as fixed.
    expect(appThreads(gh, 1)).toHaveLength(1);
    expect(appReplies(gh).map((c) => c.in_reply_to_id)).toEqual([appThreads(gh, 0)[0]!.id]);
    gh.assertClean();
  });

  it("the fake, as GitHub, answers `GET /app` to the App's JWT alone: an installation's token gets 401", async () => {
    const gh = new FakeGitHub([]);
    const res = await fetch("https://api.github.com/app", {
      headers: { authorization: "token ghs_test_token_not_a_secret", accept: "application/vnd.github+json" },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: "A JSON web token could not be decoded" });
    gh.assertClean();
  });

  it("on a GitHub Enterprise Server (GHE_HOST), at that server's API", async () => {
    const gh = new FakeGitHub(LATER_REVIEW_ROUTES, "https://ghe.acme.example/api/v3");
    const { probot } = makeProbot({ baseUrl: "https://ghe.acme.example/api/v3" });
    gh.file(R, BASE_SHA, PATH, BASE);
    at(gh, HEAD_SHA, head([0]));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [thread] = appThreads(gh, 0);
    gh.comments.push({
      ...thread!,
      id: 1,
      body: `Done. ${FIXED_MARKER}`,
      in_reply_to_id: thread!.id,
      user: PERSON,
    });
    at(gh, NEXT, head([0]));
    await deliverPush(probot, gh, NEXT);
    // The fake answers the Enterprise Server's host alone: the request went there.
    expect(identityRequests(gh)).toHaveLength(1);
    expect(appThreads(gh, 0)).toEqual([thread]);
    expect(appReplies(gh)).toEqual([]);
    gh.assertClean();
  });

  it("GitHub failing on `GET /app` (500s): asked again within the review, which then posts as usual", async () => {
    const gh = fake("graphql");
    const { probot, logs } = makeProbot();
    at(gh, HEAD_SHA, head([0]));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [thread] = appThreads(gh, 0);
    gh.fail("GET", /^\/app$/, 500, 4, { message: "Server Error" });
    at(gh, NEXT, head([1]));
    await deliverPush(probot, gh, NEXT);
    // The retry plugin asks three times more; then the review tries again after its backoff.
    expect(gh.failed.filter((r) => r === "GET /app")).toHaveLength(4);
    expect(logs.some((l) => /GET \/app.*trying again/.test(l.msg))).toBe(true);
    expect(appThreads(gh, 1)).toHaveLength(1);
    expect(appReplies(gh).map((c) => c.in_reply_to_id)).toEqual([thread!.id]);
    gh.assertClean();
  });

  it("GitHub refuses `GET /app`: the check run stands, the review posts nothing (taking no one's words for the App's, nor ignoring its own), and the next review asks again", async () => {
    const gh = fake("graphql");
    const { probot, logs } = makeProbot();
    at(gh, HEAD_SHA, head([0]));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [thread] = appThreads(gh, 0);
    gh.fail("GET", /^\/app$/, 401, 1, {
      message: "A JSON web token could not be decoded",
      documentation_url: "https://docs.github.com/rest",
    });
    // Metric 0 fixed, metric 1 wrong: its run says so; no review, no reply, nothing resolved meanwhile.
    at(gh, NEXT, head([1]));
    await deliverPush(probot, gh, NEXT);
    expect(gh.runsFor(NEXT)[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(appReviews(gh)).toHaveLength(1);
    expect(appReplies(gh)).toEqual([]);
    expect(gh.resolved.size).toBe(0);
    expect(
      logs.some(
        (l) =>
          l.level >= 50 &&
          /the App could not learn its own account \(GET \/app\): GitHub answered 401 .*no review is posted/.test(
            l.msg,
          ),
      ),
    ).toBe(true);
    // GitHub answers again: the next push is reviewed as usual, from what the App itself wrote.
    at(gh, LAST, head([1]));
    await deliverPush(probot, gh, LAST);
    expect(identityRequests(gh)).toHaveLength(2);
    expect(appThreads(gh, 1)).toHaveLength(1);
    expect(appReplies(gh).map((c) => c.in_reply_to_id)).toEqual([thread!.id]);
    gh.assertClean();
  });
});
