/**
 * Scheduling of reviews in one process: one review at a time per head commit (duplicate and simultaneous
 * deliveries, and the `pull_request.synchronize` + `check_suite.requested` pair every push sends, must
 * not race to create two check runs or post a comment twice), and, for the server, a bounded pool that
 * reviews in the background and drains on shutdown.
 */

/** Runs jobs one at a time per key, in arrival order; jobs for other keys run alongside. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    try {
      return await job();
    } finally {
      release();
      // The last job of a key forgets it, so the map holds only keys with work.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with a job running or waiting. */
  get size(): number {
    return this.tails.size;
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
 * At most `concurrency` jobs at once, the rest waiting first in, first out. `submit` returns at once;
 * a job's failure goes to `onError` (the review has already reported it on its check run).
 */
export class BackgroundPool {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(
    readonly concurrency: number,
    private readonly onError: (e: unknown) => void,
  ) {}

  submit(job: () => Promise<void>): void {
    if (this.closed) throw new ShuttingDownError();
    const done = this.slot()
      .then(job)
      .catch(this.onError)
      .finally(() => {
        this.running--;
        this.waiting.shift()?.();
        this.inFlight.delete(done);
      });
    this.inFlight.add(done);
  }

  /** Jobs running or waiting. */
  get pending(): number {
    return this.inFlight.size;
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

  private async slot(): Promise<void> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
  }
}
