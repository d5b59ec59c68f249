/**
 * The Probot app: a thin shell that turns events into review targets. All logic is in src/github and
 * src/core.
 */
import type { ApplicationFunction, Probot } from "probot";
import { pullTargetsFor, repoRef, toPullTarget } from "./github/pull-target.js";
import { reviewPullRequest } from "./github/run-review.js";

const app: ApplicationFunction = (probot: Probot) => {
  probot.on(
    [
      "pull_request.opened",
      "pull_request.synchronize",
      "pull_request.reopened",
      "pull_request.ready_for_review",
    ],
    async (context) => {
      const { pull_request: pr, repository, action } = context.payload;
      await reviewPullRequest(context.octokit, toPullTarget(pr, repoRef(repository)), {
        appId: appIdOf(context.payload),
        opened: action === "opened",
        log: context.log,
      });
    },
  );

  probot.on("check_run.rerequested", async (context) => {
    const { check_run: run, repository } = context.payload;
    const targets = await pullTargetsFor(
      context.octokit,
      repoRef(repository),
      run.pull_requests,
      run.head_sha,
    );
    if (targets.length === 0)
      context.log.info("re-run of a check run without a pull request: nothing to review");
    for (const t of targets)
      await reviewPullRequest(context.octokit, t, { appId: run.app?.id ?? undefined, log: context.log });
  });

  probot.on(["check_suite.requested", "check_suite.rerequested"], async (context) => {
    const { check_suite: suite, repository } = context.payload;
    const targets = await pullTargetsFor(
      context.octokit,
      repoRef(repository),
      suite.pull_requests,
      suite.head_sha,
    );
    for (const t of targets)
      await reviewPullRequest(context.octokit, t, { appId: suite.app?.id ?? undefined, log: context.log });
  });
};

/** The app's id, to recognise its own check runs (payloads of installations carry it as `installation.app_id` only in some events). */
function appIdOf(payload: unknown): number | undefined {
  const id = (payload as { installation?: { app_id?: number } }).installation?.app_id;
  return typeof id === "number" ? id : undefined;
}

export default app;
