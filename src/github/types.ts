import type { Logger, ProbotOctokit } from "probot";

export type Octokit = InstanceType<typeof ProbotOctokit>;
export type { Logger };

/** A commit being reviewed against a base commit, in a repository (a pull request head, a merge group). */
export interface CommitTarget {
  owner: string;
  repo: string;
  /** "Organization" or "User": only organisations have a `.github` policy repository. */
  ownerType: string;
  headSha: string;
  baseSha: string;
  /** Head repository (differs from the base one for a fork pull request). */
  headOwner: string;
  headRepo: string;
}

/** The pull request being reviewed, as the events describe it. */
export interface PullTarget extends CommitTarget {
  number: number;
}
