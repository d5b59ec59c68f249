/**
 * The one place reviews are scheduled in a process (the server, the Lambda worker, the tests):
 * - one review at a time per head commit: duplicate and simultaneous deliveries (every push sends both
 *   `pull_request.synchronize` and `check_suite.requested`) never race to create two check runs or post a
 *   comment twice;
 * - on the server, a bounded pool that reviews in the background and drains on shutdown, its slots given in
 *   turns, installation after installation and pull request after pull request (a storm of pushes to one
 *   pull request does not hold up the others); a review's slot is given back once its check run is written (posting the review mostly waits in the installation's write
 *   queue, which must not hold up other reviews' reads and CPU work);
 * - check runs before reviews, per installation: a review's post waits while its installation has check
 *   runs to write (the check run is what users and required checks wait for);
 * - on the server, a review that failed for a reason that may pass (TransientReviewError) is tried again
 *   later, at 1, 2, 5 and 10 minutes; on Lambda the failure goes back to the queue, which retries the message.
 * The review itself (review/pipeline.ts) knows nothing of this: it orders its own stages, and says when
 * its check run is written and when it is about to post (JobTurn), which is where the scheduler gives the
 * slot back and where other check runs go first.
 */
import { REAL_TIME, type Clock } from "../api/clock.js";
import { LATER_RETRIES_MS } from "../time-budget.js";
import { TransientReviewError } from "../api/errors.js";
import { BackgroundPool, CheckRunsFirst, KeyedLock } from "./concurrency.js";

/** A review of one head commit, as app.ts makes it from an event. */
export interface ReviewJob {
  /** Whose write queue its writes join (the installation; the owner when the event names none). */
  installation: string;
  /** The head commit: one review at a time per commit. */
  commit: string;
  /**
   * The pull request it reviews (`owner/repo#number`), if any: the pushes of one pull request wait their
   * turn as one, beside the installation's other pull requests (concurrency.ts TakeTurns).
   */
  pull?: string;
  /**
   * Runs the review. `attempt`: 0, then 1, 2, … when the scheduler or the queue tries it again; `turn`: what
   * the review calls once its check run is written.
   */
  run(attempt: number, turn: JobTurn): Promise<void>;
  /** Called once the review is done for good: completed, or failed with no later retry of the scheduler's. */
  onSettled?(): void;
  /** A review the recovery found: it yields to the others for a slot (concurrency.ts BackgroundPool). */
  recovered?: boolean;
  /**
   * False for a job that only finds what to review and schedules that (a recheck reads its pull request's
   * head): other reviews' posts do not wait for it as for a check run.
   */
  writesCheckRun?: boolean;
}

/** What a job tells the scheduler while it runs (review/pipeline.ts StageTurns). */
export interface JobTurn {
  /** Its check run is written: its slot goes back (again: nothing more). */
  checkRunWritten(): void;
  /**
   * It is about to post what follows its check run: it waits while its installation has other check runs
   * to write (the check run is what users and required checks wait for).
   */
  beforePublish(): Promise<void>;
}

export interface SchedulerOptions {
  /**
   * Reviews in the background, `concurrency` at a time (the server): `submit` returns once the review is
   * queued. Without: `submit` runs it and returns its result (the Lambda worker, whose failed message is
   * retried, and the tests).
   */
  background?: {
    concurrency: number;
    /** What a review waits for once it has its slot (the server: deliveries being answered first). */
    beforeStart?: () => Promise<void>;
  };
  /** Delays (ms, as the clock runs them) of the background retries; LATER_RETRIES_MS by default. */
  retriesMs?: readonly number[];
  /** How the retries' delays run (real time by default). */
  clock?: Clock;
  log?: SchedulerLog;
}

/** Where the scheduler says what it does with failed reviews (the server's log). */
export interface SchedulerLog {
  warn(msg: string): void;
  error(obj: object, msg: string): void;
}

export class ReviewScheduler {
  private readonly lock = new KeyedLock();
  private readonly checkRunsFirst = new CheckRunsFirst();
  private readonly pool: BackgroundPool | undefined;
  private readonly retriesMs: readonly number[];
  /**
   * The later retries waiting, by head commit and pull request (retryKey): another pull request's review of
   * the same head, passing or failing, leaves a failed one's retry in place.
   */
  private readonly retries = new Map<string, NodeJS.Timeout>();

  constructor(private readonly opts: SchedulerOptions = {}) {
    this.retriesMs = opts.retriesMs ?? LATER_RETRIES_MS;
    const bg = opts.background;
    this.pool =
      bg &&
      new BackgroundPool(
        bg.concurrency,
        // The review has reported its failure on its check run and in the log; retries are set up in `job`.
        () => undefined,
        bg.beforeStart,
      );
  }

  /**
   * Schedules a review (`attempt`: how many times its delivery was tried before). Background: queued, and tried again later if it fails for a reason that may
   * pass (throws ShuttingDownError once draining). Otherwise: run now; its failure is thrown.
   */
  submit(job: ReviewJob, attempt = 0): Promise<void> {
    return this.schedule(job, attempt);
  }

  /** Reviews running or waiting (background), and later retries waiting for their time. */
  get pending(): number {
    return (this.pool?.pending ?? 0) + this.retries.size;
  }

  /** Reviews running now, and those waiting for a slot or for their later retry (the server's metrics). */
  get load(): { running: number; waiting: number } {
    const running = this.pool?.running ?? 0;
    return { running, waiting: (this.pool?.pending ?? 0) - running + this.retries.size };
  }

  /** Stops taking reviews, drops the later retries, and waits for the reviews taken (at most `timeoutMs`). */
  async drain(timeoutMs: number): Promise<boolean> {
    for (const timer of this.retries.values()) clearTimeout(timer);
    if (this.retries.size)
      this.opts.log?.warn(`shutting down: ${this.retries.size} later review retries dropped`);
    this.retries.clear();
    return this.pool ? this.pool.drain(timeoutMs) : true;
  }

  private schedule(job: ReviewJob, attempt: number): Promise<void> {
    const commit = job.commit;
    let written: (() => void) | undefined;
    // Counted once it holds the lock: a review waiting for it must not be waited for by the holder.
    const locked = this.lock.acquire(commit).then((unlock) => {
      if (job.writesCheckRun !== false) written = this.checkRunsFirst.expect(job.installation);
      return unlock;
    });
    const run = async (release: () => void) => {
      const unlock = await locked;
      const turn: JobTurn = {
        checkRunWritten: () => (written?.(), release()),
        beforePublish: () => this.checkRunsFirst.quiet(job.installation),
      };
      try {
        await job.run(attempt, turn);
        this.clearRetry(retryKey(job));
        job.onSettled?.();
      } catch (e) {
        if (!(this.pool && this.retryLater(job, attempt, e))) job.onSettled?.();
        throw e;
      } finally {
        written?.();
        unlock();
      }
    };
    if (!this.pool) return run(() => undefined);
    try {
      this.pool.submit(run, locked, job.recovered === true, [job.installation, job.pull ?? job.commit]);
    } catch (e) {
      // Not taken (shutting down): give the turn back.
      void locked.then((unlock) => (written?.(), unlock()));
      throw e;
    }
    return Promise.resolve();
  }

  /**
   * A background review that failed for a reason that may pass is tried again, later, a few times; true
   * when a retry is set up.
   */
  private retryLater(job: ReviewJob, attempt: number, e: unknown): boolean {
    // The job's own failure: a background review runs outside Probot, which would wrap it (AggregateError).
    if (!(e instanceof TransientReviewError)) {
      this.opts.log?.error({ err: e }, "background review failed");
      return false;
    }
    const delay = this.retriesMs[attempt];
    if (delay === undefined) {
      this.opts.log?.error(
        { err: e },
        `background review failed ${attempt + 1} times; the next delivery or a re-run completes it`,
      );
      return false;
    }
    const key = retryKey(job);
    this.clearRetry(key);
    const ms = (this.opts.clock ?? REAL_TIME).ms(delay);
    this.opts.log?.warn(`review of ${job.commit} failed (${e.message}); trying again in ${ms / 1000} s`);
    const timer = setTimeout(() => {
      this.retries.delete(key);
      try {
        void this.schedule(job, attempt + 1);
      } catch {
        // Shutting down: the retry is dropped.
      }
    }, ms);
    this.retries.set(key, timer);
    return true;
  }

  private clearRetry(key: string): void {
    clearTimeout(this.retries.get(key));
    this.retries.delete(key);
  }
}

/**
 * Whose later retry a job's end replaces or clears: its head commit's, for its pull request. The deliveries of
 * one push (`synchronize`, `check_suite.requested`) review the same pull request, so one's end stands for the
 * other's; a review of another pull request at that head (the same branch into another base) does not.
 */
function retryKey(job: ReviewJob): string {
  return job.pull === undefined ? job.commit : `${job.commit} ${job.pull}`;
}
