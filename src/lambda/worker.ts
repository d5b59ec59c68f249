/**
 * Lambda on the delivery queue: runs the Probot app on each message of a batch, in order. Its reviews must
 * end before the invocation does: they get the remaining time less a margin (for completing the check run
 * and reporting the message), and a message is started only while that leaves a review enough time. The
 * batch stops at the first failure; that message and the later ones are reported failed (a pull request's
 * deliveries stay in order), the later ones to be received again at once. A message whose review fails for a passing reason (GitHub 5xx, rate limits,
 * GitHub not answering in time) is reported as failed (partial batch response) after its visibility is
 * pushed back (briefly after a timeout, exponentially otherwise); after the configured attempts SQS moves
 * it to the dead-letter queue. The check run is completed with the reason on every failure, never left
 * in progress, and the retry completes it with the review's result. First of all, each message's visibility
 * is shortened to what the invocation has left (and a little more): SQS changes nothing when an invocation
 * dies, so a worker out of memory or killed would otherwise leave it hidden for the queue's 30 minutes. The
 * queue's last try (PLUGIN_REVIEW_MAX_RECEIVES) holds a failing run while it reviews, so that a delivery
 * that kills the worker every time leaves a failing check rather than one that waits forever.
 */
import { ChangeMessageVisibilityCommand } from "@aws-sdk/client-sqs";
import type { PullTarget } from "../github/api/port.js";
import type { Probot } from "probot";
import { REAL_TIME, type Clock } from "../github/api/clock.js";
import { TransientReviewError } from "../github/api/errors.js";
import { plural } from "../format/summary.js";
import { logLine } from "./log.js";
import {
  IN_WORK_VISIBILITY_EXTRA_S,
  MARGIN_MS,
  MIN_REVIEW_MS,
  queueBackoffSeconds,
  queueTimeoutBackoffSeconds,
  SECOND_MS,
  SQS_CALL_MS,
  UNTRIED_VISIBILITY_S,
} from "../github/time-budget.js";
import { lambdaApp, reviewsEndBy, type LambdaContext } from "./probot.js";
import { enqueue, sqs, type QueuedMessage } from "./queue.js";
import { headGroup, queueGroup, type QueuedDelivery } from "./webhook.js";

export interface SqsRecord {
  messageId: string;
  receiptHandle: string;
  body: string;
  attributes?: { ApproximateReceiveCount?: string };
}

export interface SqsEvent {
  Records: SqsRecord[];
}

export interface BatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

/** Exported, with the SSM client, so that tests can mock both inside the bundle (aws-sdk-client-mock). */
export { sqs } from "./queue.js";
export { clearSecretsCache, ssm } from "./secrets.js";
/** A clock on which the App's waits run faster: for tests of the bundle (api/clock.ts). */
export { scaledClock } from "../github/api/clock.js";

function isPullTarget(t: unknown): t is PullTarget {
  const p = t as Partial<PullTarget> | null;
  return (
    typeof p === "object" &&
    p !== null &&
    typeof p.number === "number" &&
    [p.owner, p.repo, p.ownerType, p.headSha, p.baseSha].every((v) => typeof v === "string")
  );
}

/** The message in `body`, or undefined when it holds none. */
export function queuedMessage(body: string): QueuedMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const d = parsed as Partial<QueuedMessage> | null;
  const isDelivery =
    typeof d === "object" &&
    d !== null &&
    typeof d.id === "string" &&
    typeof d.name === "string" &&
    typeof d.payload === "object" &&
    d.payload !== null &&
    (d.recheckOf === undefined || isPullTarget(d.recheckOf)) &&
    (d.recovered === undefined || d.recovered === true);
  return isDelivery ? (d as QueuedMessage) : undefined;
}

/**
 * Queues the review of a recheck (allowed, its pull request's head read) in that head's message group, as
 * the receiver groups the head's deliveries: it then waits for the head's other reviews instead of running
 * beside them. Failing to is transient: the recheck's message is tried again.
 */
async function queueRecheckReview(delivery: QueuedDelivery, target: PullTarget, clock: Clock): Promise<void> {
  const repo = (delivery.payload.repository as { full_name?: unknown } | undefined)?.full_name ?? "unknown";
  await enqueue(
    { ...delivery, recheckOf: target },
    headGroup(repo, target.headSha),
    // A retry of the recheck's message that queued it already is dropped within SQS's 5 minutes.
    queueGroup(`${delivery.id}:recheck`),
    clock,
    "the recheck's review",
  );
}

/** The queue's redrive setting the worker reads (serverless.yml sets it to the queue's maxReceiveCount). */
export const MAX_RECEIVES_ENV = "PLUGIN_REVIEW_MAX_RECEIVES";

/**
 * The receive after which the dead-letter queue takes a message, from the environment: undefined when unset
 * (no try is known to be the last), else a whole number from 1 to 1000 (SQS's range for maxReceiveCount).
 * Anything else is refused with the variable's name: a value read as "never" would leave a delivery that
 * kills the worker every time with a run that waits forever, one read as 0 would hold a failing run at
 * every first try.
 */
export function maxReceivesFrom(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env[MAX_RECEIVES_ENV]?.trim();
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 1000)
    throw new Error(
      `${MAX_RECEIVES_ENV} must be a whole number from 1 to 1000 (the queue's maxReceiveCount), not '${env[MAX_RECEIVES_ENV]}'`,
    );
  return n;
}

/** Whether the failure (Probot wraps handler errors in an AggregateError) was GitHub not answering in time. */
function timedOut(e: unknown): boolean {
  const errors = (e as { errors?: unknown[] }).errors ?? [e];
  return errors.some((x) => x instanceof TransientReviewError && x.timedOut);
}

/** Sets when SQS hands a message out again; a failure to do so is logged (the queue's timeout applies). */
async function retryIn(record: SqsRecord, seconds: number, clock: Clock, delivery?: string): Promise<void> {
  try {
    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: process.env.QUEUE_URL,
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: seconds,
      }),
      { abortSignal: AbortSignal.timeout(clock.ms(SQS_CALL_MS)) },
    );
  } catch (e) {
    logLine(
      "warn",
      "could not set when SQS hands the message out again; the queue's visibility timeout applies",
      {
        ...(delivery ? { delivery } : {}),
        messageId: record.messageId,
        error: (e as Error).message,
      },
    );
  }
}

/**
 * How long (s, on the time budget's scale) SQS is to hide the messages of an invocation with `leftMs` left:
 * while the invocation may still run them, and a little more, so that one whose invocation dies (out of
 * memory, killed, timed out) comes back within minutes rather than after the queue's visibility timeout.
 */
function inWorkVisibilitySeconds(leftMs: number, clock: Clock): number {
  return Math.max(0, Math.ceil(leftMs / clock.ms(SECOND_MS))) + IN_WORK_VISIBILITY_EXTRA_S;
}

/** The worker's handler, its App running on `clock` (real time; tests of the bundle run it faster). */
export function createHandler(
  opts: { clock?: Clock } = {},
): (event: SqsEvent, context?: LambdaContext) => Promise<BatchResponse> {
  const clock = opts.clock ?? REAL_TIME;
  const app = lambdaApp("worker", clock, {
    queueRecheckReview: (delivery, target) => queueRecheckReview(delivery, target, clock),
  });

  /**
   * Handles a batch in order and stops at the first message that fails (as AWS advises for FIFO queues with
   * partial batch responses): that message and every one after it are reported failed, so that none of a
   * pull request's later deliveries is handled before an earlier one's retry. A message is started only
   * while the invocation has the time for a review and its margin; the rest are reported failed and come
   * back at once, rather than after the queue's visibility timeout when the invocation times out.
   */
  return (event, context) => app.invocation(() => handle(event, context));

  async function handle(event: SqsEvent, context?: LambdaContext): Promise<BatchResponse> {
    const records = event.Records;
    // The queue's visibility timeout is six times the function's (as AWS advises for event sources), and SQS
    // changes nothing when an invocation dies: each message's own is shortened first, before anything else
    // can kill the invocation. A failed message's backoff and an untried one's return then replace it.
    const atStart = context?.getRemainingTimeInMillis();
    if (atStart !== undefined)
      await Promise.all(records.map((r) => retryIn(r, inWorkVisibilitySeconds(atStart, clock), clock)));
    let p: Probot;
    let maxReceives: number | undefined;
    try {
      maxReceives = maxReceivesFrom(process.env);
      p = await app.started();
    } catch (e) {
      logLine("error", "cannot start the app", { error: (e as Error).message });
      return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
    }
    /** Reports the records from `i` on failed, untried, to be received again at once. */
    const leave = async (i: number, why: string): Promise<BatchResponse> => {
      const untried = records.slice(i);
      if (untried.length)
        logLine("warn", `${why}: ${plural(untried.length, "message")} left for the next invocation`);
      await Promise.all(untried.map((r) => retryIn(r, UNTRIED_VISIBILITY_S, clock)));
      return { batchItemFailures: untried.map((r) => ({ itemIdentifier: r.messageId })) };
    };
    for (const [i, record] of records.entries()) {
      const message = queuedMessage(record.body);
      if (!message) {
        logLine("error", "dropping a message that is not a delivery", { messageId: record.messageId });
        continue; // retrying cannot fix it
      }
      const { recheckOf, recovered, ...delivery } = message;
      const left = context?.getRemainingTimeInMillis();
      if (left !== undefined && left < clock.ms(MARGIN_MS + MIN_REVIEW_MS))
        return leave(i, "too little time left in this invocation for a review");
      const count = Number(record.attributes?.ApproximateReceiveCount ?? "1");
      // The queue's redrive policy (serverless.yml): after this receive, the dead-letter queue takes it.
      const lastTry = maxReceives !== undefined && count >= maxReceives;
      try {
        // A retried message is the review's next attempt (a Re-run then completes the run the first made),
        // and its reviews end before the invocation does.
        const endsBy = reviewsEndBy(context, clock);
        await app.deliveries.during(
          delivery.id,
          {
            // One the recovery queued is a retry from its first receive: its review reads what GitHub holds first.
            attempt: count - 1 + (recovered ? 1 : 0),
            ...(recovered ? { recovered } : {}),
            ...(endsBy !== undefined ? { endsBy } : {}),
            ...(lastTry ? { lastTry: true } : {}),
            ...(recheckOf ? { recheckOf } : {}),
          },
          () => p.receive(delivery as Parameters<Probot["receive"]>[0]),
        );
        logLine("info", "delivery processed", {
          delivery: delivery.id,
          event: `${delivery.name}.${String(delivery.payload.action)}`,
        });
      } catch (e) {
        logLine("error", "delivery failed; it will be retried", {
          delivery: delivery.id,
          attempt: count,
          error: (e as Error).message,
        });
        const [, after] = await Promise.all([
          retryIn(
            record,
            timedOut(e) ? queueTimeoutBackoffSeconds(count) : queueBackoffSeconds(count),
            clock,
            delivery.id,
          ),
          leave(i + 1, "a delivery failed"),
        ]);
        return { batchItemFailures: [{ itemIdentifier: record.messageId }, ...after.batchItemFailures] };
      }
    }
    return { batchItemFailures: [] };
  }
}

/** The Lambda function's handler (serverless.yml). */
export const handler = createHandler();
