/**
 * The App's review of one head commit, in two stages: collecting the inputs (configuration from the
 * default branches, changed descriptors, their contents: collect-inputs.ts) and reporting (the core's
 * findings as the check run, and for a pull request the review). Every review has a deadline
 * (deadline.ts); whatever fails midway, and when the deadline passes, the check run is completed as
 * failure with the reason, never left in progress while the process lives.
 */
import { checkConclusion, type ResolvedConfig } from "../core/config.js";
import { hasFailures, reviewDescriptors, type FileReview } from "../core/review.js";
import type { CheckResult, ExistingRun } from "./check-run.js";
import { collectInputs, type CollectedInputs, type ListChanged } from "./collect-inputs.js";
import { REPORT_TIMEOUT_MS, reviewDeadlineMs, runWithin } from "./deadline.js";
import {
  DeadlineError,
  describeRequestError,
  explain,
  httpStatus,
  isTimeout,
  isTransient,
  PERMISSION,
  rootCause,
  step,
  TransientReviewError,
} from "./errors.js";
import type { GitHubGateway } from "./gateway.js";
import { installationSelection, loadConfig } from "./load-config.js";
import { withOneTokenRefresh } from "./octokit.js";
import { publishReview, type PublishResult } from "./publish-review.js";
import {
  allAnnotations,
  checkSummary,
  checkTitle,
  clip,
  invalidConfigSummary,
  OUTPUT_LIMIT,
} from "./render.js";
import type { CommitTarget, Logger, PullTarget } from "./types.js";

export { isTransient, TransientReviewError };

export interface ReviewOutcome {
  conclusion: "success" | "neutral" | "failure";
  reviews: FileReview[];
  review?: PublishResult;
  error?: string;
}

export interface ReviewOptions {
  appId?: number;
  log: Logger;
  /** The event opened the pull request (so no earlier review of it can exist). */
  opened?: boolean;
  /** An explicit Re-run: a new check run, rather than an update of one that already holds annotations. */
  rerun?: boolean;
  /**
   * Called once the check run holds the verdict, before the review is posted: the server frees the review's
   * pool slot then, since what follows mostly waits in the installation's write queue (see serialize.ts).
   */
  onCheckRunWritten?: () => void;
  /** Awaited before the review is posted (the server lets other pull requests' check runs go first). */
  beforePublish?: () => Promise<void>;
  /** The deployment setting: an organisation configuration the App cannot read fails the check. */
  requireOrgConfig?: boolean;
}

/** What a kind of target adds to the common review: how its changed descriptors are listed, what else is posted. */
export interface TargetKind {
  /** Fields naming the target on every log line (`{ pr: "owner/repo#7" }`). */
  logFields: Record<string, string>;
  listChanged: ListChanged;
  /** Posts what the check run does not carry (a pull request's review); absent for a merge group. */
  publish?: (
    reviews: FileReview[],
    collected: CollectedInputs,
    ctx: { config: ResolvedConfig; failed: boolean; firstLook: boolean; log: Logger },
  ) => Promise<PublishResult>;
}

/** The failure report when a review cannot complete: what happened, and whether re-running helps. */
function failureResult(e: unknown, reason: string): CheckResult {
  const retry = isTransient(rootCause(e));
  const summary = isTimeout(rootCause(e))
    ? "GitHub did not answer in time, so the review could not be completed. Re-running the check retries it."
    : `The review could not be completed: ${reason}${retry ? "\n\nRe-run the check to try again." : ""}`;
  return {
    conclusion: "failure",
    title: "plugin-review could not complete",
    summary: clip(summary, OUTPUT_LIMIT),
    annotations: [],
  };
}

/**
 * Reviews a commit against its base: the check run always, and whatever the target kind posts. A 401 on
 * the way gets one fresh installation token (octokit.ts).
 */
export function reviewCommit(
  gw: GitHubGateway,
  target: CommitTarget,
  kind: TargetKind,
  opts: ReviewOptions,
): Promise<ReviewOutcome> {
  return withOneTokenRefresh(() => review(gw, target, kind, opts));
}

async function review(
  gw: GitHubGateway,
  target: CommitTarget,
  kind: TargetKind,
  opts: ReviewOptions,
): Promise<ReviewOutcome> {
  const log = opts.log.child({ ...kind.logFields, head: target.headSha.slice(0, 12) });
  const where = { owner: target.owner, repo: target.repo, headSha: target.headSha };
  const start = () => gw.reviewStart({ ...where, ownerType: target.ownerType }, opts.appId);
  let existing: ExistingRun | undefined;
  /** The run to complete on failure, or "unknown" before the listing and after a create sent. */
  let known: ExistingRun | undefined | "unknown" = "unknown";
  let written = false;
  const write = async (result: CheckResult) => {
    if (!existing) known = "unknown"; // a create whose answer is lost may still have made the run
    await gw.writeCheckRun(where, existing, result);
    written = true;
    opts.onCheckRunWritten?.();
  };
  try {
    return await runWithin(reviewDeadlineMs(), async () => {
      // A Re-run asks for a new run; any other event completes this commit's run if there is one.
      // One query: this commit's run and the configuration files.
      const begun = await step("config", start);
      existing = opts.rerun ? undefined : begun.run;
      known = existing;
      const loaded = await step("config", () =>
        loadConfig(gw.octokit, target.owner, target.repo, target.ownerType, begun.configs, {
          ...(begun.unseen ? { unseen: begun.unseen } : {}),
          repositorySelection: () => installationSelection(gw.octokit),
          ...(opts.requireOrgConfig ? { requireOrgConfig: true } : {}),
        }),
      );
      if (!loaded.ok) {
        await write({
          conclusion: "failure",
          title: loaded.title ?? "Invalid plugin-review configuration",
          summary: loaded.summary ?? invalidConfigSummary(loaded.error),
          annotations: [],
        });
        log.warn({ sources: loaded.sources }, "invalid configuration");
        return { conclusion: "failure", reviews: [], error: loaded.error };
      }
      const config = loaded.config;
      const collected = await collectInputs(gw, target, config, kind.listChanged);
      const reviews = reviewDescriptors(collected.inputs, config);
      const failed = hasFailures(reviews, config);
      const conclusion = checkConclusion(
        reviews.flatMap((r) => r.findings),
        config,
      );
      const { annotations, omitted } = allAnnotations(reviews, config.existing);
      await write({
        conclusion,
        title: checkTitle(reviews, config.existing),
        summary: checkSummary({
          reviews,
          failed,
          failOn: config.failOn,
          notes: collected.notes,
          annotationsOmitted: omitted,
          existing: config.existing,
        }),
        annotations,
      });
      log.info(
        {
          descriptors: reviews.length,
          findings: reviews.reduce((n, r) => n + r.findings.length, 0),
          conclusion,
        },
        "check run completed",
      );
      const outcome: ReviewOutcome = { conclusion, reviews };
      if (kind.publish && reviews.length > 0) {
        try {
          await opts.beforePublish?.();
          const firstLook = opts.opened === true && existing === undefined && !opts.rerun;
          outcome.review = await kind.publish(reviews, collected, { config, failed, firstLook, log });
          log.info({ ...outcome.review }, "review published");
        } catch (e) {
          if (e instanceof DeadlineError) throw e;
          // The check run already carries every finding: nothing is lost, the log says why there is no review.
          const why = describeRequestError(e, "posting the review");
          log.error(
            { status: httpStatus(e) },
            `${why}; the findings are in the check run (the app needs \`${PERMISSION.review}\` to review)`,
          );
          outcome.error = why;
        }
      }
      return outcome;
    });
  } catch (e) {
    const reason = isTimeout(rootCause(e)) ? "GitHub did not answer in time" : explain(e);
    const transient = isTransient(rootCause(e));
    log.error({ status: httpStatus(rootCause(e)) }, `review failed: ${reason}`);
    // A run completed with the verdict stays as it is (the deadline passed while posting the review).
    if (!written) {
      try {
        await runWithin(
          REPORT_TIMEOUT_MS,
          async () => {
            // The listing may have failed, or a create may have made the run without our hearing
            // back: look again then (through REST, one call), so that the failure completes that run
            // rather than adding one.
            const run = known === "unknown" ? await gw.latestRun(where, opts.appId) : known;
            await gw.writeCheckRun(where, run, failureResult(e, reason));
          },
          { what: "completing the check run" },
        );
      } catch (e2) {
        log.error(
          `${describeRequestError(e2, "completing the check run")}; the next attempt (a redelivery or a re-run) completes it`,
        );
      }
    }
    // GitHub failing, throttling or too slow: raise, so that the delivery is retried (the queue's redrive
    // in Lambda; Probot's server answers 500 and the delivery can be redelivered).
    if (transient) throw new TransientReviewError(reason, isTimeout(rootCause(e)));
    return { conclusion: "failure", reviews: [], error: reason };
  }
}

/** Reviews a pull request head: the check run, and one review of the push. */
export async function reviewPullRequest(
  gw: GitHubGateway,
  pr: PullTarget,
  opts: ReviewOptions,
): Promise<ReviewOutcome> {
  return reviewCommit(
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
          firstLook: ctx.firstLook,
          existing: ctx.config.existing,
        }),
    },
    opts,
  );
}

/**
 * Reviews a merge group's head commit (`merge_group` `checks_requested`): the descriptors that differ from
 * the group's base, and only the check run, since a merge group has no pull request to review.
 */
export async function reviewMergeGroup(
  gw: GitHubGateway,
  group: CommitTarget,
  opts: ReviewOptions,
): Promise<ReviewOutcome> {
  return reviewCommit(
    gw,
    group,
    {
      logFields: { mergeGroup: `${group.owner}/${group.repo}@${group.headSha.slice(0, 12)}` },
      listChanged: (paths) => gw.listChanged(group, paths),
    },
    opts,
  );
}
