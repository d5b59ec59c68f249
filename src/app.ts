/**
 * The Probot app: a thin shell that turns events into review targets. All logic is in src/github and
 * src/core.
 */
import type { ApplicationFunction, Context, Probot } from "probot";
import { PULL_REQUEST_ACTIONS } from "./github/events.js";
import { pullTargetsFor, repoRef, toPullTarget } from "./github/pull-target.js";
import { reviewPullRequest } from "./github/run-review.js";

type CheckContext = Context<"check_run.rerequested" | "check_suite.requested" | "check_suite.rerequested">;

/** check_run and check_suite events carry pull request stubs: review each that is at this head commit. */
async function reviewStubs(
  context: CheckContext,
  check: {
    head_sha: string;
    pull_requests: { number: number; head: { sha: string } }[];
    app?: { id?: number | null } | null;
  },
): Promise<void> {
  // Re-run asks for a new check run; `check_suite.requested` (every push) completes the push's run.
  const rerun = context.payload.action === "rerequested";
  const targets = await pullTargetsFor(
    context.octokit,
    repoRef(context.payload.repository),
    check.pull_requests,
    check.head_sha,
  );
  if (targets.length === 0) context.log.info("no pull request at this head commit: nothing to review");
  for (const t of targets)
    await reviewPullRequest(context.octokit, t, {
      appId: check.app?.id ?? undefined,
      log: context.log,
      rerun,
    });
}

const app: ApplicationFunction = (probot: Probot) => {
  probot.on(
    PULL_REQUEST_ACTIONS.map((a) => `pull_request.${a}` as const),
    async (context) => {
      const { pull_request: pr, repository, action } = context.payload;
      await reviewPullRequest(context.octokit, toPullTarget(pr, repoRef(repository)), {
        appId: appIdOf(context.payload),
        opened: action === "opened",
        log: context.log,
      });
    },
  );
  probot.on("check_run.rerequested", (context) => reviewStubs(context, context.payload.check_run));
  probot.on(["check_suite.requested", "check_suite.rerequested"], (context) =>
    reviewStubs(context, context.payload.check_suite),
  );
};

/** The app's id, to recognise its own check runs, when the payload carries it. */
function appIdOf(payload: unknown): number | undefined {
  const id = (payload as { installation?: { app_id?: number } }).installation?.app_id;
  return typeof id === "number" ? id : undefined;
}

export default app;
