/**
 * The delivery queue as AWS runs it, over real HTTP (the SDK's JSON protocol), for the bundled worker in a
 * process of its own: a FIFO queue with serverless.yml's visibility timeout and redrive policy, and Lambda's
 * SQS event source mapping in front of it (receive, invoke, delete what the invocation handled; nothing at
 * all when the invocation dies). As hostile as SQS: a VisibilityTimeout outside 0..43,200 or not an integer,
 * past 12 hours from the receive, an unknown queue or a receipt handle that is not the message's latest
 * while it is in flight are refused as SQS refuses them. Its time runs on its own clock, which a test moves
 * forward, so that a visibility timeout of minutes passes in no time.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import { parse } from "yaml";
import { freePort, ROOT } from "../helpers.js";

/** The deployment as serverless.yml describes it: the queue's settings and the worker's. */
const deployment = parse(readFileSync(join(ROOT, "serverless.yml"), "utf8"), { logLevel: "silent" }) as {
  functions: { worker: { timeout: number; environment: Record<string, unknown> } };
  resources: {
    Resources: {
      DeliveryQueue: {
        Properties: { VisibilityTimeout: number; RedrivePolicy: { maxReceiveCount: number } };
      };
    };
  };
};
const queueProperties = deployment.resources.Resources.DeliveryQueue.Properties;
export const QUEUE_VISIBILITY_S = queueProperties.VisibilityTimeout;
export const MAX_RECEIVE_COUNT = queueProperties.RedrivePolicy.maxReceiveCount;
/** The worker's timeout: what an invocation has left when it starts. */
export const INVOCATION_MS = deployment.functions.worker.timeout * 1000;
/** The worker's plain settings (those serverless.yml does not take from AWS). */
const WORKER_SETTINGS = Object.fromEntries(
  Object.entries(deployment.functions.worker.environment).filter(
    (e): e is [string, string] => typeof e[1] === "string" && /^PLUGIN_REVIEW_(?!REQUIRE)/.test(e[0]),
  ),
);
const MAX_VISIBILITY_S = 43_200;

interface Message {
  id: string;
  body: string;
  group: string;
  receiveCount: number;
  firstReceived?: number;
  received?: number;
  /** The latest receive's handle: SQS takes only it while the message is in flight. */
  receiptHandle?: string;
  visibleAt: number;
}

/** What the worker's process did with one invocation. */
export interface Invocation {
  /** Its batch response, or undefined when the process died without one. */
  response?: { batchItemFailures: { itemIdentifier: string }[] };
  /** The process's exit (code or signal). */
  exit: number | string;
  /** The process's output lines. */
  log: string[];
}

export class FakeQueue {
  readonly messages: Message[] = [];
  readonly deadLetters: Message[] = [];
  /** Requests SQS refused, as "Action: why". */
  readonly refused: string[] = [];
  /** Every ChangeMessageVisibility SQS took, as [receipt handle, seconds, at (the queue's clock)]. */
  readonly visibilityChanges: [string, number, number][] = [];
  private skewMs = 0;
  private server: Server | undefined;
  url = "";

  /** The queue's clock (ms). */
  now(): number {
    return Date.now() + this.skewMs;
  }

  /** Moves the queue's clock forward to `at` (ms, the queue's clock). */
  advanceTo(at: number): void {
    this.skewMs += Math.max(0, at - this.now());
  }

  async start(): Promise<void> {
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    this.server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((r) => this.server!.listen(port, "127.0.0.1", r));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => (this.server ? this.server.close(r) : r(undefined)));
  }

  get queueUrl(): string {
    return `${this.url}/123456789012/plugin-review-test-deliveries.fifo`;
  }

  send(body: string, group: string): void {
    this.messages.push({ id: randomUUID(), body, group, receiveCount: 0, visibleAt: 0 });
  }

  /** The message as SQS holds it now (in flight, or visible). */
  message(id: string): Message | undefined {
    return this.messages.find((m) => m.id === id);
  }

  /**
   * The event source mapping's receive of one message (batchSize 1): the first visible one of a group with
   * none in flight, hidden for the queue's visibility timeout; one received maxReceiveCount times already
   * goes to the dead-letter queue instead. Undefined when none is visible.
   */
  receive(): { Records: Record<string, unknown>[] } | undefined {
    const now = this.now();
    for (;;) {
      const busy = new Set(this.messages.filter((m) => m.visibleAt > now).map((m) => m.group));
      const next = this.messages.find((m) => m.visibleAt <= now && !busy.has(m.group));
      if (!next) return undefined;
      if (next.receiveCount >= MAX_RECEIVE_COUNT) {
        this.messages.splice(this.messages.indexOf(next), 1);
        this.deadLetters.push(next);
        continue;
      }
      next.receiveCount++;
      next.firstReceived ??= now;
      next.received = now;
      next.receiptHandle = `rh-${randomUUID()}`;
      next.visibleAt = now + QUEUE_VISIBILITY_S * 1000;
      return {
        Records: [
          {
            messageId: next.id,
            receiptHandle: next.receiptHandle,
            body: next.body,
            attributes: {
              ApproximateReceiveCount: String(next.receiveCount),
              SentTimestamp: String(now),
              ApproximateFirstReceiveTimestamp: String(next.firstReceived),
              MessageGroupId: next.group,
            },
            messageAttributes: {},
            eventSource: "aws:sqs",
            awsRegion: "us-east-1",
          },
        ],
      };
    }
  }

  /**
   * Lambda's handling of one invocation's end: the messages it did not report failed are deleted (with
   * their receipt handles: a message whose visibility lapsed meanwhile stays); a process that died without
   * a response leaves them all in flight, for their visibility timeout.
   */
  settle(event: { Records: Record<string, unknown>[] }, invocation: Invocation): void {
    if (!invocation.response) return;
    const failed = new Set(invocation.response.batchItemFailures.map((f) => f.itemIdentifier));
    for (const r of event.Records) {
      const m = this.message(r.messageId as string);
      if (m && !failed.has(m.id) && m.receiptHandle === r.receiptHandle && m.visibleAt > this.now())
        this.messages.splice(this.messages.indexOf(m), 1);
    }
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const action = String(req.headers["x-amz-target"] ?? "").replace(/^AmazonSQS\./, "");
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
    } catch {
      return this.refuse(res, action, "SerializationException", "body is not JSON");
    }
    if (input.QueueUrl !== this.queueUrl)
      return this.refuse(res, action, "QueueDoesNotExist", `no queue ${String(input.QueueUrl)}`);
    if (action !== "ChangeMessageVisibility")
      return this.refuse(res, action, "UnknownOperationException", `the worker may not call ${action}`);
    const seconds = input.VisibilityTimeout;
    if (
      typeof seconds !== "number" ||
      !Number.isInteger(seconds) ||
      seconds < 0 ||
      seconds > MAX_VISIBILITY_S
    )
      return this.refuse(
        res,
        action,
        "InvalidParameterValue",
        `Value ${String(seconds)} for parameter VisibilityTimeout is invalid. Reason: Must be an integer between 0 and 43200.`,
      );
    const now = this.now();
    const m = this.messages.find((x) => x.receiptHandle === input.ReceiptHandle);
    if (!m) return this.refuse(res, action, "ReceiptHandleIsInvalid", "The receipt handle is not valid.");
    if (m.visibleAt <= now)
      return this.refuse(
        res,
        action,
        "MessageNotInflight",
        "The message is not in flight (its receipt handle expired).",
      );
    if (now + seconds * 1000 > m.received! + MAX_VISIBILITY_S * 1000)
      return this.refuse(
        res,
        action,
        "InvalidParameterValue",
        "Total VisibilityTimeout for the message is beyond the limit [43200 seconds]",
      );
    m.visibleAt = now + seconds * 1000;
    this.visibilityChanges.push([m.receiptHandle!, seconds, now]);
    res.writeHead(200, { "content-type": "application/x-amz-json-1.0" }).end("{}");
  }

  private refuse(res: ServerResponse, action: string, code: string, message: string): void {
    this.refused.push(`${action}: ${code}`);
    res
      .writeHead(400, {
        "content-type": "application/x-amz-json-1.0",
        "x-amzn-query-error": `AWS.SimpleQueueService.${code};Sender`,
      })
      .end(JSON.stringify({ __type: `com.amazonaws.sqs#${code}`, message }));
  }
}

/** The worker's invocation as the Lambda runtime makes it: the bundle in a process of its own. */
export interface WorkerProcess {
  /** Resolves once the process ended, with its response if it gave one. */
  done: Promise<Invocation>;
  /** Kills the process (SIGKILL: out of memory, the runtime killed, the invocation's timeout). */
  kill(): void;
}

/**
 * Invokes the bundled worker (dist-lambda/worker) on `event` in a new process, as a new container's first
 * invocation, with `remainingMs` of the invocation left, its queue `queue` and its GitHub `gheHost`.
 */
export function invokeWorker(
  queue: FakeQueue,
  event: unknown,
  remainingMs: number,
  env: Record<string, string>,
): WorkerProcess {
  const script = [
    `const { handler } = await import(${JSON.stringify(join(ROOT, "dist-lambda/worker/index.mjs"))});`,
    "const deadline = Date.now() + Number(process.env.TEST_REMAINING_MS);",
    "const response = await handler(JSON.parse(process.env.TEST_EVENT), { getRemainingTimeInMillis: () => deadline - Date.now() });",
    'process.stdout.write("\\nRESPONSE " + JSON.stringify(response) + "\\n");',
  ].join("\n");
  // A file, not `-e`: the worker's analysis thread inherits the process's options.
  const file = join(mkdtempSync(join(tmpdir(), "plugin-review-invoke-")), "invoke.mjs");
  writeFileSync(file, script);
  const child = spawn(process.execPath, [file], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      QUEUE_URL: queue.queueUrl,
      AWS_ENDPOINT_URL_SQS: queue.url,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "AKIDTESTNOTREAL",
      AWS_SECRET_ACCESS_KEY: "test-secret-not-real",
      AWS_EC2_METADATA_DISABLED: "true",
      POWERTOOLS_METRICS_DISABLED: "true",
      LOG_LEVEL: "silent",
      ...WORKER_SETTINGS,
      TEST_EVENT: JSON.stringify(event),
      TEST_REMAINING_MS: String(remainingMs),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (out += c.toString("utf8")));
  const done = new Promise<Invocation>((resolve) =>
    child.once("exit", (code, signal) => {
      const log = out.split("\n").filter(Boolean);
      const line = log.find((l) => l.startsWith("RESPONSE "));
      resolve({
        exit: code ?? signal ?? -1,
        log,
        ...(line ? { response: JSON.parse(line.slice("RESPONSE ".length)) as Invocation["response"] } : {}),
      });
    }),
  );
  return { done, kill: () => child.kill("SIGKILL") };
}
