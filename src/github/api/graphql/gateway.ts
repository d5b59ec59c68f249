/**
 * The gateway through GitHub's GraphQL API where one document does what REST needs several requests for
 * (reads.ts, writes.ts): the start of a review, the files at commits, the review threads,
 * and a push's publication (fixed threads answered and resolved, its review, its dismissals) in one write.
 * Everything else, and a publication whose node ids are not all known, goes through REST (api/rest/).
 */
import {
  readChangesRequestedGraphql,
  readFilesGraphql,
  readPullStateGraphql,
  readReviewStartGraphql,
} from "./reads.js";
import { writePublication } from "./writes.js";
import type {
  ChangesRequested,
  CheckRunRef,
  Dismissal,
  FileAt,
  FileContent,
  Publication,
  PublicationWritten,
  PullState,
  PullTarget,
  ReviewStart,
} from "../port.js";
import { RestGateway } from "../rest/gateway.js";

/** Node ids, when every one is known. */
function allKnown(ids: readonly (string | undefined)[]): string[] | undefined {
  return ids.every((id) => id !== undefined) ? (ids as string[]) : undefined;
}

export class GraphqlGateway extends RestGateway {
  override reviewStart(
    where: CheckRunRef & { ownerType: string },
    appId: number | undefined,
  ): Promise<ReviewStart> {
    return readReviewStartGraphql(this.octokit, where, appId);
  }

  override readFiles(files: readonly FileAt[], maxSize: number): Promise<FileContent[]> {
    return readFilesGraphql(this.octokit, files, maxSize);
  }

  override pullState(pr: PullTarget): Promise<PullState> {
    return readPullStateGraphql(this.octokit, pr);
  }

  override changesRequested(pr: PullTarget): Promise<ChangesRequested> {
    return readChangesRequestedGraphql(this.octokit, pr);
  }

  /** One document for all when every node id is known (`pullRequestId` from `pullState`); else REST. */
  override publish(pr: PullTarget, publication: Publication): Promise<PublicationWritten> {
    const { pullRequestId, fixed, fixedReply, review, dismissal } = publication;
    const threadIds = allKnown(fixed.map((f) => f.threadId));
    const dismissIds = allKnown((dismissal?.reviews ?? []).map((r) => r.nodeId));
    if (pullRequestId === undefined || !threadIds || !dismissIds) return super.publish(pr, publication);
    return writePublication(this.octokit, this.log, {
      threadIds,
      reply: fixedReply,
      ...(review && {
        review: {
          pullRequestId,
          commitOID: pr.headSha,
          event: review.event,
          body: review.body,
          threads: review.comments,
        },
      }),
      ...(dismissal && { dismiss: { ids: dismissIds, message: dismissal.message } }),
    });
  }

  /** One document dismissing every review given by node id (through REST when a node id is unknown). */
  override async dismissReviews(pr: PullTarget, dismissal: Dismissal): Promise<number> {
    const ids = allKnown(dismissal.reviews.map((r) => r.nodeId));
    if (!ids) return super.dismissReviews(pr, dismissal);
    const written = await writePublication(this.octokit, this.log, {
      threadIds: [],
      reply: "",
      dismiss: { ids, message: dismissal.message },
    });
    return written.dismissed ?? 0;
  }
}
