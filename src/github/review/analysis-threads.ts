/**
 * The reviews' analysis off the event loop (analyser.ts): a few analysis threads (node:worker_threads,
 * analysis-thread.ts), each holding the sessions of the reviews given to it. A review's descriptors go one
 * at a time, each after the last one's answer, and a thread takes its reviews' descriptors first in, first
 * out: reviews sharing a thread take turns, a descriptor each, so that one pull request of many heavy files
 * delays another by one file at a time, never by all of its own. The event loop only copies inputs and
 * findings across, so `/healthz` and webhooks are answered while a thread works.
 *
 * What one descriptor may cost is bounded by the core (core/yaml/parse.ts, the size limits); the threads
 * bound it again, in case: a thread's heap (ANALYSIS_THREAD_HEAP_MB) and one descriptor's time
 * (ANALYSIS_FILE_TIMEOUT_MS). A thread past either is stopped and a fresh one started: the review whose
 * descriptor it was fails, naming the file (a re-run tries again); the other reviews it held lost their
 * sessions and fail as a passing failure, which the scheduler or the queue tries again.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { DescriptorInput, FileFindings } from "../../core/analyse.js";
import type { ResolvedConfig } from "../../core/config.js";
import { quote } from "../../core/quote.js";
import type { Clock } from "../api/clock.js";
import { REAL_TIME } from "../api/clock.js";
import { TransientReviewError } from "../api/errors.js";
import { ANALYSIS_FILE_TIMEOUT_MS, SECOND_MS } from "../time-budget.js";
import type { Analyser, AnalysisRun } from "./analyser.js";
import { toThread, type FromThread, type ToThread } from "./analysis-protocol.js";

/**
 * An analysis thread's heap (V8's old generation), in MB: the worst descriptor the core's bounds allow (a
 * 5 MB extension.yaml of 250,000 YAML nodes) needs about 150 MB; a thread past this is stopped rather than
 * let the process's memory grow.
 */
export const ANALYSIS_THREAD_HEAP_MB = 512;

/** Threads: the cores but one, left to the event loop, at least one and at most four. */
export function analysisThreadCount(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** A descriptor the analysis could not finish (too long, too much memory): the review fails, naming it. */
export class AnalysisError extends Error {}

interface Task {
  run: Run;
  message: Exclude<ToThread, { kind: "close" }>;
  /** The descriptor (or the set rules) the task analyses, for the error that names it. */
  what: string;
  resolve(answer: FromThread): void;
  reject(e: Error): void;
}

interface Run {
  id: number;
  slot: Slot;
  config: ResolvedConfig;
  /** The thread has the run's configuration (with its first message). */
  started: boolean;
  closed: boolean;
  /** Why the run cannot go on (its thread stopped). */
  failure?: Error;
}

/** One thread: started when first needed, and again after it stopped. */
interface Slot {
  worker?: Worker;
  queue: Task[];
  busy?: { task: Task; timer: NodeJS.Timeout; timedOut: boolean };
  runs: Set<Run>;
  /** The error the thread raised before it exited (out of memory, or an exception). */
  error?: Error;
}

export interface AnalysisThreadOptions {
  /** The thread's entry: analysis-thread.js as built (dist/), or as bundled beside a Lambda function. */
  entry: URL;
  threads?: number;
  heapMb?: number;
  clock?: Clock;
}

export class AnalysisThreads implements Analyser {
  private readonly slots: Slot[];
  private next = 0;
  private readonly heapMb: number;
  private readonly clock: Clock;

  constructor(private readonly opts: AnalysisThreadOptions) {
    this.slots = Array.from({ length: opts.threads ?? analysisThreadCount() }, () => ({
      queue: [],
      runs: new Set<Run>(),
    }));
    this.heapMb = opts.heapMb ?? ANALYSIS_THREAD_HEAP_MB;
    this.clock = opts.clock ?? REAL_TIME;
  }

  start(config: ResolvedConfig): AnalysisRun {
    // The thread with the fewest reviews.
    const slot = this.slots.reduce((a, b) => (b.runs.size < a.runs.size ? b : a));
    const run: Run = { id: ++this.next, slot, config, started: false, closed: false };
    slot.runs.add(run);
    return {
      add: async (inputs: readonly DescriptorInput[]) => {
        for (const input of inputs)
          // Quoted whatever backticks the path holds: the reason is read back as code and text (quotedText).
          await this.send(run, { kind: "add", run: run.id, input }, quote(input.path));
      },
      finish: async (): Promise<FileFindings[]> => {
        const answer = await this.send(run, { kind: "finish", run: run.id }, "the rules across descriptors");
        return (answer.ok && answer.findings) || [];
      },
      close: () => this.close(run),
    };
  }

  /** Stops every thread (the process ends): runs in progress fail as a passing failure. */
  async stop(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker?.terminate()));
  }

  private send(run: Run, message: Task["message"], what: string): Promise<FromThread> {
    if (run.failure) return Promise.reject(run.failure);
    if (run.closed) return Promise.reject(new Error("the analysis of this review was closed"));
    if (!run.started) {
      message = { ...message, config: toThread(run.config) };
      run.started = true;
    }
    return new Promise<FromThread>((resolve, reject) => {
      run.slot.queue.push({
        run,
        message,
        what,
        resolve: (answer) => (answer.ok ? resolve(answer) : reject(new AnalysisError(answer.error))),
        reject,
      });
      this.dispatch(run.slot);
    });
  }

  private close(run: Run): void {
    if (run.closed) return;
    run.closed = true;
    const { slot } = run;
    slot.runs.delete(run);
    const dropped = slot.queue.filter((t) => t.run === run);
    slot.queue = slot.queue.filter((t) => t.run !== run);
    for (const t of dropped) t.reject(new Error("the analysis of this review was closed"));
    if (run.started && !run.failure)
      slot.worker?.postMessage({ kind: "close", run: run.id } satisfies ToThread);
  }

  private dispatch(slot: Slot): void {
    if (slot.busy) return;
    const task = slot.queue.shift();
    if (!task) return;
    const worker = (slot.worker ??= this.spawn(slot));
    worker.ref();
    const busy = {
      task,
      timedOut: false,
      timer: setTimeout(() => {
        busy.timedOut = true;
        void worker.terminate();
      }, this.clock.ms(ANALYSIS_FILE_TIMEOUT_MS)),
    };
    slot.busy = busy;
    worker.postMessage(task.message);
  }

  private spawn(slot: Slot): Worker {
    const worker = new Worker(this.opts.entry, { resourceLimits: { maxOldGenerationSizeMb: this.heapMb } });
    slot.error = undefined;
    worker.on("message", (answer: FromThread) => {
      const busy = slot.busy;
      if (!busy) return;
      clearTimeout(busy.timer);
      slot.busy = undefined;
      worker.unref();
      busy.task.resolve(answer);
      this.dispatch(slot);
    });
    worker.on("error", (e) => (slot.error = e));
    worker.once("exit", (code) => this.stopped(slot, code));
    return worker;
  }

  /** A thread ended: what it was analysing fails, named; the other reviews it held lost their sessions. */
  private stopped(slot: Slot, code: number): void {
    const busy = slot.busy;
    slot.worker = undefined;
    slot.busy = undefined;
    if (busy) clearTimeout(busy.timer);
    const cause = slot.error as (Error & { code?: string }) | undefined;
    const culprit = busy && (busy.task.run.closed ? undefined : busy.task);
    const failed = culprit
      ? new AnalysisError(
          busy.timedOut
            ? `the analysis of ${culprit.what} took longer than ${ANALYSIS_FILE_TIMEOUT_MS / SECOND_MS} s and was stopped`
            : cause?.code === "ERR_WORKER_OUT_OF_MEMORY"
              ? `the analysis of ${culprit.what} needed more than ${this.heapMb} MB and was stopped`
              : `the analysis thread stopped while analysing ${culprit.what}: ${cause?.message ?? `exit code ${code}`}`,
        )
      : undefined;
    const lost = new TransientReviewError(
      "the analysis thread stopped while it analysed another review's descriptor; this review is tried again",
    );
    for (const run of slot.runs) run.failure = culprit && run === culprit.run ? failed : lost;
    slot.runs.clear();
    if (culprit && failed) culprit.reject(failed);
    else busy?.task.reject(lost);
    for (const t of slot.queue.splice(0)) t.reject(t.run.failure ?? lost);
  }
}
