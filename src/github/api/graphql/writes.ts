/**
 * A push's publication through GraphQL (gateway.ts here): one mutation document answers and resolves every
 * thread whose finding a push fixed, with a short reply naming the fixing commit, posts the push's review
 * in the same document when there is one, and dismisses the App's earlier reviews that requested changes
 * (so a push that fixes findings and adds others still makes two writes: the check run and this document).
 * GitHub counts a GraphQL document as one request, so aliases batch the threads into one write. (Through
 * REST (api/rest/), each thread gets a reply of its own and cannot be resolved: GitHub resolves threads only
 * through GraphQL.)
 */
import type { GraphqlFailure } from "./query.js";
import type { Octokit } from "../octokit/octokit.js";
import type { Logger, PublicationWritten } from "../port.js";

/** A review as `addPullRequestReview` takes it: line comments are threads (`line`, `side`, as in REST). */
export interface ReviewInput {
  pullRequestId: string;
  commitOID: string;
  event: "COMMENT" | "REQUEST_CHANGES";
  body: string;
  threads: { path: string; line: number; side: "RIGHT"; body: string }[];
}

/**
 * One mutation document: the review first when there is one (`review`), then a reply and a resolution per
 * thread (aliases `reply<i>`, `resolve<i>`), then the dismissal of each of the App's earlier reviews that
 * requested changes (`dismiss<i>`). GitHub runs a document's mutations in order and a refused one (a line
 * comment outside the diff, a dismissal the branch's protection restricts) does not stop the others.
 */
export function threadsMutation(threads: number, withReview: boolean, dismissals = 0): string {
  const vars = [
    ...(threads ? ["$body: String!"] : []),
    ...Array.from({ length: threads }, (_, i) => `$t${i}: ID!`),
    ...(withReview ? ["$review: AddPullRequestReviewInput!"] : []),
    ...(dismissals ? ["$dismissMessage: String!"] : []),
    ...Array.from({ length: dismissals }, (_, i) => `$d${i}: ID!`),
  ];
  const fields = [
    ...(withReview
      ? [
          "  review: addPullRequestReview(input: $review) { pullRequestReview { id comments { totalCount } } }",
        ]
      : []),
    ...Array.from(
      { length: threads },
      (_, i) =>
        `  reply${i}: addPullRequestReviewThreadReply(input: { pullRequestReviewThreadId: $t${i}, body: $body }) { comment { id } }\n` +
        `  resolve${i}: resolveReviewThread(input: { threadId: $t${i} }) { thread { id isResolved } }`,
    ),
    ...Array.from(
      { length: dismissals },
      (_, i) =>
        `  dismiss${i}: dismissPullRequestReview(input: { pullRequestReviewId: $d${i}, message: $dismissMessage }) { pullRequestReview { id state } }`,
    ),
  ];
  return `mutation pluginReview(${vars.join(", ")}) {\n${fields.join("\n")}\n}`;
}

/** Threads per document: 50 keeps each well inside GitHub's limits on a mutation's cost. */
const THREADS_PER_DOCUMENT = 50;

interface MutationAnswer {
  review?: { pullRequestReview: { comments: { totalCount: number } } | null } | null;
}

/** One publication as node ids: the threads to answer and resolve, the review, the reviews to dismiss. */
export interface PublicationDocument {
  threadIds: readonly string[];
  /** The reply each thread gets. */
  reply: string;
  review?: ReviewInput;
  dismiss?: { ids: readonly string[]; message: string };
}

/**
 * Answers and resolves the given threads (node ids), and posts the review and dismisses the reviews (node
 * ids) in the first document: one request per 50 threads. A review GitHub refuses as unprocessable (a
 * line outside the diff, as REST's 422) comes back as "refused" for the caller's fallback; the threads are
 * closed all the same. Any other refusal of the review is thrown; a refused dismissal is logged.
 */
export async function writePublication(
  octokit: Octokit,
  log: Logger,
  { threadIds, reply: body, review, dismiss }: PublicationDocument,
): Promise<PublicationWritten> {
  const out: PublicationWritten = { closed: 0 };
  const dismissals = dismiss?.ids.length ?? 0;
  if (!threadIds.length && !review && !dismissals) return out;
  let reviewError: GraphqlFailure["errors"] = undefined;
  for (let at = 0; at < Math.max(threadIds.length, 1); at += THREADS_PER_DOCUMENT) {
    const chunk = threadIds.slice(at, at + THREADS_PER_DOCUMENT);
    const withReview = review !== undefined && at === 0;
    const dismissing = at === 0 ? dismissals : 0;
    const variables: Record<string, unknown> = chunk.length ? { body } : {};
    chunk.forEach((id, i) => (variables[`t${i}`] = id));
    if (withReview) variables.review = review;
    if (dismissing) {
      variables.dismissMessage = dismiss!.message;
      dismiss!.ids.forEach((id, i) => (variables[`d${i}`] = id));
    }
    let errors: NonNullable<GraphqlFailure["errors"]> = [];
    let data: MutationAnswer | null | undefined;
    try {
      data = await octokit.graphql<MutationAnswer>(
        threadsMutation(chunk.length, withReview, dismissing),
        variables,
      );
    } catch (e) {
      const failure = e as GraphqlFailure;
      // GitHub's answer with errors beside data: some mutations ran. No data: nothing of this document did.
      if (failure.name === "GraphqlResponseError" && failure.data) {
        errors = failure.errors ?? [];
        data = failure.data as MutationAnswer;
      } else if (at === 0) {
        throw e; // nothing was written: the caller falls back (REST) for the review and every thread
      } else {
        // The review and the earlier threads are written: no fallback may post them again. The threads
        // left stay open; the next review of the pull request (a push, a re-run) closes them.
        out.left = threadIds.length - at;
        log.warn(
          { err: (e as Error).message, left: out.left },
          "GitHub refused a later document of fixed threads; those threads are closed by the next review",
        );
        break;
      }
    }
    const placed = data?.review?.pullRequestReview?.comments.totalCount;
    if (withReview && placed !== undefined && placed < review.threads.length)
      // Seen with addPullRequestReviewThread: a line GitHub cannot place is dropped without an error.
      log.warn(
        { sent: review.threads.length, placed },
        "GitHub placed fewer line comments than sent; the check run lists every finding",
      );
    const failed = new Set(errors.map((x) => String(x.path?.[0])));
    out.closed += chunk.filter((_, i) => !failed.has(`reply${i}`)).length;
    if (dismissing) {
      const refused = errors.filter((x) => String(x.path?.[0]).startsWith("dismiss"));
      out.dismissed = dismissing - refused.length;
      if (refused.length)
        log.warn(
          { errors: refused.map((x) => x.message) },
          "GitHub refused to dismiss the App's earlier review (who may dismiss reviews may be restricted)",
        );
    }
    const threadErrors = errors.filter(
      (x) => x.path?.[0] !== "review" && !String(x.path?.[0]).startsWith("dismiss"),
    );
    if (threadErrors.length)
      log.warn(
        { errors: threadErrors.map((x) => x.message) },
        "some fixed threads could not be answered or resolved",
      );
    if (withReview) {
      reviewError = errors.filter((x) => x.path?.[0] === "review");
      out.review = reviewError.length ? "refused" : "posted";
    }
  }
  if (reviewError?.length && !reviewError.every((x) => x.type === "UNPROCESSABLE"))
    throw new Error(`GitHub refused the review: ${reviewError.map((x) => x.message).join("; ")}`);
  if (reviewError?.length)
    log.warn(
      { err: reviewError.map((x) => x.message).join("; ") },
      "review with line comments refused (unprocessable); posting every finding in the body",
    );
  return out;
}
