/**
 * How the App reviews a commit: four stages, in this order, ordered here alone.
 * 1. `readInputs` (read-inputs.ts): the commit's check run and the policy of the default branches, then the
 *    changed descriptors, a batch at a time, from the base repository by sha (a fork's head too);
 * 2. `analyseInputs` (analyse-inputs.ts): the core's findings, batch by batch as they are read, and the verdict;
 * 3. `completeCheckRun` (check-run/complete.ts): the check run completed with them;
 * 4. `publishPullReview` (pull-review/publish-stage.ts): for a pull request, the review of the push.
 * Between the third and the fourth, whoever runs the review hears that its check run is written, and that
 * it is about to post (`StageTurns`): the scheduler (delivery/scheduler.ts) gives the review's slot back
 * there, and lets other check runs go before this post.
 *
 * All four run under the review's deadline and in its one request scope (api/request-scope.ts: the
 * deadline, and one fresh installation token after a 401). Whatever fails before the check run is written,
 * the run is completed as failure with the reason, never left in progress while the process lives; a
 * failure that may pass (GitHub failing, throttling, too slow) is thrown as a TransientReviewError for the
 * scheduler or the queue to try the review again.
 */
import type { Clock } from "../api/clock.js";
import { runUntil } from "../api/deadline.js";
import type {
  AppIdentity,
  ChangedFiles,
  CheckRunRef,
  CommitTarget,
  ExistingRun,
  GitHubGateway,
  Logger,
  PullTarget,
} from "../api/port.js";
import { reviewScope } from "../api/request-scope.js";
import { REVIEW_DEADLINE_MS } from "../time-budget.js";
import { analyseInputs, type Analysis } from "./analyse-inputs.js";
import type { Analyser } from "./analyser.js";
import { completeCheckRun, lastTry, ReviewCheckRun } from "./check-run/complete.js";
import { parseExternalId, pullsNamed } from "./check-run/external-id.js";
import type { UnwrittenFailures } from "./check-run/unwritten.js";
// The delivery makes the one record of its process, and reaches the review only through this module.
export { UnwrittenFailures } from "./check-run/unwritten.js";
import type { ReviewOutcome } from "./outcome.js";
import { publishReview, type PublishResult } from "./pull-review/publish.js";
import { publishPullReview } from "./pull-review/publish-stage.js";
import { readInputs } from "./read-inputs.js";

export type { ReviewOutcome } from "./outcome.js";
// Where the analysis runs is the entry point's choice (the server's and Lambda's analysis threads).
export type { Analyser } from "./analyser.js";
export { AnalysisThreads } from "./analysis-threads.js";

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
  /**
   * Nobody tries this delivery again (the queue's last try): a run not completed yet (an earlier try died
   * mid-review) is first completed as `failure`, saying so, then the review writes its result over it.
   */
  lastTry?: boolean;
  /** What the review tells whoever runs it between its stages (the scheduler); nothing by default. */
  turns?: StageTurns;
  /** Where the analysis runs (analyser.ts): in this thread by default, in an analysis thread on the server. */
  analyser?: Analyser;
  /** The process's failing results GitHub has not taken yet (check-run/unwritten.ts); none: not remembered. */
  unwritten?: UnwrittenFailures;
}

/** What a review tells whoever runs it between its stages. */
export interface StageTurns {
  /**
   * The check run is written, saying `outcome` (the scheduler gives the review's slot back; the operators'
   * metrics count it). Not called when the review fails before its run is written.
   */
  checkRunWritten(outcome: ReviewOutcome): void;
  /** The pull request's review is about to be posted (the scheduler lets other check runs go first). */
  beforePublish(): Promise<void>;
}

/** What a kind of target adds to the common review: how its changed descriptors are listed, what else is posted. */
interface TargetKind<T extends CommitTarget> {
  /** Fields naming the target on every log line (`{ pr: "owner/repo#7" }`). */
  logFields: Record<string, string>;
  /** The pull request whose head is reviewed (a merge group has none). */
  pull?: number;
  /**
   * The target as GitHub has it when the review starts, read before anything else (GitHub failing it fails
   * the run like any read), and whether it has moved on from the reviewed head (a pull request pushed to
   * since). Absent: the target as given.
   */
  current?: (log: Logger) => Promise<{ now: T; movedOn: boolean }>;
  listChanged: (target: T, paths: readonly string[]) => Promise<ChangedFiles>;
  /** Posts what the check run does not carry (a pull request's review); absent for a merge group. */
  publish?: (
    target: T,
    analysis: Analysis,
    ctx: { firstLook: boolean; log: Logger },
  ) => Promise<PublishResult>;
}

/** The check run written, and what the pull request's review is written from (none after a failure). */
interface Checked {
  outcome: ReviewOutcome;
  analysis?: Analysis;
  firstLook?: boolean;
}

/** The review of a commit against its base, its stages in order. */
async function reviewCommit<T extends CommitTarget>(
  gw: GitHubGateway,
  target: T,
  kind: TargetKind<T>,
  opts: ReviewOptions,
): Promise<ReviewOutcome> {
  const own = Date.now() + opts.clock.ms(REVIEW_DEADLINE_MS);
  const deadline = opts.endsBy === undefined ? own : Math.min(own, opts.endsBy);
  const { clock } = opts;
  const log = opts.log.child({ ...kind.logFields, head: target.headSha.slice(0, 12) });
  const checkRun = new ReviewCheckRun(gw, target, {
    log,
    clock,
    ...(opts.appId !== undefined ? { appId: opts.appId } : {}),
    ...(opts.rerun ? { rerun: true } : {}),
    ...(kind.pull !== undefined ? { pull: kind.pull } : {}),
    ...(opts.unwritten ? { unwritten: opts.unwritten } : {}),
  });
  // A merge group's failures say how the queue retries it (a Re-run of its run reviews nothing).
  const mergeGroup = kind.pull === undefined;
  const readOpts = mergeGroup ? { ...opts, mergeGroup } : opts;
  return reviewScope(clock)(async () => {
    let now = target;
    let movedOn = false;
    const checked = await runUntil(deadline, async (): Promise<Checked> => {
      if (kind.current) ({ now, movedOn } = await kind.current(log));
      const inputs = await readInputs(gw, now, (paths) => kind.listChanged(now, paths), readOpts); // 1
      checkRun.found(inputs.run);
      // An earlier try died mid-review: should this one die too, its run fails rather than waits forever.
      if (opts.lastTry && inputs.kind === "descriptors" && inputs.run?.status !== "completed")
        await checkRun.holdAs(lastTry(mergeGroup));
      // A pull request pushed to since it was opened may carry the newer head's review already: read, like
      // any later event's, so that nothing is posted for a head it has moved on from (publish.ts).
      const firstLook = opts.opened === true && inputs.run === undefined && !opts.rerun && !movedOn;
      if (inputs.kind === "not-analysed") {
        await checkRun.complete(inputs.result);
        const outcome: ReviewOutcome = { conclusion: "failure", files: [], error: inputs.error };
        return { outcome };
      }
      const analysis = await analyseInputs(inputs, opts.analyser); // 2
      const outcome = await completeCheckRun(checkRun, analysis, log); // 3
      return { outcome, analysis, firstLook };
    }).catch(async (e: unknown): Promise<Checked> => ({ outcome: await checkRun.fail(e, deadline) }));
    opts.turns?.checkRunWritten(checked.outcome);
    const { outcome, analysis, firstLook = false } = checked;
    const publish = kind.publish;
    // Without descriptors there is nothing to review, but an earlier "changes requested" of the App's may be
    // left to dismiss (the descriptor left the pull request); a just-opened one has none.
    if (!publish || !analysis || (analysis.files.length === 0 && firstLook)) return outcome;
    await opts.turns?.beforePublish();
    return publishPullReview(
      outcome,
      (attempt) => publish(now, analysis, { firstLook: firstLook && attempt === 0, log }), // 4
      { deadline, log, clock },
    );
  });
}

/** What a pull request's review adds to a commit's: its file list, and the review of the push. */
function pullKind(gw: GitHubGateway, pr: PullTarget, opts: ReviewOptions): TargetKind<PullTarget> {
  return {
    logFields: { pr: `${pr.owner}/${pr.repo}#${pr.number}` },
    pull: pr.number,
    listChanged: (now, paths) => gw.listChanged(now, paths),
    publish: (now, analysis, ctx) =>
      publishReview(gw, now, analysis.files, analysis.descriptors, {
        mode: analysis.config.review,
        failed: analysis.conclusion === "failure",
        log: ctx.log,
        app: opts.app,
        firstLook: ctx.firstLook,
        existing: analysis.config.existing,
      }),
  };
}

/** Reviews a pull request's head, as `pr` says it is now (just read from GitHub): its check run, then the review of the push. */
export function reviewPullRequest(
  gw: GitHubGateway,
  pr: PullTarget,
  opts: ReviewOptions,
): Promise<ReviewOutcome> {
  return reviewCommit(gw, pr, pullKind(gw, pr, opts), opts);
}

/**
 * Reviews a pull request's head commit against the pull request's base as GitHub has it when the review
 * starts (one read), not as a delivery's payload said it: a delivery retried, delayed or received out of
 * order may be older than an edit that moved the pull request to another base branch, and its review against
 * the old base would write its verdict over the newer one's (a change failing against the new base shown as
 * passing). The head stays the delivery's: a commit the pull request has moved on from still gets its
 * completed run, and nothing posted (pull-review/publish.ts).
 */
export function reviewCurrentPull(
  gw: GitHubGateway,
  pr: PullTarget,
  opts: ReviewOptions,
): Promise<ReviewOutcome> {
  return reviewCommit(
    gw,
    pr,
    {
      ...pullKind(gw, pr, opts),
      current: async (log) => {
        const { base, head } = await gw.pullRequest(pr, pr.number);
        if (base.sha !== pr.baseSha)
          log.info(
            `reviewed against the pull request's base now, ${base.sha.slice(0, 12)}, not the delivery's ${pr.baseSha.slice(0, 12)}`,
          );
        return { now: { ...pr, baseSha: base.sha }, movedOn: head.sha !== pr.headSha };
      },
    },
    opts,
  );
}

/**
 * Reviews a merge group's head commit (`merge_group` `checks_requested`): the descriptors that differ from
 * the group's base, and only the check run, since a merge group has no pull request to review.
 */
export function reviewMergeGroup(
  gw: GitHubGateway,
  group: CommitTarget,
  opts: ReviewOptions,
): Promise<ReviewOutcome> {
  return reviewCommit(
    gw,
    group,
    {
      logFields: { mergeGroup: `${group.owner}/${group.repo}@${group.headSha.slice(0, 12)}` },
      listChanged: (now, paths) => gw.listChanged(now, paths),
    },
    opts,
  );
}

/**
 * The pull requests reviewed at `where`'s commit, as the commit's run names them (check-run/external-id.ts
 * `pullsNamed`): where a Re-run that names no pull request (a fork's) looks.
 */
export async function pullsNamedAt(
  gw: GitHubGateway,
  where: CheckRunRef,
  appId: number | undefined,
): Promise<number[]> {
  return pullsNamedOn(await gw.latestRun(where, appId));
}

/** The pull requests a run names as reviewed at its commit (none: not a run of this release, or none named). */
export function pullsNamedOn(run: ExistingRun | undefined): number[] {
  return pullsNamed(parseExternalId(run?.externalId));
}
