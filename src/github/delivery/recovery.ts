/**
 * The recovery sweep: every pull-request head commit whose delivery GitHub attempted gets its completed
 * check run, also when the App was down, crashing or being redeployed then (interfaces.md, "Restarts,
 * crashes and downtime"). GitHub does not redeliver by itself, and a required check that was never created
 * has no Re-run button, so the App looks for what it missed, at start and then periodically:
 * - in its own store (store.ts, the server): deliveries it received and did not finish before it stopped
 *   (their reviews are idempotent: a run left in progress is completed, nothing is posted twice);
 * - in GitHub's record, the App's webhook delivery log: deliveries none of whose attempts the App answered
 *   (a connection refused, a 503 during a deploy, a timeout). Each one's head commit is looked at: one that
 *   has its completed `plugin-review` run is left alone (nothing written); any other is reviewed, by handing
 *   the delivery to the App as if GitHub had just sent it. A run answers only for the pull requests whose
 *   reviews wrote it and for their bases then: another pull request of that head, or an edit that moved a
 *   base, is reviewed all the same. A Re-run (`check_run`/`check_suite` rerequested) asks for a review of a
 *   head that has its run: only a run completed after it was asked answers it.
 * A sweep that finds nothing missing costs the listing of the log since the last sweep. When the log cannot
 * be read (a GitHub Enterprise Server without it, a refused request), the App goes on reviewing what it
 * receives, and the log says what it cannot recover.
 */
import { describeRequestError } from "../api/errors.js";
import type { DeliveryAttempt, DeliveryLog } from "../api/port.js";
import { mapLimit } from "../api/map-limit.js";
import { HANDLED, headOf, isBaseChange, isHandled, slimPayload, type HeadRef } from "./events.js";
import { DELIVERY_LOG_RETENTION_MS, HOUR_MS, SETTLED_FOR_MS, SWEEP_OVERLAP_MS } from "../time-budget.js";
import type { DeliveryStore, StoredDelivery } from "./store.js";

/** A delivery handed to the App. */
export interface Delivery {
  id: string;
  name: string;
  payload: Record<string, unknown>;
  /**
   * Not to be reviewed again: the server died while reviewing it CRASHES_BEFORE_GIVING_UP times. The App
   * completes its check run as `failure`, saying it could not be reviewed.
   */
  abandoned?: true;
}

export interface RecoveryOptions {
  deliveryLog: DeliveryLog;
  /** The server's store; none on Lambda (the queue keeps what was received). */
  store?: DeliveryStore;
  /**
   * Whether the head commit's latest run of this App is completed (one only started is finished by a review)
   * by reviews of each of `pulls` too: one pull request's run does not answer for another's review, against
   * its own base (a run that names no pull request, of an earlier release, is taken as naming them all),
   * and, when a missed Re-run asked for a review of the head at `askedAt` (epoch ms), completed after that:
   * a run completed before answers the earlier review, not the Re-run.
   */
  hasCompletedRun(head: HeadRef, pulls: readonly number[], askedAt?: number): Promise<boolean>;
  /** Hands a delivery to the App as a retry (it reads what GitHub holds before writing). */
  receive(delivery: Delivery): Promise<void>;
  log: { info(msg: string): void; warn(msg: string): void; error(obj: object, msg: string): void };
  /** How far back (ms) GitHub's log is read when no earlier sweep says where it stopped. */
  windowMs: number;
}

export interface SweepReport {
  /** Attempts read from GitHub's delivery log. */
  listed: number;
  /** Deliveries of events the App handles that never reached it. */
  missed: number;
  /** Deliveries received before a restart and not finished, handed to the App again. */
  resumed: number;
  /** Deliveries whose review the server died in twice: handed to the App to fail their check run, not to review. */
  abandoned: number;
  /** Head commits reviewed because they had no completed run. */
  reviewed: number;
  /** Head commits that had their completed run: left alone. */
  complete: number;
  /** Why GitHub's delivery log could not be read, when it could not. */
  unreadable?: string;
  /** When the sweep stopped at MAX_ATTEMPTS_PER_SWEEP: the time of the oldest attempt it read (ISO 8601). */
  cut?: string;
}

/**
 * A delivery whose review was running when the server died this many times is not handed back again: its
 * review is what kills the process (a descriptor that exhausts memory, say), and handing it back would
 * only kill the next one.
 */
export const CRASHES_BEFORE_GIVING_UP = 2;

/** How far back a sweep with nothing to go on reads the log, in hours (the server's and Lambda's setting). */
export const RECOVERY_WINDOW_ENV = "PLUGIN_REVIEW_RECOVERY_WINDOW_HOURS";

/**
 * The recovery window from the environment, or `defaultHours`: above 0 (a window of nothing would recover
 * nothing, silently) and at most what GitHub keeps. Anything else is refused with the variable's name.
 */
export function recoveryWindowMs(env: NodeJS.ProcessEnv, defaultHours: number): number {
  const raw = env[RECOVERY_WINDOW_ENV]?.trim();
  const hours = raw ? Number(raw) : defaultHours;
  const max = DELIVERY_LOG_RETENTION_MS / HOUR_MS;
  if (!Number.isFinite(hours) || hours <= 0 || hours > max)
    throw new Error(
      `${RECOVERY_WINDOW_ENV} must be a number of hours above 0 and at most ${max} (GitHub keeps its delivery log ${max / 24} days), not '${raw}'`,
    );
  return hours * HOUR_MS;
}
/**
 * A sweep reads at most this many attempts of GitHub's log, newest first: 20 pages of 100 (the log's page
 * size), so that a sweep's requests and memory stay bounded however busy the App was. Older attempts in
 * the window are not looked at, and the log says from when.
 */
export const MAX_ATTEMPTS_PER_SWEEP = 2000;

/** Deliveries read and head commits looked at, at once. */
const CONCURRENCY = 4;

/** Whether an attempt reached the App: it answered 2xx. */
const answered = (a: DeliveryAttempt) => a.statusCode >= 200 && a.statusCode < 300;

/** A recheck names no head commit: it asks for the pull request's current one. */
const headKey = (d: Delivery, head: HeadRef | undefined) =>
  head ? `${head.owner}/${head.repo}@${head.sha}` : `delivery:${d.id}`;

/** A Re-run: it asks for a review of a head commit whatever run the head has. */
const isRerun = (d: Delivery) =>
  (d.name === "check_run" || d.name === "check_suite") && d.payload.action === "rerequested";

/** Among a head commit's deliveries, the one to replay: a pull request's event carries the most. */
const RANK: Record<string, number> = { pull_request: 0, check_suite: 1, check_run: 2, merge_group: 3 };

/**
 * What the sweeps remember: the deliveries of GitHub's log they settled, and up to when the last one read.
 * The server's store keeps it across restarts; without one (Lambda, or the store off), the process does.
 */
export type SweepMemory = Pick<DeliveryStore, "isSettled" | "settle" | "sweptUntil" | "sweptTo">;

/** A sweep memory for the process's life, forgetting a settled delivery once GitHub's log has too. */
class ProcessMemory implements SweepMemory {
  private readonly settledAt = new Map<string, number>();
  sweptUntil: number | undefined;

  isSettled(guid: string): boolean {
    return this.settledAt.has(guid);
  }

  settle(guid: string): void {
    const now = Date.now();
    this.settledAt.set(guid, now);
    // Insertion order is settling order: the oldest are first.
    for (const [g, at] of this.settledAt) {
      if (now - at <= SETTLED_FOR_MS) break;
      this.settledAt.delete(g);
    }
  }

  sweptTo(at: number): void {
    this.sweptUntil = at;
  }
}

/** A head commit's missed pull-request deliveries, one per pull request (the newest of each), by number. */
function pullsOf(ds: readonly Delivery[]): Map<number, Delivery> {
  const out = new Map<number, Delivery>();
  for (const d of ds) {
    if (d.name !== "pull_request") continue;
    const n = (d.payload.pull_request as { number?: unknown } | undefined)?.number ?? d.payload.number;
    if (typeof n === "number") out.set(n, d);
  }
  return out;
}

export class Recovery {
  private readonly memory: SweepMemory;
  private resumedStore = false;
  private lastUnreadable: string | undefined;
  private running: Promise<SweepReport> | undefined;

  constructor(private readonly opts: RecoveryOptions) {
    this.memory = opts.store ?? new ProcessMemory();
  }

  /** One sweep (a sweep asked for while one runs joins it). */
  sweep(): Promise<SweepReport> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<SweepReport> {
    const { store, log } = this.opts;
    const report: SweepReport = {
      listed: 0,
      missed: 0,
      resumed: 0,
      abandoned: 0,
      reviewed: 0,
      complete: 0,
    };
    const started = Date.now();
    // What this process's predecessor received and did not finish: once, at the first sweep.
    if (store && !this.resumedStore) {
      this.resumedStore = true;
      // Each stays pending: the App takes it under the same id (the store keeps one record per id), and
      // its end finishes it; one the App did not take is handed again after the next restart.
      for (const d of store.inherited()) {
        if ((d.crashes ?? 0) >= CRASHES_BEFORE_GIVING_UP) {
          log.error(
            { delivery: d.id, event: d.name, crashes: d.crashes },
            `recovery: delivery ${d.id} (${d.name}) was being reviewed when the server stopped, ${d.crashes} times: it is not reviewed again; its check run is completed as failure, saying it could not be reviewed`,
          );
          if (await this.hand({ ...d, abandoned: true })) report.abandoned++;
        } else if (await this.hand(d)) report.resumed++;
      }
    }
    const last = this.memory.sweptUntil;
    const earliest = started - this.opts.windowMs;
    const since = last === undefined ? earliest : Math.max(earliest, last - SWEEP_OVERLAP_MS);
    let attempts: DeliveryAttempt[];
    let cut = false;
    try {
      attempts = [];
      for await (const a of this.opts.deliveryLog.attempts(since)) {
        attempts.push(a);
        // Leaving the loop ends the listing: no page past the bound is asked for (so a log of exactly
        // this many attempts is taken as cut too).
        if (attempts.length === MAX_ATTEMPTS_PER_SWEEP) {
          cut = true;
          break;
        }
      }
    } catch (e) {
      report.unreadable = describeRequestError(e, "reading the App's webhook delivery log");
      if (report.unreadable !== this.lastUnreadable)
        log.warn(
          `${report.unreadable}: deliveries that did not reach the App while it was down or restarting cannot be recovered from it (redeliver them from the App's settings, Advanced → Recent deliveries); the App goes on reviewing what it receives`,
        );
      this.lastUnreadable = report.unreadable;
      return report;
    }
    if (this.lastUnreadable) log.info("the App's webhook delivery log can be read again");
    this.lastUnreadable = undefined;
    report.listed = attempts.length;
    if (cut) {
      const reached = new Date(attempts[attempts.length - 1]!.deliveredAt).toISOString();
      report.cut = reached;
      log.warn(
        `recovery: GitHub's delivery log holds at least ${MAX_ATTEMPTS_PER_SWEEP} attempts since ${new Date(since).toISOString()}; this sweep looked at the newest ${MAX_ATTEMPTS_PER_SWEEP} (back to ${reached}): deliveries missed before that are not recovered (redeliver them from the App's settings, Advanced → Recent deliveries)`,
      );
    }
    const missed = this.missed(attempts);
    report.missed = missed.length;
    // When each delivery was first attempted: when GitHub sent it (a Re-run, when the person asked).
    const firstAttempt = new Map<string, number>();
    for (const a of attempts)
      firstAttempt.set(a.guid, Math.min(a.deliveredAt, firstAttempt.get(a.guid) ?? Infinity));
    const deliveries = (
      await mapLimit(missed, CONCURRENCY, async (a) => {
        try {
          const d = await this.opts.deliveryLog.delivery(a.id);
          // Kept as its review needs it (slimmed, as the receiver queues it and the store keeps it): up to
          // MAX_ATTEMPTS_PER_SWEEP are held until each head is looked at, and a pull request's author decides
          // the size of its payload (a body of 65,536 characters).
          if (isHandled(d.name, d.payload))
            return {
              id: a.guid,
              name: d.name,
              payload: slimPayload(d.name, d.payload),
              at: firstAttempt.get(a.guid)!,
            };
          this.memory.settle(a.guid); // nothing the App acts on (a title edit, a comment that is no command)
        } catch (e) {
          log.error(
            { err: (e as Error).message },
            `recovery: cannot read delivery ${a.guid}; tried again at the next sweep`,
          );
        }
        return undefined;
      })
    ).filter((d): d is Delivery & { at: number } => d !== undefined);
    // One review per head commit, whichever of its deliveries were missed (a push sends two).
    const byHead = new Map<
      string,
      { head: HeadRef | undefined; deliveries: (Delivery & { at: number })[] }
    >();
    for (const d of deliveries) {
      const head = headOf(d.name, d.payload);
      const key = headKey(d, head);
      const group = byHead.get(key) ?? { head, deliveries: [] };
      group.deliveries.push(d);
      byHead.set(key, group);
    }
    await mapLimit([...byHead.values()], CONCURRENCY, async ({ head, deliveries: ds }) => {
      const pulls = pullsOf(ds);
      try {
        // A new base branch is compared anew, whatever the head's run says (it judged the old base).
        const baseChanged = ds.some((d) => d.name === "pull_request" && isBaseChange(d.payload));
        // A Re-run asked for a new review: the run must be newer than the latest one asked.
        const reruns = ds.filter(isRerun).map((d) => d.at);
        const askedAt = reruns.length ? Math.max(...reruns) : undefined;
        if (head && !baseChanged && (await this.opts.hasCompletedRun(head, [...pulls.keys()], askedAt))) {
          report.complete++;
          for (const d of ds) this.memory.settle(d.id);
          return;
        }
      } catch (e) {
        // Not known: reviewed all the same (a review of a completed head writes nothing).
        log.warn(`recovery: ${describeRequestError(e, `reading the check run of ${head?.sha ?? "a head"}`)}`);
      }
      // Each pull request's own review (each against its own base); else the delivery that carries the most.
      const chosen = pulls.size
        ? [...pulls.values()]
        : [[...ds].sort((a, b) => (RANK[a.name] ?? 9) - (RANK[b.name] ?? 9))[0]!];
      let handed = true;
      for (const d of chosen) handed = (await this.hand(d)) && handed;
      if (handed) {
        report.reviewed++;
        for (const d of ds) this.memory.settle(d.id);
      }
    });
    // Complete: the next sweep starts from here (less the overlap). Otherwise this window is read again.
    const allSettled = missed.every((a) => this.memory.isSettled(a.guid));
    if (allSettled) {
      this.memory.sweptTo(started);
    }
    if (report.missed || report.resumed || report.abandoned)
      log.info(
        `recovery: ${report.missed} missed deliveries in GitHub's log since ${new Date(since).toISOString()}, ${report.resumed} resumed from the store${report.abandoned ? ` (${report.abandoned} given up: their checks fail)` : ""}; ${report.reviewed} head commits reviewed, ${report.complete} already complete`,
      );
    return report;
  }

  /** The deliveries of handled events none of whose attempts reached the App, newest attempt each. */
  private missed(attempts: readonly DeliveryAttempt[]): DeliveryAttempt[] {
    const byGuid = new Map<string, DeliveryAttempt[]>();
    for (const a of attempts) byGuid.set(a.guid, [...(byGuid.get(a.guid) ?? []), a]);
    const out: DeliveryAttempt[] = [];
    for (const [guid, tries] of byGuid) {
      const first = tries[0]!;
      if (!(HANDLED[first.event] ?? []).includes(first.action ?? "")) continue;
      if (tries.some(answered) || this.memory.isSettled(guid)) continue;
      out.push(tries.reduce((a, b) => (b.deliveredAt > a.deliveredAt ? b : a)));
    }
    return out;
  }

  /** Hands a delivery to the App; false (logged) when it refused it, so that the next sweep tries again. */
  private async hand(d: Delivery | StoredDelivery): Promise<boolean> {
    try {
      const abandoned = "abandoned" in d && d.abandoned;
      await this.opts.receive({
        id: d.id,
        name: d.name,
        payload: d.payload,
        ...(abandoned ? { abandoned } : {}),
      });
      return true;
    } catch (e) {
      this.opts.log.error(
        { err: (e as Error).message },
        `recovery: the App did not take delivery ${d.id}; tried again at the next sweep`,
      );
      return false;
    }
  }
}
