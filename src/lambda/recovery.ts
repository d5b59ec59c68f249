/**
 * Lambda on a schedule (serverless.yml, every 5 minutes): the recovery sweep of the Lambda deployment
 * (src/github/delivery/recovery.ts). Deliveries the receiver took are in the queue, with its retries and
 * dead-letter queue; what never reached the receiver (GitHub could not connect, the receiver failed) is in
 * GitHub's delivery log, which this function reads: each missed head commit without its completed run is
 * reviewed here, in-process, before the invocation ends. It keeps no disk, so each run reads the log of
 * the last hour (PLUGIN_REVIEW_RECOVERY_WINDOW_HOURS), remembering what it settled while its container
 * lives.
 */
import { REAL_TIME, type Clock } from "../github/api/clock.js";
import { probotRecovery } from "../github/delivery/probot-recovery.js";
import { recoveryWindowMs, type SweepReport } from "../github/delivery/recovery.js";
import { logLine } from "./log.js";
import { LAMBDA_RECOVERY_WINDOW_HOURS } from "../github/time-budget.js";
import { lambdaApp, reviewsEndBy, type LambdaContext } from "./probot.js";

export { clearSecretsCache, ssm } from "./secrets.js";
/** A clock on which the App's waits run faster: for tests of the bundle (api/clock.ts). */
export { scaledClock } from "../github/api/clock.js";

export function createHandler(
  opts: { clock?: Clock } = {},
): (event?: unknown, context?: LambdaContext) => Promise<SweepReport> {
  const clock = opts.clock ?? REAL_TIME;
  const app = lambdaApp("recovery", clock);
  let endsBy: number | undefined;
  let recovery: { sweep(): Promise<SweepReport> } | undefined;
  return (_event, context) =>
    app.invocation(async () => {
      endsBy = reviewsEndBy(context, clock);
      try {
        const probot = await app.started();
        recovery ??= probotRecovery(probot, {
          deliveries: app.deliveries,
          // A recovered review ends before the invocation does, as the worker's.
          endsBy: () => endsBy,
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

/** The Lambda function's handler (serverless.yml). */
export const handler = createHandler();
