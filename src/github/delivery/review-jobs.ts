/**
 * Makes the scheduler's jobs of the review targets the Probot handlers (app.ts) find in events: what every
 * delivery's review shares, in one place. A job carries its delivery's terms (its try, its end, whether the
 * recovery gave up on it: terms.ts), its record in the server's store (received before the delivery is
 * acknowledged, started, finished: store.ts), the operators' metrics of its outcome, and the review's
 * options; the review itself, its stages in order, is review/pipeline.ts's.
 */
import type { Context } from "probot";
import type { Clock } from "../api/clock.js";
import { gatewayFor, type GraphqlAvailability } from "../api/gateway.js";
import type { AppIdentity, CommitTarget, GitHubGateway, PullTarget } from "../api/port.js";
import {
  type Analyser,
  reviewCurrentPull,
  reviewMergeGroup,
  reviewPullRequest,
  type ReviewOptions,
  type ReviewOutcome,
  type StageTurns,
  type UnwrittenFailures,
} from "../review/pipeline.js";
import { SECOND_MS } from "../time-budget.js";
import { slimPayload } from "./events.js";
import type { CountedOutcome, OperatorMetrics } from "./operator-metrics.js";
import { pullsOfRun, pullTargetsFor, repoRef, type RepoRef } from "./pull-target.js";
import { recheckTarget, type RecheckRefusals } from "./recheck.js";
import type { JobTurn, ReviewScheduler } from "./scheduler.js";
import type { DeliveryTerms, ReceivingDeliveries } from "./terms.js";

/** The part of the server's store the app writes. */
export interface DeliveryJournal {
  received(delivery: { id: string; name: string; payload: Record<string, unknown>; at: number }): void;
  /** Its review starts (a process that dies before `finished` counts as a crash of it: store.ts). */
  started(id: string): void;
  finished(id: string): void;
}

/** What the jobs share, as createApp (app.ts) sets it up once per process. */
export interface ReviewJobsSetup {
  scheduler: ReviewScheduler;
  clock: Clock;
  deliveries: ReceivingDeliveries;
  journal: DeliveryJournal | undefined;
  operatorMetrics: OperatorMetrics;
  requireOrgConfig: boolean;
  /** Which installations read through REST because GraphQL failed for them lately (api/gateway.ts). */
  availability: GraphqlAvailability;
  /** The App's own account, asked of GitHub once in this process. */
  app: () => Promise<AppIdentity>;
  /** The App's id (its JWT's), to know its own check runs where a delivery does not name it. */
  appId?: () => Promise<number | undefined>;
  /** Who was told on which pull request that only writers get a recheck: told once. */
  refusals: RecheckRefusals;
  /** Where the reviews run the analysis (in this thread when absent). */
  analyser?: Analyser;
  /** The failing results of this process's reviews that GitHub has not taken yet (review/check-run/unwritten.ts). */
  unwritten?: UnwrittenFailures;
  /** Where a recheck's review goes instead of running here (app.ts AppOptions.queueRecheckReview). */
  queueRecheckReview?: QueueRecheckReview;
}

/**
 * Queues the review of recheck `delivery` of pull request `target` at its head, to be delivered again with
 * `recheckOf` in its terms in that head's turn; throws (transient) when it could not.
 */
export type QueueRecheckReview = (
  delivery: { id: string; name: string; payload: Record<string, unknown> },
  target: PullTarget,
) => Promise<void>;

/** A check_run's or check_suite's part that names what to review. */
export interface CheckStubs {
  head_sha: string;
  pull_requests: { number: number; head: { sha: string } }[];
  app?: { id?: number | null } | null;
}

/** Runs the reviews of one job: `options()` gives each review its options (one per review the job runs). */
type Reviews = (gw: GitHubGateway, attempt: number, options: () => ReviewOptions) => Promise<unknown>;

export class ReviewJobs {
  constructor(private readonly setup: ReviewJobsSetup) {}

  /**
   * A pull request's head (`opened`: the event opened it, so no earlier review of it can exist), reviewed
   * against the pull request's base as GitHub has it when the review starts: an older delivery than an edit
   * of the base must not write its verdict over the edit's (review/pipeline.ts reviewCurrentPull).
   */
  pullRequest(context: Context, target: PullTarget, how: { opened?: boolean } = {}): Promise<void> {
    return this.submit(
      context,
      target,
      { headSha: target.headSha, pull: target.number },
      (gw, attempt, options) =>
        // A retry may find what the first try posted.
        reviewCurrentPull(gw, target, { ...options(), opened: how.opened === true && attempt === 0 }),
    );
  }

  /**
   * check_run and check_suite events carry pull request stubs: each that is at this head commit.
   * `rerequested`: a Re-run, which asks for a new check run (a push's event completes the push's run).
   */
  checkStubs(
    context: Context,
    repository: Parameters<typeof repoRef>[0],
    check: CheckStubs,
    rerequested: boolean,
  ) {
    const repo = repoRef(repository);
    const pull = check.pull_requests[0]?.number;
    return this.submit(context, repo, { headSha: check.head_sha, pull }, async (gw, attempt, options) => {
      const appId = check.app?.id ?? undefined;
      // A fork's pull request has no stubs: a Re-run finds it through the pull requests the commit's run names.
      const targets =
        check.pull_requests.length === 0 && rerequested
          ? await pullsOfRun(gw, repo, check.head_sha, appId)
          : await pullTargetsFor(gw, repo, check.pull_requests, check.head_sha);
      if (targets.length === 0) context.log.info("no pull request at this head commit: nothing to review");
      for (const [i, t] of targets.entries())
        await reviewPullRequest(gw, t, {
          ...options(),
          appId,
          // One new run for the Re-run, which the reviews of the commit's other pull requests complete; a
          // retry completes the run the first try made, rather than making another.
          rerun: rerequested && attempt === 0 && i === 0,
        });
    });
  }

  /** A merge group's head commit: its check run only (there is no pull request to post a review on). */
  mergeGroup(context: Context, target: CommitTarget): Promise<void> {
    return this.submit(context, target, { headSha: target.headSha }, (gw, _attempt, options) =>
      reviewMergeGroup(gw, target, options()),
    );
  }

  /**
   * `/plugin-review recheck` by `login` on pull request `number`: who asked, and the pull request's head,
   * are read in the background (the delivery is answered at once); the head's review then takes that
   * commit's turn like any other delivery's.
   */
  recheck(context: Context, repo: RepoRef, number: number, login: string): Promise<void> {
    const { scheduler, journal, refusals, queueRecheckReview } = this.setup;
    const delivery = this.setup.deliveries.termsOf(context.id);
    const asked = delivery.recheckOf;
    if (asked) {
      // Allowed and read by the message that queued this one in the head's group: the head's turn is now.
      context.log.info(`recheck of #${number} asked by ${login}: reviewing ${asked.headSha}`);
      return this.submit(context, repo, { headSha: asked.headSha, pull: number }, (gw2, _attempt, options) =>
        reviewCurrentPull(gw2, asked, options()),
      );
    }
    const gw = this.gateway(context);
    journal?.received(journalEntry(context));
    // Once the head's review is scheduled, its end ends the delivery in the store; until then, this job's.
    let handedOff = false;
    return scheduler.submit(
      {
        installation: installationOf(context, repo),
        commit: pullOf(repo, number),
        pull: pullOf(repo, number),
        writesCheckRun: false,
        run: async () => {
          const target = await recheckTarget(gw, repo, number, login, refusals);
          if (typeof target === "string") {
            context.log.info(
              `recheck of #${number} asked by ${login}, who lacks write access: ${target === "replied" ? "replied" : "not replied again"}`,
            );
            return;
          }
          if (queueRecheckReview) {
            // The head's turn is its queue group's: reviewed here, beside another review of that head, a
            // recheck could write its pass over that review's failure.
            await queueRecheckReview(
              { id: context.id, name: context.name, payload: context.payload as Record<string, unknown> },
              target,
            );
            context.log.info(
              `recheck of #${number} asked by ${login}: queued for review at ${target.headSha}`,
            );
            return;
          }
          context.log.info(`recheck of #${number} asked by ${login}: reviewing ${target.headSha}`);
          handedOff = true;
          await this.submit(
            context,
            repo,
            { headSha: target.headSha, pull: number },
            // Read again in the head commit's turn: an edit of the base may have been reviewed meanwhile.
            (gw2, _attempt, options) => reviewCurrentPull(gw2, target, options()),
            delivery,
          );
        },
        onSettled: () => {
          if (!handedOff) journal?.finished(context.id);
        },
        ...(delivery.recovered ? { recovered: true } : {}),
      },
      delivery.attempt,
    );
  }

  private gateway(context: Context): GitHubGateway {
    const installation = installationIdOf(context);
    return gatewayFor(context.octokit, {
      log: context.log,
      installation,
      availability: this.setup.availability,
    });
  }

  /**
   * Schedules the reviews of a head commit (of pull request `pull`, if any). `handedOver`: a recheck's
   * delivery, handed over from the background with its terms read while it was received, and already in the
   * store.
   */
  private submit(
    context: Context,
    repo: RepoRef,
    { headSha, pull }: { headSha: string; pull?: number | undefined },
    reviews: Reviews,
    handedOver?: DeliveryTerms,
  ): Promise<void> {
    const { scheduler, journal, clock, operatorMetrics, requireOrgConfig, app, analyser, unwritten } =
      this.setup;
    const delivery = handedOver ?? this.setup.deliveries.termsOf(context.id);
    const gw = this.gateway(context);
    const opts: ReviewOptions = {
      log: context.log,
      app,
      clock,
      appId: appIdOf(context.payload),
      ...(requireOrgConfig ? { requireOrgConfig } : {}),
      ...(delivery.endsBy !== undefined ? { endsBy: delivery.endsBy } : {}),
      ...(delivery.abandoned ? { abandoned: true } : {}),
      ...(delivery.lastTry ? { lastTry: true } : {}),
      ...(analyser ? { analyser } : {}),
      ...(unwritten ? { unwritten } : {}),
    };
    // On disk before the delivery is acknowledged (the server); its end once its review is done.
    if (!handedOver) journal?.received(journalEntry(context));
    return scheduler.submit(
      {
        installation: installationOf(context, repo),
        commit: `${repo.owner}/${repo.repo}@${headSha}`,
        ...(pull !== undefined ? { pull: pullOf(repo, pull) } : {}),
        run: async (attempt, turn) => {
          // Noted before any work: a process that dies now leaves the delivery counted as a crash in it.
          journal?.started(context.id);
          const started = performance.now();
          const seconds = () => (performance.now() - started) / SECOND_MS;
          // Each review's outcome is counted once its check run is written; one that failed before, as an error.
          let begun = 0;
          let counted = 0;
          // Another app may name a run `plugin-review` too: only the App's own count, whatever the event.
          const appId = opts.appId ?? (await this.setup.appId?.());
          const options = (): ReviewOptions => {
            begun++;
            return {
              ...opts,
              ...(appId !== undefined ? { appId } : {}),
              turns: countedTurns(turn, (outcome) => {
                counted++;
                operatorMetrics.reviewFinished(outcomeOf(outcome), seconds());
              }),
            };
          };
          try {
            await reviews(gw, attempt, options);
          } catch (e) {
            if (begun === 0 || counted < begun) operatorMetrics.reviewFinished("error", seconds());
            throw e;
          }
        },
        onSettled: () => journal?.finished(context.id),
        ...(delivery.recovered ? { recovered: true } : {}),
      },
      delivery.attempt,
    );
  }
}

/** The scheduler's turn, as a review's stages tell it, with the outcome counted. */
function countedTurns(turn: JobTurn, count: (outcome: ReviewOutcome) => void): StageTurns {
  return {
    checkRunWritten: (outcome) => {
      count(outcome);
      turn.checkRunWritten();
    },
    beforePublish: () => turn.beforePublish(),
  };
}

/** A pull request as the scheduler names it. */
function pullOf(repo: RepoRef, number: number): string {
  return `${repo.owner}/${repo.repo}#${number}`;
}

/** Whose write queue a job's writes join: the installation; the owner when the event names none. */
function installationOf(context: Context, repo: RepoRef): string {
  return String(installationIdOf(context) ?? repo.owner);
}

/** The installation the event names, if any. */
function installationIdOf(context: Context): number | undefined {
  return (context.payload as { installation?: { id?: number } }).installation?.id;
}

/** A delivery as the server's store keeps it. */
function journalEntry(context: Context) {
  return {
    id: context.id,
    name: context.name,
    payload: slimPayload(context.name, context.payload as Record<string, unknown>),
    at: Date.now(),
  };
}

/** A review's outcome, as the operator metrics count it. */
function outcomeOf(outcome: ReviewOutcome): CountedOutcome {
  return outcome.error && !outcome.files.length ? "error" : outcome.conclusion;
}

/** The app's id, to recognise its own check runs, when the payload carries it. */
function appIdOf(payload: unknown): number | undefined {
  const id = (payload as { installation?: { app_id?: number } }).installation?.app_id;
  return typeof id === "number" ? id : undefined;
}
