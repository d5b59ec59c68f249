/**
 * The concurrency primitives the review scheduler (scheduler.ts) is made of: a per-key lock (one review at a
 * time per head commit), a bounded background pool that drains on shutdown, the server's "answers first"
 * gate, and the per-installation "check runs first" ordering of writes.
 */

import { ANSWERS_FIRST_MAX_WAIT_MS, CHECK_RUNS_FIRST_MAX_WAIT_MS } from "../time-budget.js";

/** Runs jobs one at a time per key, in arrival order; jobs for other keys run alongside. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const unlock = await this.acquire(key);
    try {
      return await job();
    } finally {
      unlock();
    }
  }

  /** Takes the key's turn (in arrival order, from this call); resolves with the function that gives it back. */
  acquire(key: string): Promise<() => void> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    return before.then(() => () => {
      release();
      // The last job of a key forgets it, so the map holds only keys with work.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
  }

  /** Keys with a job running or waiting. */
  get size(): number {
    return this.tails.size;
  }
}

/** Not before the next turn of the event loop: the delivery's answer goes out before the review's work. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Counts the requests being answered, and lets background work wait until none is: under a burst of
 * deliveries, every answer goes out before the reviews take the CPU (GitHub gives up on a delivery after
 * 10 s, and counts it failed). A review waits at most `maxWaitMs`, so a steady stream cannot starve reviews.
 */
export class AnswersFirst {
  private answering = 0;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly maxWaitMs = ANSWERS_FIRST_MAX_WAIT_MS) {}

  /** A request is being answered; the returned function says it has been (idempotent). */
  enter(): () => void {
    this.answering++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.answering > 0) return;
      // The answer is written; wake the waiting work on the next turn, after the event loop's I/O.
      const wake = [...this.waiting];
      this.waiting.clear();
      setImmediate(() => wake.forEach((w) => w()));
    };
  }

  /** Resolves once no request is being answered (at the next turn of the event loop), or after `maxWaitMs`. */
  async quiet(): Promise<void> {
    if (this.answering === 0) return nextTurn();
    await new Promise<void>((resolve) => {
      // Woken by the last answer, or by the timer: either way it leaves the set (none pile up).
      const wake = () => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.maxWaitMs);
      this.waiting.add(wake);
    });
  }
}

/** Thrown by `submit` once the pool stopped taking work (shutdown). */
export class ShuttingDownError extends Error {
  readonly status = 503;
  constructor() {
    super("the server is shutting down and takes no new work; GitHub can redeliver this delivery");
  }
}

/**
 * Waiting items served in turns: one key after another in rotation, at every level of their keys (the
 * installation, then the pull request), first in, first out under the same keys. A pull request whose pushes
 * flood the queue then waits its turn like one pull request, and its installation like one installation.
 */
export class TakeTurns<T> {
  private readonly unkeyed: T[] = [];
  /** In turn order: the key served next first; a key served goes to the back of the line. */
  private readonly turns = new Map<string, TakeTurns<T>>();
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(keys: readonly string[], item: T): void {
    this.size++;
    const [key, ...narrower] = keys;
    if (key === undefined) return void this.unkeyed.push(item);
    let under = this.turns.get(key);
    if (!under) this.turns.set(key, (under = new TakeTurns<T>()));
    under.push(narrower, item);
  }

  shift(): T | undefined {
    if (this.size === 0) return undefined;
    this.size--;
    if (this.unkeyed.length) return this.unkeyed.shift();
    const [key, under] = this.turns.entries().next().value as [string, TakeTurns<T>];
    const item = under.shift();
    this.turns.delete(key);
    if (under.length) this.turns.set(key, under);
    return item;
  }
}

/**
 * At most `concurrency` jobs at once, the rest waiting their turn (TakeTurns: by the keys each job names). `submit` returns at once;
 * a job's failure goes to `onError` (the review has already reported it on its check run). A job may give
 * its slot back early with `release` (a review, once its check run is written: posting the review is
 * mostly waiting in the installation's write queue, which must not hold up other reviews' fetching and
 * CPU work); it still counts as in flight for `pending` and `drain` until it ends.
 */
export class BackgroundPool {
  private runningNow = 0;
  private readonly waiting = new TakeTurns<() => void>();
  /** Jobs that yield (recovered reviews): run only while no other job waits, a few at a time. */
  private readonly waitingYielding = new TakeTurns<() => void>();
  private runningYielding = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  /** `beforeStart`: what a job waits for once it has its slot (the server: deliveries being answered). */
  constructor(
    readonly concurrency: number,
    private readonly onError: (e: unknown) => void,
    private readonly beforeStart: () => Promise<void> = nextTurn,
    /** Slots yielding jobs may hold at once. */
    readonly yieldingConcurrency = Math.max(1, Math.floor(concurrency / 8)),
  ) {}

  /**
   * `ready`: the job asks for a slot only once it resolves (a job waiting for a lock holds no slot).
   * `yielding`: a job that must not hold up the others (a review the recovery found): it gets a slot only
   * while no other job waits for one, and at most `yieldingConcurrency` such jobs run at once.
   * `turn`: whose turn the job waits in, widest first (its installation, its pull request).
   */
  submit(
    job: (release: () => void) => Promise<void>,
    ready?: Promise<unknown>,
    yielding = false,
    turn: readonly string[] = [],
  ): void {
    if (this.closed) throw new ShuttingDownError();
    let held = false;
    const release = () => {
      if (!held) return;
      held = false;
      this.runningNow--;
      if (yielding) this.runningYielding--;
      this.wakeNext();
    };
    const done = Promise.resolve(ready)
      .then(() => this.slot(yielding, turn))
      .then(() => this.beforeStart())
      .then(() => {
        held = true;
        return job(release);
      })
      .catch(this.onError)
      .finally(() => {
        release();
        this.inFlight.delete(done);
      });
    this.inFlight.add(done);
  }

  /** Jobs running or waiting. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** Jobs holding a slot now. */
  get running(): number {
    return this.runningNow;
  }

  /** Stops taking work and waits for the jobs already taken, at most `timeoutMs`; false when some were cut off. */
  async drain(timeoutMs: number): Promise<boolean> {
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)));
    try {
      return await Promise.race([Promise.all([...this.inFlight]).then(() => true as const), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async slot(yielding: boolean, turn: readonly string[]): Promise<void> {
    if (yielding) {
      if (!this.yieldingMayRun())
        await new Promise<void>((resolve) => this.waitingYielding.push(turn, resolve));
      this.runningYielding++;
    } else if (this.runningNow >= this.concurrency)
      await new Promise<void>((resolve) => this.waiting.push(turn, resolve));
    this.runningNow++;
  }

  private yieldingMayRun(): boolean {
    return (
      this.runningNow < this.concurrency &&
      this.runningYielding < this.yieldingConcurrency &&
      this.waiting.length === 0
    );
  }

  /** A slot came free: the other jobs first, a yielding one only when none waits. */
  private wakeNext(): void {
    const next = this.waiting.shift();
    if (next) return next();
    if (this.waitingYielding.length && this.yieldingMayRun()) this.waitingYielding.shift()!();
  }
}

/**
 * Check runs before reviews, per installation. Probot queues an installation's writes first in, first out,
 * about 1 s apart, so a review posted by one pull request would hold up the check run of the next; the check
 * run is what users (and required checks) wait for. A review's post waits while the installation has check
 * runs still to write, at most `maxWaitMs`, so that a steady stream of deliveries cannot starve reviews.
 */
export class CheckRunsFirst {
  private readonly pending = new Map<string, number>();
  private readonly idle = new Map<string, (() => void)[]>();

  constructor(private readonly maxWaitMs = CHECK_RUNS_FIRST_MAX_WAIT_MS) {}

  /** A check run to write for `key`; the returned function says it is written (or will not be); idempotent. */
  expect(key: string): () => void {
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.pending.get(key) ?? 1) - 1;
      if (left > 0) return void this.pending.set(key, left);
      this.pending.delete(key);
      for (const wake of this.idle.get(key) ?? []) wake();
      this.idle.delete(key);
    };
  }

  /** Resolves once `key` has no check run left to write, or after `maxWaitMs`. */
  async quiet(key: string): Promise<void> {
    if (!this.pending.has(key)) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.maxWaitMs);
      this.idle.set(key, [...(this.idle.get(key) ?? []), resolve]);
    });
    clearTimeout(timer);
  }
}
