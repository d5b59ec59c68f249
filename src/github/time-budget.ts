/**
 * The App's time budget: every deadline, timeout, back-off and retry schedule of the server and the Lambda
 * functions, each with the reason for its length, and nowhere else (test/github/time-budget.test.ts fails
 * on a timing literal in src/github, src/serve or src/lambda, and renders docs/reliability.md's table from
 * here). How long a delivery can take, end to end: its review ends by REVIEW_DEADLINE_MS (on Lambda, sooner
 * when the invocation ends first, less MARGIN_MS), its check run completed as failure at most
 * REPORT_TIMEOUT_MS later; the review is then tried again later, on the server after LATER_RETRIES_MS, on
 * Lambda by the queue.
 *
 * Who tries what again, lowest first; each retries only what the layers below it cannot:
 * 1. Octokit's retry plugin (READ_RETRIES): a REST read GitHub failed or did not answer. Never a write
 *    (GitHub may have made it without answering) nor GraphQL (REST replaces it at once).
 * 2. The throttling plugin (RATE_LIMIT_RETRIES): a request GitHub rate-limited, after the wait GitHub names,
 *    unless that wait ends past the review's deadline (then the review fails at once, freeing its slot).
 * 3. The gateway's GraphQL→REST fallback (REST_AFTER_GRAPHQL_FAILURE_MS): the operation whose GraphQL
 *    failed, once, through REST; a write only when GitHub refused the document (it ran nothing).
 * 4. The Octokit factory's fresh token: a request GitHub answered 401, once per review.
 * 5. retryWithBackoff (writeBackoffMs): the writes that complete the check run and post the review, within
 *    the review's deadline, each try after reading what GitHub holds (why no layer below retries writes).
 * 6. The whole review, once its deadline passed or GitHub kept failing: the server's scheduler
 *    (LATER_RETRIES_MS), or on Lambda the queue (queueBackoffSeconds): a message SQS hands out again.
 * 7. The recovery (RECOVERY_INTERVAL_MINUTES): deliveries that never reached the App, or whose process died.
 * Not the App's own, and not set here: Probot's write spacing (the throttling plugin's, about 1 s between an
 * installation's writes, 3 s between review comments) and the auth library's retries of a just-issued token.
 *
 * Each entry's comment reads "what: why" (the table's columns). The App's own waits run on its clock
 * (api/clock.ts), which tests run faster; the server's HTTP limits run in real time.
 */

// # Units

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

// # A review, on the server and on Lambda

/**
 * A review's deadline: GitHub answers a healthy review in seconds; past this it is failing, and the review is
 * tried again later.
 */
export const REVIEW_DEADLINE_MS = 2 * MINUTE_MS;

/**
 * One GitHub request: undici's own 300 s would spend a review's deadline on a request GitHub never answers.
 */
export const REQUEST_TIMEOUT_MS = 20 * SECOND_MS;

/**
 * Completing the check run as failure, past the deadline: the deadline may be what failed, and the run must
 * say so.
 */
export const REPORT_TIMEOUT_MS = 10 * SECOND_MS;

/**
 * Octokit's retries of a failed REST read: a read is safe to send again (after 1, 4 and 9 s); a write is
 * retried only above, after a read, and GraphQL is replaced by REST at once.
 */
export const READ_RETRIES = 3;

/**
 * Retries of a rate-limited request: each after the wait GitHub names; a limit passes, and past these GitHub
 * is failing.
 */
export const RATE_LIMIT_RETRIES = 3;

/**
 * Retries of the check run's and the review's writes: until the deadline; GitHub failing often passes in
 * seconds, and each try reads what GitHub holds first, so that nothing is written twice.
 */
export function writeBackoffMs(attempt: number): number {
  return Math.min(16 * SECOND_MS, SECOND_MS * 2 ** attempt);
}

/**
 * REST alone, for an installation whose GraphQL failed: an outage of GitHub's GraphQL lasts minutes, so it is
 * not tried at every request meanwhile.
 */
export const REST_AFTER_GRAPHQL_FAILURE_MS = 10 * MINUTE_MS;

/**
 * One descriptor's analysis, in an analysis thread: the worst file the core's bounds allow takes seconds; past
 * this the thread is stopped and started afresh, so that other reviews go on.
 */
export const ANALYSIS_FILE_TIMEOUT_MS = 60 * SECOND_MS;

// # The server's scheduler

/**
 * The server's retries of a whole review: for a failure that may pass (GitHub failing, or too slow for the
 * deadline), since GitHub's outages last minutes; on Lambda the queue's retries do this.
 */
export const LATER_RETRIES_MS: readonly number[] = [1, 2, 5, 10].map((m) => m * MINUTE_MS);

/**
 * A review's wait for deliveries being answered: answers go first under a burst (GitHub waits 10 s for one),
 * but a steady stream must not starve the reviews.
 */
export const ANSWERS_FIRST_MAX_WAIT_MS = 250;

/**
 * A post waiting for its installation's check runs: the check run is what users wait for, but a steady stream
 * must not starve the posts.
 */
export const CHECK_RUNS_FIRST_MAX_WAIT_MS = 10 * SECOND_MS;

/** The reviews in flight, on SIGTERM: within the 30 s platforms give a process before they kill it. */
export const SHUTDOWN_GRACE_MS = 25 * SECOND_MS;

// # The server's guard, before a delivery is trusted

/** A delivery's body to arrive: GitHub gives up on a delivery after 10 s, so a slower body is no delivery. */
export const BODY_TIMEOUT_MS = 10 * SECOND_MS;

/** A request's headers to arrive: a slow sender must not hold a connection. */
export const HTTP_HEADERS_TIMEOUT_MS = 10 * SECOND_MS;

/** A whole request to arrive: twice what GitHub itself waits for its answer. */
export const HTTP_REQUEST_TIMEOUT_MS = 20 * SECOND_MS;

/** A connection with no byte either way: closed, so that idle sockets cannot pile up. */
export const HTTP_IDLE_TIMEOUT_MS = 15 * SECOND_MS;

/** An idle keep-alive connection: GitHub opens one per delivery anyway. */
export const HTTP_KEEP_ALIVE_TIMEOUT_MS = 5 * SECOND_MS;

/** A refused request's connection, kept open: for its answer to get out before the unread body is dropped. */
export const REFUSED_LINGER_MS = 2 * SECOND_MS;

/** Retry-After, while the server shuts down: the recovery after its restart finds the delivery anyway. */
export const DRAINING_RETRY_AFTER_S = 30;

/** Retry-After, while unverified bodies fill their budget: such a burst passes in seconds. */
export const BUSY_RETRY_AFTER_S = 10;

// # The recovery of missed deliveries

/**
 * Between sweeps of GitHub's delivery log: a missed delivery is reviewed within minutes, at one listing
 * request when none was missed (the server's default, the Lambda recovery's schedule).
 */
export const RECOVERY_INTERVAL_MINUTES = 5;

/** The longest interval the server takes: well within GitHub's log, so that the next sweep still finds it. */
export const RECOVERY_INTERVAL_MAX_MINUTES = 24 * 60;

/**
 * GitHub's delivery log, on github.com: the longest window a sweep can read, and the server's first (it
 * cannot know how long it was down).
 */
export const DELIVERY_LOG_RETENTION_MS = 3 * DAY_MS;

/**
 * Each Lambda recovery run's window: it runs every 5 minutes and keeps no disk, so an hour also covers its
 * own short outages.
 */
export const LAMBDA_RECOVERY_WINDOW_HOURS = 1;

/** A sweep's overlap with the last one: GitHub may still have been making attempts when it ended. */
export const SWEEP_OVERLAP_MS = 10 * MINUTE_MS;

/** A settled delivery, remembered: longer than GitHub keeps its log, so that none is looked at twice. */
export const SETTLED_FOR_MS = 4 * DAY_MS;

// # Lambda

/** The call that sets when a failed message comes back: past this, the queue's visibility timeout applies. */
export const SQS_CALL_MS = 5 * SECOND_MS;

/**
 * Kept from the invocation past a review's deadline: the failure report on its check run, then that call to
 * SQS.
 */
export const MARGIN_MS = REPORT_TIMEOUT_MS + SQS_CALL_MS;

/**
 * A message's least time for its review, beyond the margin: with less, it is left for the next invocation.
 */
export const MIN_REVIEW_MS = 10 * SECOND_MS;

/**
 * A message in work, hidden past its invocation's end: for the event source mapping to delete it once
 * handled; one whose invocation died (out of memory, killed, timed out) comes back then, not after the
 * queue's visibility timeout.
 */
export const IN_WORK_VISIBILITY_EXTRA_S = 30;

/**
 * A message left untried comes back: an earlier one failed, or too little time was left; it was not the
 * failure.
 */
export const UNTRIED_VISIBILITY_S = 0;

/**
 * The queue's retries of a delivery that failed: GitHub's outages last minutes; after maxReceiveCount
 * receives (serverless.yml) it goes to the dead-letter queue.
 */
export function queueBackoffSeconds(receiveCount: number): number {
  return Math.min(15 * 60, 30 * 2 ** Math.max(0, receiveCount - 1));
}

/**
 * The queue's retries after GitHub did not answer in time: sooner, since a slow GitHub often answers the next
 * try.
 */
export function queueTimeoutBackoffSeconds(receiveCount: number): number {
  return Math.min(60, 10 * Math.max(1, receiveCount));
}
