import type { Logger, ProbotOctokit } from "probot";

export type Octokit = InstanceType<typeof ProbotOctokit>;
export type { Logger };

/** The pull request being reviewed, as the events describe it. */
export interface PullTarget {
  owner: string;
  repo: string;
  /** "Organization" or "User": only organisations have a `.github` policy repository. */
  ownerType: string;
  number: number;
  headSha: string;
  baseSha: string;
  /** Head repository (differs from the base one for a fork pull request). */
  headOwner: string;
  headRepo: string;
}

/** The HTTP status of a failed request (Octokit's RequestError), or undefined (network failure, other errors). */
export function httpStatus(e: unknown): number | undefined {
  const status = (e as { status?: unknown } | null | undefined)?.status;
  return typeof status === "number" ? status : undefined;
}

/** Why a request failed, in words a person can act on (permission, not found, rate limit). */
export function describeRequestError(e: unknown, what: string): string {
  const status = httpStatus(e);
  const message = (e as { message?: string }).message ?? String(e);
  if (status === 403 && /not accessible by integration/i.test(message)) {
    return `${what}: the app lacks a permission (GitHub answered 403 "Resource not accessible by integration")`;
  }
  if (status !== undefined) return `${what}: GitHub answered ${status} (${message.split("\n")[0]})`;
  return `${what}: ${message.split("\n")[0]}`;
}
