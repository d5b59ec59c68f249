/** Turns the pull request objects of webhook payloads and of the REST API into a review target. */
import {
  describeRequestError,
  httpStatus,
  isTimeout,
  isTransient,
  TransientReviewError,
} from "../api/errors.js";
import type { GitHubGateway, PullTarget } from "../api/port.js";
import { pullsNamedAt } from "../review/pipeline.js";

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
    const data = await transientRead(() => gw.pullRequest(repo, stub.number), "reading the pull request");
    // Only the commit this event is about; a pull request that moved on is reviewed by its own event.
    if (data.head.sha === headSha) targets.push(toPullTarget(data, repo));
  }
  return targets;
}

/**
 * The pull requests a Re-run of a commit with no pull request stubs is for. GitHub leaves `pull_requests`
 * empty in check_run and check_suite events of a pull request from a fork, so a Re-run of a fork's check
 * would review nothing (a failing check would stay failed); the commit's run of ours names the pull requests
 * reviewed at that commit (review/check-run/external-id.ts `pullsNamed`; a run of an earlier release, only
 * the failing ones). Those numbers are only where to look: each is read from GitHub, and kept when it is open
 * with this head commit.
 */
export async function pullsOfRun(
  gw: GitHubGateway,
  repo: RepoRef,
  headSha: string,
  appId: number | undefined,
): Promise<PullTarget[]> {
  const named = await transientRead(
    () => pullsNamedAt(gw, { owner: repo.owner, repo: repo.repo, headSha }, appId),
    "reading the commit's check run",
  );
  const targets: PullTarget[] = [];
  for (const number of named) {
    const data = await transientRead(
      () =>
        gw.pullRequest(repo, number).catch((e: unknown) => {
          if (httpStatus(e) === 404) return undefined; // gone: nothing to review, the others still are
          throw e;
        }),
      "reading the pull request",
    );
    if (data?.state === "open" && data.head.sha === headSha) targets.push(toPullTarget(data, repo));
  }
  return targets;
}

/** `read`, its failure a TransientReviewError when GitHub may answer on a later try (pullTargetsFor). */
function transientRead<T>(read: () => Promise<T>, what: string): Promise<T> {
  return read().catch((e: unknown) => {
    if (!isTransient(e)) throw e;
    throw new TransientReviewError(describeRequestError(e, what), isTimeout(e));
  });
}
