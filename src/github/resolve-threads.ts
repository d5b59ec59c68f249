/**
 * The App's review threads through GraphQL (`octokit.graphql`, which Probot ships): one query reads the
 * pull request's threads and reviews (replacing two REST listings), and one mutation document resolves
 * every thread whose finding a push fixed, with a short reply naming the fixing commit. GitHub counts a
 * GraphQL document as one request, so the aliases batch any number of threads into one write.
 */
import type { Octokit, PullTarget } from "./types.js";

/** The root comment of a thread, with what `planReview` needs to know about the thread. */
export interface ThreadComment {
  id: number;
  /** The thread's node id (what `resolveReviewThread` takes). */
  threadId: string;
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
}

interface Page {
  repository: {
    pullRequest: {
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

/** Every review thread and the latest reviews of a pull request: one GraphQL query per 100 threads. */
export async function readPullState(
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
    if (page === 0) state.reviewBodies = pull.reviews.nodes.map((r) => r.body ?? "");
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

/** One mutation document: a reply and a resolution per thread (aliases), so one request whatever the count. */
export function resolveThreadsMutation(threadIds: readonly string[]): string {
  const vars = threadIds.map((_, i) => `$t${i}: ID!`).join(", ");
  const fields = threadIds
    .map(
      (_, i) =>
        `  reply${i}: addPullRequestReviewThreadReply(input: { pullRequestReviewThreadId: $t${i}, body: $body }) { comment { id } }\n` +
        `  resolve${i}: resolveReviewThread(input: { threadId: $t${i} }) { thread { id isResolved } }`,
    )
    .join("\n");
  return `mutation pluginReviewResolve($body: String!, ${vars}) {\n${fields}\n}`;
}

/** Replies to and resolves the given threads in one GraphQL request (none when there are none). */
export async function resolveThreads(
  octokit: Octokit,
  threadIds: readonly string[],
  body: string,
): Promise<number> {
  // 50 threads per document keeps each well inside GitHub's limits on a mutation's cost.
  for (let at = 0; at < threadIds.length; at += 50) {
    const chunk = threadIds.slice(at, at + 50);
    const variables: Record<string, string> = { body };
    chunk.forEach((id, i) => (variables[`t${i}`] = id));
    await octokit.graphql(resolveThreadsMutation(chunk), variables);
  }
  return threadIds.length;
}
