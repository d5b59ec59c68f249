import nock from "nock";
import { pino } from "pino";
import { Probot } from "probot";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PluginReviewOctokit } from "../../../../src/github/api/octokit/app-octokit.js";
import { REAL_TIME } from "../../../../src/github/api/clock.js";
import { isWriteRequest } from "../../../../src/github/api/octokit/octokit.js";
import { reviewScope } from "../../../../src/github/api/request-scope.js";
import { APP_ID } from "../../fake-github.js";
import { TEST_PRIVATE_KEY } from "../../harness.js";

const GITHUB_COM = "https://api.github.com";

describe("isWriteRequest: the one read/write classification", () => {
  const post = (query: string, url = "/graphql") => ({ method: "POST", url, query });
  it.each([
    ["query Threads($n: Int!) { repository { id } }", false],
    ["  { viewer { login } }", false],
    ["# mutation in a comment only\nquery { viewer { login } }", false],
    ['mutation Resolve { resolveReviewThread(input: {threadId: "x"}) { thread { id } } }', true],
    ["query A { viewer { login } }\nmutation B { addComment(input: {}) { clientMutationId } }", true],
    ["subscription { x }", true],
  ])("GraphQL %s → write: %s", (query, expected) => {
    expect(isWriteRequest(post(query))).toBe(expected);
    expect(isWriteRequest(post(query, "https://ghe.example/api/graphql"))).toBe(expected);
  });
  it.each([
    ["GET", "/repos/o/r/pulls/1/files", false],
    ["HEAD", "/repos/o/r", false],
    ["get", "/repos/o/r", false],
    ["POST", "/repos/o/r/check-runs", true],
    ["PATCH", "/repos/o/r/check-runs/1", true],
    ["PUT", "/repos/o/r/pulls/1/reviews/2/dismissals", true],
    ["DELETE", "/repos/o/r/issues/comments/1", true],
  ])("REST %s %s → write: %s", (method, url, expected) => {
    expect(isWriteRequest({ method, url })).toBe(expected);
  });
  it("counts a POST to /graphql without a query as a write", () => {
    expect(isWriteRequest({ method: "POST", url: "/graphql" })).toBe(true);
  });
});

describe("write queues of webhook events' Octokits (context.octokit)", () => {
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  /** The Octokit Probot's webhook handling gives an event of this installation (its `webhookTransform`). */
  async function eventOctokit(probot: Probot, installation: number) {
    const event = {
      id: "1",
      name: "check_suite",
      payload: { action: "requested", installation: { id: installation } },
    };
    return (await probot.auth()).auth({ type: "event-octokit", event } as never) as Promise<
      InstanceType<typeof PluginReviewOctokit>
    >;
  }

  it("spaces one installation's writes without holding up another's", async () => {
    const order: string[] = [];
    const api = nock("https://api.github.com")
      .post(/^\/app\/installations\/\d+\/access_tokens$/)
      .times(2)
      .reply(201, {
        token: "ghs_not_a_real_token",
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
      })
      .post(/^\/repos\/\w+\/r\/check-runs$/)
      .times(3)
      .reply(
        201,
        (uri, body) => (order.push(`${uri.split("/")[2]} ${(body as { name: string }).name}`), { id: 1 }),
      );
    const probot = new Probot({
      appId: APP_ID,
      privateKey: TEST_PRIVATE_KEY,
      Octokit: PluginReviewOctokit,
      log: pino({ level: "silent" }),
    });
    const [a, b] = await Promise.all([eventOctokit(probot, 1), eventOctokit(probot, 2)]);
    const write = (o: typeof a, owner: string, name: string) =>
      o.request("POST /repos/{owner}/{repo}/check-runs", { owner, repo: "r", name, head_sha: "a" });
    // Installation 1's first write done (not a fixed wait: on a loaded machine its token and write took longer
    // than 50 ms, and "two 1" went first): its next write is spaced from it, another installation's is not.
    await write(a, "one", "1");
    await Promise.all([write(a, "one", "2"), write(b, "two", "1")]);
    expect(api.pendingMocks()).toEqual([]);
    // One queue for both (Probot's event Octokits as they come) would put "two 1" last, a second later.
    expect(order).toEqual(["one 1", "two 1", "one 2"]);
  });
});

describe("retries: reads again, writes never blindly", () => {
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });
  // The App's Octokit with the retry plugin's waits shortened and no throttling between requests.
  const retryingOctokit = () =>
    new PluginReviewOctokit({
      auth: "not-a-real-token",
      log: { debug() {}, info() {}, warn() {}, error() {} },
      retry: { retryAfterBaseValue: 1 },
      throttle: { enabled: false },
    });

  it("retries a read that answers 500, and sends a write that answers 500 once (GitHub may have made it)", async () => {
    let posts = 0;
    const api = nock("https://api.github.com")
      .get("/repos/o/r/pulls/1")
      .reply(500, { message: "Server Error" })
      .get("/repos/o/r/pulls/1")
      .reply(200, { number: 1 });
    nock("https://api.github.com")
      .post("/repos/o/r/check-runs")
      .reply(() => (posts++, [500, { message: "Server Error" }]))
      .persist();
    const octokit = retryingOctokit();
    expect((await octokit.rest.pulls.get({ owner: "o", repo: "r", pull_number: 1 })).data).toEqual({
      number: 1,
    });
    await expect(
      octokit.rest.checks.create({ owner: "o", repo: "r", name: "plugin-review", head_sha: "a" }),
    ).rejects.toMatchObject({ status: 500 });
    expect(posts).toBe(1);
    expect(api.pendingMocks()).toEqual([]);
  });

  it("sends a GraphQL query that answers 502 once: REST replaces GraphQL rather than waiting for it", async () => {
    let queries = 0;
    nock("https://api.github.com")
      .post("/graphql")
      .reply(() => (queries++, [502, { message: "Bad Gateway" }]))
      .persist();
    const octokit = retryingOctokit();
    await expect(octokit.graphql("query { viewer { login } }")).rejects.toMatchObject({ status: 502 });
    expect(queries).toBe(1);
  });
});

describe("a fresh installation token after a 401", () => {
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  /** An installation's Octokit, as Probot gives one to a webhook event; `tokens` are issued in turn. */
  async function installationOctokit(tokens: string[], warnings: string[] = [], baseUrl = GITHUB_COM) {
    const issued: string[] = [];
    const { origin, pathname } = new URL(baseUrl);
    const prefix = pathname.replace(/\/$/, "");
    nock(origin)
      .post(`${prefix}/app/installations/5/access_tokens`)
      .times(tokens.length)
      .reply(201, () => {
        issued.push(tokens[issued.length]!);
        return { token: issued.at(-1), expires_at: new Date(Date.now() + 3600_000).toISOString() };
      });
    const probot = new Probot({
      appId: APP_ID,
      privateKey: TEST_PRIVATE_KEY,
      Octokit: PluginReviewOctokit,
      ...(baseUrl === GITHUB_COM ? {} : { baseUrl }),
      log: pino({ level: "warn" }, { write: (s: string) => void warnings.push(JSON.parse(s).msg) }),
    });
    return { octokit: await probot.auth(5), issued, origin, prefix };
  }

  // GitHub Enterprise Server (GHE_HOST): the fresh token comes from the App's own host, never api.github.com.
  it.each([GITHUB_COM, "https://ghe.example.com/api/v3"])(
    "asks %s for a fresh token at the first 401, without waiting out the auth library's retries of the same token",
    async (baseUrl) => {
      const warnings: string[] = [];
      const { octokit, issued, origin, prefix } = await installationOctokit(
        ["ghs_first_not_real", "ghs_second_not_real"],
        warnings,
        baseUrl,
      );
      const seen: string[] = [];
      nock(origin)
        .get(`${prefix}/repos/o/r`)
        .times(2)
        .reply(function () {
          const auth = String(this.req.headers.authorization);
          seen.push(auth);
          return auth === "token ghs_first_not_real"
            ? [401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" }]
            : [200, { name: "r" }];
        });
      expect((await octokit.request("GET /repos/{owner}/{repo}", { owner: "o", repo: "r" })).data).toEqual({
        name: "r",
      });
      expect(issued).toEqual(["ghs_first_not_real", "ghs_second_not_real"]);
      // Two requests: the token was issued a moment ago, and the auth library alone would have resent it
      // (1 s, 2 s, 3 s later) before giving up; the fresh token answered the first 401.
      expect(seen).toEqual(["token ghs_first_not_real", "token ghs_second_not_real"]);
      expect(warnings.filter((w) => /fresh installation token/.test(w))).toHaveLength(1);
    },
  );

  it("once per review: a second 401 within the review stands, and requests meeting the first one share the fresh token", async () => {
    const { octokit, issued } = await installationOctokit([
      "ghs_a_not_real",
      "ghs_b_not_real",
      "ghs_c_not_real",
    ]);
    const seen: string[] = [];
    nock("https://api.github.com")
      .get(/^\/repos\/o\/r\d$/)
      .reply(function () {
        seen.push(String(this.req.headers.authorization));
        return [401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" }];
      })
      .persist();
    const read = (repo: string) =>
      octokit.request("GET /repos/{owner}/{repo}", { owner: "o", repo, request: { retries: 0 } });
    const results = await reviewScope(REAL_TIME)(() =>
      Promise.allSettled([read("r1"), read("r2"), read("r3")]),
    );
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(results.map((r) => (r as PromiseRejectedResult).reason.status)).toEqual([401, 401, 401]);
    // The first token, and one fresh one for the three requests of the review; once refused, the first
    // token is not sent again (the auth library's retries of it get the fresh one).
    expect(issued).toEqual(["ghs_a_not_real", "ghs_b_not_real"]);
    expect(seen.filter((t) => t === "token ghs_a_not_real").length).toBeLessThanOrEqual(3);
    expect(seen.filter((t) => t === "token ghs_b_not_real").length).toBeGreaterThanOrEqual(3);
    expect(new Set(seen)).toEqual(new Set(["token ghs_a_not_real", "token ghs_b_not_real"]));
  }, 15_000);
});
