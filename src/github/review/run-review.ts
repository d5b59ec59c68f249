/**
 * The App's review of one head commit, in two stages the scheduler runs one after the other (delivery/):
 * 1. the check run: the inputs (configuration from the default branches, changed descriptors, their
 *    contents: collect-inputs.ts), the core's findings, and the run completed with them (check-run/);
 * 2. for a pull request, the review of the push (pull-review/).
 * Every review has a deadline (api/deadline.ts) covering both stages. A write GitHub fails is tried again with
 * backoff until then, after reading what GitHub holds; whatever fails midway, and when the deadline passes,
 * the check run is completed as failure with the reason, never left in progress while the process lives,
 * and a failure that may pass (GitHub failing, throttling, too slow) is thrown as a TransientReviewError for
 * the scheduler or the queue to try the review again.
 */
import type { ResolvedConfig } from "../../core/config.js";
import { AnalysisSession, type FileFindings } from "../../core/analyse.js";
import { checkConclusion } from "../../core/verdict.js";
import type { Clock } from "../api/clock.js";
import { retryWithBackoff, runUntil } from "../api/deadline.js";
import { REPORT_TIMEOUT_MS, REVIEW_DEADLINE_MS } from "../time-budget.js";
import {
  AppIdentityError,
  describeRequestError,
  explain,
  httpStatus,
  isTimeout,
  isTransient,
  PERMISSION,
  rootCause,
  step,
  TransientReviewError,
} from "../api/errors.js";
import type { AppIdentity, CommitTarget, GitHubGateway, Logger, PullTarget } from "../api/port.js";
import { reviewScope } from "../api/request-scope.js";
import { quotedText } from "../../format/markdown.js";
import { allAnnotations, checkSummary, checkTitle, invalidConfigSummary } from "./check-run/output.js";
import { completeRun, type CheckResult, type KnownRun } from "./check-run/write.js";
import { collectInputs, type CollectedInputs, type ListChanged } from "./collect-inputs.js";
import { loadConfig } from "./load-config.js";
import { publishReview, type PublishResult } from "./pull-review/publish.js";

export interface ReviewOutcome {
  conclusion: "success" | "neutral" | "failure";
  reviews: FileFindings[];
  review?: PublishResult;
  error?: string;
}

/** How a review runs, as its entry point and the scheduler decide it. */
export interface ReviewOptions {
  appId?: number;
  /**
   * The App's own account (learned once per process: api/rest/app-identity.ts; given by `pr --app`): only
   * its words on a pull request count. Asked only by a review that reads what is on the pull request.
   */
  app: () => Promise<AppIdentity>;
  log: Logger;
  /** How the review's own waits run (its deadline, request timeouts, backoffs): real time but in tests. */
  clock: Clock;
  /** When (epoch ms) the review must end at the latest (the Lambda invocation): sooner than its own deadline. */
  endsBy?: number;
  /** The event opened the pull request (so no earlier review of it can exist). */
  opened?: boolean;
  /** An explicit Re-run: a new check run, rather than an update of one that already holds annotations. */
  rerun?: boolean;
  /** The deployment setting: an organisation configuration the App cannot read fails the check. */
  requireOrgConfig?: boolean;
  /**
   * Not to be reviewed: the server died while reviewing this delivery, again and again (the recovery gave
   * up on it). The check run is completed as `failure`, saying so, and nothing is read or posted.
   */
  abandoned?: boolean;
}

/** A review whose check run is written: its outcome so far, and what remains. */
export interface StagedReview {
  /** What the check run says: the verdict, or why the review could not complete. */
  outcome: ReviewOutcome;
  /** The second stage (a pull request's review), to run once the check run is written; absent when none. */
  next?: () => Promise<ReviewOutcome>;
}

/** What a kind of target adds to the common review: how its changed descriptors are listed, what else is posted. */
interface TargetKind {
  /** Fields naming the target on every log line (`{ pr: "owner/repo#7" }`). */
  logFields: Record<string, string>;
  listChanged: ListChanged;
  /** Posts what the check run does not carry (a pull request's review); absent for a merge group. */
  publish?: (
    reviews: FileFindings[],
    collected: CollectedInputs,
    ctx: { config: ResolvedConfig; failed: boolean; firstLook: boolean; log: Logger },
  ) => Promise<PublishResult>;
}

/** How much of a failure's reason the summary shows (far under GitHub's limit for the summary). */
const REASON_LIMIT = 8000;
/** The check run of a delivery whose review the server died in, again and again (ReviewOptions.abandoned). */
const ABANDONED: CheckResult = {
  conclusion: "failure",
  title: "plugin-review could not review this commit",
  summary:
    "**Failing**: this commit could not be reviewed. plugin-review's server stopped while reviewing it, more than once (its process died: perhaps the descriptors of this pull request are more than it can hold), so it was not tried again; a commit that was not reviewed cannot pass.\n\nRe-run the check to try once more. If it fails again, the server's operators will find the delivery in its log.",
  annotations: [],
};

/** The failure report when a review cannot complete: what happened, and whether re-running helps. */
function failureResult(e: unknown, reason: string): CheckResult {
  const retry = isTransient(rootCause(e));
  const summary = isTimeout(rootCause(e))
    ? "GitHub did not answer in time, so the review could not be completed. Re-running the check retries it."
    : // The reason may quote a path or GitHub's words: rendered inert.
      `The review could not be completed: ${quotedText(reason, { max: REASON_LIMIT })}${retry ? "\n\nRe-run the check to try again." : ""}`;
  return {
    conclusion: "failure",
    title: "plugin-review could not complete",
    summary,
    annotations: [],
  };
}

/**
 * The first stage of a review of a commit against its base: the check run (always), and the second stage
 * when the target kind posts something more. Both stages share the review's deadline and its one fresh
 * installation token after a 401 (api/request-scope.ts).
 */
function startReview(
  gw: GitHubGateway,
  target: CommitTarget,
  kind: TargetKind,
  opts: ReviewOptions,
): Promise<StagedReview> {
  const inReview = reviewScope(opts.clock);
  const own = Date.now() + opts.clock.ms(REVIEW_DEADLINE_MS);
  const deadline = opts.endsBy === undefined ? own : Math.min(own, opts.endsBy);
  return inReview(() => checkRunStage(gw, target, kind, opts, { deadline, inReview }));
}

async function checkRunStage(
  gw: GitHubGateway,
  target: CommitTarget,
  kind: TargetKind,
  opts: ReviewOptions,
  review: { deadline: number; inReview: <T>(fn: () => Promise<T>) => Promise<T> },
): Promise<StagedReview> {
  const log = opts.log.child({ ...kind.logFields, head: target.headSha.slice(0, 12) });
  const where = { owner: target.owner, repo: target.repo, headSha: target.headSha, appId: opts.appId };
  /** The run to complete, or "unknown" before the listing and once a write was sent. */
  let known: KnownRun = "unknown";
  /** The run an explicit Re-run replaces (a new run is made, never this one completed). */
  let replaces: number | undefined;
  let written = false;
  const complete = async (result: CheckResult) => {
    const from = known;
    known = "unknown"; // from here on, GitHub may hold some of it
    await completeRun(gw, where, from, result, { log, clock: opts.clock, ...(replaces ? { replaces } : {}) });
    written = true;
  };
  try {
    return await runUntil(review.deadline, async () => {
      // One query: this commit's run and the configuration files. A Re-run asks for a new run; any other
      // event completes this commit's run if there is one.
      const begun = await step("config", () =>
        gw.reviewStart({ ...where, ownerType: target.ownerType }, opts.appId),
      );
      known = opts.rerun ? undefined : begun.run;
      if (opts.rerun) replaces = begun.run?.id;
      if (opts.abandoned) {
        await complete(ABANDONED);
        log.error(
          "not reviewed: the server stopped while reviewing this delivery, again and again; check run completed as failure",
        );
        return { outcome: { conclusion: "failure", reviews: [], error: "could not be reviewed" } };
      }
      const loaded = await step("config", () =>
        loadConfig(gw, target.owner, target.repo, target.ownerType, begun.configs, {
          ...(begun.unseen ? { unseen: begun.unseen } : {}),
          ...(opts.requireOrgConfig ? { requireOrgConfig: true } : {}),
        }),
      );
      if (!loaded.ok) {
        await complete({
          conclusion: "failure",
          title: loaded.title ?? "Invalid plugin-review configuration",
          summary: loaded.summary ?? invalidConfigSummary(loaded.error),
          annotations: [],
        });
        log.warn({ sources: loaded.sources }, "invalid configuration");
        return { outcome: { conclusion: "failure", reviews: [], error: loaded.error } };
      }
      const config = loaded.config;
      // Descriptors are read and reviewed a batch at a time: the session keeps their findings, not their texts.
      const session = new AnalysisSession(config);
      const collected = await collectInputs(gw, target, config, kind.listChanged, (batch) =>
        session.add(batch),
      );
      const reviews = session.finish();
      const { notReviewed } = collected;
      const conclusion = checkConclusion(
        reviews.flatMap((r) => r.findings),
        config,
        notReviewed,
      );
      const failed = conclusion === "failure";
      const { annotations, omitted } = allAnnotations(reviews, config.existing);
      await complete({
        conclusion,
        title: checkTitle(reviews, config.existing, notReviewed),
        summary: checkSummary({
          reviews,
          failed,
          failOn: config.failOn,
          notes: collected.notes,
          notReviewed,
          annotationsOmitted: omitted,
          existing: config.existing,
        }),
        annotations,
      });
      log.info(
        {
          descriptors: reviews.length,
          findings: reviews.reduce((n, r) => n + r.findings.length, 0),
          notReviewed: notReviewed.reduce((n, x) => n + x.paths.length, 0),
          conclusion,
        },
        "check run completed",
      );
      const outcome: ReviewOutcome = { conclusion, reviews };
      const publish = kind.publish;
      const firstLook = opts.opened === true && begun.run === undefined && !opts.rerun;
      // Without descriptors there is nothing to review, but an earlier "changes requested" of the App's
      // may be left to dismiss (the descriptor left the pull request); a just-opened one has none.
      if (!publish || (reviews.length === 0 && firstLook)) return { outcome };
      return {
        outcome,
        next: () =>
          review.inReview(() =>
            publishStage(outcome, review.deadline, log, opts.clock, (attempt) =>
              publish(reviews, collected, { config, failed, firstLook: firstLook && attempt === 0, log }),
            ),
          ),
      };
    });
  } catch (e) {
    const reason = isTimeout(rootCause(e)) ? "GitHub did not answer in time" : explain(e);
    const transient = isTransient(rootCause(e));
    log.error({ status: httpStatus(rootCause(e)) }, `review failed: ${reason}`);
    // A run completed with the verdict stays as it is.
    if (!written) {
      try {
        // A little past the deadline, so that the failure report has time even when the deadline is what failed.
        const until = Math.max(review.deadline, Date.now()) + opts.clock.ms(REPORT_TIMEOUT_MS);
        await runUntil(until, () => complete(failureResult(e, reason)), { what: "completing the check run" });
      } catch (e2) {
        log.error(
          `${describeRequestError(e2, "completing the check run")}; the review is tried again later, which completes it`,
        );
      }
    }
    // GitHub failing, throttling or too slow: raise, so that the review is tried again (the scheduler's
    // later retries on the server, the queue's on Lambda).
    if (transient) throw new TransientReviewError(reason, isTimeout(rootCause(e)));
    return { outcome: { conclusion: "failure", reviews: [], error: reason } };
  }
}

/**
 * The second stage: `publish` (attempt 0, 1, …) until it succeeds, tried again with backoff while GitHub
 * fails, until the review's deadline; each try after the first reads what is already there, so nothing is
 * posted twice. A refusal that will not pass (a permission) is logged: the check run holds every finding.
 */
async function publishStage(
  outcome: ReviewOutcome,
  deadline: number,
  log: Logger,
  clock: Clock,
  publish: (attempt: number) => Promise<PublishResult>,
): Promise<ReviewOutcome> {
  try {
    return await runUntil(deadline, async () => {
      outcome.review = await retryWithBackoff("posting the review", log, clock, publish);
      log.info({ ...outcome.review }, "review published");
      return outcome;
    });
  } catch (e) {
    const why = describeRequestError(e, "posting the review");
    if (isTransient(e)) {
      log.error(
        { status: httpStatus(e) },
        `${why}; the findings are in the check run; the review is tried again later`,
      );
      throw new TransientReviewError(why, isTimeout(e));
    }
    // The check run already carries every finding: nothing is lost, the log says why there is no review.
    log.error(
      { status: httpStatus(e) },
      e instanceof AppIdentityError
        ? `${e.message}; no review is posted (the findings are in the check run); the next review asks again`
        : `${why}; the findings are in the check run (the app needs \`${PERMISSION.review}\` to review)`,
    );
    outcome.error = why;
    return outcome;
  }
}

/** The first stage of the review of a pull request head: its check run; the second posts the push's review. */
export function startPullRequestReview(
  gw: GitHubGateway,
  pr: PullTarget,
  opts: ReviewOptions,
): Promise<StagedReview> {
  return startReview(
    gw,
    pr,
    {
      logFields: { pr: `${pr.owner}/${pr.repo}#${pr.number}` },
      listChanged: (paths) => gw.listChanged(pr, paths),
      publish: (reviews, collected, ctx) =>
        publishReview(gw, pr, reviews, collected.descriptors, {
          mode: ctx.config.review,
          failed: ctx.failed,
          log: ctx.log,
          app: opts.app,
          firstLook: ctx.firstLook,
          existing: ctx.config.existing,
        }),
    },
    opts,
  );
}

/** Reviews a pull request head, both stages (`plugin-review pr`). */
export async function reviewPullRequest(
  gw: GitHubGateway,
  pr: PullTarget,
  opts: ReviewOptions,
): Promise<ReviewOutcome> {
  const staged = await startPullRequestReview(gw, pr, opts);
  return staged.next ? staged.next() : staged.outcome;
}

/**
 * Reviews a merge group's head commit (`merge_group` `checks_requested`): the descriptors that differ from
 * the group's base, and only the check run, since a merge group has no pull request to review.
 */
export function startMergeGroupReview(
  gw: GitHubGateway,
  group: CommitTarget,
  opts: ReviewOptions,
): Promise<StagedReview> {
  return startReview(
    gw,
    group,
    {
      logFields: { mergeGroup: `${group.owner}/${group.repo}@${group.headSha.slice(0, 12)}` },
      listChanged: (paths) => gw.listChanged(group, paths),
    },
    opts,
  );
}
