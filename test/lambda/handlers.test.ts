/**
 * The bundled Lambda handlers (dist-lambda/*, as deployed), invoked in-process with real-shaped API
 * Gateway v2 and SQS events. AWS is mocked with aws-sdk-client-mock on the clients inside the bundles;
 * GitHub is the stateful fake on nock, every request validated against GitHub's OpenAPI description.
 */
import { mockClient, type AwsStub } from "aws-sdk-client-mock";
import { generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { ensureBundled } from "./bundle.js";
import { MIGRATION, ROOT, text, validHost } from "../helpers.js";
import {
  APP_ID,
  FakeGitHub,
  LATER_REVIEW_ROUTES,
  MERGE_GROUP_ROUTES,
  REVIEW_ROUTES,
  completesRun,
  type Route,
} from "../github/fake-github.js";
import { cleanup, disableNetwork } from "../github/github-mock.js";
import {
  BASE_SHA,
  example,
  checkSuitePayload,
  editedPayload,
  HEAD_SHA,
  mergeGroupPayload,
  pullRequestPayload,
  type Payload,
} from "../github/harness.js";
import {
  completed,
  expectExactlyOnce,
  openPullRequest,
  SCALE,
  SCENARIO_ROUTES,
  SCENARIOS,
  timelineOnFailure,
  within,
  WITHIN_MS,
} from "../github/scenarios.js";
import { signedHttpEvent, sqsEvent, WEBHOOK_SECRET } from "./events.js";

type Bundle = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let receiver: Bundle;
let worker: Bundle;
/** The worker in a second container (a module instance of its own): SQS runs two groups' messages at once. */
let worker2: Bundle;
const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs1", format: "pem" })
  .toString();

beforeAll(async () => {
  ensureBundled();
  process.env.QUEUE_URL =
    "https://sqs.us-east-1.amazonaws.com/123456789012/plugin-review-prod-deliveries.fifo";
  process.env.WEBHOOK_SECRET_PARAMETER = "/plugin-review/prod/webhook-secret";
  process.env.APP_ID_PARAMETER = "/plugin-review/prod/app-id";
  process.env.PRIVATE_KEY_PARAMETER = "/plugin-review/prod/private-key";
  process.env.AWS_REGION = "us-east-1";
  process.env.LOG_LEVEL = "silent";
  // The worker's EMF lines (test/lambda/recovery.test.ts reads them) would only clutter this file's output.
  process.env.POWERTOOLS_METRICS_DISABLED = "true";
  receiver = (await import(pathToFileURL(join(ROOT, "dist-lambda/receiver/index.mjs")).href)) as Bundle;
  worker = (await import(pathToFileURL(join(ROOT, "dist-lambda/worker/index.mjs")).href)) as Bundle;
  worker2 = (await import(
    pathToFileURL(join(ROOT, "dist-lambda/worker/index.mjs")).href + "?container=2"
  )) as Bundle;
}, 60_000);
afterAll(() => {
  delete process.env.POWERTOOLS_METRICS_DISABLED;
});

/**
 * The bundles carry their own (minified) copy of the SDK, so commands are told apart by the member that
 * identifies them rather than by class (aws-sdk-client-mock's `.on(Command)` compares classes).
 */
const COMMAND_KEY: Record<string, string> = {
  SendMessageCommand: "MessageBody",
  ChangeMessageVisibilityCommand: "VisibilityTimeout",
  GetParametersCommand: "Names",
};
/* eslint-disable @typescript-eslint/no-explicit-any -- SDK command inputs differ per command */
type Stub = AwsStub<any, any, any>;
function commandCalls(stub: Stub, name: string): { input: Record<string, any> }[] {
  /* eslint-enable @typescript-eslint/no-explicit-any */
  return stub
    .calls()
    .map((c) => c.args[0] as { input: Record<string, unknown> })
    .filter((cmd) => COMMAND_KEY[name]! in cmd.input)
    .map((cmd) => ({ input: cmd.input }));
}

function awsMocks() {
  const sqsR = mockClient(receiver.sqs);
  const ssmR = mockClient(receiver.ssm);
  const sqsW = mockClient(worker.sqs);
  const ssmW = mockClient(worker.ssm);
  const sqsW2 = mockClient(worker2.sqs);
  const ssmW2 = mockClient(worker2.ssm);
  const parameters = [
    { Name: "/plugin-review/prod/webhook-secret", Value: WEBHOOK_SECRET },
    { Name: "/plugin-review/prod/app-id", Value: String(APP_ID) },
    { Name: "/plugin-review/prod/private-key", Value: privateKey },
  ];
  for (const ssm of [ssmR, ssmW, ssmW2]) {
    ssm.onAnyCommand().callsFake((input: { Names: string[] }) => ({
      Parameters: parameters.filter((p) => input.Names.includes(p.Name)),
    }));
  }
  // As SQS: a FIFO message's group and deduplication ids are 1 to 128 of these characters, else refused.
  const sendMessage = (input: { MessageGroupId?: unknown; MessageDeduplicationId?: unknown }) => {
    for (const [name, value] of Object.entries({
      MessageGroupId: input.MessageGroupId,
      MessageDeduplicationId: input.MessageDeduplicationId,
    }))
      if (typeof value !== "string" || !/^[\w!"#$%&'()*+,\-./:;<=>?@[\\\]^`{|}~]{1,128}$/.test(value))
        throw Object.assign(new Error(`Value ${String(value)} for parameter ${name} is invalid.`), {
          name: "InvalidParameterValue",
        });
    return { MessageId: "m-1" };
  };
  sqsR.onAnyCommand().callsFake(sendMessage);
  // As SQS: a visibility timeout that is not a whole number of seconds within 0..43,200 is refused.
  const asSqsForWorker = (input: Record<string, unknown>) => {
    if (input.MessageBody !== undefined) return sendMessage(input);
    const seconds = input.VisibilityTimeout;
    if (!Number.isInteger(seconds) || (seconds as number) < 0 || (seconds as number) > 43_200)
      throw Object.assign(new Error(`Value ${String(seconds)} for parameter VisibilityTimeout is invalid`), {
        name: "InvalidParameterValue",
      });
    return {};
  };
  sqsW.onAnyCommand().callsFake(asSqsForWorker);
  sqsW2.onAnyCommand().callsFake(asSqsForWorker);
  return { sqsR, ssmR, sqsW, ssmW, sqsW2, ssmW2, sendMessage, parameters };
}

let mocks: ReturnType<typeof awsMocks>;
beforeEach(() => {
  disableNetwork();
  receiver.clearSecretsCache();
  mocks = awsMocks();
});
afterEach(() => {
  cleanup();
  for (const m of [mocks.sqsR, mocks.ssmR, mocks.sqsW, mocks.ssmW, mocks.sqsW2, mocks.ssmW2]) m.restore();
});

describe("receiver (bundled)", () => {
  it("enqueues a good delivery once, deduplicated by its delivery id, and answers 202", async () => {
    const event = signedHttpEvent("pull_request", pullRequestPayload("opened"), { delivery: "d-1" });
    const res = await receiver.handler(event);
    expect(res.statusCode).toBe(202);
    const sent = commandCalls(mocks.sqsR, "SendMessageCommand");
    expect(sent).toHaveLength(1);
    const input = sent[0]!.input;
    expect(input).toMatchObject({
      MessageDeduplicationId: "d-1",
      MessageGroupId: `acme/plugins@${HEAD_SHA}`,
      QueueUrl: process.env.QUEUE_URL,
    });
    const message = JSON.parse(input.MessageBody as string) as {
      id: string;
      name: string;
      payload: Record<string, unknown>;
    };
    expect(message).toMatchObject({
      id: "d-1",
      name: "pull_request",
      payload: { action: "opened", installation: { id: 77 } },
    });
    // The slim message stays far below SQS's 256 KB whatever the payload.
    expect((input.MessageBody as string).length).toBeLessThan(4096);
    // The secret was read from SSM once, with decryption.
    expect(commandCalls(mocks.ssmR, "GetParametersCommand")[0]!.input).toMatchObject({
      WithDecryption: true,
    });
  });

  it("rejects a bad signature with 401 and queues nothing", async () => {
    const bad = await receiver.handler(
      signedHttpEvent("pull_request", pullRequestPayload("opened"), { secret: "wrong" }),
    );
    expect(bad.statusCode).toBe(401);
    const missing = await receiver.handler(
      signedHttpEvent("pull_request", pullRequestPayload("opened"), { signature: null }),
    );
    expect(missing.statusCode).toBe(401);
    const noEvent = signedHttpEvent("pull_request", pullRequestPayload("opened"));
    delete (noEvent.headers as Record<string, string>)["x-github-event"];
    expect((await receiver.handler(noEvent)).statusCode).toBe(400);
    expect(commandCalls(mocks.sqsR, "SendMessageCommand")).toHaveLength(0);
  });

  it("refuses a request without GitHub's headers before it reads the secret or the body", async () => {
    const unsigned = signedHttpEvent("pull_request", pullRequestPayload("opened"), { signature: null });
    expect((await receiver.handler(unsigned)).statusCode).toBe(401);
    const noDelivery = signedHttpEvent("pull_request", pullRequestPayload("opened"));
    delete (noDelivery.headers as Record<string, string>)["x-github-delivery"];
    // Not even base64: its body is never decoded.
    expect((await receiver.handler({ ...noDelivery, body: "%%%", isBase64Encoded: true })).statusCode).toBe(
      400,
    );
    expect(commandCalls(mocks.ssmR, "GetParametersCommand")).toHaveLength(0);
    expect(commandCalls(mocks.sqsR, "SendMessageCommand")).toHaveLength(0);
  });

  it("without a webhook secret configured, answers 500 and queues nothing: never a default secret", async () => {
    const parameter = process.env.WEBHOOK_SECRET_PARAMETER;
    delete process.env.WEBHOOK_SECRET_PARAMETER;
    try {
      // Signed with the secret Probot would fall back to: it must not be taken.
      const event = signedHttpEvent("pull_request", pullRequestPayload("opened"), { secret: "development" });
      expect((await receiver.handler(event)).statusCode).toBe(500);
      expect(commandCalls(mocks.sqsR, "SendMessageCommand")).toHaveLength(0);
    } finally {
      process.env.WEBHOOK_SECRET_PARAMETER = parameter;
    }
  });

  it("checks the signature on the decoded raw body when API Gateway sends it base64-encoded", async () => {
    const res = await receiver.handler(
      signedHttpEvent("pull_request", pullRequestPayload("synchronize"), { base64: true }),
    );
    expect(res.statusCode).toBe(202);
    expect(commandCalls(mocks.sqsR, "SendMessageCommand")).toHaveLength(1);
  });

  it("drops events the app does not handle, and answers ping", async () => {
    const closed = pullRequestPayload("closed");
    expect((await receiver.handler(signedHttpEvent("pull_request", closed))).statusCode).toBe(200);
    const issue = example("issues", "opened");
    expect((await receiver.handler(signedHttpEvent("issues", issue))).statusCode).toBe(200);
    const ping = await receiver.handler(
      signedHttpEvent("ping", { zen: "Keep it logically awesome.", hook_id: 1 }),
    );
    expect(JSON.parse(ping.body)).toEqual({ message: "pong" });
    expect(commandCalls(mocks.sqsR, "SendMessageCommand")).toHaveLength(0);
  });
});

/** The worker's ChangeMessageVisibility calls, as [receipt handle, seconds], in order. */
const visibilities = () =>
  commandCalls(mocks.sqsW, "ChangeMessageVisibilityCommand").map((c) => [
    c.input.ReceiptHandle,
    c.input.VisibilityTimeout,
  ]);

describe("worker (bundled)", () => {
  /** The worker's handler: the bundle's own, or one whose App runs faster (createHandler). */
  let handle: Bundle["handler"];
  beforeEach(() => {
    handle = worker.handler;
  });

  async function queued(payload: Record<string, unknown>, delivery = "d-w"): Promise<string> {
    await receiver.handler(signedHttpEvent("pull_request", payload, { delivery }));
    const calls = commandCalls(mocks.sqsR, "SendMessageCommand");
    return calls[calls.length - 1]!.input.MessageBody as string;
  }

  it("runs the app on a queued delivery; the same delivery twice gives one check run and one review", async () => {
    const gh = new FakeGitHub(LATER_REVIEW_ROUTES);
    const plugin = text({ ...validHost(), version: "1" });
    gh.prFiles = [
      {
        filename: "p/plugin.json",
        status: "added",
        patch: `@@ -0,0 +1,3 @@\n+{\n+  "name": "custom.python.demo_plugin",\n+  "version": "1",`,
      },
    ];
    gh.file("acme/plugins", HEAD_SHA, "p/plugin.json", plugin);
    const body = await queued(pullRequestPayload("opened"));
    const first = await handle(sqsEvent([body]));
    const again = await handle(sqsEvent([body], 2));
    expect(first).toEqual({ batchItemFailures: [] });
    expect(again).toEqual({ batchItemFailures: [] });
    expect(gh.checkRuns).toHaveLength(1);
    // The second delivery found the run already saying what it found: not written again.
    expect(gh.checkRuns[0]).toMatchObject({ status: "completed", conclusion: "failure", updates: 0 });
    expect(gh.reviews).toHaveLength(1);
    expect(gh.comments).toHaveLength(1);
    gh.assertClean();
  });

  it("on the queue's last try, holds a failing run only where the commit has no completed one: a completed run is not written again", async () => {
    process.env.PLUGIN_REVIEW_MAX_RECEIVES = "5";
    try {
      const gh = new FakeGitHub(LATER_REVIEW_ROUTES);
      gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
      gh.file("acme/plugins", HEAD_SHA, "p/plugin.json", text({ ...validHost(), version: "1" }));
      const payload = pullRequestPayload("opened");
      payload.installation.id = 430;
      const body = await queued(payload, "d-last");
      const context = { getRemainingTimeInMillis: () => 300_000 };
      expect(await handle(sqsEvent([body], 4), context)).toEqual({ batchItemFailures: [] });
      expect(await handle(sqsEvent([body], 5), context)).toEqual({ batchItemFailures: [] });
      expect(gh.checkRuns).toHaveLength(1);
      expect(gh.checkRuns[0]).toMatchObject({ status: "completed", conclusion: "failure", updates: 0 });
      expect(gh.checkRuns[0]!.output!.title).not.toBe("plugin-review could not review this commit");
      gh.assertClean();
    } finally {
      delete process.env.PLUGIN_REVIEW_MAX_RECEIVES;
    }
  });

  it.each([
    ...["five", "0", "2.5", "-1"].map((value) => [
      "PLUGIN_REVIEW_MAX_RECEIVES",
      value,
      `PLUGIN_REVIEW_MAX_RECEIVES must be a whole number from 1 to 1000 (the queue's maxReceiveCount), not '${value}'`,
    ]),
    [
      "GHE_HOST",
      "https://ghe.example.com",
      "GHE_HOST must be the server's host name, with a port if it needs one (ghe.example.com), without a scheme or a path (GHE_PROTOCOL says http or https), not 'https://ghe.example.com'",
    ],
  ])(
    "refuses a %s of '%s' at start, naming it: the message fails, GitHub is not asked",
    async (variable, value, message) => {
      process.env[variable] = value;
      const errors: string[] = [];
      const spy = vi.spyOn(console, "error").mockImplementation((line: string) => void errors.push(line));
      try {
        // A GitHub that would answer the review: the old worker reviewed (value "0": holding a failing run).
        const gh = new FakeGitHub(LATER_REVIEW_ROUTES);
        gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
        gh.file("acme/plugins", HEAD_SHA, "p/plugin.json", text({ ...validHost(), version: "1" }));
        const body = await queued(pullRequestPayload("opened"), "d-bad-setting");
        const context = { getRemainingTimeInMillis: () => 300_000 };
        // A new container's worker: its app starts at this invocation.
        const fresh = worker.createHandler();
        expect(await fresh(sqsEvent([body], 1), context)).toEqual({
          batchItemFailures: [{ itemIdentifier: expect.any(String) }],
        });
        expect(gh.requests).toEqual([]);
        expect(errors.join("\n")).toContain(message);
      } finally {
        spy.mockRestore();
        delete process.env[variable];
      }
    },
  );

  it("analyses in the analysis thread bundled beside it: an extension.yaml past its bounds is refused, its finding on the run", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    // YAML 1.1 merge keys, which copy the map they name at each use (the issue's 25 s and 900 MB).
    const merged = `%YAML 1.1\n---\n${MIGRATION.extension}base: &b\n  k: v\n${"m:\n  <<: *b\n".repeat(3)}`;
    gh.file("acme/plugins", BASE_SHA, "p/plugin.json", MIGRATION.plugin);
    gh.file("acme/plugins", HEAD_SHA, "p/plugin.json", MIGRATION.plugin);
    gh.file("acme/plugins", HEAD_SHA, "p/extension.yaml", merged);
    gh.prFiles = [{ filename: "p/extension.yaml", status: "added" }];
    const payload = pullRequestPayload("opened");
    payload.installation.id = 79; // a token of its own
    const res = await handle(sqsEvent([await queued(payload, "d-thread")]));
    expect(res).toEqual({ batchItemFailures: [] });
    const [run] = gh.runsFor(HEAD_SHA);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.annotations.map((a) => [a.path, a.title, a.start_line])).toEqual([
      ["p/extension.yaml", "invalid-yaml", 1],
    ]);
    expect(run!.annotations[0]!.message).toMatch(/^not valid YAML: `%YAML 1\.1`/);
    gh.assertClean();
  });

  it("reports a failing delivery for retry with backoff, and completes its check run instead of leaving it in progress", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    // GitHub keeps refusing with a secondary rate limit: retried, then given up as a passing failure.
    gh.fail(
      "GET",
      /\/pulls\/7\/files$/,
      403,
      10,
      { message: "You have exceeded a secondary rate limit." },
      { "retry-after": "1" },
    );
    const payload = pullRequestPayload("opened");
    payload.installation.id = 78; // another installation: the worker's token cache from the test above does not apply
    const body = await queued(payload);
    const event = sqsEvent([body], 3);
    const res = await handle(event);
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: event.Records[0]!.messageId }] });
    expect(gh.checkRuns[0]).toMatchObject({
      status: "completed",
      conclusion: "failure",
      output: { title: "plugin-review could not complete" },
    });
    const delay = commandCalls(mocks.sqsW, "ChangeMessageVisibilityCommand")[0]!.input;
    expect(delay).toMatchObject({ ReceiptHandle: "rh-0", VisibilityTimeout: 120 });
    expect(gh.count("GET", /\/pulls\/7\/files$/)).toBe(4);
    gh.assertClean();
  });

  it("a review that runs out of time completes its run as failure and is retried soon; the retry completes it with no duplicated annotation", async () => {
    const gh = new FakeGitHub([...LATER_REVIEW_ROUTES, "updateCheckRun", "listCheckRuns"]);
    const doc = validHost();
    doc.metrics = Array.from({ length: 120 }, (_, i) => ({
      timeseries: { key: `m${i}`, unit: "Count", displayname: `m${i}` },
    }));
    delete doc.ui;
    const plugin = text(doc);
    gh.prFiles = [{ filename: "big/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
    gh.file("acme/plugins", HEAD_SHA, "big/plugin.json", plugin);
    // GitHub accepts the second batch of annotations and never answers.
    gh.hang("PATCH", /\/check-runs\/\d+$/, 1);
    const payload = pullRequestPayload("opened");
    payload.installation.id = 79;
    const body = await queued(payload, "d-timeout");
    const first = sqsEvent([body], 1);
    // At twice the speed, 17.5 s left (35 s in production): the review gets 10 s (the rest is the margin: the
    // failure report and the SQS call), no more than a request's timeout (10 s), so that the deadline is what
    // ends the hung write whenever it is sent. Ample: before it come the reads, the analysis thread's start
    // and Probot's spacing between writes (1 s in real time on any clock), about 4 s on a loaded machine, which
    // at 4 times the speed (4.25 s) the deadline sometimes passed before the hung write was sent.
    handle = worker.createHandler({ clock: worker.scaledClock(0.5) });
    const res = await handle(first, { getRemainingTimeInMillis: () => 17_500 });
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: first.Records[0]!.messageId }] });
    expect(gh.hung).toHaveLength(1);
    expect(gh.checkRuns).toHaveLength(1);
    expect(gh.checkRuns[0]).toMatchObject({
      status: "completed",
      conclusion: "failure",
      output: { title: "plugin-review could not complete" },
    });
    expect(gh.checkRuns[0]!.output!.summary).toMatch(
      /GitHub did not answer in time.*Re-running the check retries/s,
    );
    // Hidden while the invocation may run it (35 s at production speed) and 30 s more, then, once it failed,
    // a short backoff: the retry comes in seconds, not after the queue's 30-minute visibility timeout.
    expect(visibilities()).toEqual([
      ["rh-0", 65],
      ["rh-0", 10],
    ]);
    // The retry: the same run, completed with the review's verdict; each annotation once.
    const retry = sqsEvent([body], 2);
    expect(await handle(retry, { getRemainingTimeInMillis: () => 60_000 })).toEqual({
      batchItemFailures: [],
    });
    expect(gh.checkRuns).toHaveLength(1);
    const run = gh.checkRuns[0]!;
    expect(run).toMatchObject({
      status: "completed",
      output: { title: expect.stringMatching(/in 1 descriptor/) },
    });
    expect(run.annotations).toHaveLength(120);
    expect(new Set(run.annotations.map((a) => `${a.start_line}:${a.title}`)).size).toBe(120);
    expect(gh.reviews).toHaveLength(1);
    gh.assertClean();
  });

  /** Pull request `number` opened at `sha`, adding a descriptor with one finding, queued for installation `installation`. */
  async function openedAt(gh: FakeGitHub, number: number, sha: string, installation: number) {
    gh.file("acme/plugins", sha, "p/plugin.json", text({ ...validHost(), version: "1" }));
    gh.push(number, sha); // the pull request's head is the one opened (else its review posts nothing)
    const payload = pullRequestPayload("opened", { number, headSha: sha });
    payload.installation.id = installation;
    return queued(payload, `d-${number}`);
  }

  it("stops a batch at its first failure: the later messages are reported failed untried and come back at once, so a pull request's deliveries stay in order", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES.filter((r) => r !== "createReview"));
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
    // GitHub keeps refusing the first message's file list with a secondary rate limit.
    gh.fail(
      "GET",
      /\/pulls\/7\/files$/,
      403,
      4,
      { message: "You have exceeded a secondary rate limit." },
      { "retry-after": "1" },
    );
    const [a, b, c] = ["1", "2", "3"].map((d) => d.repeat(40)) as [string, string, string];
    const bodies = [
      await openedAt(gh, 7, a, 420),
      await openedAt(gh, 8, b, 420),
      await openedAt(gh, 9, c, 420),
    ];
    const event = sqsEvent(bodies);
    const res = await handle(event, { getRemainingTimeInMillis: () => 300_000 });
    expect(res).toEqual({ batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) });
    expect(gh.runsFor(a)).toEqual([
      expect.objectContaining({
        output: expect.objectContaining({ title: "plugin-review could not complete" }),
      }),
    ]);
    expect([...gh.runsFor(b), ...gh.runsFor(c)]).toEqual([]);
    expect(gh.count("GET", /\/pulls\/(8|9)\/files$/)).toBe(0);
    // First all three hidden while the invocation may run them (300 s, and 30 s more); then the failed one
    // backs off and the untried ones come back at once.
    expect(visibilities().slice(0, 3)).toEqual([
      ["rh-0", 330],
      ["rh-1", 330],
      ["rh-2", 330],
    ]);
    expect(visibilities().slice(3)).toEqual(
      expect.arrayContaining([
        ["rh-0", 30],
        ["rh-1", 0],
        ["rh-2", 0],
      ]),
    );
    expect(visibilities()).toHaveLength(6);
    gh.assertClean();
  });

  it("starts a message only with time left for a review and its margin; one left is reported failed and comes back at once, before the invocation times out", async () => {
    const gh = new FakeGitHub(REVIEW_ROUTES);
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
    const [a, b] = ["4", "5"].map((d) => d.repeat(40)) as [string, string];
    const event = sqsEvent([await openedAt(gh, 7, a, 421), await openedAt(gh, 8, b, 421)]);
    // The first review leaves the invocation 20 s: less than the margin (the failure report, the SQS
    // call) and a review's minimum.
    const remaining = () => (gh.runsFor(a).length ? 20_000 : 300_000);
    const res = await handle(event, { getRemainingTimeInMillis: remaining });
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: event.Records[1]!.messageId }] });
    expect(gh.runsFor(a)).toEqual([expect.objectContaining({ status: "completed", conclusion: "failure" })]);
    expect(gh.runsFor(b)).toEqual([]);
    expect(visibilities()).toEqual([
      ["rh-0", 330],
      ["rh-1", 330],
      ["rh-1", 0],
    ]);
    gh.assertClean();
  });

  it("drops a message that is not a delivery instead of retrying it until the dead-letter queue", async () => {
    // Not JSON, or JSON but not the receiver's {id, name, payload} (an operator's test message, a redrive
    // of something else): no try can handle it, and one that throws would fail the whole invocation.
    for (const body of ["not json", "null", "{}", '"d-1"', '{"id":"d-1","name":"pull_request"}'])
      expect(await handle(sqsEvent([body]), { getRemainingTimeInMillis: () => 300_000 }), body).toEqual({
        batchItemFailures: [],
      });
  });
});

describe("worker (bundled): a check run on every commit, whatever GitHub does", () => {
  /** The worker's handler: the bundle's own, or one whose App runs faster (createHandler). */
  let handle: Bundle["handler"];
  beforeEach(() => {
    handle = worker.handler;
  });

  /**
   * Runs a queued message as SQS does: again after each failure, once the visibility timeout the worker
   * set has passed (at the tests' time scale), until it is processed or `ms` passed. `remainingMs`: the
   * invocation's time (the worker's 300 s, unless a test gives less).
   */
  async function untilProcessed(body: string, remainingMs: number, ms = WITHIN_MS) {
    const started = Date.now();
    for (let receiveCount = 1; ; receiveCount++) {
      const event = sqsEvent([body], receiveCount);
      const res = await handle(event, { getRemainingTimeInMillis: () => remainingMs });
      if (res.batchItemFailures.length === 0) return { attempts: receiveCount };
      const delays = commandCalls(mocks.sqsW, "ChangeMessageVisibilityCommand");
      const visibility = delays[delays.length - 1]!.input.VisibilityTimeout as number;
      if (Date.now() - started + visibility * 1000 * SCALE > ms)
        throw new Error(`not processed within ${ms} ms`);
      await new Promise((r) => setTimeout(r, visibility * 1000 * SCALE));
    }
  }

  async function queuedOpen(installation: number): Promise<string> {
    const payload = pullRequestPayload("opened");
    payload.installation.id = installation;
    await receiver.handler(signedHttpEvent("pull_request", payload, { delivery: `d-g-${installation}` }));
    const calls = commandCalls(mocks.sqsR, "SendMessageCommand");
    return calls[calls.length - 1]!.input.MessageBody as string;
  }

  it.each(SCENARIOS.map((s, i) => [s.name, s, 400 + i] as const))(
    "%s: exactly one completed run within 3 minutes, nothing sent twice",
    async (_, scenario, installation) => {
      handle = worker.createHandler({ clock: worker.scaledClock(SCALE) });
      const gh = new FakeGitHub([...SCENARIO_ROUTES, ...scenario.routes]);
      openPullRequest(gh);
      scenario.fault(gh);
      timelineOnFailure(gh);
      const body = await queuedOpen(installation);
      // The run is completed within 3 minutes of the first invocation (the review's other writes may follow).
      const done = within(WITHIN_MS, () => completed(gh));
      await untilProcessed(body, 300_000 * SCALE);
      await done;
      scenario.met(gh);
      expectExactlyOnce(gh);
      gh.assertClean();
    },
    90_000,
  );

  it("500s on completing writes for longer than an invocation: the message fails, the run is created in progress, and the queue's retry completes it", async () => {
    handle = worker.createHandler({ clock: worker.scaledClock(SCALE) });
    const gh = new FakeGitHub([...SCENARIO_ROUTES, "listCheckRuns"]);
    openPullRequest(gh);
    gh.failFor("POST", /\/check-runs$/, 60_000 * SCALE, { when: completesRun });
    gh.failFor("PATCH", /\/check-runs\/\d+$/, 60_000 * SCALE, { when: completesRun });
    // An invocation of 30 s: the review's deadline passes while GitHub still fails.
    const { attempts } = await untilProcessed(await queuedOpen(410), 30_000 * SCALE, 600_000 * SCALE);
    expect(attempts).toBeGreaterThan(1);
    expect(
      gh.requests.some((r) => (r.body as { status?: string } | undefined)?.status === "in_progress"),
    ).toBe(true);
    expectExactlyOnce(gh);
    gh.assertClean();
  }, 90_000);
});

describe("worker (bundled): a review that fails for good while GitHub fails its report", () => {
  it("is tried again, so that the commit gets its completed run: the failure was not GitHub's, but the missing run is", async () => {
    const handle = worker.createHandler({ clock: worker.scaledClock(SCALE) });
    const gh = new FakeGitHub([...SCENARIO_ROUTES, "listCheckRuns"]);
    openPullRequest(gh);
    // A failure no retry of the review would change (a permission GitHub refuses once), then 500s on the
    // writes that would report it, for longer than the review's report may take.
    gh.fail("GET", /\/pulls\/7\/files$/, 403, 1, { message: "Resource not accessible by integration" });
    gh.failFor("POST", /\/check-runs$/, 90_000 * SCALE, { when: completesRun });
    gh.failFor("PATCH", /\/check-runs\/\d+$/, 90_000 * SCALE, { when: completesRun });
    const payload = pullRequestPayload("opened");
    payload.installation.id = 431;
    await receiver.handler(signedHttpEvent("pull_request", payload, { delivery: "d-report" }));
    const sent = commandCalls(mocks.sqsR, "SendMessageCommand");
    const body = sent[sent.length - 1]!.input.MessageBody as string;
    const context = { getRemainingTimeInMillis: () => 60_000 * SCALE };
    const first = sqsEvent([body], 1);
    expect(await handle(first, context)).toEqual({
      batchItemFailures: [{ itemIdentifier: first.Records[0]!.messageId }],
    });
    // The queue's retry, once GitHub takes writes again.
    await new Promise((r) => setTimeout(r, 90_000 * SCALE));
    expect(await handle(sqsEvent([body], 2), context)).toEqual({ batchItemFailures: [] });
    expectExactlyOnce(gh);
    gh.assertClean();
  }, 120_000);
});

describe("merge queue (bundled receiver and worker)", () => {
  it("queues a merge group's checks_requested grouped by its head commit, and drops its destroyed action", async () => {
    const payload = mergeGroupPayload();
    const res = await receiver.handler(signedHttpEvent("merge_group", payload, { delivery: "d-mg" }));
    expect(res.statusCode).toBe(202);
    const [sent, ...more] = commandCalls(mocks.sqsR, "SendMessageCommand");
    expect(more).toEqual([]);
    expect(sent!.input).toMatchObject({
      MessageDeduplicationId: "d-mg",
      MessageGroupId: `acme/plugins@${HEAD_SHA}`,
    });
    expect(JSON.parse(sent!.input.MessageBody as string)).toMatchObject({
      name: "merge_group",
      payload: {
        action: "checks_requested",
        merge_group: { head_sha: HEAD_SHA, base_sha: BASE_SHA },
        repository: { full_name: "acme/plugins" },
      },
    });
    const destroyed = { ...mergeGroupPayload(), action: "destroyed" };
    expect((await receiver.handler(signedHttpEvent("merge_group", destroyed))).statusCode).toBe(200);
    expect(commandCalls(mocks.sqsR, "SendMessageCommand")).toHaveLength(1);
  });

  it("queues every delivery of a head commit in one group, whichever pull request names it, so that its reviews never run at once", async () => {
    // Two pull requests from one branch share their head's one check run: reviewed at once, either could
    // write over the other's result (the server reviews a commit's deliveries one at a time too).
    const other = "d".repeat(40);
    const comment = example("issue_comment", "created");
    comment.installation = { id: 77 };
    comment.repository = pullRequestPayload("opened").repository;
    comment.issue.number = 7;
    comment.issue.pull_request = { url: "https://api.github.com/repos/acme/plugins/pulls/7" };
    comment.comment.body = "/plugin-review recheck";
    const sent: [string, Payload][] = [
      ["pull_request", pullRequestPayload("opened", { number: 7 })],
      ["pull_request", pullRequestPayload("opened", { number: 8 })],
      ["check_suite", checkSuitePayload(pullRequestPayload("opened", { number: 7 }))],
      [
        "pull_request",
        editedPayload({ base: { ref: { from: "main" }, sha: { from: BASE_SHA } } }, "a".repeat(40)),
      ],
      ["pull_request", pullRequestPayload("synchronize", { number: 7, headSha: other })],
      ["issue_comment", comment],
    ];
    const groups: string[] = [];
    for (const [event, payload] of sent) {
      expect((await receiver.handler(signedHttpEvent(event, payload))).statusCode).toBe(202);
      groups.push(commandCalls(mocks.sqsR, "SendMessageCommand").at(-1)!.input.MessageGroupId as string);
    }
    expect(groups).toEqual([
      ...Array<string>(4).fill(`acme/plugins@${HEAD_SHA}`),
      `acme/plugins@${other}`,
      // A recheck names no commit: its pull request's group (the worker reads the head).
      "acme/plugins#7",
    ]);
  });

  it("queues the deliveries of a repository whose owner and name are as long as GitHub allows, within SQS's 128-character group ids", async () => {
    // GitHub allows 39 characters in an owner's login and 100 in a repository's name.
    const owner = "o".repeat(39);
    const name = "r".repeat(100);
    const long = (payload: Payload): Payload => {
      payload.repository.full_name = `${owner}/${name}`;
      return payload;
    };
    const groups: string[] = [];
    for (const [event, payload] of [
      ["merge_group", long(mergeGroupPayload())],
      ["merge_group", long(mergeGroupPayload())],
      ["merge_group", long(mergeGroupPayload({ headSha: "e".repeat(40) }))],
      ["pull_request", long(pullRequestPayload("opened", { number: 1_000_007 }))],
      ["pull_request", long(pullRequestPayload("synchronize", { number: 1_000_007 }))],
    ] as const) {
      const res = await receiver.handler(signedHttpEvent(event, payload));
      expect(res.statusCode).toBe(202);
      groups.push(commandCalls(mocks.sqsR, "SendMessageCommand").at(-1)!.input.MessageGroupId as string);
    }
    // Each head commit's deliveries still share their group, and only theirs.
    expect(new Set(groups).size).toBe(2);
    expect(groups[0]).toBe(groups[1]);
    expect(groups[1]).toBe(groups[3]);
    expect(groups[3]).toBe(groups[4]);
  });

  it("the worker completes the merge group's check run from the queued message, with no review", async () => {
    const gh = new FakeGitHub(MERGE_GROUP_ROUTES);
    const base = text(validHost());
    gh.file("acme/plugins", BASE_SHA, "p/plugin.json", base);
    gh.file("acme/plugins", HEAD_SHA, "p/plugin.json", base.replace('"1.2.0"', '"1.1.0"'));
    const payload = mergeGroupPayload();
    payload.installation.id = 191; // its own installation token
    await receiver.handler(signedHttpEvent("merge_group", payload));
    const body = commandCalls(mocks.sqsR, "SendMessageCommand")[0]!.input.MessageBody as string;
    expect(await worker.handler(sqsEvent([body]))).toEqual({ batchItemFailures: [] });
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.annotations.map((a) => a.title)).toEqual(["version-decreased"]);
    expect(gh.reviews).toEqual([]);
    gh.assertClean();
  });
});

describe("/plugin-review recheck (bundled receiver and worker)", () => {
  const OTHER_BASE = "e".repeat(40);

  /** The real `issue_comment.created` example: alice asks for a recheck of pull request `number`. */
  function recheckComment(number: number, installation: number): Payload {
    const comment = example("issue_comment", "created");
    comment.installation = { id: installation };
    comment.repository = pullRequestPayload("opened").repository;
    comment.issue.number = number;
    comment.issue.pull_request = { url: `https://api.github.com/repos/acme/plugins/pulls/${number}` };
    comment.comment.body = "/plugin-review recheck";
    comment.comment.user.login = "alice";
    comment.comment.user.type = "User";
    return comment;
  }

  /** The receiver's message for a signed delivery, and its group. */
  async function queued(event: string, payload: Payload, delivery: string) {
    expect((await receiver.handler(signedHttpEvent(event, payload, { delivery }))).statusCode).toBe(202);
    return commandCalls(mocks.sqsR, "SendMessageCommand").at(-1)!.input as {
      MessageBody: string;
      MessageGroupId: string;
    };
  }

  /**
   * #7 (into main) changes the metric group, which can never change: its review fails. #8 is the same head
   * commit into a branch without the descriptor: its review alone would pass. alice may write.
   */
  function sharedHead(installation: number, routes: Route[] = []) {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "permission", "getPull", ...routes]);
    const head = validHost();
    gh.file(
      "acme/plugins",
      BASE_SHA,
      "p/plugin.json",
      text({ ...head, version: "1.1.0", metricGroup: "tech.old" }),
    );
    gh.file("acme/plugins", HEAD_SHA, "p/plugin.json", text(head));
    gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: "@@ -7,1 +7,1 @@\n-x\n+x" }];
    gh.pullFiles.set("acme/plugins#8", [
      { filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+x" },
    ]);
    gh.retarget(8, OTHER_BASE);
    gh.pulls.set(7, pullRequestPayload("opened").pull_request);
    const pull8 = pullRequestPayload("opened", { number: 8 }).pull_request;
    pull8.base.sha = OTHER_BASE;
    pull8.base.ref = "gh-pages";
    gh.pulls.set(8, pull8);
    gh.permissions.set("alice", "write");
    const opened7 = pullRequestPayload("opened");
    opened7.installation.id = installation;
    return { gh, opened7 };
  }

  it("a recheck's review takes its head commit's turn: beside another pull request's failing review of that head, the check stays red", async () => {
    const { gh, opened7 } = sharedHead(620);
    const comment = await queued("issue_comment", recheckComment(8, 620), "d-recheck-race");
    const review7 = await queued("pull_request", opened7, "d-open-7");
    expect(comment.MessageGroupId).toBe("acme/plugins#8");
    expect(review7.MessageGroupId).toBe(`acme/plugins@${HEAD_SHA}`);
    // SQS hands out the two groups at once, to two containers. Whatever the recheck's message writes to the check run waits
    // until #7's review is done: a review that read the run before #7's failure was written.
    const held = gh.hold("POST", /\/check-runs$/);
    const recheck = worker.handler(sqsEvent([comment.MessageBody]));
    await Promise.race([held.reached, recheck]);
    held.cancel();
    expect(await worker2.handler(sqsEvent([review7.MessageBody]))).toEqual({ batchItemFailures: [] });
    held.release();
    expect(await recheck).toEqual({ batchItemFailures: [] });
    // The head's group hands out what the recheck queued there after #7's review.
    const sent = commandCalls(mocks.sqsW, "SendMessageCommand");
    for (const m of sent)
      expect(await worker.handler(sqsEvent([m.input.MessageBody as string]))).toEqual({
        batchItemFailures: [],
      });
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.annotations.map((a) => a.title)).toEqual(["metric-group-changed"]);
    expect(sent.map((m) => m.input.MessageGroupId)).toEqual([review7.MessageGroupId]);
    gh.assertClean();
  });

  it("a recheck that never reached the receiver: the recovery queues it in its pull request's group, and its review takes its head commit's turn; the check stays red", async () => {
    // The scheduled recovery function, in a container of its own, its SSM and SQS clients mocked as the others'.
    const recovery = (await import(
      pathToFileURL(join(ROOT, "dist-lambda/recovery/index.mjs")).href
    )) as Bundle;
    const sqsRec = mockClient(recovery.sqs);
    const ssmRec = mockClient(recovery.ssm);
    onTestFinished(() => (sqsRec.restore(), ssmRec.restore()));
    sqsRec.onAnyCommand().callsFake(mocks.sendMessage);
    ssmRec.onAnyCommand().callsFake((input: { Names: string[] }) => ({
      Parameters: mocks.parameters.filter((p) => input.Names.includes(p.Name)),
    }));
    const { gh, opened7 } = sharedHead(624, ["listDeliveries", "getDelivery"]);
    // The API Gateway in front of the receiver failed the comment's delivery (502); #7's reached it.
    gh.logAttempt("issue_comment", recheckComment(8, 624), 502, { guid: "d-recheck-missed" });
    const review7 = await queued("pull_request", opened7, "d-open-7-recovered");
    // The recovery's sweep and the worker's review of #7 run at once. Whatever the sweep writes to the
    // check run waits until #7's review is done.
    const held = gh.hold("POST", /\/check-runs$/);
    const sweep = recovery.createHandler()(
      {},
      { getRemainingTimeInMillis: () => 300_000 },
    ) as Promise<unknown>;
    await Promise.race([held.reached, sweep]);
    held.cancel();
    expect(await worker2.handler(sqsEvent([review7.MessageBody]))).toEqual({ batchItemFailures: [] });
    held.release();
    expect(await sweep).toMatchObject({ missed: 1, reviewed: 1 });
    // Queued as the receiver would have, as a retry; deduplicated with the receiver's by its delivery id.
    const [comment, ...more] = commandCalls(sqsRec, "SendMessageCommand");
    expect(more).toEqual([]);
    expect(comment!.input).toMatchObject({
      QueueUrl: process.env.QUEUE_URL,
      MessageGroupId: "acme/plugins#8",
      MessageDeduplicationId: "d-recheck-missed",
    });
    expect(JSON.parse(comment!.input.MessageBody as string)).toMatchObject({
      id: "d-recheck-missed",
      name: "issue_comment",
      recovered: true,
      payload: { comment: { body: "/plugin-review recheck", user: { login: "alice" } } },
    });
    expect(await worker.handler(sqsEvent([comment!.input.MessageBody as string]))).toEqual({
      batchItemFailures: [],
    });
    const sent = commandCalls(mocks.sqsW, "SendMessageCommand");
    expect(sent.map((m) => m.input.MessageGroupId)).toEqual([review7.MessageGroupId]);
    for (const m of sent)
      expect(await worker.handler(sqsEvent([m.input.MessageBody as string]))).toEqual({
        batchItemFailures: [],
      });
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.annotations.map((a) => a.title)).toEqual(["metric-group-changed"]);
    gh.assertClean();
  });

  it("reviews end to end: the comment's message queues the review in the head's group, whose message reviews the pull request", async () => {
    const gh = new FakeGitHub([...REVIEW_ROUTES, "permission", "getPull"]);
    gh.permissions.set("alice", "write");
    gh.pulls.set(7, pullRequestPayload("opened").pull_request);
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
    gh.file("acme/plugins", HEAD_SHA, "p/plugin.json", text({ ...validHost(), version: "1" }));
    const comment = await queued("issue_comment", recheckComment(7, 621), "d-recheck-e2e");
    const head = await queued("pull_request", pullRequestPayload("opened"), "d-head-group");
    expect(await worker.handler(sqsEvent([comment.MessageBody]))).toEqual({ batchItemFailures: [] });
    // Read who asked and the head; nothing written to GitHub yet.
    expect(gh.checkRuns).toEqual([]);
    const [sent, ...more] = commandCalls(mocks.sqsW, "SendMessageCommand");
    expect(more).toEqual([]);
    expect(sent!.input).toMatchObject({
      QueueUrl: process.env.QUEUE_URL,
      MessageGroupId: head.MessageGroupId,
      MessageDeduplicationId: "d-recheck-e2e:recheck",
    });
    expect(await worker.handler(sqsEvent([sent!.input.MessageBody as string]))).toEqual({
      batchItemFailures: [],
    });
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "failure" }),
    ]);
    expect(gh.reviews).toHaveLength(1);
    expect(gh.issueComments).toEqual([]);
    // Asked once: the review's message does not ask again.
    expect(gh.requests.filter((r) => r.path.endsWith("/permission"))).toHaveLength(1);
    gh.assertClean();
  });

  it("a recheck's review that cannot be queued fails the comment's message, to be tried again", async () => {
    const gh = new FakeGitHub(["token", "permission", "getPull"]);
    gh.permissions.set("alice", "write");
    gh.pulls.set(7, pullRequestPayload("opened").pull_request);
    const comment = await queued("issue_comment", recheckComment(7, 622), "d-recheck-unsent");
    mocks.sqsW.onAnyCommand().callsFake((input: { MessageBody?: unknown }) => {
      if (input.MessageBody !== undefined)
        throw Object.assign(new Error("Service unavailable"), { name: "ServiceUnavailable" });
      return {};
    });
    const event = sqsEvent([comment.MessageBody]);
    expect(await worker.handler(event)).toEqual({
      batchItemFailures: [{ itemIdentifier: event.Records[0]!.messageId }],
    });
    expect(gh.checkRuns).toEqual([]);
    gh.assertClean();
  });

  it("a signed delivery cannot carry a recheck's review: the receiver queues only its id, name and slimmed payload", async () => {
    const gh = new FakeGitHub(["token", "permission", "issueComment"]);
    const forged = recheckComment(7, 623) as Payload & Record<string, unknown>;
    const target = {
      owner: "acme",
      repo: "plugins",
      ownerType: "Organization",
      number: 7,
      headSha: HEAD_SHA,
      baseSha: BASE_SHA,
    };
    forged.recheckOf = target;
    forged.comment.recheckOf = target;
    forged.issue.recheckOf = target;
    const comment = await queued("issue_comment", forged, "d-forged");
    expect(Object.keys(JSON.parse(comment.MessageBody) as object).sort()).toEqual(["id", "name", "payload"]);
    expect(comment.MessageBody).not.toContain("recheckOf");
    // The worker takes it for a comment: it asks whether alice may write (she may not), and reviews nothing.
    gh.permissions.set("alice", "read");
    expect(await worker.handler(sqsEvent([comment.MessageBody]))).toEqual({ batchItemFailures: [] });
    expect(gh.checkRuns).toEqual([]);
    expect(commandCalls(mocks.sqsW, "SendMessageCommand")).toEqual([]);
    expect(gh.issueComments).toHaveLength(1);
    gh.assertClean();
  });
});
