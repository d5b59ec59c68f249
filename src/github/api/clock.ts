/**
 * How the App's own waits run: the review's deadline, request timeouts, backoffs, the server's later
 * retries, GraphQL's pause after a failure, the Lambda worker's margins. An entry point chooses the clock
 * and hands it down (createApp, the scheduler, the gateway, the worker); production runs in real time, and
 * tests pass a faster clock, so that minutes of GitHub failing take seconds with the production mechanisms.
 * What is not the App's own (Probot's write spacing, GitHub's Retry-After) keeps its own time.
 */
export interface Clock {
  /** A duration of the App's (ms, as the time budget, time-budget.ts, writes it), as this clock runs it. */
  ms(duration: number): number;
}

/** Real time. */
export const REAL_TIME: Clock = { ms: (duration) => duration };

/** A clock on which every duration of the App's takes `factor` of its real length (tests: 0.2 is 5× as fast). */
export function scaledClock(factor: number): Clock {
  return { ms: (duration) => duration * factor };
}
