/**
 * The Lambda worker dying mid-review (out of memory, the runtime killed, the invocation's timeout: a process
 * that ends without a response), as AWS runs it: the bundled worker in a process of its own, killed with
 * SIGKILL, behind the delivery queue and Lambda's event source mapping (fake-sqs.ts, over real HTTP, as
 * hostile as SQS) and against the fake GitHub over real HTTP as a GitHub Enterprise Server. A required check
 * must not wait for the queue's 30-minute visibility timeout, nor forever.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeGitHub } from "../github/fake-github.js";
import { cleanup, disableNetwork } from "../github/github-mock.js";
import { HEAD_SHA, pullRequestPayload, TEST_PRIVATE_KEY } from "../github/harness.js";
import { expectExactlyOnce, openPullRequest, SCENARIO_ROUTES, within } from "../github/scenarios.js";
import { APP_ID } from "../github/fake-github.js";
import { bridge } from "../serve-process.js";
import { ensureBundled } from "./bundle.js";
import { FakeQueue, INVOCATION_MS, invokeWorker, MAX_RECEIVE_COUNT, type Invocation } from "./fake-sqs.js";

let queue: FakeQueue;
let github: Awaited<ReturnType<typeof bridge>>;
let env: Record<string, string>;

beforeEach(async () => {
  ensureBundled();
  disableNetwork();
  github = await bridge();
  queue = new FakeQueue();
  await queue.start();
  env = {
    APP_ID: String(APP_ID),
    PRIVATE_KEY: TEST_PRIVATE_KEY,
    GHE_HOST: github.host,
    GHE_PROTOCOL: "http",
  };
});
afterEach(async () => {
  await queue.close();
  await github.close();
  cleanup();
});

/** The pull request's `opened` delivery, queued as the receiver queues it. */
function queueOpened(): string {
  const payload = pullRequestPayload("opened");
  queue.send(JSON.stringify({ id: "d-crash", name: "pull_request", payload }), "acme/plugins#7");
  return queue.messages.at(-1)!.id;
}

/** Receives the next message and runs the worker on it; `crashWhen`: kills it once that holds. */
async function attempt(crashWhen?: () => boolean): Promise<{ invocation: Invocation; killedAt?: number }> {
  const event = queue.receive();
  if (!event) throw new Error("no message visible");
  const worker = invokeWorker(queue, event, INVOCATION_MS, env);
  let killedAt: number | undefined;
  if (crashWhen) {
    await within(60_000, crashWhen);
    killedAt = queue.now();
    worker.kill();
  }
  const invocation = await worker.done;
  queue.settle(event, invocation);
  return { invocation, ...(killedAt !== undefined ? { killedAt } : {}) };
}

describe("the Lambda worker killed mid-review", () => {
  it("its message comes back once its invocation could no longer run it, not after the queue's 30 minutes; the retry completes the commit's one run", async () => {
    const gh = new FakeGitHub(SCENARIO_ROUTES, `${github.url}/api/v3`);
    openPullRequest(gh);
    // GitHub takes the review's first write and never answers it: the review is in flight when it dies.
    gh.hang("POST", /\/check-runs$/, 1);
    const id = queueOpened();
    const { invocation, killedAt } = await attempt(() => gh.hung.length > 0);
    expect(invocation.response).toBeUndefined();
    const back = queue.message(id)!.visibleAt - killedAt!;
    // Hidden while the invocation could still have been running it (never handed to a second worker) and
    // 30 s more, then handed out again: about 5 minutes, where the queue's own timeout is 30.
    expect(back).toBeGreaterThan(INVOCATION_MS - 60_000);
    expect(back).toBeLessThanOrEqual(INVOCATION_MS + 31_000);
    expect(queue.receive()).toBeUndefined();
    queue.advanceTo(queue.message(id)!.visibleAt);
    const retry = await attempt();
    expect(retry.invocation.response).toEqual({ batchItemFailures: [] });
    expect(queue.messages).toEqual([]);
    expectExactlyOnce(gh);
    expect(queue.refused).toEqual([]);
    gh.assertClean();
  }, 120_000);

  it("a run it left in progress is completed by the retry: that run, not a second one", async () => {
    const gh = new FakeGitHub([...SCENARIO_ROUTES, "listCheckRuns"], `${github.url}/api/v3`);
    openPullRequest(gh);
    // The completed run's creation fails: the worker creates the run in progress, then its completion hangs.
    gh.fail("POST", /\/check-runs$/, 500, 1);
    gh.hang("PATCH", /\/check-runs\/\d+$/, 1);
    const id = queueOpened();
    await attempt(() => gh.hung.length > 0);
    expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ status: "in_progress" })]);
    queue.advanceTo(queue.message(id)!.visibleAt);
    expect((await attempt()).invocation.response).toEqual({ batchItemFailures: [] });
    expectExactlyOnce(gh);
    expect(queue.refused).toEqual([]);
    gh.assertClean();
  }, 120_000);

  it("a delivery that kills the worker at every try: its check run fails before the queue gives it up, never left waiting", async () => {
    const gh = new FakeGitHub([...SCENARIO_ROUTES, "listCheckRuns"], `${github.url}/api/v3`);
    openPullRequest(gh);
    // Every try dies once it asks for the pull request's files.
    gh.hang("GET", /\/pulls\/7\/files/);
    const id = queueOpened();
    for (let n = 1; n <= MAX_RECEIVE_COUNT; n++) {
      const hung = gh.hung.length;
      await attempt(() => gh.hung.length > hung);
      queue.advanceTo(queue.message(id)!.visibleAt);
    }
    expect(queue.receive()).toBeUndefined();
    expect(queue.deadLetters.map((m) => m.id)).toEqual([id]);
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({
        status: "completed",
        conclusion: "failure",
        output: expect.objectContaining({ title: "plugin-review could not review this commit" }),
      }),
    ]);
    expect(queue.refused).toEqual([]);
  }, 180_000);

  it("a last try that lives writes its verdict over the failure it held: one run, every annotation once", async () => {
    const gh = new FakeGitHub([...SCENARIO_ROUTES, "listCheckRuns"], `${github.url}/api/v3`);
    openPullRequest(gh);
    gh.hang("GET", /\/pulls\/7\/files/, MAX_RECEIVE_COUNT - 1);
    const id = queueOpened();
    for (let n = 1; n < MAX_RECEIVE_COUNT; n++) {
      const hung = gh.hung.length;
      await attempt(() => gh.hung.length > hung);
      queue.advanceTo(queue.message(id)!.visibleAt);
    }
    expect(gh.runsFor(HEAD_SHA)).toEqual([]);
    expect((await attempt()).invocation.response).toEqual({ batchItemFailures: [] });
    expect(queue.messages).toEqual([]);
    expectExactlyOnce(gh);
    // The held failure came first.
    const outputs = gh.requests
      .filter((r) => /\/check-runs/.test(r.path) && r.method !== "GET")
      .map((r) => (r.body as { output?: { title?: string } }).output?.title);
    expect(outputs[0]).toBe("plugin-review could not review this commit");
    expect(queue.refused).toEqual([]);
    gh.assertClean();
  }, 180_000);
});
