/**
 * The App under faults and oversized or hostile input (issue "Never stuck, never doubled, never lost"):
 * the real app through Probot, GitHub faked over HTTP (every request validated against GitHub's OpenAPI
 * description). Request timeouts are shortened and deadlines chosen the way the Lambda worker chooses
 * them, so that the tests take seconds; the mechanisms are the production ones.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { text, validHost } from "../helpers.js";
import {
  APP_ID,
  completesRun,
  FakeGitHub,
  LATER_REVIEW_ROUTES,
  REVIEW_ROUTES,
  type Route,
} from "./fake-github.js";
import { cleanup, disableNetwork } from "./github-mock.js";
import {
  addedFile,
  deliver,
  deliverWith,
  HEAD_SHA,
  makeProbot,
  OWNER,
  pullRequestPayload,
  REPO,
} from "./harness.js";

const R = `${OWNER}/${REPO}`;

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/** The fake GitHub with `routes`, and the app on a clock running its waits at `timeScale` of real time. */
function setup(routes: readonly Route[], timeScale?: number) {
  const gh = new FakeGitHub(routes);
  const { probot, logs, deliveries } = makeProbot(timeScale === undefined ? {} : { timeScale });
  return { gh, probot, logs, deliveries };
}

/** A new descriptor with one finding (version-format, an error). */
const oneFinding = () => text({ ...validHost(), version: "1" });

describe("GitHub does not answer", () => {
  it("abandons a request that is accepted and never answered after the request timeout, and retries it", async () => {
    // Requests time out after 3 s: long enough that no answered request of the review (the fake validates each
    // one) reaches it on a loaded machine, so that only the hung one is abandoned.
    const { gh, probot } = setup(
      REVIEW_ROUTES.filter((r) => r !== "createReview"),
      0.15,
    );
    addedFile(gh, "p/plugin.json", text(validHost()));
    gh.hang("GET", /\/pulls\/7\/files$/, 1);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.hung).toEqual(["GET /repos/acme/plugins/pulls/7/files"]);
    expect(gh.count("GET", /\/pulls\/7\/files$/)).toBe(2); // the unanswered one, and its retry
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "success" })]);
    gh.assertClean();
  });

  it("completes the run as failure at the review's deadline, and the next attempt completes it with the result", async () => {
    // On this clock requests time out after 2 s, the failure report gets 1 s.
    const { gh, probot, logs, deliveries } = setup([...LATER_REVIEW_ROUTES, "updateCheckRun"], 0.1);
    addedFile(gh, "p/plugin.json", oneFinding());
    gh.hang("GET", /\/pulls\/7\/files$/);
    await expect(
      deliverWith(
        probot,
        deliveries,
        { attempt: 0, endsBy: Date.now() + 4000 },
        "pull_request",
        pullRequestPayload("opened"),
      ),
    ).rejects.toThrow(/did not answer in time/);
    // Stopped at the deadline, counted rather than timed: the request and one retry fit in 4 s of 2-s
    // timeouts; a review that outlived its deadline would have asked again.
    expect(gh.count("GET", /\/pulls\/7\/files$/)).toBeLessThanOrEqual(2);
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({
      status: "completed",
      conclusion: "failure",
      output: { title: "plugin-review could not complete" },
    });
    expect(run!.output!.summary).toMatch(/GitHub did not answer in time.*Re-running the check retries it/s);
    expect(logs.some((l) => /review failed: GitHub did not answer in time/.test(l.msg))).toBe(true);
    // GitHub answers again: the redelivery completes the same run, with its one annotation.
    gh.recover();
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)).toHaveLength(1);
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations.map((a) => a.title)).toEqual(["version-format"]);
    gh.assertClean();
  });
});

describe("GitHub rate-limits a review for longer than its deadline", () => {
  // GitHub names a wait (`retry-after` on a secondary rate limit, `x-ratelimit-reset` on the primary one) past
  // the review's deadline: slept, it held the review's scheduler slot (on Lambda, the invocation) until the
  // deadline, and the run then said that GitHub did not answer. Not slept, the run says what GitHub answered
  // at once, and the review is tried again later (the delivery fails, as a transient failure does).
  const limits: [string, number, Record<string, unknown>, () => Record<string, string>][] = [
    [
      "a secondary rate limit with `retry-after: 3600`",
      403,
      {
        message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      },
      () => ({ "retry-after": "3600" }),
    ],
    [
      "a 429 with `retry-after: 3600`",
      429,
      {
        message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      },
      () => ({ "retry-after": "3600" }),
    ],
    [
      "a primary rate limit reset an hour from now",
      403,
      { message: "API rate limit exceeded for installation ID 77." },
      () => ({
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 3600),
      }),
    ],
  ];

  it.each(limits)("%s: the run fails at once naming the limit (server)", async (_, status, body, headers) => {
    // On this clock the server's 2-minute deadline passes in 6 s.
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const { probot, logs } = makeProbot({ productionThrottling: true, timeScale: 0.05 });
    addedFile(gh, "p/plugin.json", text(validHost()));
    gh.fail("GET", /\/pulls\/7\/files$/, status, 1, body, headers());
    await expect(deliver(probot, "pull_request", pullRequestPayload("opened"))).rejects.toThrow(
      /GitHub answered (403|429) \((You have exceeded a secondary rate limit|API rate limit exceeded)/,
    );
    expect(gh.count("GET", /\/pulls\/7\/files$/)).toBe(1);
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.output!.summary).toMatch(/rate limit/);
    expect(run!.output!.summary).not.toMatch(/did not answer in time|grant the/);
    expect(run!.output!.summary).toMatch(/Re-run the check to try again/);
    expect(logs.some((l) => /rate limit on GET .*giving up: GitHub asks to wait \d+ s/.test(l.msg))).toBe(
      true,
    );
    gh.assertClean();
  });

  it("a secondary rate limit past the invocation's end: the run fails at once naming it (Lambda)", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const { probot, deliveries } = makeProbot({ productionThrottling: true, timeScale: 0.05 });
    addedFile(gh, "p/plugin.json", text(validHost()));
    const [, status, body, headers] = limits[0]!;
    gh.fail("GET", /\/pulls\/7\/files$/, status, 1, body, headers());
    await expect(
      deliverWith(
        probot,
        deliveries,
        { attempt: 0, endsBy: Date.now() + 8000 },
        "pull_request",
        pullRequestPayload("opened"),
      ),
    ).rejects.toThrow(/GitHub answered 403 \(You have exceeded a secondary rate limit/);
    expect(gh.runsFor(HEAD_SHA)[0]!.output!.summary).not.toMatch(/did not answer in time/);
    gh.assertClean();
  });

  it("a wait that fits in the deadline is still waited out, and the review completes", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    const { probot } = makeProbot({ productionThrottling: true });
    addedFile(gh, "p/plugin.json", text(validHost()));
    const [, status, body] = limits[1]!;
    gh.fail("GET", /\/pulls\/7\/files$/, status, 1, body, { "retry-after": "1" });
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.count("GET", /\/pulls\/7\/files$/)).toBe(2);
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ status: "completed", conclusion: "success" });
    gh.assertClean();
  });

  // The same limit on a write: the check run's and the review's writes are tried again with backoff while
  // GitHub fails, but a limit GitHub names past the deadline does not pass by then. Sent again every few
  // seconds, the check run's write held the review's slot until its deadline, and its failure then said that
  // GitHub did not answer.
  const writes: [string, RegExp, number, Route[]][] = [
    // The result's write, then the failure report's (one each: GitHub refuses both).
    [
      "the check run's write",
      /\/check-runs$/,
      2,
      ["token", "graphql", "files", "createCheckRun", "listCheckRuns"],
    ],
    // The check run is written; the review is not sent again until the later retry.
    ["the review's post", /\/pulls\/7\/reviews$/, 1, [...REVIEW_ROUTES]],
  ];
  it.each(writes)(
    "%s under a limit past the deadline: not sent again, the review fails at once naming it",
    async (_, path, sent, routes) => {
      const gh = new FakeGitHub(routes);
      const { probot } = makeProbot({ productionThrottling: true, timeScale: 0.05 });
      addedFile(gh, "p/plugin.json", oneFinding());
      const [, status, body, headers] = limits[0]!;
      gh.fail("POST", path, status, Infinity, body, headers());
      await expect(deliver(probot, "pull_request", pullRequestPayload("opened"))).rejects.toThrow(
        /You have exceeded a secondary rate limit/,
      );
      expect(gh.count("POST", path)).toBe(sent);
      expect(gh.reviews).toEqual([]);
      gh.assertClean();
    },
  );
});

describe("GitHub stops sending an answer halfway", () => {
  it.each([
    // A read retried (the cut answer, and its retry).
    ["the pull request's file list, retried", "GET", /\/pulls\/7\/files$/, [], 2],
    // GraphQL that did not answer in time is replaced by REST (api/gateway.ts), not asked again.
    [
      "the review's first GraphQL query, read through REST",
      "POST",
      /^\/graphql$/,
      ["listCheckRuns", "contents"],
      1,
    ],
    // A write GitHub made: read back before it is sent again, found, not made twice.
    ["the check run's creation, read back", "POST", /\/check-runs$/, ["listCheckRuns"], 1],
  ] as const)(
    "%s: a failure GitHub made, never an empty answer: the descriptor is reviewed",
    async (_what, method, path, restRoutes: readonly Route[], asked) => {
      // Requests time out after 3 s (see "GitHub does not answer").
      const { gh, probot } = setup([...REVIEW_ROUTES, ...restRoutes], 0.15);
      addedFile(gh, "p/plugin.json", oneFinding());
      gh.cut(method, path, 1);
      await deliver(probot, "pull_request", pullRequestPayload("opened"));
      expect(gh.cutOff).toHaveLength(1);
      // Not "no descriptors changed": the descriptor was read and its error found, on one run.
      expect(gh.runsFor(HEAD_SHA)).toHaveLength(1);
      const [run] = gh.runsFor(HEAD_SHA);
      expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
      expect(run!.annotations.map((a) => a.title)).toEqual(["version-format"]);
      expect(gh.count(method, path)).toBe(asked);
      gh.assertClean();
    },
  );
});

describe("GitHub fails the final write", () => {
  it("500s on every check run write until the deadline: retried with backoff, no run left in progress, the next attempt completes it", async () => {
    // On this clock the 2-minute deadline passes in 6 s.
    const { gh, probot, logs } = setup([...REVIEW_ROUTES, "listCheckRuns"], 0.05);
    addedFile(gh, "p/plugin.json", oneFinding());
    gh.failFor("POST", /\/check-runs$/, 3_600_000);
    await expect(deliver(probot, "pull_request", pullRequestPayload("opened"))).rejects.toThrow(
      /did not answer in time/,
    );
    expect(gh.runsFor(HEAD_SHA)).toEqual([]);
    // Tried again and again (the first write, then each retry after listing the runs: none was made).
    expect(gh.count("POST", /\/check-runs$/)).toBeGreaterThan(3);
    expect(gh.count("GET", /\/check-runs/)).toBeGreaterThan(2);
    expect(
      logs.some((l) => /completing the check run: GitHub answered 500 .*trying again in/.test(l.msg)),
    ).toBe(true);
    expect(logs.some((l) => /the review is tried again later, which completes it/.test(l.msg))).toBe(true);
    // The first attempt is over, and its token with it: a write it sent just before its deadline reaches the
    // fake a few ticks after the abort (nock plays back an aborted request), after recover() below, where it
    // would create a run behind the next attempt's back; that attempt would then update a run this fake was
    // not set up to update, retrying on the real clock until its 2-minute deadline (past the test's timeout).
    // Revoked, that write is refused whenever it arrives, so that GitHub fails every write of the first
    // attempt, as this test says.
    gh.revokeTokens();
    gh.recover();
    // The next attempt, on the real clock: on this one a request times out after about a second, which a
    // validated request to the fake can take on a loaded machine.
    await deliver(makeProbot().probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({
        status: "completed",
        conclusion: "failure",
        output: expect.objectContaining({ title: "1 error, 0 warnings, 0 notices in 1 descriptor" }),
      }),
    ]);
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(1);
    gh.assertClean();
  });

  it("a run left in progress (its completion failed, or its process died) is completed by the next attempt", async () => {
    const { gh, probot } = setup(
      [...LATER_REVIEW_ROUTES.filter((r) => r !== "createCheckRun"), "updateCheckRun", "listCheckRuns"],
      0.05,
    );
    addedFile(gh, "p/plugin.json", oneFinding());
    gh.checkRuns.push({
      id: 99,
      name: "plugin-review",
      head_sha: HEAD_SHA,
      status: "in_progress",
      annotations: [],
      app: { id: APP_ID, slug: "plugin-review" },
      updates: 0,
    });
    gh.failFor("PATCH", /\/check-runs\/99$/, 3_600_000);
    await expect(deliver(probot, "pull_request", pullRequestPayload("opened"))).rejects.toThrow();
    gh.recover();
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ id: 99, status: "completed", conclusion: "failure" }),
    ]);
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(1);
    gh.assertClean();
  });

  it("a completing write GitHub made but answered 500 for is not sent again: one run, each annotation once", async () => {
    const { gh, probot, logs } = setup([...REVIEW_ROUTES, "listCheckRuns"]);
    addedFile(gh, "p/plugin.json", oneFinding());
    gh.failFor("POST", /\/check-runs$/, 3_600_000, { applied: 1 });
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.failed).toEqual(["POST /repos/acme/plugins/check-runs"]);
    // Listed again before the next write: the run was there, saying what the review found.
    expect(gh.count("GET", /\/check-runs/)).toBe(1);
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "failure", updates: 0 }),
    ]);
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(1);
    expect(gh.reviews).toHaveLength(1);
    expect(logs.some((l) => /trying again in 1 s/.test(l.msg))).toBe(true);
    gh.assertClean();
  });

  it("a run that cannot be completed is created in progress as soon as GitHub takes a write, and completed when GitHub recovers", async () => {
    const { gh, probot } = setup([...REVIEW_ROUTES, "listCheckRuns", "updateCheckRun"], 0.05);
    addedFile(gh, "p/plugin.json", oneFinding());
    // GitHub takes writes, but not those that complete a run, for 30 s (1.5 s here).
    gh.failFor("POST", /\/check-runs$/, 1500, { when: completesRun });
    gh.failFor("PATCH", /\/check-runs\/\d+$/, 1500, { when: completesRun });
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    // The completing create failed; the next write created the run in progress (no annotation), and the
    // completing updates were tried until GitHub took one.
    const writes = gh.requests.filter((r) => /\/check-runs/.test(r.path) && r.method !== "GET");
    expect(writes.map((r) => [r.method, (r.body as { status?: string }).status])).toEqual([
      ["POST", "completed"],
      ["POST", "in_progress"],
      ...writes.slice(2).map(() => ["PATCH", "completed"]),
    ]);
    expect(writes.length).toBeGreaterThan(3);
    expect(gh.failed.length).toBe(writes.length - 2);
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "failure", updates: 1 }),
    ]);
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(1);
    expect(gh.reviews).toHaveLength(1);
    gh.assertClean();
  });
});

describe("a revoked token", () => {
  it("gets a fresh installation token once after a 401, and completes the review", async () => {
    const { gh, probot, logs } = setup(LATER_REVIEW_ROUTES);
    addedFile(gh, "p/plugin.json", oneFinding());
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    // The installation token the app has cached is revoked before the next push's review.
    gh.revokeTokens();
    await deliver(probot, "pull_request", pullRequestPayload("synchronize"));
    expect(gh.tokens).toHaveLength(2);
    expect(logs.some((l) => /401: retrying with a fresh installation token/.test(l.msg))).toBe(true);
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(1);
    expect(JSON.stringify(logs)).not.toContain("ghs_test_token_not_a_secret");
    gh.assertClean();
  });
});

describe("a token revoked while requests run at once", () => {
  afterEach(() => vi.useRealTimers());

  it("GraphQL refused, the descriptors read through REST at once: every request refused gets the one fresh token", async () => {
    const { gh, probot, logs } = setup([...REVIEW_ROUTES, "listCheckRuns", "contents"]);
    gh.graphqlUnavailable = true;
    addedFile(gh, "p1/plugin.json", oneFinding());
    addedFile(gh, "p2/plugin.json", oneFinding().replace("demo_plugin", "demo_second"));
    // The installation's token, cached by the App, is over 5 s old when the review starts: the auth library
    // no longer resends it after a 401 (it does so only for a just-issued token), so what the App does is all.
    await (await probot.auth(77)).auth({ type: "installation" });
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + 10_000);
    // The two descriptors are read at once (REST reads several files together): the token is revoked as the
    // first arrives, so both answer 401.
    gh.revokeOn("GET", /\/contents\/p\d/);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.refused.filter((r) => /\/contents\/p\d/.test(r))).toHaveLength(2);
    expect(gh.tokens).toHaveLength(2);
    expect(logs.filter((l) => /401: retrying with a fresh installation token/.test(l.msg))).toHaveLength(1);
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({
        status: "completed",
        conclusion: "failure",
        output: expect.objectContaining({ title: "2 errors, 0 warnings, 0 notices in 2 descriptors" }),
      }),
    ]);
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(2);
    expect(gh.reviews).toHaveLength(1);
    gh.assertClean();
  });
});

describe("a retry of a push the pull request has moved on from", () => {
  /** The pull request adds this descriptor at `sha`, every line in the diff, and its head is now `sha`. */
  function pushed(gh: FakeGitHub, sha: string, content: string): void {
    const lines = content.replace(/\n$/, "").split("\n");
    const patch = `@@ -0,0 +1,${lines.length} @@\n` + lines.map((l) => `+${l}`).join("\n");
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch }];
    gh.file(R, sha, "p/plugin.json", content);
    gh.push(7, sha);
  }

  it("completes that commit's check run and publishes nothing: the later push's thread and its 'changes requested' stand", async () => {
    // On this clock the failure report gets 1 s.
    const { gh, probot, logs, deliveries } = setup([...REVIEW_ROUTES, "listCheckRuns"], 0.1);
    gh.file(R, "HEAD", ".github/plugin-review.yml", "review: request-changes\n");
    const [A, B] = ["d".repeat(40), "e".repeat(40)];
    // Push A (no finding): GitHub fails every check run write until its review's deadline.
    pushed(gh, A, text(validHost()));
    gh.failFor("POST", /\/check-runs$/, 3_600_000);
    await expect(
      deliverWith(
        probot,
        deliveries,
        { attempt: 0, endsBy: Date.now() + 1500 },
        "pull_request",
        pullRequestPayload("synchronize", { headSha: A }),
      ),
    ).rejects.toThrow(/did not answer in time/);
    expect(gh.runsFor(A)).toEqual([]);
    gh.recover();
    // Push B adds finding X: commented, changes requested.
    pushed(gh, B, oneFinding());
    await deliver(probot, "pull_request", pullRequestPayload("synchronize", { headSha: B }));
    expect(gh.reviews.map((r) => [r.commit_id, r.event])).toEqual([[B, "REQUEST_CHANGES"]]);
    expect(gh.comments).toHaveLength(1);
    // A's retry (the scheduler's later one, or the queue's): A's run, and nothing said about B's finding.
    await deliverWith(
      probot,
      deliveries,
      { attempt: 1 },
      "pull_request",
      pullRequestPayload("synchronize", { headSha: A }),
    );
    expect(gh.runsFor(A)).toEqual([expect.objectContaining({ status: "completed", conclusion: "success" })]);
    expect(gh.reviews.map((r) => [r.commit_id, r.event, r.dismissed])).toEqual([
      [B, "REQUEST_CHANGES", undefined],
    ]);
    expect(gh.comments).toHaveLength(1); // no "Fixed in ddddddd" reply
    expect(gh.resolved.size).toBe(0);
    expect(
      logs.some(
        (l) => l.msg === "not publishing the review of ddddddd: the pull request moved on to eeeeeee",
      ),
    ).toBe(true);
    gh.assertClean();
  });

  it("an opened delivery reviewed after the push that followed it: its run completed, nothing posted over the newer head's review", async () => {
    // Deliveries of different head commits are not ordered (the server's slots, the queue's message groups):
    // the review of the push that followed the opening may end first. The opening's review then finds
    // the pull request moved on: a review posted for it would request changes the newer head no longer
    // has, and stay there, blocking the pull request.
    const { gh, probot, logs } = setup(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    gh.file(R, "HEAD", ".github/plugin-review.yml", "review: request-changes\n");
    const [A, B] = ["d".repeat(40), "e".repeat(40)];
    pushed(gh, A, oneFinding());
    pushed(gh, B, text(validHost()));
    await deliver(probot, "pull_request", pullRequestPayload("synchronize", { headSha: B }));
    expect(gh.runsFor(B)).toEqual([expect.objectContaining({ status: "completed", conclusion: "success" })]);
    await deliver(probot, "pull_request", pullRequestPayload("opened", { headSha: A }));
    expect(gh.runsFor(A)).toEqual([expect.objectContaining({ status: "completed", conclusion: "failure" })]);
    expect(gh.reviews).toEqual([]);
    expect(gh.comments).toEqual([]);
    expect(
      logs.some(
        (l) => l.msg === "not publishing the review of ddddddd: the pull request moved on to eeeeeee",
      ),
    ).toBe(true);
    gh.assertClean();
  });

  it("a closed pull request: the run completed, nothing published", async () => {
    const { gh, probot, logs } = setup(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    addedFile(gh, "p/plugin.json", oneFinding());
    gh.pulls.set(7, { ...pullRequestPayload("closed").pull_request, state: "closed" });
    await deliver(probot, "pull_request", pullRequestPayload("synchronize"));
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    expect(gh.reviews).toEqual([]);
    expect(
      logs.some((l) => /not publishing the review of c{7}: the pull request is closed/.test(l.msg)),
    ).toBe(true);
    gh.assertClean();
  });
});

describe("oversized input", () => {
  it("5,000 findings: review body and comments under 65,536 characters, 1,000 annotations errors first, the table kept", async () => {
    const { gh, probot } = setup([...REVIEW_ROUTES, "updateCheckRun"]);
    const doc = validHost();
    doc.metrics = Array.from({ length: 5000 }, (_, i) => ({
      timeseries: { key: `m${i}`, unit: "Count", displayname: `m${i}` },
    }));
    delete doc.ui;
    addedFile(gh, "big/plugin.json", text(doc));
    addedFile(gh, "small/plugin.json", oneFinding().replace("demo_plugin", "demo_small"));
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    const findings = 5000 + 1;
    expect(run!.annotations).toHaveLength(1000);
    const rank = { failure: 0, warning: 1, notice: 2 } as Record<string, number>;
    const levels = run!.annotations.map((a) => rank[a.annotation_level as string]!);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    const summary = run!.output!.summary;
    // GitHub counts the summary's UTF-8 bytes (each severity icon is 4 of them).
    expect(Buffer.byteLength(summary, "utf8")).toBeLessThanOrEqual(65_535);
    expect(run!.conclusion).toBe("failure");
    expect(summary).toMatch(/\| `big\/plugin\.json` \| \d+ \| \d+ \| \d+ \|/);
    expect(summary).toMatch(/\| `small\/plugin\.json` \| 1 \| 0 \| 0 \|/);
    expect(summary).toContain(`${findings - 1000} findings are not annotated`);
    const shown = summary.split("\n").filter((l) => /^\| (🔴|🟡|🔵) \|/.test(l)).length;
    const left = Number(/…(\d+) more findings not shown here/.exec(summary)?.[1]);
    expect(shown + left).toBe(findings);
    expect(gh.reviews).toHaveLength(1);
    expect(gh.reviews[0]!.body.length).toBeLessThan(65_536);
    // One problem repeated 5,000 times is one entry listing its lines (interfaces.md, repeated findings).
    expect(`${gh.reviews[0]!.body}${gh.comments.map((c) => c.body).join("")}`).toMatch(
      /5000 times in `big\/plugin\.json`, on lines (\d+, ){19}\d+ and 4980 more/,
    );
    for (const c of gh.comments) expect(c.body.length).toBeLessThan(65_536);
    // One write with the verdict, 19 more batches of 50 annotations, one review.
    expect(gh.count("POST", /\/check-runs$/)).toBe(1);
    expect(gh.count("PATCH", /\/check-runs\/\d+$/)).toBe(19);
    gh.assertClean();
  });

  it("reads a 2 MB configuration through the blob API and applies it", async () => {
    const { gh, probot } = setup([...REVIEW_ROUTES, "blob"]);
    addedFile(gh, "p/plugin.json", oneFinding());
    const config = "fail_on: never\n" + "# a long comment to pad the file\n".repeat(64_000);
    expect(config.length).toBeGreaterThan(2 * 1024 * 1024);
    gh.file(R, "HEAD", ".github/plugin-review.yml", config);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.count("GET", /\/git\/blobs\//)).toBe(1);
    // The error passes the check (neutral: findings, none failing) only because the configuration says `fail_on: never`.
    expect(gh.runsFor(HEAD_SHA)[0]).toMatchObject({ conclusion: "neutral" });
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations).toHaveLength(1);
    gh.assertClean();
  });

  it("reads a YAML bomb as an invalid configuration, not as a failure to retry", async () => {
    const { gh, probot } = setup(["token", "graphql", "createCheckRun"]);
    const row = (name: string, ref: string) => `${name}: &${name} [${Array(9).fill(ref).join(", ")}]`;
    const bomb = ['a: &a ["lol"]', row("b", "*a"), row("c", "*b"), row("d", "*c"), row("e", "*d")]
      .concat([row("f", "*e"), row("g", "*f"), row("h", "*g"), "rules: *h"])
      .join("\n");
    gh.file(R, "HEAD", ".github/plugin-review.yml", bomb);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({
      conclusion: "failure",
      output: { title: "Invalid plugin-review configuration" },
    });
    expect(run!.output!.summary).toMatch(/not readable as YAML: .*alias/i);
    expect(run!.output!.summary).not.toMatch(/re-run/i);
    gh.assertClean();
  });
});

describe("configuration regular expressions", () => {
  const catastrophic = ["^(a+)+$", "^(a|a)*$", "^(a|aa)+$", "^(a*)*b$", "^([a-z0-9]+\\s?)*$", "^(.*a){20}$"];

  it.each(catastrophic)("runs policy.name_pattern %s in linear time", async (pattern) => {
    const { gh, probot } = setup(REVIEW_ROUTES);
    // A name that makes a backtracking engine try every way to split the run of a's (2^40 of them).
    const name = "a".repeat(40) + "!";
    addedFile(gh, "p/plugin.json", text({ ...validHost(), name }));
    gh.file(R, "HEAD", ".github/plugin-review.yml", `policy:\n  name_pattern: '${pattern}'\n`);
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    expect(gh.runsFor(HEAD_SHA)[0]!.annotations.map((a) => a.title)).toContain("policy-name");
    gh.assertClean();
  });

  it("refuses a pattern the linear-time engine cannot run, as a configuration error", async () => {
    const { gh, probot } = setup(["token", "graphql", "createCheckRun"]);
    gh.file(R, "HEAD", ".github/plugin-review.yml", "policy:\n  name_pattern: '^(?=custom)(\\w)\\1'\n");
    await deliver(probot, "pull_request", pullRequestPayload("opened"));
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ output: { title: "Invalid plugin-review configuration" } });
    expect(run!.output!.summary).toMatch(
      /policy\.name_pattern: not a valid regular expression for the linear-time engine/,
    );
    gh.assertClean();
  });
});
