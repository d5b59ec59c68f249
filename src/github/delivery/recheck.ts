/**
 * `/plugin-review recheck`: a person's way to ask for a review where GitHub offers no Re-run (a required
 * check that was never created has none). A comment on a pull request from someone with write access
 * reviews its current head; anyone else gets a reply saying why nothing happened (interfaces.md).
 */
import { describeRequestError, isTimeout, isTransient, TransientReviewError } from "../api/errors.js";
import type { GitHubGateway, PullTarget } from "../api/port.js";
import { toPullTarget, type RepoRef } from "./pull-target.js";

/** Marks the App's own replies (hidden), for people and tools that look for them. */
const RECHECK_REPLY_MARKER = "<!-- plugin-review:recheck -->";

function refusedReply(login: string): string {
  return [
    `@${login} \`/plugin-review recheck\` reviews the pull request again only when someone with write access to this repository asks; nothing was done.`,
    "A maintainer can ask for it, and every push is reviewed anyway.",
    "",
    RECHECK_REPLY_MARKER,
  ].join("\n");
}

/**
 * The pull request to review when `login` may ask for it (write or admin access), or undefined after the
 * reply that says why not.
 */
export async function recheckTarget(
  gw: Pick<GitHubGateway, "permissionOf" | "pullRequest" | "commentOnPullRequest">,
  repo: RepoRef,
  pullNumber: number,
  login: string,
): Promise<PullTarget | undefined> {
  try {
    const permission = await gw.permissionOf(repo, login);
    if (permission !== "write" && permission !== "admin") {
      await gw.commentOnPullRequest(
        { owner: repo.owner, repo: repo.repo, number: pullNumber },
        refusedReply(login),
      );
      return undefined;
    }
    return toPullTarget(await gw.pullRequest(repo, pullNumber), repo);
  } catch (e) {
    // GitHub failing or throttling: the scheduler (or the queue) tries the recheck again later.
    if (!isTransient(e)) throw e;
    throw new TransientReviewError(
      describeRequestError(e, "reading the recheck's pull request"),
      isTimeout(e),
    );
  }
}
