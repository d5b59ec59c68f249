/**
 * The gateway through GitHub's GraphQL API where one document does what REST needs several requests for
 * (graphql-reads.ts, resolve-threads.ts): the start of a review, the files at commits, the review threads,
 * and the fixed threads answered and resolved with the push's review in one write. Everything else, and a
 * fixed thread read without its node id, goes through REST as in gateway-rest.ts.
 */
import type { CheckRunRef } from "../review/check-run.js";
import type { FileContent } from "./rest-content.js";
import type {
  ChangesRequested,
  Dismissal,
  FixedThread,
  PullState,
  ReviewToPost,
  ThreadsWritten,
} from "./gateway.js";
import { RestGateway } from "./rest.js";
import {
  readChangesRequestedGraphql,
  readFilesGraphql,
  readPullStateGraphql,
  readReviewStartGraphql,
  type FileAt,
  type ReviewStart,
} from "./graphql-reads.js";
import { closeThreads } from "./graphql-writes.js";
import type { PullTarget } from "./types.js";

export class GraphqlGateway extends RestGateway {
  override readonly api: "graphql" | "rest" = "graphql";

  override reviewStart(
    where: CheckRunRef & { ownerType: string },
    appId: number | undefined,
  ): Promise<ReviewStart> {
    return readReviewStartGraphql(this.octokit, where, appId);
  }

  override readFiles(files: readonly FileAt[], maxSize: number): Promise<FileContent[]> {
    return readFilesGraphql(this.octokit, files, maxSize);
  }

  override pullState(pr: PullTarget, isFixedReply: (body: string) => boolean): Promise<PullState> {
    return readPullStateGraphql(this.octokit, pr, isFixedReply);
  }

  override closeThreads(
    pr: PullTarget,
    pullRequestId: string | undefined,
    fixed: readonly FixedThread[],
    reply: string,
    review?: ReviewToPost,
    dismissal?: Dismissal,
  ): Promise<ThreadsWritten> {
    const ids = fixed.map((f) => f.threadId);
    const dismissIds = (dismissal?.reviews ?? []).map((r) => r.nodeId);
    if (
      pullRequestId === undefined ||
      !ids.every((id) => id !== undefined) ||
      !dismissIds.every((id) => id !== undefined)
    )
      return super.closeThreads(pr, pullRequestId, fixed, reply, review, dismissal);
    return closeThreads(
      this.octokit,
      ids,
      reply,
      this.log,
      review && {
        pullRequestId,
        commitOID: pr.headSha,
        event: review.event,
        body: review.body,
        threads: review.comments,
      },
      dismissal && { ids: dismissIds, message: dismissal.message },
    );
  }

  override changesRequested(pr: PullTarget): Promise<ChangesRequested> {
    return readChangesRequestedGraphql(this.octokit, pr);
  }

  /** One document dismissing every review given by node id (through REST when a node id is unknown). */
  override async dismissReviews(pr: PullTarget, dismissal: Dismissal): Promise<number> {
    const ids = dismissal.reviews.map((r) => r.nodeId);
    if (!ids.every((id) => id !== undefined)) return super.dismissReviews(pr, dismissal);
    const written = await closeThreads(this.octokit, [], "", this.log, undefined, {
      ids,
      message: dismissal.message,
    });
    return written.dismissed ?? 0;
  }
}
