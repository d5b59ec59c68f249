/**
 * The patch of @octokit/plugin-throttling's internals (src/github/api/octokit/throttle-reads.ts) against the plugin as
 * installed: these tests fail when the plugin stops calling its `retryLimiter` the way the patch relies on,
 * or when the patch stops letting GraphQL queries past the write spacing.
 */
import nock from "nock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PluginReviewOctokit } from "../../../../src/github/api/octokit/app-octokit.js";
import { isWriteRequest } from "../../../../src/github/api/octokit/octokit.js";
import { readsNotSpacedAsWrites } from "../../../../src/github/api/octokit/throttle-reads.js";

beforeEach(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** Two check run writes and one GraphQL document: the order GitHub receives them in. */
let queue = 0;
async function arrivalOrder(graphqlDocument: string, retryLimiter?: unknown): Promise<string[]> {
  const order: string[] = [];
  const scope = nock("https://api.github.com")
    .post("/repos/o/r/check-runs")
    .times(2)
    .reply(201, (_uri, body) => (order.push(`write ${(body as { name: string }).name}`), { id: 1 }))
    .post("/graphql")
    .reply(200, () => (order.push("graphql"), { data: { viewer: { login: "x" } } }));
  // A write queue of its own (the plugin's queues are per process and per id), so tests do not wait on each other.
  const throttle = { id: `test-${++queue}`, ...(retryLimiter ? { retryLimiter } : {}) };
  const octokit = new PluginReviewOctokit({ auth: "not-a-real-token", log: quiet, throttle } as never);
  const write = (name: string) =>
    octokit.request("POST /repos/{owner}/{repo}/check-runs", { owner: "o", repo: "r", name, head_sha: "a" });
  const first = write("1");
  await new Promise((r) => setTimeout(r, 50)); // the first write has taken the installation's write slot
  await Promise.all([write("2"), octokit.graphql(graphqlDocument), first]);
  expect(scope.pendingMocks()).toEqual([]);
  return order;
}

describe("GraphQL queries are not spaced as writes (the App's Octokit, throttling on)", () => {
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

  it("the plugin calls its retry limiter as the patch expects: the job, its state with the write group, the request", async () => {
    const { retryLimiter } = readsNotSpacedAsWrites(isWriteRequest);
    const patched = retryLimiter.schedule.bind(retryLimiter) as (...args: unknown[]) => Promise<unknown>;
    const calls: unknown[][] = [];
    retryLimiter.schedule = ((...args: unknown[]) => (calls.push(args), patched(...args))) as never;
    expect(await arrivalOrder("query Viewer { viewer { login } }", retryLimiter)).toEqual([
      "write 1",
      "graphql",
      "write 2",
    ]);
    expect(calls).toHaveLength(3);
    for (const [job, state, request, options] of calls) {
      expect(typeof job).toBe("function");
      expect(typeof (state as { write?: { key?: unknown } }).write?.key).toBe("function");
      expect(typeof request).toBe("function");
      expect(options).toMatchObject({ method: "POST", url: expect.stringMatching(/check-runs|graphql/) });
    }
  });
});
