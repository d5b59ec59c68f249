/**
 * The third stage of a review (review/pipeline.ts): the check run completed with what the review found, or
 * with why it could not review the commit. `ReviewCheckRun` is the one run a review writes: the run the
 * first read found (a Re-run replaces it with a new one), completed once (write.ts `completeRun` tries a
 * write again until the review's deadline); whatever fails before it is written, the run is completed as
 * failure with the reason, never left in progress while the process lives.
 */
import type { Clock } from "../../api/clock.js";
import { runUntil } from "../../api/deadline.js";
import {
  describeRequestError,
  explain,
  httpStatus,
  isTimeout,
  isTransient,
  rootCause,
  TransientReviewError,
} from "../../api/errors.js";
import type { CommitTarget, ExistingRun, GitHubGateway, Logger } from "../../api/port.js";
import { quotedText } from "../../../format/markdown.js";
import { REPORT_TIMEOUT_MS } from "../../time-budget.js";
import type { Analysis } from "../analyse-inputs.js";
import type { ReviewOutcome } from "../outcome.js";
import { allAnnotations, checkSummary, checkTitle, MERGE_QUEUE_RETRY, tryOnceMore } from "./output.js";
import { parseExternalId } from "./external-id.js";
import type { UnwrittenFailures } from "./unwritten.js";
import { completeRun, type CheckResult, type KnownRun, type RunWhere } from "./write.js";

/** How much of a failure's reason the summary shows (far under GitHub's limit for the summary). */
const REASON_LIMIT = 8000;

/** The one check run a review writes. */
export class ReviewCheckRun {
  /** The run to complete, or "unknown" before the first read and once a write was sent. */
  private known: KnownRun = "unknown";
  /** The run an explicit Re-run replaces (a new run is made, never this one completed). */
  private replaces: ExistingRun | undefined;
  /** The commit's run as the first read found it (also when a Re-run replaces it). */
  private seen: ExistingRun | undefined;
  /** Whether a result was written: a run completed with the verdict stays as it is. */
  written = false;
  private readonly where: RunWhere & { appId: number | undefined };

  /** `pull`: the pull request whose review this is (none for a merge group). */
  constructor(
    private readonly gw: GitHubGateway,
    target: CommitTarget,
    private readonly opts: {
      appId?: number;
      rerun?: boolean;
      pull?: number;
      /** This process's failing results GitHub has not taken yet (none: nothing remembered). */
      unwritten?: UnwrittenFailures;
      log: Logger;
      clock: Clock;
    },
  ) {
    this.where = {
      owner: target.owner,
      repo: target.repo,
      headSha: target.headSha,
      appId: opts.appId,
      ...(opts.pull !== undefined ? { pull: opts.pull } : {}),
    };
  }

  /** What the review's first read found of this commit's run (a Re-run asks for a new one). */
  found(run: ExistingRun | undefined): void {
    this.seen = run;
    this.known = this.opts.rerun ? undefined : run;
    if (this.opts.rerun) this.replaces = run;
  }

  async complete(result: CheckResult): Promise<void> {
    const failing = await this.failingPull(result);
    if (failing !== undefined) {
      const whose = failing === "several" ? "more than one other pull request's" : `#${failing}'s`;
      // Worth an operator's (and `pr`'s reader's) attention: the run does not say this review's result.
      this.opts.log.warn(
        `the check run stands for ${whose} failing review of this commit, which is its head too (against its own base): this passing result is not written over it`,
      );
      this.written = true;
      return;
    }
    const from = this.known;
    this.known = "unknown"; // from here on, GitHub may hold some of it
    const { pull, unwritten } = this.opts;
    // Remembered until GitHub takes it: a write that fails leaves it to a retry.
    if (pull !== undefined && result.conclusion === "failure") unwritten?.add(this.commit, pull);
    await completeRun(this.gw, this.where, from, result, {
      log: this.opts.log,
      clock: this.opts.clock,
      ...(this.replaces ? { replaces: this.replaces } : {}),
    });
    if (pull !== undefined) unwritten?.written(this.commit, pull);
    this.written = true;
  }

  /** The commit, as UnwrittenFailures names it. */
  private get commit(): string {
    return `${this.where.owner}/${this.where.repo}@${this.where.headSha}`;
  }

  /**
   * Another open pull request whose failing review of this same head commit the run stands for, when
   * `result` passes: one check run serves every pull request of a commit, so a pull request opened from the
   * same head into a branch where its descriptors are new (no change rule runs) or already as they are must
   * not turn another's failing check green, nor complete a run left in progress while another's failing result
   * waits for GitHub to take it. Those pull requests' state and head are read from GitHub, only in that case;
   * "several" when the run names more than it can.
   */
  private async failingPull(result: CheckResult): Promise<number | "several" | undefined> {
    const run = this.seen;
    const pull = this.opts.pull;
    if (pull === undefined || result.conclusion === "failure") return undefined;
    // A run in progress names the failing pull requests whose results GitHub has not taken yet (write.ts
    // startCheckRun): their retries are pending, and a pass written meanwhile would be a green check for them.
    // So does this process, whatever the run says (its write may have failed before any run was made).
    const named =
      run !== undefined && (run.status !== "completed" || run.conclusion === "failure")
        ? parseExternalId(run.externalId)?.failing
        : undefined;
    if (named?.more) return "several";
    const unwritten = this.opts.unwritten?.others(this.commit, pull) ?? [];
    for (const other of new Set([...(named?.pulls ?? []), ...unwritten])) {
      if (other === pull) continue;
      const now = await this.gw.pullRequest(this.where, other).catch((e: unknown) => {
        if (httpStatus(e) === 404) return undefined; // gone (its repository moved): it holds nothing back
        throw e;
      });
      if (now?.state === "open" && now.head.sha === this.where.headSha) return other;
    }
    return undefined;
  }

  /**
   * Writes `result` for the time being (the review's failure if it dies before its own result): the review
   * then writes its result, or its failure, over it.
   */
  async holdAs(result: CheckResult): Promise<void> {
    await this.complete(result);
    this.written = false;
  }

  /**
   * A review that failed before its run was written completes it as failure with the reason, a little
   * past the deadline, so that the report has time even when the deadline is what failed. A failure that
   * may pass (GitHub failing, throttling, too slow) is thrown as a TransientReviewError, so that the review
   * is tried again (the scheduler's later retries on the server, the queue's on Lambda).
   */
  async fail(e: unknown, deadline: number): Promise<ReviewOutcome> {
    const { log, clock } = this.opts;
    const reason = isTimeout(rootCause(e)) ? "GitHub did not answer in time" : explain(e);
    const transient = isTransient(rootCause(e));
    log.error({ status: httpStatus(rootCause(e)) }, `review failed: ${reason}`);
    let reported = this.written;
    if (!this.written) {
      try {
        const until = Math.max(deadline, Date.now()) + clock.ms(REPORT_TIMEOUT_MS);
        await runUntil(until, () => this.complete(failureResult(e, reason, this.opts.pull === undefined)), {
          what: "completing the check run",
        });
        reported = true;
      } catch (e2) {
        log.error(
          `${describeRequestError(e2, "completing the check run")}; the review is tried again later, which completes it`,
        );
      }
    }
    // A failure no retry would change still leaves the commit without its completed run when GitHub failed
    // the report too: the next try writes it.
    if (transient || !reported) throw new TransientReviewError(reason, isTimeout(rootCause(e)));
    return { conclusion: "failure", files: [], error: reason };
  }
}

/**
 * The run of a delivery's last try, held while it runs (ReviewCheckRun.holdAs): what the run says when this
 * try dies too, as earlier ones did. `mergeGroup`: a merge group's run, which the queue retries, not a Re-run.
 */
export function lastTry(mergeGroup: boolean): CheckResult {
  return {
    conclusion: "failure",
    title: "plugin-review could not review this commit",
    summary: `**Failing**: this commit could not be reviewed. plugin-review stopped while reviewing it (its process died or ran out of time: perhaps the descriptors of this pull request are more than it can hold), and that was its last try; a commit that was not reviewed cannot pass.\n\n${tryOnceMore(mergeGroup)} If it fails again, the operators will find the delivery in the dead-letter queue.`,
    annotations: [],
  };
}

/**
 * The failure report when a review cannot complete: what happened, and whether trying again helps (a Re-run
 * for a pull request's review; `mergeGroup`: the merge queue).
 */
function failureResult(e: unknown, reason: string, mergeGroup: boolean): CheckResult {
  const retry = isTransient(rootCause(e));
  const summary = isTimeout(rootCause(e))
    ? `GitHub did not answer in time, so the review could not be completed. ${mergeGroup ? MERGE_QUEUE_RETRY : "Re-running the check retries it."}`
    : // The reason may quote a path or GitHub's words: rendered inert.
      `The review could not be completed: ${quotedText(reason, { max: REASON_LIMIT })}${retry ? `\n\n${mergeGroup ? MERGE_QUEUE_RETRY : "Re-run the check to try again."}` : ""}`;
  return {
    conclusion: "failure",
    title: "plugin-review could not complete",
    summary,
    annotations: [],
  };
}

/** Stage 3: the run completed with the analysis's verdict, its annotations and its summary. */
export async function completeCheckRun(
  run: ReviewCheckRun,
  analysis: Analysis,
  log: Logger,
): Promise<ReviewOutcome> {
  const { files, conclusion, config, notes, notReviewed } = analysis;
  const { annotations, omitted } = allAnnotations(files, config.existing);
  await run.complete({
    conclusion,
    title: checkTitle(files, config.existing, notReviewed),
    summary: checkSummary({
      files,
      failed: conclusion === "failure",
      failOn: config.failOn,
      notes,
      notReviewed,
      annotationsOmitted: omitted,
      existing: config.existing,
    }),
    annotations,
  });
  log.info(
    {
      descriptors: files.length,
      findings: files.reduce((n, r) => n + r.findings.length, 0),
      notReviewed: notReviewed.reduce((n, x) => n + x.paths.length, 0),
      conclusion,
    },
    "check run completed",
  );
  return { conclusion, files };
}
