/**
 * The App's review threads through GraphQL (`octokit.graphql`, which Probot ships): one query reads the
 * pull request's threads and reviews (replacing two REST listings), and one mutation document answers and
 * resolves every thread whose finding a push fixed, with a short reply naming the fixing commit, and posts
 * the push's review in the same document when there is one (so a push that fixes findings and adds others
 * still makes two writes: the check run and this document). GitHub counts a GraphQL document as one
 * request, so aliases batch the threads into one write.
 *
 * Where GraphQL is refused (graphql-reads.ts, `graphqlRefused`), the threads and reviews are listed through
 * REST instead: fixed threads then get their "Fixed in" reply through REST, one request each, but cannot be
 * resolved (GitHub resolves threads only through GraphQL); the log says so.
 */
import { graphqlRefused } from "./graphql-reads.js";
import type { Logger, Octokit, PullTarget } from "./types.js";

/** The root comment of a thread, with what `planReview` needs to know about the thread. */
export interface ThreadComment {
  id: number;
  /** The thread's node id (what `resolveReviewThread` takes); absent when read through REST. */
  threadId?: string;
  path: string;
  line: number | null;
  body: string;
  /** The root comment was written by a bot (an App), not by a person quoting one of our markers. */
  byBot: boolean;
  /** Resolved, or already answered as fixed: the finding it was about is closed; if it comes back, it is new. */
  closed: boolean;
}

export interface PullState {
  threads: ThreadComment[];
  reviewBodies: string[];
  /** The pull request's node id, when GraphQL answered (threads can then be resolved); absent after REST. */
  pullRequestId?: string;
}

interface Page {
  repository: {
    pullRequest: {
      id: string;
      reviewThreads: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: {
          id: string;
          isResolved: boolean;
          root: { nodes: CommentNode[] };
          replies: { nodes: { body: string }[] };
        }[];
      };
      reviews: { nodes: { body: string }[] };
    } | null;
  } | null;
}

interface CommentNode {
  databaseId: number | null;
  body: string;
  path: string;
  line: number | null;
  author: { __typename: string; login: string } | null;
}

// The latest 100 reviews are enough to know whether this head was already reviewed (the newest are last).
export const THREADS_QUERY = `query pluginReviewThreads($owner: String!, $repo: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      id
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id
          isResolved
          root: comments(first: 1) { nodes { databaseId body path line author { __typename login } } }
          replies: comments(last: 20) { nodes { body } }
        }
      }
      reviews(last: 100) { nodes { body } }
    }
  }
}`;

/**
 * Every review thread and the latest reviews of a pull request: one GraphQL query per 100 threads, or,
 * where GraphQL is refused, the REST listings of review comments and reviews.
 */
export async function readPullState(
  octokit: Octokit,
  pr: PullTarget,
  isFixedReply: (body: string) => boolean,
  log: Logger,
): Promise<PullState> {
  try {
    return await readPullStateGraphql(octokit, pr, isFixedReply);
  } catch (e) {
    if (!graphqlRefused(e)) throw e;
    log.warn(
      { err: (e as Error).message },
      "GraphQL refused: review threads listed through REST; fixed threads get a reply but cannot be resolved",
    );
    return readPullStateRest(octokit, pr, isFixedReply);
  }
}

async function readPullStateGraphql(
  octokit: Octokit,
  pr: PullTarget,
  isFixedReply: (body: string) => boolean,
): Promise<PullState> {
  const state: PullState = { threads: [], reviewBodies: [] };
  let after: string | null = null;
  for (let page = 0; page < 30; page++) {
    const data: Page = await octokit.graphql<Page>(THREADS_QUERY, {
      owner: pr.owner,
      repo: pr.repo,
      number: pr.number,
      after,
    });
    const pull = data.repository?.pullRequest;
    if (!pull) break;
    if (page === 0) {
      state.reviewBodies = pull.reviews.nodes.map((r) => r.body ?? "");
      state.pullRequestId = pull.id;
    }
    for (const t of pull.reviewThreads.nodes) {
      const root = t.root.nodes[0];
      if (!root || root.databaseId === null) continue;
      state.threads.push({
        id: root.databaseId,
        threadId: t.id,
        path: root.path,
        line: root.line,
        body: root.body,
        byBot: root.author?.__typename === "Bot",
        closed: t.isResolved || t.replies.nodes.some((c) => isFixedReply(c.body)),
      });
    }
    if (!pull.reviewThreads.pageInfo.hasNextPage) break;
    after = pull.reviewThreads.pageInfo.endCursor;
  }
  return state;
}

/** The same through REST (two listings, as before the GraphQL query): a thread is a root comment and its replies. */
async function readPullStateRest(
  octokit: Octokit,
  pr: PullTarget,
  isFixedReply: (body: string) => boolean,
): Promise<PullState> {
  const where = { owner: pr.owner, repo: pr.repo, pull_number: pr.number, per_page: 100 };
  const [comments, reviews] = await Promise.all([
    octokit.paginate(octokit.rest.pulls.listReviewComments, where),
    octokit.paginate(octokit.rest.pulls.listReviews, where),
  ]);
  // REST does not say whether a thread is resolved: our "Fixed in" reply is what closes one.
  const answered = new Set(
    comments.filter((c) => c.in_reply_to_id && isFixedReply(c.body)).map((c) => c.in_reply_to_id),
  );
  return {
    threads: comments
      .filter((c) => !c.in_reply_to_id)
      .map((c) => ({
        id: c.id,
        path: c.path,
        line: c.line ?? null,
        body: c.body,
        byBot: c.user?.type === "Bot",
        closed: answered.has(c.id),
      })),
    reviewBodies: reviews.map((r) => r.body ?? ""),
  };
}

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
 * thread (aliases `reply<i>`, `resolve<i>`). GitHub runs a document's mutations in order and a refused one
 * (a line comment outside the diff) does not stop the others.
 */
export function threadsMutation(threads: number, withReview: boolean): string {
  const vars = [
    ...(threads ? ["$body: String!"] : []),
    ...Array.from({ length: threads }, (_, i) => `$t${i}: ID!`),
    ...(withReview ? ["$review: AddPullRequestReviewInput!"] : []),
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
  ];
  return `mutation pluginReview(${vars.join(", ")}) {\n${fields.join("\n")}\n}`;
}

/** Threads per document: 50 keeps each well inside GitHub's limits on a mutation's cost. */
const THREADS_PER_DOCUMENT = 50;

interface GraphqlFailure {
  name?: string;
  data?: Record<string, unknown> | null;
  errors?: { type?: string; message: string; path?: (string | number)[] }[];
}

interface MutationAnswer {
  review?: { pullRequestReview: { comments: { totalCount: number } } | null } | null;
}

export interface ThreadsWritten {
  /** Threads answered (and resolved) as fixed. */
  closed: number;
  /** What became of the review: posted, or refused because GitHub would not place a line comment. */
  review?: "posted" | "refused";
  /** Threads not answered because a later document failed whole (the review and earlier threads stand). */
  left?: number;
}

/**
 * Answers and resolves the given threads (node ids), and posts `review` in the first document: one request
 * per 50 threads. A review GitHub refuses as unprocessable (a line outside the diff, as REST's 422) comes
 * back as "refused" for the caller's fallback; the threads are closed all the same. Any other refusal of
 * the review is thrown.
 */
export async function closeThreads(
  octokit: Octokit,
  threadIds: readonly string[],
  body: string,
  log: Logger,
  review?: ReviewInput,
): Promise<ThreadsWritten> {
  const out: ThreadsWritten = { closed: 0 };
  if (!threadIds.length && !review) return out;
  let reviewError: GraphqlFailure["errors"] = undefined;
  for (let at = 0; at < Math.max(threadIds.length, 1); at += THREADS_PER_DOCUMENT) {
    const chunk = threadIds.slice(at, at + THREADS_PER_DOCUMENT);
    const withReview = review !== undefined && at === 0;
    const variables: Record<string, unknown> = chunk.length ? { body } : {};
    chunk.forEach((id, i) => (variables[`t${i}`] = id));
    if (withReview) variables.review = review;
    let errors: NonNullable<GraphqlFailure["errors"]> = [];
    let data: MutationAnswer | null | undefined;
    try {
      data = await octokit.graphql<MutationAnswer>(threadsMutation(chunk.length, withReview), variables);
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
    const threadErrors = errors.filter((x) => x.path?.[0] !== "review");
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

/** Where GraphQL is refused: one REST reply per fixed thread (root comment ids); the threads stay unresolved. */
export async function replyToThreads(
  octokit: Octokit,
  pr: PullTarget,
  commentIds: readonly number[],
  body: string,
): Promise<number> {
  for (const comment_id of commentIds)
    await octokit.rest.pulls.createReplyForReviewComment({
      owner: pr.owner,
      repo: pr.repo,
      pull_number: pr.number,
      comment_id,
      body,
    });
  return commentIds.length;
}
