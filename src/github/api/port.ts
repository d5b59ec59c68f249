/**
 * The port: everything a review reads from and writes to GitHub, as one interface (`GitHubGateway`) and
 * the types its signatures use. The review (src/github/review/) sees GitHub only through it; the adapters
 * implement it (rest/ over the REST API; graphql/ where one GraphQL document replaces several REST
 * requests; gateway.ts picks one per installation). A new GitHub operation is a signature here, its REST
 * form in rest/gateway.ts and, when GraphQL does it in fewer calls, its GraphQL form in graphql/gateway.ts
 * (plus one line in gateway.ts's table of GraphQL forms).
 */
import type { Logger } from "probot";

export type { Logger };

/**
 * A commit being reviewed against a base commit, in a repository (a pull request head, a merge group).
 * Both commits are read from this repository by sha, a fork pull request's head too: GitHub keeps a pull
 * request's head commits in its base repository (`refs/pull/<n>/head`), where the fork's owner can neither
 * delete them nor serve other bytes for them.
 */
export interface CommitTarget {
  owner: string;
  repo: string;
  /** "Organization" or "User": only organisations have a `.github` policy repository. */
  ownerType: string;
  headSha: string;
  baseSha: string;
}

/** The pull request being reviewed, as the events describe it. */
export interface PullTarget extends CommitTarget {
  number: number;
}

/** A repository by owner and name. */
export interface RepoName {
  owner: string;
  repo: string;
}

// ---- The check run ----

/** The check run's name (interfaces.md): the App lists and writes only runs of this name, of its own. */
export const CHECK_NAME = "plugin-review";

/** The commit whose `plugin-review` check run is read or written. */
export interface CheckRunRef {
  owner: string;
  repo: string;
  headSha: string;
}

/** This app's run for a head commit, as GitHub lists it. */
export interface ExistingRun {
  id: number;
  status: string;
  /** Its conclusion once completed (`failure`, `success`, …), in lower case as REST gives it. */
  conclusion?: string | null;
  /** How many annotations the run holds already. */
  annotations: number;
  /** Its `external_id` as GitHub holds it (review/check-run/external-id.ts reads it). */
  externalId?: string | null;
  /** When GitHub says it was completed (epoch ms), where the read tells. */
  completedAt?: number;
}

/** A check run annotation, as the App sends it. */
export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column?: number;
  end_column?: number;
  annotation_level: "failure" | "warning" | "notice";
  title: string;
  message: string;
}

/**
 * An annotation as GitHub lists a run's (REST `GET …/check-runs/{id}/annotations`): the fields the App
 * sends, columns null where none were sent.
 */
export interface HeldAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column: number | null;
  end_column: number | null;
  annotation_level: string | null;
  title: string | null;
  message: string | null;
}

/** The output of a run: its title and summary, and the annotations this write appends (at most 50). */
export interface RunOutput {
  title: string;
  summary: string;
  annotations?: Annotation[];
}

/** What a write sets on a run: created or updated with these (updated: `output` alone for later batches). */
export interface RunWrite {
  externalId?: string;
  status?: "in_progress" | "completed";
  conclusion?: "success" | "neutral" | "failure";
  /** ISO 8601, with a completed run. */
  completedAt?: string;
  output: RunOutput;
}

// ---- Files ----

/** A file at a commit (`ref` a commit sha, or "HEAD" for the default branch). */
export interface FileAt {
  owner: string;
  repo: string;
  ref: string;
  path: string;
}

/** A commit of a repository, whose files are listed (`ref`: a commit sha). */
export type CommitFiles = Omit<FileAt, "path">;

/**
 * A file's bytes, or its size when it is over the limit asked, or nothing: no such path at that commit,
 * or (`notFile`) something there that is not a file (a folder, a submodule, a symbolic link that does not
 * name a file of the repository). A link that names one is read as that file, as GitHub's contents API reads it.
 */
export type FileContent =
  | { kind: "file"; content: Uint8Array; size: number }
  | { kind: "too-large"; size: number }
  | { kind: "missing"; notFile?: true };

/**
 * Files a review reads at once: one GraphQL query's worth (graphql/reads.ts asks for no more in one), so
 * that reading a pull request's descriptors in batches of this many costs no more requests than reading
 * them all at once, and a review holds at most this many files' bytes at a time.
 */
export const FILES_PER_READ = 40;

/** GitHub lists at most this many files of a pull request, whatever the pagination. */
export const PR_FILES_CAP = 3000;

/** Two commits to compare: a pull request's (with its number, to list its files) or a merge group's. */
export type ChangeRange = Omit<CommitTarget, "ownerType"> & { number?: number };

export interface ChangedDescriptor {
  path: string;
  status: "added" | "modified" | "renamed" | "copied" | "changed";
  /** Path in the base, for a renamed file. */
  previousPath?: string;
  /** The unified diff, when GitHub sends one (not for huge or binary diffs, nor for files found through the trees). */
  patch?: string;
}

export interface ChangedFiles {
  descriptors: ChangedDescriptor[];
  removed: string[];
  /**
   * The change's other files (not descriptors the configuration reviews): added, modified, removed, and both
   * paths of a rename. An extension packages files beside its extension.yaml, so a change to them is a change to
   * the extension (review/extension-projects.ts).
   */
  others: string[];
  totalFiles: number;
  /** Some files could not be seen (GitHub truncated a tree of more than 100,000 entries). */
  capped: boolean;
  /** The lists stopped short, so the descriptors were found by comparing the commits' trees. */
  throughTrees?: boolean;
}

/** A configuration file beyond this is refused (review/load-config.ts says so). */
export const CONFIG_MAX_BYTES = 10 * 1024 * 1024;

/** What a review needs before it lists files: its check run, and the configuration files' texts. */
export interface ReviewStart {
  run: ExistingRun | undefined;
  /** `owner/repo:path` → the file's text, or undefined when there is none. */
  configs: Map<string, Uint8Array | undefined>;
  /** Repositories answered as not found (`owner/repo`): absent, or not visible to the installation. */
  unseen?: Set<string>;
}

// ---- Pull requests, threads and reviews ----

/** What the App reads of a pull request (check_run and check_suite events carry only stubs of them). */
export interface PullRequestData {
  number: number;
  state: string;
  head: { sha: string };
  base: { sha: string };
}

// ---- Who wrote what ----

/**
 * Who wrote a comment or a review, as GitHub's REST API names accounts: a person's login, or a bot's with its
 * `[bot]` suffix (the GraphQL adapter adds the suffix GraphQL leaves out); null for a deleted account.
 */
export type Author = string | null;

/**
 * The App's own account on GitHub: its slug (`GET /app`, with the App's JWT) and the login of its bot,
 * `<slug>[bot]`. The App's hidden markers count only in what this account wrote (interfaces.md, "Trust").
 */
export interface AppIdentity {
  slug: string;
  login: string;
}

export function appIdentity(slug: string): AppIdentity {
  return { slug, login: `${slug}[bot]` };
}

/**
 * Whether the App's account wrote it. A person's login cannot hold `[bot]`, and slugs are unique, so the
 * login alone tells (GitHub's logins are case-insensitive).
 */
export function writtenBy(app: AppIdentity, author: Author): boolean {
  return author !== null && author.toLowerCase() === app.login.toLowerCase();
}

/** A reply in a review thread: who wrote it, and what. */
export interface ThreadReply {
  author: Author;
  body: string;
}

/** The root comment of a review thread, with what the review plan needs to know about the thread. */
export interface ThreadComment {
  id: number;
  /** The thread's node id (what GraphQL resolves a thread by); absent when read through REST. */
  threadId?: string;
  path: string;
  line: number | null;
  body: string;
  /** Who wrote the root comment (only the App's own threads are the App's: review/pull-review/publish.ts). */
  author: Author;
  /** Resolved on GitHub (GraphQL says; REST cannot tell, so false there). */
  resolved: boolean;
  /** The thread's replies, oldest first: every one through REST, the latest 20 through GraphQL. */
  replies: ThreadReply[];
}

/** Where a pull request is now: its head commit, and whether it is open. */
export interface PullHead {
  sha: string;
  open: boolean;
}

/** A review whose state is "changes requested". */
export interface RequestingReview {
  id: number;
  /** Its node id (what GraphQL dismisses a review by); absent when read through REST. */
  nodeId?: string;
  author: Author;
  body: string;
}

/** A review of a pull request (its body may hold the App's head marker and fingerprints). */
export interface ReviewBody {
  author: Author;
  body: string;
}

/** A pull request's review threads and latest reviews. */
export interface PullState {
  threads: ThreadComment[];
  /** The latest reviews (through GraphQL the latest 100), oldest first. */
  reviews: ReviewBody[];
  /** The reviews that still request changes (the App's own are told by their author and its marker). */
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

/** The App's own "changes requested" reviews to dismiss, and the message that says why. */
export interface Dismissal {
  reviews: readonly Pick<RequestingReview, "id" | "nodeId">[];
  message: string;
}

/** A thread whose finding a push fixed: its root comment's id, and its node id when known. */
export type FixedThread = Pick<ThreadComment, "id" | "threadId">;

/** What a push's publication writes at once: fixed threads answered, and its review and dismissals if any. */
export interface Publication {
  /** From `pullState` (through GraphQL): with every node id known, all of it is one GraphQL document. */
  pullRequestId?: string;
  fixed: readonly FixedThread[];
  /** The reply each fixed thread gets. */
  fixedReply: string;
  review?: ReviewToPost;
  dismissal?: Dismissal;
}

export interface PublicationWritten {
  /** Threads answered (and, through GraphQL, resolved) as fixed. */
  closed: number;
  /** What became of the review: posted, or refused because GitHub would not place a line comment. */
  review?: "posted" | "refused";
  /** Threads not answered because a later document failed whole (the review and earlier threads stand). */
  left?: number;
  /** Reviews dismissed (of those asked for: GitHub may refuse, e.g. where only some may dismiss reviews). */
  dismissed?: number;
}

/** Everything a review reads from and writes to GitHub. */
export interface GitHubGateway {
  // Reads.
  /** This app's latest run on the head commit, and the configuration files when the API can read them at once. */
  reviewStart(where: CheckRunRef & { ownerType: string }, appId: number | undefined): Promise<ReviewStart>;
  /** This app's latest run on the head commit alone (to learn what a write whose answer was lost did). */
  latestRun(where: CheckRunRef, appId: number | undefined): Promise<ExistingRun | undefined>;
  /** Every annotation a run holds (at most 1,000 of ours). */
  runAnnotations(where: CheckRunRef, runId: number): Promise<HeldAnnotation[]>;
  /** A file on a repository's default branch (a configuration file); over `maxSize`, only its size. */
  readDefaultBranchFile(file: RepoName & { path: string }, maxSize: number): Promise<FileContent>;
  /** Whether the reader sees the repository (GitHub answers 404 alike for absent and not visible). */
  repositoryVisible(repo: RepoName): Promise<boolean>;
  /** Which repositories an installation's token sees: all of the owner's, or selected ones; undefined when unknown. */
  repositorySelection(): Promise<"all" | "selected" | undefined>;
  /** A pull request (check_run and check_suite events carry only stubs of them). */
  pullRequest(repo: RepoName, number: number): Promise<PullRequestData>;
  /** The descriptors changed between two commits (a pull request's files, or a comparison). */
  listChanged(change: ChangeRange, paths: readonly string[]): Promise<ChangedFiles>;
  /** Files at commits, in the order asked. */
  readFiles(files: readonly FileAt[], maxSize: number): Promise<FileContent[]>;
  /**
   * The paths of the files under each folder ("" or ending in `/`) at a commit, in the order asked; undefined
   * for a folder whose files cannot all be listed (GitHub cut its listing short, or more than `maxPerFolder`). A
   * commit's tree cut short is listed again folder by folder (api/rest/folder-files.ts).
   */
  folderFiles(
    at: CommitFiles,
    folders: readonly string[],
    maxPerFolder: number,
  ): Promise<(string[] | undefined)[]>;
  /** The pull request's review threads (with their replies) and latest reviews, each with its author. */
  pullState(pr: PullTarget): Promise<PullState>;
  /** The reviews of the pull request that still request changes, and its head (a light read: no threads). */
  changesRequested(pr: PullTarget): Promise<ChangesRequested>;
  /** A person's permission on a repository ("none" when they are no collaborator). */
  permissionOf(repo: RepoName, login: string): Promise<"admin" | "write" | "read" | "none">;

  // Writes. GitHub may make a write and fail to answer: none is retried blindly (api/octokit/).
  /** Creates the head commit's run; returns its id. */
  createCheckRun(where: CheckRunRef, write: RunWrite): Promise<number>;
  /** Updates a run (GitHub appends the annotations of every update). */
  updateCheckRun(where: CheckRunRef, runId: number, write: RunWrite): Promise<void>;
  /** Posts a review; "refused" when GitHub will not place one of its line comments (422). */
  postReview(pr: PullTarget, review: ReviewToPost): Promise<"posted" | "refused">;
  /**
   * Answers the fixed threads (and resolves them where the API can), posts the review and dismisses the
   * dismissal's reviews: through GraphQL one document for all when every node id is known, else a REST
   * reply per thread, the review and a dismissal each.
   */
  publish(pr: PullTarget, publication: Publication): Promise<PublicationWritten>;
  /**
   * Dismisses reviews with a message: one write (through GraphQL one document; through REST a request per
   * review, usually one). Returns how many GitHub dismissed; a refusal is logged, not thrown.
   */
  dismissReviews(pr: PullTarget, dismissal: Dismissal): Promise<number>;
  /** Comments on a pull request's conversation (not on a line). */
  commentOnPullRequest(pr: RepoName & { number: number }, body: string): Promise<void>;
}

// ---- The App's webhook delivery log (the recovery's record of what GitHub sent) ----

/** One attempt GitHub made to deliver a webhook to the App, as its delivery log lists it. */
export interface DeliveryAttempt {
  /** The attempt's id (what its payload is read by). */
  id: number;
  /** The delivery's id (`X-GitHub-Delivery`), which its redeliveries share. */
  guid: string;
  /** When GitHub made the attempt (epoch ms). */
  deliveredAt: number;
  redelivery: boolean;
  /** The App's answer: an HTTP status, or 0 when GitHub could not connect. */
  statusCode: number;
  event: string;
  action: string | null;
  installationId: number | null;
}

/** A delivery as GitHub sent it. */
export interface LoggedDelivery {
  guid: string;
  name: string;
  payload: Record<string, unknown>;
}

/** The App's webhook delivery log (`/app/hook/deliveries`), read with the App's own credentials. */
export interface DeliveryLog {
  /** Every attempt made since `since` (epoch ms), newest first. */
  attempts(since: number): AsyncIterable<DeliveryAttempt>;
  /** The delivery an attempt made. */
  delivery(attemptId: number): Promise<LoggedDelivery>;
}
