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

  /** The next item in turn; `may(key)`: whether a widest key may be served now (others keep their place). */
  shift(may: (key: string) => boolean = () => true): T | undefined {
    if (this.unkeyed.length) {
      this.size--;
      return this.unkeyed.shift();
    }
    for (const [key, under] of this.turns) {
      if (!may(key)) continue;
      this.size--;
      const item = under.shift();
      this.turns.delete(key);
      if (under.length) this.turns.set(key, under);
      return item;
    }
    return undefined;
  }

  /** Whether an item could be served now (`may` as for `shift`). */
  has(may: (key: string) => boolean = () => true): boolean {
    return this.unkeyed.length > 0 || [...this.turns.keys()].some(may);
  }
}

/**
 * At most `concurrency` jobs at once, the rest waiting their turn (TakeTurns: by the keys each job names), and
 * at most `perTurnConcurrency` of them under one widest key (an installation): a slot is held until its job
 * ends or gives it back, so an installation whose reviews GitHub leaves unanswered would otherwise hold every
 * slot until their deadlines, and every other installation's check runs would wait. `submit` returns at once;
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
  /** Jobs holding a slot, by their widest turn key. */
  private readonly runningByTurn = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;
  /** Whether a job under this widest key may take a slot now. */
  private readonly mayRun = (key: string) => (this.runningByTurn.get(key) ?? 0) < this.perTurnConcurrency;

  /** `beforeStart`: what a job waits for once it has its slot (the server: deliveries being answered). */
  constructor(
    readonly concurrency: number,
    private readonly onError: (e: unknown) => void,
    private readonly beforeStart: () => Promise<void> = nextTurn,
    /** Slots yielding jobs may hold at once. */
    readonly yieldingConcurrency = Math.max(1, Math.floor(concurrency / 8)),
    /** Slots the jobs under one widest turn key (an installation) may hold at once: half, so others find one. */
    readonly perTurnConcurrency = Math.max(1, Math.ceil(concurrency / 2)),
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
    const key = turn[0];
    let held = false;
    const release = () => {
      if (!held) return;
      held = false;
      this.runningNow--;
      if (yielding) this.runningYielding--;
      if (key !== undefined) {
        const left = this.runningByTurn.get(key)! - 1;
        if (left) this.runningByTurn.set(key, left);
        else this.runningByTurn.delete(key);
      }
      this.wakeNext();
    };
    const done = Promise.resolve(ready)
      .then(() => this.slot(yielding, turn))
      .then(() => {
        held = true; // from here on, however the job ends, its slot goes back
        return this.beforeStart();
      })
      .then(() => job(release))
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

  /** Resolves once the job holds a slot: taken at once when one is free to it, else given by `wakeNext`. */
  private slot(yielding: boolean, turn: readonly string[]): Promise<void> {
    const key = turn[0];
    const free =
      this.runningNow < this.concurrency &&
      (key === undefined || this.mayRun(key)) &&
      (!yielding || this.yieldingMayRun());
    if (free) {
      this.take(yielding, key);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) =>
      (yielding ? this.waitingYielding : this.waiting).push(turn, () => {
        this.take(yielding, key);
        resolve();
      }),
    );
  }

  /** Counts a slot as taken (when it is given, so that none is given twice before its job runs). */
  private take(yielding: boolean, key: string | undefined): void {
    this.runningNow++;
    if (yielding) this.runningYielding++;
    if (key !== undefined) this.runningByTurn.set(key, (this.runningByTurn.get(key) ?? 0) + 1);
  }

  private yieldingMayRun(): boolean {
    return (
      this.runningNow < this.concurrency &&
      this.runningYielding < this.yieldingConcurrency &&
      !this.waiting.has(this.mayRun)
    );
  }

  /** Slots came free: the other jobs first, a yielding one only when none of them may run. */
  private wakeNext(): void {
    while (this.runningNow < this.concurrency) {
      const next =
        this.waiting.shift(this.mayRun) ??
        (this.yieldingMayRun() ? this.waitingYielding.shift(this.mayRun) : undefined);
      if (!next) return;
      next();
    }
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
