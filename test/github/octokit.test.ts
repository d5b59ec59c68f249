import nock from "nock";
import { pino } from "pino";
import { Probot } from "probot";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isGraphqlQuery, PluginReviewOctokit } from "../../src/github/octokit.js";
import { APP_ID } from "./fake-github.js";
import { TEST_PRIVATE_KEY } from "./harness.js";

describe("isGraphqlQuery", () => {
  const post = (query: string, url = "/graphql") => ({ method: "POST", url, query });
  it.each([
    ["query Threads($n: Int!) { repository { id } }", true],
    ["  { viewer { login } }", true],
    ["# mutation in a comment only\nquery { viewer { login } }", true],
    ['mutation Resolve { resolveReviewThread(input: {threadId: "x"}) { thread { id } } }', false],
    ["query A { viewer { login } }\nmutation B { addComment(input: {}) { clientMutationId } }", false],
    ["subscription { x }", false],
  ])("%s → %s", (query, expected) => {
    expect(isGraphqlQuery(post(query))).toBe(expected);
  });
  it("is about GraphQL POSTs only", () => {
    expect(isGraphqlQuery({ method: "GET", url: "/graphql", query: "query { a }" })).toBe(false);
    expect(isGraphqlQuery({ method: "POST", url: "/repos/o/r/check-runs", query: "query { a }" })).toBe(
      false,
    );
    expect(isGraphqlQuery(post("query { a }", "https://ghe.example/api/graphql"))).toBe(true);
  });
});

// Probot's throttling plugin, as the App runs it: 1 s between writes per installation.
describe("write spacing with the production Octokit", () => {
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  async function arrivalOrder(graphqlDocument: string): Promise<string[]> {
    const order: string[] = [];
    const scope = nock("https://api.github.com")
      .post("/repos/o/r/check-runs")
      .times(2)
      .reply(201, (_uri, body) => (order.push(`write ${(body as { name: string }).name}`), { id: 1 }))
      .post("/graphql")
      .reply(200, () => (order.push("graphql"), { data: { viewer: { login: "x" } } }));
    const octokit = new PluginReviewOctokit({
      auth: "not-a-real-token",
      log: { debug() {}, info() {}, warn() {}, error() {} },
    });
    const write = (name: string) =>
      octokit.request("POST /repos/{owner}/{repo}/check-runs", {
        owner: "o",
        repo: "r",
        name,
        head_sha: "a",
      });
    const first = write("1");
    await new Promise((r) => setTimeout(r, 50)); // the first write has taken the installation's write slot
    await Promise.all([write("2"), octokit.graphql(graphqlDocument), first]);
    expect(scope.pendingMocks()).toEqual([]);
    return order;
  }

  it("lets a query through while the next write waits its turn", async () => {
    expect(await arrivalOrder("query Viewer { viewer { login } }")).toEqual([
      "write 1",
      "graphql",
      "write 2",
    ]);
  });

  it("still spaces a mutation like any write", async () => {
    expect(
      await arrivalOrder('mutation { resolveReviewThread(input: { threadId: "T" }) { thread { id } } }'),
    ).toEqual(["write 1", "write 2", "graphql"]);
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
    const first = write(a, "one", "1");
    await new Promise((r) => setTimeout(r, 50)); // installation 1's first write has taken its write slot
    await Promise.all([first, write(a, "one", "2"), write(b, "two", "1")]);
    expect(api.pendingMocks()).toEqual([]);
    // One queue for both (Probot's event Octokits as they come) would put "two 1" last, a second later.
    expect(order).toEqual(["one 1", "two 1", "one 2"]);
  });
});
