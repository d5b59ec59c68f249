/**
 * The Probot app (src/app.ts exports it): turns events into reviews of head commits. How reviews are run
 * (one at a time per commit, in the background on the server, tried again when GitHub fails) is the
 * scheduler's (scheduler.ts); what a review does is src/github/review/run-review.ts's.
 */
import type { ApplicationFunction, Context, Probot } from "probot";
import { REAL_TIME, type Clock } from "../api/clock.js";
import { gatewayFor, GraphqlAvailability } from "../api/gateway.js";
import type { Octokit } from "../api/octokit/octokit.js";
import type { GitHubGateway } from "../api/port.js";
import { appIdentityOnce } from "../api/rest/app-identity.js";
import { ReceivingDeliveries, type DeliveryTerms } from "./terms.js";
import { isBaseChange, isHandled, PULL_REQUEST_ACTIONS, slimPayload } from "./events.js";
import { NO_OPERATOR_METRICS, type OperatorMetrics, type CountedOutcome } from "./operator-metrics.js";
import { pullTargetsFor, repoRef, toPullTarget, type RepoRef } from "./pull-target.js";
import { RecheckRefusals, recheckTarget } from "./recheck.js";
import { ReviewScheduler } from "./scheduler.js";
import { SECOND_MS } from "../time-budget.js";
import { requireOrgConfigFrom } from "../review/load-config.js";
import {
  startMergeGroupReview,
  startPullRequestReview,
  type ReviewOptions,
  type StagedReview,
} from "../review/run-review.js";

export interface AppOptions {
  /** Runs the reviews. Default: each at once, the delivery's handling waiting for it (the Lambda worker). */
  scheduler?: ReviewScheduler;
  /**
   * Fail the check when the organisation's configuration cannot be read (default: the environment's
   * PLUGIN_REVIEW_REQUIRE_ORG_CONFIG; otherwise the summary says it was not read).
   */
  requireOrgConfig?: boolean;
  /** How the App's own waits run: real time, unless a test runs them faster. */
  clock?: Clock;
  /** What the entry point knows of each delivery being received (the Lambda worker: its try and its end). */
  deliveries?: ReceivingDeliveries;
  /**
   * Where the server records each delivery it takes before it is acknowledged, and its end (the store of
   * src/github/delivery/store.ts): what a crash cut short is done after the restart.
   */
  journal?: DeliveryJournal;
  /** What the App counts for its operators. */
  operatorMetrics?: OperatorMetrics;
}

/** The part of the server's store the app writes. */
export interface DeliveryJournal {
  received(delivery: { id: string; name: string; payload: Record<string, unknown>; at: number }): void;
  /** Its review starts (a process that dies before `finished` counts as a crash of it: store.ts). */
  started(id: string): void;
  finished(id: string): void;
}

type CheckContext = Context<"check_run.rerequested" | "check_suite.requested" | "check_suite.rerequested">;

export function createApp(options: AppOptions = {}): ApplicationFunction {
  const requireOrgConfig = options.requireOrgConfig ?? requireOrgConfigFrom(process.env);
  const clock = options.clock ?? REAL_TIME;
  const deliveries = options.deliveries ?? new ReceivingDeliveries();
  const operatorMetrics = options.operatorMetrics ?? NO_OPERATOR_METRICS;
  const journal = options.journal;
  return (probot: Probot) => {
    const scheduler = options.scheduler ?? new ReviewScheduler({ clock });
    // Which installations read through REST because GraphQL failed for them lately (api/gateway.ts).
    const availability = new GraphqlAvailability(clock);
    // The App's own account, asked of GitHub with the App's JWT once in this process (the server, a Lambda
    // container), by the first review that reads what is on a pull request: only its words there count.
    const app = appIdentityOnce(async () => (await probot.auth()) as unknown as Octokit, probot.log);
    // Who was told on which pull request that only writers get a recheck: told once.
    const refusals = new RecheckRefusals();

    /**
     * Schedules the review of a head commit: `start` makes the reviews of its targets (`attempt`: 0, then 1,
     * 2, … when tried again), the scheduler runs their check runs, then what follows them.
     */
    const review = (
      context: Context,
      repo: RepoRef,
      headSha: string,
      start: (gw: GitHubGateway, attempt: number, opts: ReviewOptions) => Promise<StagedReview[]>,
      // A recheck hands its delivery over from the background: its context read while it was received,
      // and already in the store.
      handedOver?: DeliveryTerms,
    ) => {
      const delivery = handedOver ?? deliveries.termsOf(context.id);
      const installation = (context.payload as { installation?: { id?: number } }).installation?.id;
      const gw = gatewayFor(context.octokit, { log: context.log, installation, availability });
      const opts: ReviewOptions = {
        log: context.log,
        app,
        clock,
        appId: appIdOf(context.payload),
        ...(requireOrgConfig ? { requireOrgConfig } : {}),
        ...(delivery.endsBy !== undefined ? { endsBy: delivery.endsBy } : {}),
        ...(delivery.abandoned ? { abandoned: true } : {}),
      };
      // On disk before the delivery is acknowledged (the server); its end once its review is done.
      if (!handedOver) journal?.received(journalEntry(context));
      return scheduler.submit(
        {
          installation: String(installation ?? repo.owner),
          commit: `${repo.owner}/${repo.repo}@${headSha}`,
          run: async (attempt) => {
            // Noted before any work: a process that dies now leaves the delivery counted as a crash in it.
            journal?.started(context.id);
            const started = performance.now();
            const seconds = () => (performance.now() - started) / SECOND_MS;
            let staged: StagedReview[];
            try {
              staged = await start(gw, attempt, opts);
            } catch (e) {
              operatorMetrics.reviewFinished("error", seconds());
              throw e;
            }
            for (const s of staged) operatorMetrics.reviewFinished(outcomeOf(s), seconds());
            const rest = staged.flatMap((s) => (s.next ? [s.next] : []));
            if (rest.length)
              return async () => {
                for (const next of rest) await next();
              };
          },
          onSettled: () => journal?.finished(context.id),
          ...(delivery.recovered ? { recovered: true } : {}),
        },
        delivery.attempt,
      );
    };

    /** check_run and check_suite events carry pull request stubs: review each that is at this head commit. */
    const reviewStubs = (
      context: CheckContext,
      check: {
        head_sha: string;
        pull_requests: { number: number; head: { sha: string } }[];
        app?: { id?: number | null } | null;
      },
    ) => {
      // Re-run asks for a new check run; `check_suite.requested` (every push) completes the push's run.
      const rerequested = context.payload.action === "rerequested";
      const repo = repoRef(context.payload.repository);
      return review(context, repo, check.head_sha, async (gw, attempt, opts) => {
        const targets = await pullTargetsFor(gw, repo, check.pull_requests, check.head_sha);
        if (targets.length === 0) context.log.info("no pull request at this head commit: nothing to review");
        const staged: StagedReview[] = [];
        for (const t of targets)
          staged.push(
            await startPullRequestReview(gw, t, {
              ...opts,
              appId: check.app?.id ?? undefined,
              // A retry completes the run the first try made, rather than making another.
              rerun: rerequested && attempt === 0,
            }),
          );
        return staged;
      });
    };

    // Counted as they arrive: the deliveries the App acts on.
    probot.onAny((event) => {
      if (isHandled(event.name, event.payload as Record<string, unknown>))
        operatorMetrics.deliveryReceived(event.name);
    });

    probot.on(
      [...PULL_REQUEST_ACTIONS.map((a) => `pull_request.${a}` as const), "pull_request.edited"],
      async (context) => {
        const { pull_request: pr, repository, action } = context.payload;
        // An edit of the title or body changes nothing reviewed; a new base branch changes the comparison.
        if (action === "edited" && !isBaseChange(context.payload)) return;
        const repo = repoRef(repository);
        const target = toPullTarget(pr, repo);
        await review(context, repo, target.headSha, async (gw, attempt, opts) => [
          // A retry may find what the first try posted.
          await startPullRequestReview(gw, target, { ...opts, opened: action === "opened" && attempt === 0 }),
        ]);
      },
    );
    probot.on("check_run.rerequested", (context) => reviewStubs(context, context.payload.check_run));
    probot.on(["check_suite.requested", "check_suite.rerequested"], (context) =>
      reviewStubs(context, context.payload.check_suite),
    );
    // `/plugin-review recheck` on a pull request: its current head, reviewed for someone with write access.
    probot.on("issue_comment.created", async (context) => {
      const { comment, issue, repository } = context.payload;
      if (!isHandled("issue_comment", context.payload)) return;
      // Never a bot's comment (an App quoting the command, the App's own reply).
      const login = comment.user?.login;
      if (comment.user?.type === "Bot" || !login) return;
      const repo = repoRef(repository);
      const installation = context.payload.installation?.id;
      const gw = gatewayFor(context.octokit, { log: context.log, installation, availability });
      const delivery = deliveries.termsOf(context.id);
      journal?.received(journalEntry(context));
      // Once the head's review is scheduled, its end ends the delivery in the store; until then, this job's.
      let handedOff = false;
      // Who asked, and the pull request's head, are read in the background (the delivery is answered at
      // once); the head's review then takes that commit's turn like any other delivery's.
      return scheduler.submit(
        {
          installation: String(installation ?? repo.owner),
          commit: `${repo.owner}/${repo.repo}#${issue.number}`,
          writesCheckRun: false,
          run: async () => {
            const target = await recheckTarget(gw, repo, issue.number, login, refusals);
            if (typeof target === "string") {
              context.log.info(
                `recheck of #${issue.number} asked by ${login}, who lacks write access: ${target === "replied" ? "replied" : "not replied again"}`,
              );
              return;
            }
            context.log.info(`recheck of #${issue.number} asked by ${login}: reviewing ${target.headSha}`);
            handedOff = true;
            await review(
              context,
              repo,
              target.headSha,
              async (gw2, _attempt, opts) => [await startPullRequestReview(gw2, target, opts)],
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
    });
    // A merge queue asks for the required checks on the merge group's head commit: the descriptors that
    // differ from its base get the same check run; there is no pull request to post a review on.
    probot.on("merge_group.checks_requested", async (context) => {
      const { merge_group: group, repository } = context.payload;
      if (!repository) return;
      const repo = repoRef(repository);
      const target = { ...repo, headSha: group.head_sha, baseSha: group.base_sha };
      await review(context, repo, group.head_sha, async (gw, _attempt, opts) => [
        await startMergeGroupReview(gw, target, opts),
      ]);
    });
  };
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

/** A staged review's outcome, as the operator metrics count it. */
function outcomeOf(s: StagedReview): CountedOutcome {
  return s.outcome.error && !s.outcome.reviews.length ? "error" : s.outcome.conclusion;
}

/** The app's id, to recognise its own check runs, when the payload carries it. */
function appIdOf(payload: unknown): number | undefined {
  const id = (payload as { installation?: { app_id?: number } }).installation?.app_id;
  return typeof id === "number" ? id : undefined;
}
