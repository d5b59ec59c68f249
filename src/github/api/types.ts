import type { Octokit as RestOctokit } from "@octokit/rest";
import type { Logger } from "probot";

/**
 * What the App uses of an Octokit: the App's (Probot's, app-octokit.ts) and the commands' (`tokenOctokit`)
 * both are one.
 */
export type Octokit = Pick<
  InstanceType<typeof RestOctokit>,
  "request" | "graphql" | "rest" | "paginate" | "auth" | "hook" | "log"
>;
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
