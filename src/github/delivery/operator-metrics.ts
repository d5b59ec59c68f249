/**
 * What the App counts for its operators (operator metrics; never a plugin's metrics, which descriptors
 * declare): the server serves it as Prometheus text (src/serve/operator-metrics.ts), the
 * Lambda functions log it in CloudWatch's embedded metric format (src/lambda/emf.ts). Counted where it
 * happens: deliveries by app.ts, reviews by app.ts's jobs, recoveries by the sweep, GitHub's failed answers
 * by the Octokit's fetch (api/octokit/octokit.ts).
 */
/** A review's outcome as the operator metrics count it: its check run's conclusion, or `error`. */
export type CountedOutcome = "success" | "neutral" | "failure" | "error";

export interface OperatorMetrics {
  /** A delivery the App acts on was received (or handed to it by the recovery). */
  deliveryReceived(event: string): void;
  /** A review's check run was written (`error`: it could not be, or the review failed), after `seconds`. */
  reviewFinished(outcome: CountedOutcome, seconds: number): void;
  /** Deliveries the recovery handed to the App: from the server's store, or from GitHub's delivery log. */
  recovered(source: "store" | "delivery-log", count: number): void;
  /** GitHub answered a request with an error status, or did not answer ("timeout", "network"). */
  requestFailed(status: string): void;
}

/** Counts nothing (the CLI, tests that do not look). */
export const NO_OPERATOR_METRICS: OperatorMetrics = {
  deliveryReceived() {},
  reviewFinished() {},
  recovered() {},
  requestFailed() {},
};
