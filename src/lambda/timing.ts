/** What a Lambda function knows of its invocation's time, and what it keeps of it for itself. */
import { REPORT_TIMEOUT_MS } from "../github/api/deadline.js";

/** What the Lambda runtime passes as the handler's second argument (the part used here). */
export interface LambdaContext {
  getRemainingTimeInMillis(): number;
}

/** The longest the worker waits for SQS to push a failed message's retry back. */
export const SQS_CALL_MS = 5_000;

/**
 * Kept from the invocation's remaining time after a review's deadline: the failure report on its check run
 * (which may run that long past the deadline) and the call that pushes the message's retry back.
 */
export const MARGIN_MS = REPORT_TIMEOUT_MS + SQS_CALL_MS;
