/**
 * The Probot app (src/app.ts exports it): turns events into review targets and hands them on. What every
 * delivery's review shares (its terms, the store, the operators' metrics) is review-jobs.ts's; how reviews
 * are run (one at a time per commit, in the background on the server, tried again when GitHub fails) is
 * the scheduler's (scheduler.ts); how a commit is reviewed, src/github/review/pipeline.ts's.
 */
import type { ApplicationFunction, Probot } from "probot";
import { REAL_TIME, type Clock } from "../api/clock.js";
import { GraphqlAvailability } from "../api/gateway.js";
import type { Octokit } from "../api/octokit/octokit.js";
import { appIdentityOnce, appIdOnce } from "../api/rest/app-identity.js";
import { requireOrgConfigFrom } from "../review/load-config.js";
import { UnwrittenFailures, type Analyser } from "../review/pipeline.js";
import { isBaseChange, isHandled, PULL_REQUEST_ACTIONS } from "./events.js";
import { NO_OPERATOR_METRICS, type OperatorMetrics } from "./operator-metrics.js";
import { repoRef, toPullTarget } from "./pull-target.js";
import { RecheckRefusals, recheckAsker } from "./recheck.js";
import { ReviewJobs, type DeliveryJournal, type QueueRecheckReview } from "./review-jobs.js";
import { ReviewScheduler } from "./scheduler.js";
import { ReceivingDeliveries } from "./terms.js";

export type { DeliveryJournal } from "./review-jobs.js";

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
  /** Where reviews run the analysis (review/analyser.ts): in this thread unless the entry point says. */
  analyser?: Analyser;
  /**
   * Where a recheck's review goes once its asker is allowed and its pull request's head read (the Lambda
   * worker: its head commit's queue group). Absent: reviewed in the head commit's turn of the scheduler.
   */
  queueRecheckReview?: QueueRecheckReview;
}

export function createApp(options: AppOptions = {}): ApplicationFunction {
  const clock = options.clock ?? REAL_TIME;
  const operatorMetrics = options.operatorMetrics ?? NO_OPERATOR_METRICS;
  return (probot: Probot) => {
    const jobs = new ReviewJobs({
      scheduler: options.scheduler ?? new ReviewScheduler({ clock }),
      clock,
      deliveries: options.deliveries ?? new ReceivingDeliveries(),
      journal: options.journal,
      operatorMetrics,
      requireOrgConfig: options.requireOrgConfig ?? requireOrgConfigFrom(process.env),
      availability: new GraphqlAvailability(clock),
      // Asked of GitHub with the App's JWT once in this process (the server, a Lambda container), by the
      // first review that reads what is on a pull request: only the App's own words there count.
      app: appIdentityOnce(async () => (await probot.auth()) as unknown as Octokit, probot.log),
      appId: appIdOnce(async () => (await probot.auth()) as unknown as Octokit),
      refusals: new RecheckRefusals(),
      unwritten: new UnwrittenFailures(),
      ...(options.analyser ? { analyser: options.analyser } : {}),
      ...(options.queueRecheckReview ? { queueRecheckReview: options.queueRecheckReview } : {}),
    });

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
        await jobs.pullRequest(context, toPullTarget(pr, repoRef(repository)), {
          opened: action === "opened",
        });
      },
    );
    probot.on("check_run.rerequested", (context) =>
      jobs.checkStubs(context, context.payload.repository, context.payload.check_run, true),
    );
    probot.on(["check_suite.requested", "check_suite.rerequested"], (context) =>
      jobs.checkStubs(
        context,
        context.payload.repository,
        context.payload.check_suite,
        context.payload.action === "rerequested",
      ),
    );
    // `/plugin-review recheck` on a pull request: its current head, reviewed for someone with write access.
    probot.on("issue_comment.created", async (context) => {
      const login = recheckAsker(context.payload);
      const { issue, repository } = context.payload;
      if (login) await jobs.recheck(context, repoRef(repository), issue.number, login);
    });
    // A merge queue asks for the required checks on the merge group's head commit.
    probot.on("merge_group.checks_requested", async (context) => {
      const { merge_group: group, repository } = context.payload;
      if (!repository) return;
      await jobs.mergeGroup(context, {
        ...repoRef(repository),
        headSha: group.head_sha,
        baseSha: group.base_sha,
      });
    });
  };
}
