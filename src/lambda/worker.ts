/**
 * Lambda on the delivery queue: runs the Probot app on each message. Its reviews must end before the
 * invocation does: they get the remaining time less a margin (for completing the check run and
 * reporting the message). A message whose review fails for a passing reason (GitHub 5xx, rate limits,
 * GitHub not answering in time) is reported as failed (partial batch response) after its visibility is
 * pushed back (briefly after a timeout, exponentially otherwise); after the configured attempts SQS moves
 * it to the dead-letter queue. The check run is completed with the reason on every failure, never left
 * in progress, and the retry completes it with the review's result.
 */
import { ChangeMessageVisibilityCommand, SQSClient } from "@aws-sdk/client-sqs";
import { pino } from "pino";
import { Probot } from "probot";
import app from "../app.js";
import { scaled, withReviewsEndingBy } from "../github/deadline.js";
import { withDeliveryAttempt } from "../github/scheduler.js";
import { TransientReviewError } from "../github/errors.js";
import { PluginReviewOctokit } from "../github/app-octokit.js";
import { logLine } from "./log.js";
import { loadSecrets } from "./secrets.js";
import type { QueuedDelivery } from "./webhook.js";

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
export const sqs = new SQSClient({});
export { clearSecretsCache, ssm } from "./secrets.js";
/** For tests of the bundle: the App's clocks run faster (deadline.ts). */
export { setTimeScale } from "../github/deadline.js";
let probot: Promise<Probot> | undefined;

async function createProbot(): Promise<Probot> {
  const { appId, privateKey } = await loadSecrets(["appId", "privateKey"]);
  const p = new Probot({
    appId: appId as string,
    privateKey: (privateKey as string).replace(/\\n/g, "\n"),
    Octokit: PluginReviewOctokit,
    log: pino({ level: process.env.LOG_LEVEL ?? "info", base: { fn: "worker" } }),
    ...(process.env.GHE_HOST
      ? { baseUrl: `${process.env.GHE_PROTOCOL ?? "https"}://${process.env.GHE_HOST}/api/v3` }
      : {}),
  });
  await p.load(app);
  return p;
}

/** What the Lambda runtime passes as the handler's second argument (the part used here). */
export interface LambdaContext {
  getRemainingTimeInMillis(): number;
}

/** Kept from the invocation's remaining time for completing a check run and reporting the message. */
export const MARGIN_MS = 15_000;

/** Seconds before a failed message is tried again: 30 s, 60 s, 120 s, … at most 15 minutes. */
export function backoffSeconds(receiveCount: number): number {
  return Math.min(900, 30 * 2 ** Math.max(0, receiveCount - 1));
}

/** After GitHub did not answer in time, the next attempt comes soon: 10 s, 20 s, … at most a minute. */
export function timeoutBackoffSeconds(receiveCount: number): number {
  return Math.min(60, 10 * Math.max(1, receiveCount));
}

/** Whether the failure (Probot wraps handler errors in an AggregateError) was GitHub not answering in time. */
function timedOut(e: unknown): boolean {
  const errors = (e as { errors?: unknown[] }).errors ?? [e];
  return errors.some((x) => x instanceof TransientReviewError && x.timedOut);
}

export async function handler(event: SqsEvent, context?: LambdaContext): Promise<BatchResponse> {
  const failures: { itemIdentifier: string }[] = [];
  try {
    probot ??= createProbot();
    await probot;
  } catch (e) {
    probot = undefined;
    logLine("error", "cannot start the app", { error: (e as Error).message });
    return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
  }
  const p = await probot;
  for (const record of event.Records) {
    let delivery: QueuedDelivery;
    try {
      delivery = JSON.parse(record.body) as QueuedDelivery;
    } catch {
      logLine("error", "dropping a message that is not a delivery", { messageId: record.messageId });
      continue; // retrying cannot fix it
    }
    const count = Number(record.attributes?.ApproximateReceiveCount ?? "1");
    try {
      // A retried message is the review's next attempt (a Re-run then completes the run the first made).
      const receive = () =>
        withDeliveryAttempt(count - 1, () => p.receive(delivery as Parameters<Probot["receive"]>[0]));
      if (context) {
        // Less a margin, but never less than a quarter of what is left (a short test invocation).
        const left = context.getRemainingTimeInMillis();
        await withReviewsEndingBy(Date.now() + left - Math.min(scaled(MARGIN_MS), left / 4), receive);
      } else await receive();
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
      failures.push({ itemIdentifier: record.messageId });
      try {
        await sqs.send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: process.env.QUEUE_URL,
            ReceiptHandle: record.receiptHandle,
            VisibilityTimeout: timedOut(e) ? timeoutBackoffSeconds(count) : backoffSeconds(count),
          }),
        );
      } catch (e2) {
        logLine("warn", "could not delay the retry; the queue's visibility timeout applies", {
          delivery: delivery.id,
          error: (e2 as Error).message,
        });
      }
    }
  }
  return { batchItemFailures: failures };
}
