/**
 * Lambda on a schedule (serverless.yml, every 5 minutes): the recovery sweep of the Lambda deployment
 * (src/github/delivery/recovery.ts). Deliveries the receiver took are in the queue, with its retries and
 * dead-letter queue; what never reached the receiver (GitHub could not connect, the receiver failed) is in
 * GitHub's delivery log, which this function reads: the delivery of each missed head commit without its
 * completed run is queued as the receiver would have queued it, in its head commit's group (a recheck: its
 * pull request's, whose message queues the review in the head's group), for the worker to review as a
 * retry. Not reviewed here: beside the worker's review of the same head (another pull request's, or the
 * other delivery of the push), a review here could write its pass over that one's failure. It keeps no
 * disk, so each run reads the log of the last hour (PLUGIN_REVIEW_RECOVERY_WINDOW_HOURS), remembering what
 * it settled while its container lives.
 */
import { REAL_TIME, type Clock } from "../github/api/clock.js";
import { probotRecovery } from "../github/delivery/probot-recovery.js";
import { recoveryWindowMs, type Delivery, type SweepReport } from "../github/delivery/recovery.js";
import { slimPayload } from "../github/delivery/events.js";
import { enqueue } from "./queue.js";
import { deliveryGroup } from "./webhook.js";
import { logLine } from "./log.js";
import { LAMBDA_RECOVERY_WINDOW_HOURS } from "../github/time-budget.js";
import { lambdaApp, type LambdaContext } from "./probot.js";

/** Exported, with the SQS client, so that tests can mock both inside the bundle (aws-sdk-client-mock). */
export { clearSecretsCache, ssm } from "./secrets.js";
export { sqs } from "./queue.js";
/** A clock on which the App's waits run faster: for tests of the bundle (api/clock.ts). */
export { scaledClock } from "../github/api/clock.js";

export function createHandler(
  opts: { clock?: Clock } = {},
): (event?: unknown, context?: LambdaContext) => Promise<SweepReport> {
  const clock = opts.clock ?? REAL_TIME;
  const app = lambdaApp("recovery", clock);
  let recovery: { sweep(): Promise<SweepReport> } | undefined;
  return (_event, _context) =>
    app.invocation(async () => {
      try {
        const probot = await app.started();
        recovery ??= probotRecovery(probot, {
          deliveries: app.deliveries,
          hand: (d) => queueRecovered(d, clock),
          windowMs: recoveryWindowMs(process.env, LAMBDA_RECOVERY_WINDOW_HOURS),
          operatorMetrics: app.operatorMetrics,
        });
        const report = await recovery.sweep();
        logLine(report.unreadable ? "warn" : "info", "recovery sweep", { ...report });
        return report;
      } catch (e) {
        logLine("error", "recovery sweep failed", { error: (e as Error).message });
        throw e;
      }
    });
}

/**
 * Queues missed delivery `d` as the receiver would have (slimmed, in the group of its head commit, or of
 * its pull request for a recheck), marked as a retry. Deduplicated by its delivery id, as the receiver's: a
 * delivery the receiver queued before failing to answer GitHub is not queued twice within SQS's 5 minutes.
 */
function queueRecovered(d: Delivery, clock: Clock): Promise<void> {
  const payload = slimPayload(d.name, d.payload);
  return enqueue(
    { id: d.id, name: d.name, payload, recovered: true },
    deliveryGroup(d.name, payload, d.id),
    d.id,
    clock,
    `recovered delivery ${d.id}`,
  );
}

/** The Lambda function's handler (serverless.yml). */
export const handler = createHandler();
