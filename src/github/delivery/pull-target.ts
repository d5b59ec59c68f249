/** Turns the pull request objects of webhook payloads and of the REST API into a review target. */
import { describeRequestError, isTimeout, isTransient, TransientReviewError } from "../api/errors.js";
import type { GitHubGateway, PullTarget } from "../api/port.js";

interface PullLike {
  number: number;
  head: { sha: string };
  base: { sha: string };
}

export interface RepoRef {
  owner: string;
  repo: string;
  ownerType: string;
}

/**
 * `repo` is the base repository (the event's repository). The head repository (a fork's, null once the
 * fork is deleted) is not part of the target: the head commit is read from the base repository, which
 * keeps every pull request's head commits (port.ts CommitTarget).
 */
export function toPullTarget(pr: PullLike, repo: RepoRef): PullTarget {
  return {
    owner: repo.owner,
    repo: repo.repo,
    ownerType: repo.ownerType,
    number: pr.number,
    headSha: pr.head.sha,
    baseSha: pr.base.sha,
  };
}

export function repoRef(repository: {
  name: string;
  owner: { login: string; type?: string | null };
}): RepoRef {
  return { owner: repository.owner.login, repo: repository.name, ownerType: repository.owner.type ?? "User" };
}

/**
 * The full pull requests behind check_run / check_suite events (their payloads carry only stubs). GitHub
 * failing that read (5xx, rate limits, no answer) is a TransientReviewError, so that the scheduler or the
 * queue tries the event again (a Re-run is not dropped because GitHub blipped).
 */
export async function pullTargetsFor(
  gw: GitHubGateway,
  repo: RepoRef,
  stubs: readonly { number: number; head: { sha: string } }[],
  headSha: string,
): Promise<PullTarget[]> {
  const targets: PullTarget[] = [];
  for (const stub of stubs) {
    const data = await gw.pullRequest(repo, stub.number).catch((e: unknown) => {
      if (!isTransient(e)) throw e;
      throw new TransientReviewError(describeRequestError(e, "reading the pull request"), isTimeout(e));
    });
    // Only the commit this event is about; a pull request that moved on is reviewed by its own event.
    if (data.head.sha === headSha) targets.push(toPullTarget(data, repo));
  }
  return targets;
}
