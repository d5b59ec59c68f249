/**
 * The Probot app: a thin shell that turns events into review targets. All logic is in src/github and
 * src/core. Reviews of one head commit run one at a time (src/github/serialize.ts), whoever runs the app:
 * the server, the Lambda worker or the tests.
 */
import type { ApplicationFunction, Context, Probot } from "probot";
import { isBaseChange, PULL_REQUEST_ACTIONS } from "./github/events.js";
import { gatewayFor, GraphqlAvailability } from "./github/gateway.js";
import { requireOrgConfigFrom } from "./github/load-config.js";
import { pullTargetsFor, repoRef, toPullTarget, type RepoRef } from "./github/pull-target.js";
import { reviewMergeGroup, reviewPullRequest, type ReviewOptions } from "./github/run-review.js";
import { CheckRunsFirst, KeyedLock } from "./github/serialize.js";

type CheckContext = Context<"check_run.rerequested" | "check_suite.requested" | "check_suite.rerequested">;

export interface AppOptions {
  /**
   * Runs a review job. Default: at once, and the delivery's handling waits for it (the Lambda worker, whose
   * failed message is retried). The server passes a background pool, so that it answers GitHub at once.
   */
  schedule?: (job: (release: () => void) => Promise<void>, ready: Promise<unknown>) => void | Promise<void>;
  /**
   * Fail the check when the organisation's configuration cannot be read (default: the environment's
   * PLUGIN_REVIEW_REQUIRE_ORG_CONFIG; otherwise the summary says it was not read).
   */
  requireOrgConfig?: boolean;
}

export function createApp(options: AppOptions = {}): ApplicationFunction {
  const requireOrgConfig = options.requireOrgConfig ?? requireOrgConfigFrom(process.env);
  const policy = requireOrgConfig ? { requireOrgConfig } : {};
  return (probot: Probot) => {
    const lock = new KeyedLock();
    // Which installations read through REST because GraphQL failed for them lately (gateway.ts).
    const availability = new GraphqlAvailability();
    const gateway = (context: Context) =>
      gatewayFor(context.octokit, {
        log: context.log,
        installation: (context.payload as { installation?: { id?: number } }).installation?.id,
        availability,
      });
    const checkRunsFirst = new CheckRunsFirst();
    const schedule = options.schedule ?? (async (job, ready) => (await ready, job(() => undefined)));
    /**
     * One review at a time per head commit of a repository (its pool slot is asked for once it holds the
     * commit's lock); `work` resolves what to review. Its hooks free the slot once the check run is written
     * (the lock is held until the review is posted) and let the installation's other check runs be written
     * before the review is posted.
     */
    const reviewAt = (
      installation: number | undefined,
      repo: RepoRef,
      headSha: string,
      work: (hooks: Pick<ReviewOptions, "onCheckRunWritten" | "beforePublish">) => Promise<unknown>,
    ) => {
      const queue = String(installation ?? repo.owner);
      let written: (() => void) | undefined;
      // Counted once it holds the lock: a review waiting for it must not be waited for by the holder.
      const locked = lock.acquire(`${repo.owner}/${repo.repo}@${headSha}`).then((unlock) => {
        written = checkRunsFirst.expect(queue);
        return unlock;
      });
      const job = async (release: () => void) => {
        const unlock = await locked;
        try {
          await work({
            onCheckRunWritten: () => (written?.(), release()),
            beforePublish: () => checkRunsFirst.quiet(queue),
          });
        } finally {
          written?.();
          unlock();
        }
      };
      try {
        return schedule(job, locked);
      } catch (e) {
        // Not taken (shutting down): give the turn back.
        void locked.then((unlock) => (written?.(), unlock()));
        throw e;
      }
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
      const rerun = context.payload.action === "rerequested";
      const repo = repoRef(context.payload.repository);
      return reviewAt(context.payload.installation?.id, repo, check.head_sha, async (hooks) => {
        const gw = gateway(context);
        const targets = await pullTargetsFor(gw, repo, check.pull_requests, check.head_sha);
        if (targets.length === 0) context.log.info("no pull request at this head commit: nothing to review");
        for (const [i, t] of targets.entries())
          await reviewPullRequest(gw, t, {
            ...policy,
            appId: check.app?.id ?? undefined,
            log: context.log,
            rerun,
            // The slot goes back once the last pull request's check run is written.
            ...(i === targets.length - 1 ? hooks : {}),
          });
      });
    };

    probot.on(
      [...PULL_REQUEST_ACTIONS.map((a) => `pull_request.${a}` as const), "pull_request.edited"],
      async (context) => {
        const { pull_request: pr, repository, action } = context.payload;
        // An edit of the title or body changes nothing reviewed; a new base branch changes the comparison.
        if (action === "edited" && !isBaseChange(context.payload)) return;
        const repo = repoRef(repository);
        const target = toPullTarget(pr, repo);
        await reviewAt(context.payload.installation?.id, repo, target.headSha, (hooks) =>
          reviewPullRequest(gateway(context), target, {
            ...hooks,
            ...policy,
            appId: appIdOf(context.payload),
            opened: action === "opened",
            log: context.log,
          }),
        );
      },
    );
    probot.on("check_run.rerequested", (context) => reviewStubs(context, context.payload.check_run));
    probot.on(["check_suite.requested", "check_suite.rerequested"], (context) =>
      reviewStubs(context, context.payload.check_suite),
    );
    // A merge queue asks for the required checks on the merge group's head commit: the descriptors that
    // differ from its base get the same check run; there is no pull request to post a review on.
    probot.on("merge_group.checks_requested", async (context) => {
      const { merge_group: group, repository } = context.payload;
      if (!repository) return;
      const repo = repoRef(repository);
      const target = {
        ...repo,
        headSha: group.head_sha,
        baseSha: group.base_sha,
        headOwner: repo.owner,
        headRepo: repo.repo,
      };
      await reviewAt(context.payload.installation?.id, repo, group.head_sha, () =>
        reviewMergeGroup(gateway(context), target, {
          ...policy,
          appId: appIdOf(context.payload),
          log: context.log,
        }),
      );
    });
  };
}

/** The app's id, to recognise its own check runs, when the payload carries it. */
function appIdOf(payload: unknown): number | undefined {
  const id = (payload as { installation?: { app_id?: number } }).installation?.app_id;
  return typeof id === "number" ? id : undefined;
}

/** The app as the Lambda worker and the tests run it: each delivery's review runs before its handling ends. */
export default createApp();
