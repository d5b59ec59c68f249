/**
 * The Lambda recovery function as deployed (the bundle dist-lambda/recovery/index.mjs, its secrets from SSM,
 * mocked with aws-sdk-client-mock): a pull request head whose delivery never reached the receiver is found in
 * GitHub's delivery log and queued as the receiver would have queued it, for the worker (its bundle too) to
 * review; the figures are logged in CloudWatch's embedded metric format. GitHub is the validated fake.
 */
import { mockClient } from "aws-sdk-client-mock";
import { generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ROOT, text, validHost } from "../helpers.js";
import { APP_ID, FakeGitHub } from "../github/fake-github.js";
import { cleanup, disableNetwork } from "../github/github-mock.js";
import { checkSuitePayload, example, HEAD_SHA, OWNER, pullRequestPayload, REPO } from "../github/harness.js";
import { ensureBundled } from "./bundle.js";
import { sqsEvent } from "./events.js";

type Bundle = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let recovery: Bundle;
let worker: Bundle;
const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs1", format: "pem" })
  .toString();

beforeAll(async () => {
  ensureBundled();
  process.env.APP_ID_PARAMETER = "/plugin-review/prod/app-id";
  process.env.PRIVATE_KEY_PARAMETER = "/plugin-review/prod/private-key";
  process.env.AWS_REGION = "us-east-1";
  process.env.LOG_LEVEL = "silent";
  process.env.QUEUE_URL =
    "https://sqs.us-east-1.amazonaws.com/123456789012/plugin-review-prod-deliveries.fifo";
  delete process.env.POWERTOOLS_METRICS_DISABLED; // this file reads the EMF lines
  recovery = (await import(pathToFileURL(join(ROOT, "dist-lambda/recovery/index.mjs")).href)) as Bundle;
  worker = (await import(pathToFileURL(join(ROOT, "dist-lambda/worker/index.mjs")).href)) as Bundle;
}, 60_000);

let mocks: ReturnType<typeof mockClient>[];
/** The messages the recovery sent to the queue. */
let sent: { MessageBody: string; MessageGroupId: string; MessageDeduplicationId: string }[];
beforeEach(() => {
  disableNetwork();
  recovery.clearSecretsCache();
  const parameters = [
    { Name: "/plugin-review/prod/app-id", Value: String(APP_ID) },
    { Name: "/plugin-review/prod/private-key", Value: privateKey },
  ];
  mocks = [recovery.ssm, worker.ssm].map((client) => {
    const ssm = mockClient(client);
    ssm.onAnyCommand().callsFake((input: { Names: string[] }) => ({
      Parameters: parameters.filter((p) => input.Names.includes(p.Name)),
    }));
    return ssm;
  });
  sent = [];
  const sqs = mockClient(recovery.sqs);
  sqs.onAnyCommand().callsFake((input: (typeof sent)[number]) => (sent.push(input), { MessageId: "m-1" }));
  // The worker's visibility changes.
  const workerSqs = mockClient(worker.sqs);
  workerSqs.onAnyCommand().resolves({});
  mocks.push(sqs, workerSqs);
});
afterEach(() => {
  cleanup();
  for (const m of mocks) m.restore();
});

/** What the handler writes to standard output (its log and its EMF lines), taken off the test's output. */
async function capturing<T>(fn: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const take = (chunk: unknown) => void lines.push(...String(chunk).split("\n").filter(Boolean));
  // The EMF lines (Powertools writes them to standard output itself) and the log lines (console).
  process.stdout.write = ((chunk: string | Uint8Array) => (take(chunk), true)) as typeof process.stdout.write;
  const log = vi.spyOn(console, "log").mockImplementation(take);
  const error = vi.spyOn(console, "error").mockImplementation(take);
  try {
    return { result: await fn(), lines };
  } finally {
    process.stdout.write = write;
    log.mockRestore();
    error.mockRestore();
  }
}

describe("recovery (bundled)", () => {
  it("queues a head whose delivery never reached the receiver in its head commit's group, for the worker to review, and logs its figures as EMF", async () => {
    const gh = new FakeGitHub([
      "listDeliveries",
      "getDelivery",
      "token",
      "listCheckRuns",
      "graphql",
      "files",
      "createCheckRun",
      "createReview",
    ]);
    gh.file(`${OWNER}/${REPO}`, HEAD_SHA, "p/plugin.json", text({ ...validHost(), version: "1" }));
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
    // The API Gateway in front of the receiver failed (502), for the push's two deliveries.
    const opened = pullRequestPayload("opened");
    gh.logAttempt("pull_request", opened, 502);
    gh.logAttempt("check_suite", checkSuitePayload(opened), 502);
    const handler = recovery.createHandler();
    const { result, lines } = await capturing(() =>
      handler({ source: "aws.events" }, { getRemainingTimeInMillis: () => 300_000 }),
    );
    expect(result).toMatchObject({ listed: 2, missed: 2, reviewed: 1, complete: 0 });
    // Nothing written here: the push's pull_request delivery (the richer one) is queued, in its head
    // commit's group, as a retry, deduplicated with the receiver's copy by its delivery id.
    expect(gh.checkRuns).toEqual([]);
    expect(sent).toEqual([
      expect.objectContaining({
        MessageGroupId: `${OWNER}/${REPO}@${HEAD_SHA}`,
        MessageDeduplicationId: gh.deliveryLog.find((a) => a.event === "pull_request")!.guid,
      }),
    ]);
    expect(JSON.parse(sent[0]!.MessageBody)).toMatchObject({ name: "pull_request", recovered: true });
    const review = await capturing(() =>
      worker.handler(sqsEvent([sent[0]!.MessageBody]), { getRemainingTimeInMillis: () => 300_000 }),
    );
    expect(review.result).toEqual({ batchItemFailures: [] });
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "failure" }),
    ]);
    expect(gh.reviews).toHaveLength(1);
    // CloudWatch's embedded metric format: the recovered review, counted by source.
    const emf = lines
      .filter((l) => l.includes('"_aws"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const recovered = emf.find((m) => m.ReviewsRecovered !== undefined);
    expect(recovered).toMatchObject({ source: "delivery-log", function: "recovery", ReviewsRecovered: 1 });
    expect(recovered!._aws).toMatchObject({
      CloudWatchMetrics: [
        { Namespace: "plugin-review", Metrics: [{ Name: "ReviewsRecovered", Unit: "Count" }] },
      ],
    });
    const reviewed = review.lines
      .filter((l) => l.includes('"_aws"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(reviewed.some((m) => m.Reviews === 1 && m.outcome === "failure")).toBe(true);

    // The next scheduled run, in the same container: nothing missed any more, the log's listing alone.
    const before = gh.requests.length;
    const again = await capturing(() => handler({}, { getRemainingTimeInMillis: () => 300_000 }));
    expect(again.result).toMatchObject({ missed: 0, reviewed: 0 });
    expect(gh.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /app/hook/deliveries",
    ]);
    gh.assertClean();
  }, 60_000);

  it("a Re-run that never reached the receiver, of a head whose run passed before it was asked, is queued and reviewed again: the stale verdict is replaced", async () => {
    const gh = new FakeGitHub([
      "listDeliveries",
      "getDelivery",
      "token",
      "listCheckRuns",
      "getPull",
      "graphql",
      "files",
      "updateCheckRun",
      "createReview",
    ]);
    gh.file(`${OWNER}/${REPO}`, HEAD_SHA, "p/plugin.json", text({ ...validHost(), version: "1" }));
    gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
    const asked = Date.now() - 10 * 60_000;
    gh.checkRuns.push({
      id: 605,
      name: "plugin-review",
      head_sha: HEAD_SHA,
      status: "completed",
      conclusion: "success",
      output: { title: "earlier", summary: "earlier" },
      annotations: [],
      app: { id: APP_ID, slug: "plugin-review" },
      updates: 0,
      completed_at: new Date(asked - 3600_000).toISOString(),
    });
    const opened = pullRequestPayload("opened");
    const rerun = example("check_run", "rerequested");
    rerun.installation = { id: 77 };
    rerun.repository = opened.repository;
    rerun.check_run.head_sha = HEAD_SHA;
    rerun.check_run.app.id = APP_ID;
    rerun.check_run.pull_requests = checkSuitePayload(opened).check_suite.pull_requests;
    gh.logAttempt("check_run", rerun, 502, { at: asked });
    const handler = recovery.createHandler();
    const { result } = await capturing(() =>
      handler({ source: "aws.events" }, { getRemainingTimeInMillis: () => 300_000 }),
    );
    expect(result).toMatchObject({ missed: 1, reviewed: 1, complete: 0 });
    expect(sent).toEqual([expect.objectContaining({ MessageGroupId: `${OWNER}/${REPO}@${HEAD_SHA}` })]);
    expect(JSON.parse(sent[0]!.MessageBody)).toMatchObject({ name: "check_run", recovered: true });
    const review = await capturing(() =>
      worker.handler(sqsEvent([sent[0]!.MessageBody]), { getRemainingTimeInMillis: () => 300_000 }),
    );
    expect(review.result).toEqual({ batchItemFailures: [] });
    // The run it found, completed with today's verdict (a retry makes no second run).
    expect(gh.runsFor(HEAD_SHA)).toEqual([
      expect.objectContaining({ id: 605, status: "completed", conclusion: "failure" }),
    ]);
    gh.assertClean();
  }, 60_000);

  it("a delivery log it may not read: the run says so and ends, without failing the schedule", async () => {
    const gh = new FakeGitHub(["listDeliveries"]);
    gh.deliveryLogRefused = 403;
    const { result, lines } = await capturing(
      () => recovery.createHandler()({}, undefined) as Promise<{ unreadable?: string }>,
    );
    expect(result.unreadable).toMatch(/GitHub answered 403/);
    expect(lines.some((l) => /"level":"warn".*recovery sweep/.test(l))).toBe(true);
    gh.assertClean();
  });
});
