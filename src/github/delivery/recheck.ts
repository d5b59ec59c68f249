/**
 * `/plugin-review recheck`: a person's way to ask for a review where GitHub offers no Re-run (a required
 * check that was never created has none). A comment on a pull request from someone with write access
 * reviews its current head; anyone else gets a reply saying why nothing happened (interfaces.md), once per
 * person and pull request: a commenter cannot make the App write at every comment.
 */
import { describeRequestError, isTimeout, isTransient, TransientReviewError } from "../api/errors.js";
import type { GitHubGateway, PullTarget } from "../api/port.js";
import { isHandled } from "./events.js";
import { toPullTarget, type RepoRef } from "./pull-target.js";

/**
 * Who asks for a recheck in an `issue_comment.created` event: the commenter's login, when the comment is
 * the command on a pull request; never a bot (an App quoting the command, the App's own reply).
 */
export function recheckAsker(payload: {
  comment: { user?: { login?: string; type?: string } | null };
}): string | undefined {
  const user = payload.comment.user;
  if (!isHandled("issue_comment", payload)) return undefined;
  return user?.type === "Bot" || !user?.login ? undefined : user.login;
}

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

/** How many refusals (a person on a pull request) a process remembers; the oldest is forgotten first. */
export const REMEMBERED_REFUSALS = 10_000;

/**
 * Whom the App has told, on which pull request, that it rechecks only for writers. Kept in the process:
 * bounded (`limit` entries, about 100 bytes each), forgotten by a restart, and on Lambda each container
 * has its own; at worst a person is told again.
 */
export class RecheckRefusals {
  private readonly told = new Set<string>();

  constructor(private readonly limit = REMEMBERED_REFUSALS) {}

  /** Whether this person was told on this pull request. */
  has(repo: RepoRef, pullNumber: number, login: string): boolean {
    return this.told.has(refusalKey(repo, pullNumber, login));
  }

  add(repo: RepoRef, pullNumber: number, login: string): void {
    this.told.add(refusalKey(repo, pullNumber, login));
    // A Set iterates in insertion order: its first entry is the oldest.
    if (this.told.size > this.limit) this.told.delete(this.told.values().next().value!);
  }
}

/** Logins and repository names are case-insensitive on GitHub. */
const refusalKey = (repo: RepoRef, pullNumber: number, login: string) =>
  `${repo.owner}/${repo.repo}#${pullNumber} ${login}`.toLowerCase();

/**
 * The pull request to review when `login` may ask for it (write or admin access); otherwise whether the
 * reply that says why not was written now, or had been before (`refusals`).
 */
export async function recheckTarget(
  gw: Pick<GitHubGateway, "permissionOf" | "pullRequest" | "commentOnPullRequest">,
  repo: RepoRef,
  pullNumber: number,
  login: string,
  refusals: RecheckRefusals,
): Promise<PullTarget | "replied" | "told before"> {
  try {
    const permission = await gw.permissionOf(repo, login);
    if (permission !== "write" && permission !== "admin") {
      if (refusals.has(repo, pullNumber, login)) return "told before";
      await gw.commentOnPullRequest(
        { owner: repo.owner, repo: repo.repo, number: pullNumber },
        refusedReply(login),
      );
      // Once written: a reply GitHub failed is tried again with the recheck.
      refusals.add(repo, pullNumber, login);
      return "replied";
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
