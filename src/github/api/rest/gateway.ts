/**
 * The gateway through GitHub's REST API alone: what GraphQL reads in one query takes several requests here
 * (the run listing, each configuration file, each descriptor, the review comments and the reviews), and a
 * fixed thread gets a reply of its own but cannot be resolved (GitHub resolves threads only through GraphQL).
 */
import { httpStatus, isTransient } from "../errors.js";
import { mapLimit } from "../map-limit.js";
import type { Octokit } from "../octokit/octokit.js";
import {
  CHECK_NAME,
  type ChangedFiles,
  type ChangeRange,
  type ChangesRequested,
  type CheckRunRef,
  type CommitFiles,
  type Dismissal,
  type ExistingRun,
  type FileAt,
  type FileContent,
  type GitHubGateway,
  type HeldAnnotation,
  type Logger,
  type Publication,
  type PublicationWritten,
  type PullHead,
  type PullRequestData,
  type PullState,
  type PullTarget,
  type RepoName,
  type RequestingReview,
  type ReviewStart,
  type ReviewToPost,
  type RunWrite,
  type ThreadReply,
} from "../port.js";
import { listChangedDescriptors } from "./changed-files.js";
import { fetchFile } from "./content.js";
import { listFolderFiles } from "./folder-files.js";

/** GitHub's 422 to changes requested (or an approval) by the pull request's own author. */
const OWN_PULL_REQUEST = /on your own pull request/i;

/** Files read at once through REST. */
const REST_CONCURRENCY = 4;

export class RestGateway implements GitHubGateway {
  constructor(
    protected readonly octokit: Octokit,
    protected readonly log: Logger,
  ) {}

  /** The run alone: the configuration files are read one by one (readDefaultBranchFile), nothing prefetched. */
  async reviewStart(where: CheckRunRef, appId: number | undefined): Promise<ReviewStart> {
    return { run: await this.latestRun(where, appId), configs: new Map() };
  }

  async latestRun(where: CheckRunRef, appId: number | undefined): Promise<ExistingRun | undefined> {
    const { data } = await this.octokit.rest.checks.listForRef({
      owner: where.owner,
      repo: where.repo,
      ref: where.headSha,
      check_name: CHECK_NAME,
      filter: "latest",
      per_page: 100,
    });
    // Only our own runs: another app may use the same name.
    const latest = data.check_runs
      .filter((r) => r.name === CHECK_NAME && (appId === undefined || r.app?.id === appId))
      .sort((a, b) => b.id - a.id)[0];
    const completedAt = latest?.completed_at ? Date.parse(latest.completed_at) : NaN;
    return (
      latest && {
        id: latest.id,
        status: latest.status,
        conclusion: latest.conclusion,
        annotations: latest.output.annotations_count ?? 0,
        externalId: latest.external_id,
        ...(Number.isFinite(completedAt) ? { completedAt } : {}),
      }
    );
  }

  /** Every annotation of the run (at most 1,000 of ours: up to 10 pages). */
  runAnnotations(where: CheckRunRef, runId: number): Promise<HeldAnnotation[]> {
    return this.octokit.paginate(this.octokit.rest.checks.listAnnotations, {
      owner: where.owner,
      repo: where.repo,
      check_run_id: runId,
      per_page: 100,
    });
  }

  async createCheckRun(where: CheckRunRef, write: RunWrite): Promise<number> {
    const { data } = await this.octokit.rest.checks.create({
      owner: where.owner,
      repo: where.repo,
      name: CHECK_NAME,
      head_sha: where.headSha,
      ...runBody(write),
    });
    return data.id;
  }

  async updateCheckRun(where: CheckRunRef, runId: number, write: RunWrite): Promise<void> {
    await this.octokit.rest.checks.update({
      owner: where.owner,
      repo: where.repo,
      check_run_id: runId,
      ...runBody(write),
    });
  }

  readDefaultBranchFile(file: RepoName & { path: string }, maxSize: number): Promise<FileContent> {
    return fetchFile(this.octokit, file, maxSize);
  }

  repositoryVisible(repo: RepoName): Promise<boolean> {
    return repositoryVisible(this.octokit, repo);
  }

  /** The repository selection of an installation's token (cached by the auth library: no request). */
  async repositorySelection(): Promise<"all" | "selected" | undefined> {
    try {
      const auth = (await this.octokit.auth({ type: "installation" })) as { repositorySelection?: unknown };
      const s = auth?.repositorySelection;
      return s === "all" || s === "selected" ? s : undefined;
    } catch {
      return undefined; // not an installation (a person's token): unknown
    }
  }

  async pullRequest(repo: RepoName, number: number): Promise<PullRequestData> {
    return (await this.octokit.rest.pulls.get({ owner: repo.owner, repo: repo.repo, pull_number: number }))
      .data;
  }

  listChanged(change: ChangeRange, paths: readonly string[]): Promise<ChangedFiles> {
    return listChangedDescriptors(this.octokit, change, paths);
  }

  folderFiles(
    at: CommitFiles,
    folders: readonly string[],
    maxPerFolder: number,
  ): Promise<(string[] | undefined)[]> {
    return listFolderFiles(this.octokit, at, folders, maxPerFolder);
  }

  readFiles(files: readonly FileAt[], maxSize: number): Promise<FileContent[]> {
    return mapLimit(files, REST_CONCURRENCY, (f) => fetchFile(this.octokit, f, maxSize));
  }

  /**
   * The review comments and the reviews (two listings; a thread is a root comment and its replies), and the
   * pull request's head. REST does not say whether a thread is resolved.
   */
  async pullState(pr: PullTarget): Promise<PullState> {
    const where = { owner: pr.owner, repo: pr.repo, pull_number: pr.number, per_page: 100 };
    const [comments, reviews, head] = await Promise.all([
      this.octokit.paginate(this.octokit.rest.pulls.listReviewComments, where),
      this.octokit.paginate(this.octokit.rest.pulls.listReviews, where),
      headOf(this, pr),
    ]);
    const replies = new Map<number, ThreadReply[]>();
    for (const c of comments)
      if (c.in_reply_to_id)
        replies.set(c.in_reply_to_id, [
          ...(replies.get(c.in_reply_to_id) ?? []),
          { author: c.user?.login ?? null, body: c.body },
        ]);
    return {
      threads: comments
        .filter((c) => !c.in_reply_to_id)
        .map((c) => ({
          id: c.id,
          path: c.path,
          line: c.line ?? null,
          body: c.body,
          author: c.user?.login ?? null,
          resolved: false,
          replies: replies.get(c.id) ?? [],
        })),
      reviews: reviews.map((r) => ({ author: r.user?.login ?? null, body: r.body ?? "" })),
      changesRequested: requesting(reviews),
      head,
    };
  }

  async changesRequested(pr: PullTarget): Promise<ChangesRequested> {
    const where = { owner: pr.owner, repo: pr.repo, pull_number: pr.number, per_page: 100 };
    const [reviews, head] = await Promise.all([
      this.octokit.paginate(this.octokit.rest.pulls.listReviews, where),
      headOf(this, pr),
    ]);
    return { reviews: requesting(reviews), head };
  }

  /** A dismissal request per review; one GitHub refuses (a protected branch limiting who may dismiss) is logged. */
  async dismissReviews(pr: PullTarget, dismissal: Dismissal): Promise<number> {
    let dismissed = 0;
    for (const { id } of dismissal.reviews) {
      try {
        await this.octokit.rest.pulls.dismissReview({
          owner: pr.owner,
          repo: pr.repo,
          pull_number: pr.number,
          review_id: id,
          message: dismissal.message,
          event: "DISMISS",
        });
        dismissed++;
      } catch (e) {
        const status = httpStatus(e);
        // A rate limit left after the throttling plugin's retries is not a refusal: the review's publish is
        // tried again (reading first, so nothing is doubled) and dismisses it then.
        if (isTransient(e) || (status !== 403 && status !== 422 && status !== 404)) throw e;
        this.log.warn(
          { status, review: id },
          "GitHub refused to dismiss the App's earlier review (who may dismiss reviews may be restricted)",
        );
      }
    }
    return dismissed;
  }

  async postReview(pr: PullTarget, review: ReviewToPost): Promise<"posted" | "refused"> {
    try {
      await this.octokit.rest.pulls.createReview({
        owner: pr.owner,
        repo: pr.repo,
        pull_number: pr.number,
        commit_id: pr.headSha,
        event: review.event,
        body: review.body,
        ...(review.comments.length ? { comments: review.comments } : {}),
      });
      return "posted";
    } catch (e) {
      if (httpStatus(e) !== 422) throw e;
      // GitHub lets no author request changes on their own pull request, and the App's account is the author
      // of one its credentials opened (an automation): the same review as a comment, rather than none.
      if (review.event === "REQUEST_CHANGES" && OWN_PULL_REQUEST.test((e as Error).message)) {
        this.log.warn("GitHub refused changes requested on the App's own pull request; posting a comment");
        return this.postReview(pr, { ...review, event: "COMMENT" });
      }
      if (!review.comments.length) throw e;
      // GitHub refused a line comment (the diff moved under us): the caller posts the findings in the body.
      this.log.warn(
        { err: (e as Error).message },
        "review with line comments refused (422); posting every finding in the body",
      );
      return "refused";
    }
  }

  async permissionOf(repo: RepoName, login: string): Promise<"admin" | "write" | "read" | "none"> {
    try {
      const { data } = await this.octokit.rest.repos.getCollaboratorPermissionLevel({
        owner: repo.owner,
        repo: repo.repo,
        username: login,
      });
      // `permission` folds roles into admin, write (maintain too), read (triage too) and none.
      const p = data.permission;
      return p === "admin" || p === "write" || p === "read" ? p : "none";
    } catch (e) {
      if (httpStatus(e) === 404) return "none"; // not a collaborator
      throw e;
    }
  }

  async commentOnPullRequest(pr: RepoName & { number: number }, body: string): Promise<void> {
    await this.octokit.rest.issues.createComment({
      owner: pr.owner,
      repo: pr.repo,
      issue_number: pr.number,
      body,
    });
  }

  /** A reply per fixed thread (the threads stay unresolved), then the review, then the dismissals. */
  async publish(pr: PullTarget, publication: Publication): Promise<PublicationWritten> {
    const { fixed, fixedReply, review, dismissal } = publication;
    for (const { id } of fixed)
      await this.octokit.rest.pulls.createReplyForReviewComment({
        owner: pr.owner,
        repo: pr.repo,
        pull_number: pr.number,
        comment_id: id,
        body: fixedReply,
      });
    const posted = review ? { review: await this.postReview(pr, review) } : {};
    const dismissed = dismissal ? { dismissed: await this.dismissReviews(pr, dismissal) } : {};
    return { closed: fixed.length, ...posted, ...dismissed };
  }
}

/** The configuration reads alone (the audit's: a token's Octokit, outside any review). */
export function restConfigReader(
  octokit: Octokit,
): Pick<GitHubGateway, "readDefaultBranchFile" | "repositoryVisible"> {
  return {
    readDefaultBranchFile: (file, maxSize) => fetchFile(octokit, file, maxSize),
    repositoryVisible: (repo) => repositoryVisible(octokit, repo),
  };
}

async function repositoryVisible(octokit: Octokit, repo: RepoName): Promise<boolean> {
  try {
    await octokit.rest.repos.get({ owner: repo.owner, repo: repo.repo });
    return true;
  } catch (e) {
    if (httpStatus(e) === 404) return false;
    throw e;
  }
}

/** Where the pull request is now: REST's reviews do not say, so the pull request is read beside them. */
async function headOf(gw: RestGateway, pr: PullTarget): Promise<PullHead> {
  const data = await gw.pullRequest(pr, pr.number);
  return { sha: data.head.sha, open: data.state === "open" };
}

/** A run write as the REST API takes it. */
function runBody(write: RunWrite) {
  return {
    ...(write.externalId !== undefined ? { external_id: write.externalId } : {}),
    ...(write.status ? { status: write.status } : {}),
    ...(write.conclusion ? { conclusion: write.conclusion } : {}),
    ...(write.completedAt ? { completed_at: write.completedAt } : {}),
    output: write.output,
  };
}

/** The reviews still requesting changes, from REST's listing (the App's own are told apart by the caller). */
function requesting(
  reviews: { id: number; state: string; body?: string | null; user?: { login: string } | null }[],
): RequestingReview[] {
  return reviews
    .filter((r) => r.state === "CHANGES_REQUESTED")
    .map((r) => ({ id: r.id, author: r.user?.login ?? null, body: r.body ?? "" }));
}
