/**
 * The fourth stage of a review of a pull request (review/pipeline.ts): its review posted (publish.ts),
 * tried again with backoff while GitHub fails, until the review's deadline. Each try after the first reads
 * what is already there, so nothing is posted twice. A refusal that will not pass (a permission) is logged
 * and the outcome says why: the check run already holds every finding.
 */
import type { Clock } from "../../api/clock.js";
import { retryWithBackoff, runUntil } from "../../api/deadline.js";
import {
  AppIdentityError,
  describeRequestError,
  httpStatus,
  isTimeout,
  isTransient,
  PERMISSION,
  TransientReviewError,
} from "../../api/errors.js";
import type { Logger } from "../../api/port.js";
import type { ReviewOutcome } from "../outcome.js";
import type { PublishResult } from "./publish.js";

export async function publishPullReview(
  outcome: ReviewOutcome,
  publish: (attempt: number) => Promise<PublishResult>,
  terms: { deadline: number; log: Logger; clock: Clock },
): Promise<ReviewOutcome> {
  const { deadline, log, clock } = terms;
  try {
    return await runUntil(deadline, async () => {
      outcome.review = await retryWithBackoff("posting the review", log, clock, publish);
      log.info({ ...outcome.review }, "review published");
      return outcome;
    });
  } catch (e) {
    const why = describeRequestError(e, "posting the review");
    if (isTransient(e)) {
      log.error(
        { status: httpStatus(e) },
        `${why}; the findings are in the check run; the review is tried again later`,
      );
      throw new TransientReviewError(why, isTimeout(e));
    }
    // The check run already carries every finding: nothing is lost, the log says why there is no review.
    log.error(
      { status: httpStatus(e) },
      e instanceof AppIdentityError
        ? `${e.message}; no review is posted (the findings are in the check run); the next review asks again`
        : `${why}; the findings are in the check run (the app needs \`${PERMISSION.review}\` to review)`,
    );
    outcome.error = why;
    return outcome;
  }
}
