/**
 * What a review needs from GitHub, behind one interface with two implementations:
 * - REST (gateway-rest.ts): everything through the REST API;
 * - GraphQL (gateway-graphql.ts): where one GraphQL document does what REST needs several requests for (the
 *   start of a review, the files at commits, the review threads; the fixed threads closed, and resolved, in
 *   one write), REST for the rest.
 * `gatewayFor` gives a review the GraphQL one, unless GraphQL failed for its installation a short while ago:
 * a GraphQL API that refuses a document (an older GitHub Enterprise Server, a schema without a field used
 * here), fails, or does not answer in time (an outage of GitHub's GraphQL API alone) switches the
 * installation to REST for a while, logged once, and the operation that met the failure is done again
 * through REST. This is the App's only GraphQL→REST fallback.
 */
import type { CheckResult, CheckRunRef, ExistingRun } from "../review/check-run.js";
import { scaled } from "./deadline.js";
import type { FileContent } from "./rest-content.js";
import type { ChangedFiles, ChangeRange } from "./rest-changed-files.js";
import { GraphqlGateway } from "./graphql.js";
import { RestGateway } from "./rest.js";
import { graphqlUnavailable } from "./graphql-query.js";
import type { FileAt, ReviewStart } from "./graphql-reads.js";
import type { Logger, Octokit, PullTarget } from "./types.js";

/** The root comment of a review thread, with what the review plan needs to know about the thread. */
export interface ThreadComment {
  id: number;
  /** The thread's node id (what GraphQL resolves a thread by); absent when read through REST. */
  threadId?: string;
  path: string;
  line: number | null;
  body: string;
  /** The root comment was written by a bot (an App), not by a person quoting one of our markers. */
  byBot: boolean;
  /** Resolved, or already answered as fixed: the finding it was about is closed; if it comes back, it is new. */
  closed: boolean;
}

/** Where a pull request is now: its head commit, and whether it is open. */
export interface PullHead {
  sha: string;
  open: boolean;
}

/** A pull request's review threads and latest reviews. */
export interface PullState {
  threads: ThreadComment[];
  reviewBodies: string[];
  /** The reviews that still request changes (the App's own are told by `byBot` and our marker in `body`). */
  changesRequested: RequestingReview[];
  /** The pull request's node id, when read through GraphQL (its threads can then be resolved). */
  pullRequestId?: string;
  /** Where the pull request is now (a review of an earlier head publishes nothing); absent when not read. */
  head?: PullHead;
}

/** The reviews of a pull request that still request changes, and where the pull request is now. */
export interface ChangesRequested {
  reviews: RequestingReview[];
  head?: PullHead;
}

/** A review to post: its event, body and line comments (RIGHT side lines of the diff). */
export interface ReviewToPost {
  event: "COMMENT" | "REQUEST_CHANGES";
  body: string;
  comments: { path: string; line: number; side: "RIGHT"; body: string }[];
}

/** A review whose state is "changes requested". */
export interface RequestingReview {
  id: number;
  /** Its node id (what GraphQL dismisses a review by); absent when read through REST. */
  nodeId?: string;
  /** Written by a bot (an App), not by a person. */
  byBot: boolean;
  body: string;
}

/** The App's own "changes requested" reviews to dismiss, and the message that says why. */
export interface Dismissal {
  reviews: readonly Pick<RequestingReview, "id" | "nodeId">[];
  message: string;
}

/** A thread whose finding a push fixed: its root comment's id, and its node id when known. */
export type FixedThread = Pick<ThreadComment, "id" | "threadId">;

export interface ThreadsWritten {
  /** Threads answered (and, through GraphQL, resolved) as fixed. */
  closed: number;
  /** What became of the review: posted, or refused because GitHub would not place a line comment. */
  review?: "posted" | "refused";
  /** Threads not answered because a later document failed whole (the review and earlier threads stand). */
  left?: number;
  /** Reviews dismissed (of those asked for: GitHub may refuse, e.g. where only some may dismiss reviews). */
  dismissed?: number;
}

/** What a pull request read through the REST API carries (the targets of check_run and check_suite events). */
export type PullRequestData = Awaited<ReturnType<Octokit["rest"]["pulls"]["get"]>>["data"];

/** Everything a review reads from and writes to GitHub. */
export interface GitHubGateway {
  /** Which API the reads that have a GraphQL form use right now. */
  readonly api: "graphql" | "rest";
  /** The Octokit underneath, for reads that are REST whatever the API (load-config.ts). */
  readonly octokit: Octokit;

  /** This app's latest run on the head commit, and the configuration files when the API can read them at once. */
  reviewStart(where: CheckRunRef & { ownerType: string }, appId: number | undefined): Promise<ReviewStart>;
  /** This app's latest run on the head commit alone (to learn what a write whose answer was lost did). */
  latestRun(where: CheckRunRef, appId: number | undefined): Promise<ExistingRun | undefined>;
  /** Creates the run or completes `existing` with `result` (check-run.ts); returns the run's id. */
  writeCheckRun(where: CheckRunRef, existing: ExistingRun | undefined, result: CheckResult): Promise<number>;
  /** Creates the run in progress, without annotations (when completing it keeps failing). */
  startCheckRun(where: CheckRunRef): Promise<ExistingRun>;

  /** A pull request (check_run and check_suite events carry only stubs of them). */
  pullRequest(repo: { owner: string; repo: string }, number: number): Promise<PullRequestData>;
  /** The descriptors changed between two commits (a pull request's files, or a comparison). */
  listChanged(change: ChangeRange, paths: readonly string[]): Promise<ChangedFiles>;
  /** Files at commits, in the order asked. */
  readFiles(files: readonly FileAt[], maxSize: number): Promise<FileContent[]>;

  /** The pull request's review threads and latest reviews; `isFixedReply` tells the App's "fixed" replies. */
  pullState(pr: PullTarget, isFixedReply: (body: string) => boolean): Promise<PullState>;
  /** Posts a review; "refused" when GitHub will not place one of its line comments (422). */
  postReview(pr: PullTarget, review: ReviewToPost): Promise<"posted" | "refused">;
  /**
   * Answers the fixed threads with `reply` (and resolves them where the API can), posts `review` and
   * dismisses the `dismissal`'s reviews if given: through GraphQL one document for all when every node id is
   * known (`pullRequestId` from `pullState`), else a REST reply per thread, the review and a dismissal each.
   */
  closeThreads(
    pr: PullTarget,
    pullRequestId: string | undefined,
    fixed: readonly FixedThread[],
    reply: string,
    review?: ReviewToPost,
    dismissal?: Dismissal,
  ): Promise<ThreadsWritten>;

  /** The reviews of the pull request that still request changes, and its head (a light read: no threads). */
  changesRequested(pr: PullTarget): Promise<ChangesRequested>;
  /**
   * Dismisses reviews with a message: one write (through GraphQL one document; through REST a request per
   * review, usually one). Returns how many GitHub dismissed; a refusal is logged, not thrown.
   */
  dismissReviews(pr: PullTarget, dismissal: Dismissal): Promise<number>;
}

/** How long an installation whose GraphQL requests failed reads through REST before GraphQL is tried again. */
export const REST_AFTER_GRAPHQL_FAILURE_MS = 10 * 60_000;

/**
 * Which installations read through REST because GraphQL failed for them lately. One per app (the server's
 * process, a Lambda container, a CLI run), shared by its reviews.
 */
export class GraphqlAvailability {
  private readonly restUntil = new Map<string, number>();

  constructor(private readonly restForMs?: number) {}

  private get forMs(): number {
    return this.restForMs ?? scaled(REST_AFTER_GRAPHQL_FAILURE_MS);
  }

  /** Whether the installation's reviews use GraphQL now. */
  usable(installation: string): boolean {
    const until = this.restUntil.get(installation);
    if (until === undefined) return true;
    if (Date.now() < until) return false;
    this.restUntil.delete(installation);
    return true;
  }

  /** Switches the installation to REST for a while; true when it was not already (the caller logs it, once). */
  switchToRest(installation: string): boolean {
    const was = this.usable(installation);
    if (was) this.restUntil.set(installation, Date.now() + this.forMs);
    return was;
  }

  get restForMinutes(): number {
    return Math.round(REST_AFTER_GRAPHQL_FAILURE_MS / 60_000);
  }
}

/** A gateway that uses GraphQL while the installation's GraphQL works, and REST otherwise. */
class ChosenGateway implements GitHubGateway {
  private readonly rest: RestGateway;
  private readonly graphql: GraphqlGateway;

  constructor(
    readonly octokit: Octokit,
    private readonly log: Logger,
    private readonly installation: string,
    private readonly availability: GraphqlAvailability,
  ) {
    this.rest = new RestGateway(octokit, log);
    this.graphql = new GraphqlGateway(octokit, log);
  }

  get api(): "graphql" | "rest" {
    return this.availability.usable(this.installation) ? "graphql" : "rest";
  }

  /**
   * The GraphQL form of an operation while GraphQL works for the installation, REST otherwise. When GraphQL
   * refuses, fails or does not answer in time, the installation switches to REST for a while (logged once)
   * and the operation is done through REST: at once for a read, or for a write GraphQL refused (nothing of
   * it ran); a write that failed or went unanswered may have been made, so its failure is thrown for the
   * caller to read what GitHub holds (through REST now) before writing again.
   */
  private async either<T>(
    what: string,
    graphql: () => Promise<T>,
    rest: () => Promise<T>,
    kind: "read" | "write" = "read",
  ): Promise<T> {
    if (this.api === "rest") return rest();
    try {
      return await graphql();
    } catch (e) {
      const why = graphqlUnavailable(e);
      if (!why) throw e;
      if (this.availability.switchToRest(this.installation))
        this.log.warn(
          { err: (e as Error).message },
          `GraphQL ${why} (${what}): this installation reads and writes through REST for the next ${this.availability.restForMinutes} minutes (more API calls; fixed threads get a reply but cannot be resolved)`,
        );
      if (kind === "write" && why !== "refused") throw e;
      return rest();
    }
  }

  reviewStart(where: CheckRunRef & { ownerType: string }, appId: number | undefined) {
    return this.either(
      "the review's first query",
      () => this.graphql.reviewStart(where, appId),
      () => this.rest.reviewStart(where, appId),
    );
  }

  readFiles(files: readonly FileAt[], maxSize: number) {
    return this.either(
      "the files query",
      () => this.graphql.readFiles(files, maxSize),
      () => this.rest.readFiles(files, maxSize),
    );
  }

  pullState(pr: PullTarget, isFixedReply: (body: string) => boolean) {
    return this.either(
      "the review threads query",
      () => this.graphql.pullState(pr, isFixedReply),
      () => this.rest.pullState(pr, isFixedReply),
    );
  }

  closeThreads(
    pr: PullTarget,
    pullRequestId: string | undefined,
    fixed: readonly FixedThread[],
    reply: string,
    review?: ReviewToPost,
    dismissal?: Dismissal,
  ) {
    return this.either(
      "the fixed threads' mutation",
      () => this.graphql.closeThreads(pr, pullRequestId, fixed, reply, review, dismissal),
      () => this.rest.closeThreads(pr, undefined, fixed, reply, review, dismissal),
      "write",
    );
  }

  changesRequested(pr: PullTarget): Promise<ChangesRequested> {
    return this.either(
      "the reviews query",
      () => this.graphql.changesRequested(pr),
      () => this.rest.changesRequested(pr),
    );
  }

  dismissReviews(pr: PullTarget, dismissal: Dismissal) {
    return this.either(
      "the dismissal mutation",
      () => this.graphql.dismissReviews(pr, dismissal),
      () => this.rest.dismissReviews(pr, dismissal),
      "write",
    );
  }

  latestRun(where: CheckRunRef, appId: number | undefined) {
    return this.rest.latestRun(where, appId);
  }

  writeCheckRun(where: CheckRunRef, existing: ExistingRun | undefined, result: CheckResult) {
    return this.rest.writeCheckRun(where, existing, result);
  }

  startCheckRun(where: CheckRunRef) {
    return this.rest.startCheckRun(where);
  }

  pullRequest(repo: { owner: string; repo: string }, number: number) {
    return this.rest.pullRequest(repo, number);
  }

  listChanged(change: ChangeRange, paths: readonly string[]) {
    return this.rest.listChanged(change, paths);
  }

  postReview(pr: PullTarget, review: ReviewToPost) {
    return this.rest.postReview(pr, review);
  }
}

/**
 * The gateway for a review: GraphQL while it works for `installation` (whatever names it: the installation
 * id, or the CLI's token), REST for a while after it refused.
 */
export function gatewayFor(
  octokit: Octokit,
  opts: { log: Logger; installation: string | number | undefined; availability: GraphqlAvailability },
): GitHubGateway {
  return new ChosenGateway(octokit, opts.log, String(opts.installation ?? "default"), opts.availability);
}
