/**
 * The delivery queue as the worker and the recovery write to it: the SQS client (one per container,
 * exported so that tests can mock it inside each bundle) and the messages they queue, each in its group.
 */
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import type { Clock } from "../github/api/clock.js";
import type { PullTarget } from "../github/api/port.js";
import { TransientReviewError } from "../github/api/errors.js";
import { SQS_CALL_MS } from "../github/time-budget.js";
import type { QueuedDelivery } from "./webhook.js";

export const sqs = new SQSClient({});

/**
 * A queued message: a delivery the receiver queued (webhook.ts: its id, name and payload, nothing else); a
 * recheck's review the worker queued in its head commit's group (`recheckOf`: the pull request at that
 * head, its asker allowed); or a delivery the recovery found missed in GitHub's log and queued where the
 * receiver would have (`recovered`: a retry, which reads what GitHub holds before writing). Only the worker
 * and the recovery write `recheckOf` and `recovered`: the receiver's messages have only the three keys,
 * whatever a signed payload holds (that is inside `payload`, and slimmed).
 */
export interface QueuedMessage extends QueuedDelivery {
  recheckOf?: PullTarget;
  recovered?: true;
}

/** Sends `message` in `group`; failing to is transient (the caller's message, or sweep, is tried again). */
export async function enqueue(
  message: QueuedMessage,
  group: string,
  deduplicationId: string,
  clock: Clock,
  what: string,
): Promise<void> {
  try {
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: process.env.QUEUE_URL,
        MessageBody: JSON.stringify(message),
        MessageGroupId: group,
        MessageDeduplicationId: deduplicationId,
      }),
      { abortSignal: AbortSignal.timeout(clock.ms(SQS_CALL_MS)) },
    );
  } catch (e) {
    throw new TransientReviewError(`could not queue ${what}: ${(e as Error).message}`);
  }
}
