/**
 * Lambda on the delivery queue: runs the Probot app on each message. A message whose review fails for a
 * passing reason (GitHub 5xx, rate limits) is reported as failed (partial batch response) after its
 * visibility is pushed back exponentially; after the configured attempts SQS moves it to the dead-letter
 * queue. The check run is completed with the reason on every failure, never left in progress.
 */
import { ChangeMessageVisibilityCommand, SQSClient } from "@aws-sdk/client-sqs";
import { pino } from "pino";
import { Probot } from "probot";
import app from "../app.js";
import { PluginReviewOctokit } from "../github/octokit.js";
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

/** Seconds before a failed message is tried again: 30 s, 60 s, 120 s, … at most 15 minutes. */
export function backoffSeconds(receiveCount: number): number {
  return Math.min(900, 30 * 2 ** Math.max(0, receiveCount - 1));
}

export async function handler(event: SqsEvent): Promise<BatchResponse> {
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
    try {
      await p.receive(delivery as Parameters<Probot["receive"]>[0]);
      logLine("info", "delivery processed", {
        delivery: delivery.id,
        event: `${delivery.name}.${String(delivery.payload.action)}`,
      });
    } catch (e) {
      const count = Number(record.attributes?.ApproximateReceiveCount ?? "1");
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
            VisibilityTimeout: backoffSeconds(count),
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
