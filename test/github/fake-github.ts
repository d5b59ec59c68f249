/**
 * A stateful fake of the parts of GitHub's REST API the App uses, on nock (which intercepts Octokit's
 * fetch). State (files by repository and ref, pull request files, check runs, reviews, comments) lives in
 * plain objects so that a second delivery sees what the first one wrote. Every request is recorded and
 * validated against GitHub's OpenAPI description (github-mock.ts); GitHub's own refusals that the schema
 * cannot express are emulated too (a line comment outside the diff answers 422, as GitHub does).
 */
import { createHash, createHmac, randomUUID } from "node:crypto";
import { posix } from "node:path";
import { Readable } from "node:stream";
import nock from "nock";
import { answerGraphql, Forbidden, githubSchema, Unprocessable } from "./fake-graphql.js";
import { githubMock, onCleanup, type GithubMock } from "./github-mock.js";
import { validateResponse } from "./openapi.js";

/** A pull request as GitHub's REST API answers it: the real `pull_request.opened` example's. */
const EXAMPLE_PULL = (
  (await import("@octokit/webhooks-examples/api.github.com/index.json", { with: { type: "json" } }))
    .default as unknown as { name: string; examples: { action?: string; pull_request?: unknown }[] }[]
)
  .find((e) => e.name === "pull_request")!
  .examples.find((x) => x.action === "opened")!.pull_request as Record<string, unknown> & {
  head: object;
  base: object;
};

/** A fixed timestamp for the fake's objects (GitHub's are ISO 8601 date-times). */
const CREATED_AT = "2026-01-01T00:00:00Z";

export interface PrFile {
  filename: string;
  status: "added" | "removed" | "modified" | "renamed";
  previous_filename?: string;
  patch?: string;
}

export interface CheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion?: string;
  output?: { title: string; summary: string };
  external_id?: string;
  annotations: Record<string, unknown>[];
  app: { id: number; slug: string };
  updates: number;
  /** When it was completed (ISO 8601), for a run a test puts there; a run the App completes gets GitHub's. */
  completed_at?: string;
}

export interface Comment {
  /** `owner/repo#number` of the pull request (absent on comments a test puts there: listed on every one). */
  pull?: string;
  id: number;
  path: string;
  line: number | null;
  side: string;
  body: string;
  commit_id: string;
  in_reply_to_id?: number;
  user: { login: string; type: string };
}

export interface Review {
  pull?: string;
  id: number;
  body: string;
  event: string;
  commit_id: string;
  user: { login: string; type: string };
  /** Set when the review was dismissed: the dismissal's message. */
  dismissed?: string;
}

/** A review's state as GitHub reports it (REST `state`, GraphQL `PullRequestReviewState`). */
export function reviewState(r: Review): string {
  if (r.dismissed !== undefined) return "DISMISSED";
  return (
    { REQUEST_CHANGES: "CHANGES_REQUESTED", APPROVE: "APPROVED", COMMENT: "COMMENTED" }[r.event] ?? "PENDING"
  );
}

export const APP_ID = 4242;

/**
 * GitHub's answer to a check run whose summary or text is over 65,535 bytes of UTF-8: its description says
 * "characters", but GitHub counts bytes (github/docs#35252: "summary exceeds a maximum bytesize of 65535").
 */
function outputTooLarge(
  output: { summary?: unknown; text?: unknown } | undefined,
  operation: string,
): Record<string, unknown> | undefined {
  for (const field of ["summary", "text"] as const) {
    const value = output?.[field];
    if (typeof value !== "string" || Buffer.byteLength(value, "utf8") <= 65_535) continue;
    return {
      message: "Validation Failed",
      errors: [
        {
          resource: "CheckRun",
          code: "custom",
          field,
          message: `${field} exceeds a maximum bytesize of 65535`,
        },
      ],
      documentation_url: `https://docs.github.com/rest/checks/runs#${operation}`,
      status: "422",
    };
  }
  return undefined;
}

/**
 * GitHub's answer to annotations it will not take (its description: at most 50 per request; columns only on
 * one line; a title of at most 255 characters, a message of at most 64 KB), and to a range that ends before it
 * starts.
 */
function annotationsRefused(
  output: { annotations?: Record<string, unknown>[] } | undefined,
  operation: string,
): Record<string, unknown> | undefined {
  const annotations = output?.annotations ?? [];
  const problem = (() => {
    if (annotations.length > 50) return "Only 50 annotations are allowed per request";
    for (const a of annotations) {
      const [start, end] = [Number(a.start_line), Number(a.end_line)];
      if (!(start >= 1) || !(end >= start)) return "end_line must be greater than or equal to start_line";
      const columns = a.start_column !== undefined || a.end_column !== undefined;
      if (columns && start !== end) return "start_column and end_column are only allowed on a single line";
      if (columns && !(Number(a.end_column) >= Number(a.start_column)))
        return "end_column must be greater than or equal to start_column";
      if (typeof a.title === "string" && a.title.length > 255) return "title is too long (maximum is 255)";
      if (typeof a.message === "string" && Buffer.byteLength(a.message) > 64 * 1024)
        return "message is too long (maximum is 64 KB)";
    }
    return undefined;
  })();
  return (
    problem && {
      message: "Validation Failed",
      errors: [{ resource: "CheckRun", code: "custom", field: "annotations", message: problem }],
      documentation_url: `https://docs.github.com/rest/checks/runs#${operation}`,
      status: "422",
    }
  );
}

/** The routes of a pull request review; a test enables exactly those it expects to be used. */
export type Route =
  | "token"
  | "files"
  | "contents"
  | "blob"
  | "listCheckRuns"
  | "createCheckRun"
  | "updateCheckRun"
  | "listAnnotations"
  | "listComments"
  | "listReviews"
  | "createReview"
  | "reply"
  | "getPull"
  | "listOrgRepos"
  | "getRepo"
  | "tree"
  | "ref"
  | "compare"
  | "graphql"
  | "installationRepos"
  | "orgInstallations"
  | "dismissReview"
  | "listDeliveries"
  | "getDelivery"
  | "redeliver"
  | "permission"
  | "issueComment"
  | "app";

/**
 * Routes GitHub answers in every test, whether or not the test uses them: the App's own identity (`GET /app`,
 * asked once per process by the first review that reads what is on a pull request). Not counted as pending.
 */
const ALWAYS: readonly Route[] = [
  "app",
  // The pull request as it is now, read first by the review of every pull_request delivery (a test that
  // enables the route requires it to be used).
  "getPull",
];

/** A repository of the fake, for the organisation-wide routes (audit). Its default branch's files are the "HEAD" ones. */
export interface FakeRepo {
  archived?: boolean;
  /** No commit yet: its tree answers 409, as GitHub does. */
  empty?: boolean;
  defaultBranch?: string;
  ownerType?: "Organization" | "User";
}

/** The calls of a review of a pull request that was just opened (nothing of ours can exist on it yet). */
export const REVIEW_ROUTES: readonly Route[] = [
  "token",
  "graphql",
  "files",
  "createCheckRun",
  "createReview",
];

/** A merge group's calls: a comparison of two commits instead of a pull request's file list, and no review. */
export const MERGE_GROUP_ROUTES: readonly Route[] = ["token", "graphql", "compare", "createCheckRun"];

/** Any later event also lists the existing review comments and reviews, so as never to post twice. */
/** A later event also reads the review threads and reviews: one more GraphQL query, on the same route. */
export const LATER_REVIEW_ROUTES: readonly Route[] = REVIEW_ROUTES;
/** The App's slug (app.yml's name): its bot account is `plugin-review[bot]`. */
export const APP_SLUG = "plugin-review";
/** The organisation that owns the App. */
const OWNER_LOGIN = "acme";
const BOT = { login: `${APP_SLUG}[bot]`, type: "Bot" };

type Failure = {
  method: string;
  path: RegExp;
  status: number;
  times: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Fails only until this time (epoch ms). */
  until?: number;
  /** Fails for this long from the first request it fails (sets `until` then). */
  forMs?: number;
  /** Fails only the requests whose JSON body this accepts. */
  when?: (body: unknown) => boolean;
  /** How many of the failed requests GitHub makes all the same before answering the failure. */
  applied?: number;
};

/** The headers GitHub answers every API request with that the fake's failures carry too. */
const GITHUB_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  server: "github.com",
  "x-github-request-id": "C0DE:1234:5678AB:9ABCDE:65A1B2C3",
};

/** GitHub's answers when it fails or refuses, as api.github.com sends them. */
export const GITHUB_ERRORS = {
  500: { message: "Server Error" },
  502: { message: "Server Error" },
  503: {
    message:
      "No server is currently available to service your request. Sorry about that. Please try resubmitting your request and contact us if the problem persists.",
  },
  401: { message: "Bad credentials", documentation_url: "https://docs.github.com/rest", status: "401" },
} as const;

/** A check run write that completes the run (what GitHub shows as done): status completed or a conclusion. */
export const completesRun = (body: unknown): boolean => {
  const b = body as { status?: string; conclusion?: string } | undefined;
  return b?.status === "completed" || b?.conclusion !== undefined;
};

/** An entry of a git tree, as GitHub's tree route answers it (without its `url`). */
export interface TreeEntry {
  path: string;
  mode: string;
  type: "blob" | "tree" | "commit";
  sha: string;
  size?: number;
}

/** The fakes since the last `cleanup()`: a request none of them routes is answered 404 (answerUnrouted). */
const LIVE_FAKES = new Set<FakeGitHub>();
onCleanup(() => LIVE_FAKES.clear());

export class FakeGitHub {
  readonly mock: GithubMock;
  /** `owner/repo@ref` → path → bytes. The ref "HEAD" is the default branch. */
  readonly contents = new Map<string, Map<string, Buffer>>();
  prFiles: PrFile[] = [];
  /** Commits whose tree GitHub cuts short (`truncated`: over 100,000 entries or 7 MB). */
  readonly cutTrees = new Set<string>();
  /**
   * Folders (at any commit, without a trailing `/`) whose own tree's recursive listing GitHub cuts short: their
   * commit's listing is then cut short too (add the commit to `cutTrees`).
   */
  readonly cutFolders = new Set<string>();
  /** Paths (at any commit) that are symbolic links: a tree lists them as mode 120000, their bytes the target. */
  readonly symlinks = new Set<string>();
  /**
   * Paths (at any commit) that are submodules: a tree lists them as mode 160000, type `commit`, its sha the
   * submodule's commit (their bytes here say nothing: GitHub's tree does not show what the submodule holds).
   */
  readonly submodules = new Set<string>();
  /** The files of other pull requests than the one `prFiles` lists, by `owner/repo#number`. */
  readonly pullFiles = new Map<string, PrFile[]>();
  /**
   * The diff GitHub checks a review's line comments against, when it moved after the App listed the files
   * (a push in between): by default `prFiles`.
   */
  reviewDiff: PrFile[] | undefined;
  /**
   * Pull requests (`owner/repo#number`) opened by the App's own account (its credentials reused by an
   * automation): GitHub lets no author request changes on their own pull request.
   */
  readonly ownPulls = new Set<string>();
  readonly checkRuns: CheckRun[] = [];
  readonly reviews: Review[] = [];
  readonly comments: Comment[] = [];
  /** Pull requests by number, as REST answers them (`getPull`); GraphQL answers their head and state too. */
  readonly pulls = new Map<number, unknown>();
  /** Where a head left its base (`base...head` → sha), as comparisons answer it; the base itself by default. */
  readonly mergeBases = new Map<string, string>();
  /** Head commits pushed to pull requests (`push`), by number. */
  private readonly heads = new Map<number, string>();

  /** Base commits of pull requests moved to another base branch (`retarget`), by number. */
  private readonly bases = new Map<number, string>();

  /** A push to a pull request: its head commit is now `sha`, for REST and GraphQL alike. */
  push(number: number, sha: string): this {
    this.heads.set(number, sha);
    return this;
  }

  /** Pull requests GitHub does not have (`GET /pulls/{n}` answers 404): every other number is open. */
  private readonly absentPulls = new Set<number>();

  /** Pull request `number` does not exist (never opened, or the token cannot see it). */
  absent(number: number): this {
    this.absentPulls.add(number);
    return this;
  }

  /** A pull request moved to another base branch, whose tip is `sha` (an edit of its base). */
  retarget(number: number, sha: string): this {
    this.bases.set(number, sha);
    return this;
  }

  /**
   * A pull request's head commit and GraphQL state (OPEN, CLOSED, MERGED): the last `push`, else its entry
   * in `pulls`, else open at the harness's head commit.
   */
  private pullNow(number: number): { sha: string; state: string } {
    const p = this.pulls.get(number) as
      { head?: { sha?: string }; state?: string; merged?: boolean | null } | undefined;
    const state = p?.state !== "closed" ? "OPEN" : p.merged ? "MERGED" : "CLOSED";
    return { sha: this.heads.get(number) ?? p?.head?.sha ?? "c".repeat(40), state };
  }
  /** `owner/name` → repository, for the organisation-wide routes. */
  readonly repos = new Map<string, FakeRepo>();
  private readonly failures: Failure[] = [];
  private readonly hangs: Omit<Failure, "status">[] = [];
  /** `METHOD path` of the requests left unanswered (`hang`). */
  readonly hung: string[] = [];
  /** Installation tokens issued, in order; those in `revoked` answer 401 like a revoked token. */
  readonly tokens: string[] = [];
  readonly revoked = new Set<string>();
  private nextId = 1000;
  /**
   * The fake's JSON answers, as sent, checked against GitHub's description in assertClean (validateResponse):
   * not while answering, where compiling an operation's schema the first time takes seconds on a loaded
   * machine and a scaled clock's request timeout (1 s at 0.05) would abandon the request.
   */
  private readonly answers: [method: string, path: string, status: number, body: unknown][] = [];
  private readonly enabled: Set<Route>;
  /** The routes the test enabled (each must be used); the others in `enabled` are ALWAYS's, answered if asked. */
  private readonly required: Set<Route>;
  /** The API's path on GitHub Enterprise Server (`/api/v3`); empty on github.com. */
  private readonly prefix: string;
  /** The API's base URL, as the fake's links give it. */
  private readonly base: string;
  /** Where repositories' pages are (`html_url`): github.com, or the Enterprise Server's host. */
  readonly webOrigin: string;

  /** Only the given routes are intercepted, so that `assertDone` proves each was used (no mock left pending). */
  /**
   * `latencyMs`: every answer waits this long (the load test's model of GitHub's round trip).
   * `checkResponses: false` skips checking the fake's own answers against GitHub's description: the load
   * test's choice, where that checking would run in the measured server's process (the tests keep it on).
   */
  constructor(
    routes: readonly Route[] = REVIEW_ROUTES,
    baseUrl?: string,
    private readonly opts: { latencyMs?: number; checkResponses?: boolean } = {},
  ) {
    this.enabled = new Set([...routes, ...ALWAYS]);
    this.required = new Set(routes);
    this.prefix = baseUrl ? new URL(baseUrl).pathname.replace(/\/+$/, "") : "";
    this.base = (baseUrl ?? "https://api.github.com").replace(/\/+$/, "");
    // GitHub Enterprise Server serves its pages from the API's host (`https://<host>/api/v3` → `https://<host>`).
    this.webOrigin =
      baseUrl && new URL(baseUrl).host !== "api.github.com" ? new URL(baseUrl).origin : "https://github.com";
    this.mock = githubMock(baseUrl);
    this.routes();
    // GitHub's schema is built before the first answer, as GitHub's is (it takes a few hundred ms).
    if (this.enabled.has("graphql")) githubSchema();
  }

  /** `owner/repo@ref:path` of every file a GraphQL query read (ref "HEAD": the default branch). */
  readonly graphqlFiles: string[] = [];
  /** GraphQL queries GitHub's schema refuses, with the errors graphql-js found. */
  readonly graphqlErrors: string[] = [];
  /** NOT_FOUND errors the fake answered beside data (a repository GraphQL could not resolve). */
  readonly graphqlNotFound: string[] = [];
  /** UNPROCESSABLE errors the fake answered beside data (a mutation GitHub refused, such as a line outside the diff). */
  readonly graphqlUnprocessable: string[] = [];
  /** GraphQL answers 404, as where there is no GraphQL API: the app must read through REST instead. */
  graphqlUnavailable = false;
  /**
   * Documents matching this are refused as GitHub refuses a field its schema lacks (an older GitHub Enterprise
   * Server): errors and no data, so `octokit.graphql` throws a GraphqlResponseError.
   */
  graphqlRefuses: RegExp | undefined;

  /**
   * Whether GraphQL resolves a repository. Most organisations have no `.github` repository (or have not
   * installed the app on it), so `<org>/.github` exists only when a test gives it files or registers it.
   */
  repoExists(owner: string, name: string): boolean {
    const full = `${owner}/${name}`;
    if (this.hidden.has(full)) return false;
    if (name !== ".github" || this.repos.has(full)) return true;
    return [...this.contents.keys()].some((k) => k.startsWith(`${full}@`));
  }
  /**
   * The installation's repository access, as its token says (`repository_selection`): "selected" when the App
   * was installed on some repositories only.
   */
  repositorySelection: "all" | "selected" = "all";
  /**
   * Repositories the installation cannot see although they exist (not among its selected ones): GitHub
   * answers 404 and GraphQL NOT_FOUND, exactly as for a repository that does not exist.
   */
  readonly hidden = new Set<string>();
  /** The organisation's app installations (`GET /orgs/{org}/installations`, for an owner's token). */
  /** The token of the request being answered (a handler that answers by who asks reads it). */
  private lastAuthorization = "";
  readonly orgInstallations: { app_slug: string; repository_selection: "all" | "selected" }[] = [];
  /** A protected branch that lets only some people dismiss reviews: the App's dismissals are refused. */
  refuseDismissals = false;

  /** Why GitHub would refuse to dismiss a review, or undefined. */
  private dismissRefusal(r: Review): { status: number; message: string } | undefined {
    if (this.refuseDismissals) return { status: 403, message: "Resource not accessible by integration" };
    const state = reviewState(r);
    if (state !== "CHANGES_REQUESTED" && state !== "APPROVED")
      return { status: 422, message: `Can not dismiss a ${state.toLowerCase()} pull request review` };
    return undefined;
  }
  /** Root comment ids of the resolved review threads. */
  readonly resolved = new Set<number>();
  /** The GraphQL documents received, in order. */
  readonly graphqlDocuments: { query: string; variables?: Record<string, unknown> }[] = [];

  /**
   * Every request valid for GitHub's OpenAPI description (GraphQL queries for GitHub's schema), every
   * enabled route used, nothing unmatched.
   */
  assertClean(): void {
    if (this.graphqlErrors.length) throw new Error(`invalid GraphQL:\n${this.graphqlErrors.join("\n")}`);
    this.mock.assertAllValid();
    const responseProblems = this.answers.flatMap((a) => validateResponse(...a));
    if (responseProblems.length > 0)
      throw new Error(`The fake answered unlike GitHub:\n- ${responseProblems.join("\n- ")}`);
    this.mock.assertDone();
  }

  get requests() {
    return this.mock.requests;
  }

  /** Puts a file into a repository at a ref (a commit sha, or "HEAD" for the default branch). */
  file(repo: string, ref: string, path: string, content: string | Buffer): this {
    const key = `${repo}@${ref}`;
    if (!this.contents.has(key)) this.contents.set(key, new Map());
    this.contents.get(key)!.set(path, Buffer.isBuffer(content) ? content : Buffer.from(content));
    return this;
  }

  /** Adds a repository (for the organisation-wide routes). */
  repo(fullName: string, repo: FakeRepo = {}): this {
    this.repos.set(fullName, repo);
    return this;
  }

  /**
   * The default branch's head commit: a sha of the repository's name and its default branch's files, so that
   * it changes whenever a test changes one of them (as a push would).
   */
  headCommit(fullName: string): string {
    const hash = createHash("sha1").update(fullName);
    const files = [...(this.contents.get(`${fullName}@HEAD`) ?? new Map<string, Buffer>())].sort(([a], [b]) =>
      a.localeCompare(b),
    );
    for (const [path, bytes] of files) hash.update(`\0${path}\0`).update(bytes);
    return hash.digest("hex");
  }

  /**
   * The trees of the commit `owner/repo@sha` (a key of `contents`), by folder ("" the commit's own, else the
   * folder's path): each with its sha (git's way: from its entries, so an unchanged folder keeps it) and its own
   * entries in git's order, named relative to it. Submodules are `commit` entries, symbolic links mode 120000.
   */
  commitTrees(key: string): Map<string, { sha: string; entries: TreeEntry[] }> {
    const files = this.contents.get(key) ?? new Map<string, Buffer>();
    const children = new Map<string, Map<string, string | Buffer>>([["", new Map()]]);
    for (const [path, bytes] of files) {
      const parts = path.split("/");
      for (let i = 0; i < parts.length; i++) {
        const folder = parts.slice(0, i).join("/");
        const here = children.get(folder) ?? new Map<string, string | Buffer>();
        children.set(folder, here);
        // A folder's entry names the folder (its tree comes later); a file's its bytes.
        here.set(parts[i] as string, i < parts.length - 1 ? parts.slice(0, i + 1).join("/") : bytes);
      }
    }
    const trees = new Map<string, { sha: string; entries: TreeEntry[] }>();
    const build = (folder: string): { sha: string; entries: TreeEntry[] } => {
      // Git orders a tree's entries by name, a folder's as if it ended in `/`.
      const named = [...children.get(folder)!].sort(([a, x], [b, y]) => {
        const ka = typeof x === "string" ? `${a}/` : a;
        const kb = typeof y === "string" ? `${b}/` : b;
        return ka < kb ? -1 : ka > kb ? 1 : 0;
      });
      const entries: TreeEntry[] = named.map(([entry, v]) => {
        const path = folder ? `${folder}/${entry}` : entry;
        if (typeof v === "string") return { path: entry, mode: "040000", type: "tree", sha: build(v).sha };
        if (this.submodules.has(path))
          return { path: entry, mode: "160000", type: "commit", sha: gitBlobSha(v) };
        return {
          path: entry,
          mode: this.symlinks.has(path) ? "120000" : "100644",
          type: "blob",
          sha: gitBlobSha(v),
          size: v.length,
        };
      });
      const hash = createHash("sha1").update("tree");
      for (const e of entries) hash.update(`\0${e.mode} ${e.path}\0${e.sha}`);
      const tree = { sha: hash.digest("hex"), entries };
      trees.set(folder, tree);
      return tree;
    };
    build("");
    return trees;
  }

  /** The commit and folder of a repository whose tree has `sha` (a folder's tree, found in any of its commits). */
  private folderTree(repo: string, sha: string): { key: string; path: string } | undefined {
    for (const key of this.contents.keys()) {
      if (!key.startsWith(`${repo}@`) || key.endsWith("@HEAD")) continue;
      for (const [path, tree] of this.commitTrees(key)) if (path && tree.sha === sha) return { key, path };
    }
    return undefined;
  }

  /**
   * The sha the fake gives a file's blob (the contents, tree and blob routes agree on it): distinct for every
   * file, as GitHub's are (a prefix of the path would give two long paths of one folder the same blob).
   */
  blobSha(owner: string, repo: string, ref: string, path: string): string {
    return createHash("sha1").update(`blob\0${owner}\0${repo}\0${ref}\0${path}`).digest("hex");
  }

  /** The next `times` requests matching method and path answer `status`. */
  fail(
    method: string,
    path: RegExp,
    status: number,
    times = 1,
    body?: unknown,
    headers?: Record<string, string>,
  ): this {
    this.failures.push({ method, path, status, times, body, ...(headers ? { headers } : {}) });
    return this;
  }

  /**
   * For `ms` from the first request it fails, requests matching method and path (and `when`, given their
   * JSON body) answer `status` with GitHub's body and headers for it. The first `applied` of them are made
   * all the same before the failure is answered (GitHub failing to answer a write it made).
   */
  failFor(
    method: string,
    path: RegExp,
    ms: number,
    opts: { status?: 500 | 502 | 503; when?: (body: unknown) => boolean; applied?: number } = {},
  ): this {
    const status = opts.status ?? 500;
    this.failures.push({
      method,
      path,
      status,
      times: Infinity,
      forMs: ms,
      body: GITHUB_ERRORS[status],
      headers: GITHUB_HEADERS,
      ...(opts.when ? { when: opts.when } : {}),
      ...(opts.applied ? { applied: opts.applied } : {}),
    });
    return this;
  }

  /** Requests the fake answered with an injected failure, as `METHOD path`. */
  readonly failed: string[] = [];

  /**
   * The next `times` requests matching method and path are accepted and never answered (the client's
   * timeout is all that ends them).
   */
  hang(method: string, path: RegExp, times = Infinity): this {
    this.hangs.push({ method, path, times });
    return this;
  }

  /**
   * The next request matching method and path waits, unanswered, until `release()`, then is answered as
   * usual; `reached` resolves when it arrives. `cancel()` lets it through unheld if it has not arrived yet.
   */
  hold(method: string, path: RegExp): { reached: Promise<void>; release(): void; cancel(): void } {
    let reach!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((r) => (reach = r));
    const released = new Promise<void>((r) => (release = r));
    const held = { method, path, reach, released };
    this.holds.push(held);
    return {
      reached,
      release,
      cancel: () => {
        const i = this.holds.indexOf(held);
        if (i >= 0) this.holds.splice(i, 1);
      },
    };
  }
  private readonly holds: { method: string; path: RegExp; reach(): void; released: Promise<void> }[] = [];

  /**
   * The next `times` requests matching method and path are answered with their status and headers and the
   * first half of their body, and then nothing more (the client's timeout is all that ends them).
   */
  cut(method: string, path: RegExp, times = Infinity): this {
    this.cuts.push({ method, path, times });
    return this;
  }
  private readonly cuts: Omit<Failure, "status">[] = [];
  /** `METHOD path` of the requests whose answer stopped halfway (`cut`). */
  readonly cutOff: string[] = [];

  /** GitHub is healthy again: injected failures, hangs and cut answers stop. */
  recover(): this {
    this.failures.length = 0;
    this.hangs.length = 0;
    this.cuts.length = 0;
    return this;
  }

  /** Revokes every installation token issued so far (the next request with one answers 401). */
  revokeTokens(): this {
    for (const t of this.tokens) this.revoked.add(t);
    return this;
  }

  /**
   * The first request matching method and path revokes every token issued so far, itself included: the
   * requests sent beside it with the same token all answer 401 (a token revoked while reads run at once).
   */
  revokeOn(method: string, path: RegExp): this {
    this.revokeTriggers.push({ method, path });
    return this;
  }
  private readonly revokeTriggers: { method: string; path: RegExp }[] = [];

  /** The next `count` tokens issued are revoked `ms` after they are issued (later ones work). */
  revokeAfterIssue(ms: number, count = 1): this {
    this.revokeNext = { ms, count };
    return this;
  }
  private revokeNext: { ms: number; count: number } | undefined;
  /** Requests answered 401 because their token was revoked, as `METHOD path`. */
  readonly refused: string[] = [];

  /** The check runs of a head commit. */
  runsFor(sha: string): CheckRun[] {
    return this.checkRuns.filter((r) => r.head_sha === sha);
  }

  count(method: string, path: RegExp): number {
    return this.mock.requests.filter((r) => r.method === method && path.test(r.path)).length;
  }

  /**
   * The App's webhook delivery log, as GitHub keeps it: every attempt, oldest first here (GitHub lists them
   * newest first), with the payload it carried and the App's answer (`status_code` 0: no connection).
   */
  readonly deliveryLog: LoggedAttempt[] = [];
  /** The delivery log's listing answers this status (403: a refused token; 404: a server without it). */
  deliveryLogRefused: 403 | 404 | undefined;
  /** People's permission on the repositories (`permission`); anyone else is no collaborator ("none"). */
  readonly permissions = new Map<string, "admin" | "write" | "read">();
  /** Comments posted on pull requests' conversations (`issueComment`). */
  readonly issueComments: { pull: string; body: string; user: { login: string; type: string } }[] = [];

  /**
   * Delivers a webhook to the App at `url` as GitHub does (signed with `secret`, 10 s to answer) and records
   * the attempt in the delivery log; its status code (0 when GitHub could not connect or had no answer in
   * time). `guid`: a redelivery's (then `redelivery: true`).
   */
  async deliver(
    url: string,
    secret: string,
    name: string,
    payload: Record<string, unknown>,
    guid?: string,
  ): Promise<number> {
    const body = JSON.stringify(payload);
    const delivery = guid ?? randomUUID();
    const started = Date.now();
    let status: number;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "GitHub-Hookshot/fake",
          "x-github-event": name,
          "x-github-delivery": delivery,
          "x-hub-signature-256": "sha256=" + createHmac("sha256", secret).update(body).digest("hex"),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      status = 0; // refused, reset or not answered within 10 s
    }
    this.logAttempt(name, payload, status, { guid: delivery, redelivery: guid !== undefined, at: started });
    return status;
  }

  /**
   * Records an attempt in the delivery log without sending it (what GitHub logs of a delivery the App did not
   * get: `statusCode` 0 when it could not connect, 502/503/504 when something in front of the App answered).
   */
  logAttempt(
    name: string,
    payload: Record<string, unknown>,
    statusCode: number,
    opts: { guid?: string; redelivery?: boolean; at?: number } = {},
  ): LoggedAttempt {
    const installation = (payload.installation as { id?: number } | undefined)?.id ?? null;
    const repository = (payload.repository as { id?: number } | undefined)?.id ?? null;
    const at = opts.at ?? Date.now();
    const attempt: LoggedAttempt = {
      id: this.nextId++,
      guid: opts.guid ?? randomUUID(),
      delivered_at: new Date(at).toISOString(),
      redelivery: opts.redelivery ?? false,
      duration: (Date.now() - at) / 1000,
      status:
        statusCode === 0
          ? "failed to connect"
          : statusCode < 300
            ? "OK"
            : `Invalid HTTP Response: ${statusCode}`,
      status_code: statusCode,
      event: name,
      action: typeof payload.action === "string" ? payload.action : null,
      installation_id: installation,
      repository_id: repository,
      throttled_at: null,
      payload,
    };
    this.deliveryLog.push(attempt);
    return attempt;
  }

  /** Redelivers an attempt's delivery (the same guid, `redelivery: true`), as `POST …/attempts` makes GitHub do. */
  redeliver(url: string, secret: string, attemptId: number): Promise<number> {
    const a = this.deliveryLog.find((x) => x.id === attemptId);
    if (!a) throw new Error(`no delivery attempt ${attemptId}`);
    return this.deliver(url, secret, a.event, a.payload, a.guid);
  }

  private failure(method: string, path: string, body: unknown): Failure | undefined {
    const now = Date.now();
    const f = this.failures.find(
      (x) =>
        x.method === method &&
        x.path.test(path) &&
        x.times > 0 &&
        (x.until === undefined || now < x.until) &&
        (!x.when || x.when(body)),
    );
    if (f) f.times--;
    if (f?.forMs !== undefined && f.until === undefined) f.until = now + f.forMs;
    return f;
  }

  private routes(): void {
    const scope = this.mock.scope;
    // Every route persists: a test asserts which calls were made through `requests`, and `assertUsed`.
    const on = (
      name: Route,
      method: "get" | "post" | "patch" | "put",
      path: RegExp,
      handler: (
        uri: string,
        body: unknown,
        headers: Record<string, string | string[] | undefined>,
      ) => [number, unknown, Record<string, string>?],
    ) => {
      if (!this.enabled.has(name)) return;
      // GitHub Enterprise Server answers GraphQL at /api/graphql, beside the REST API's /api/v3.
      const prefix = name === "graphql" ? this.prefix.replace(/\/v3$/, "") : this.prefix;
      const full = prefix ? new RegExp("^" + prefix.replace(/[/.]/g, "\\$&") + path.source.slice(1)) : path;
      this.routed.push({ method: method.toUpperCase(), path: full });
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- nock gives the request as `this`
      const fake = this;
      scope[method](full)
        .optionally(!this.required.has(name))
        .query(true)
        .delay(this.opts.latencyMs ?? 0)
        .reply(function (this: nock.ReplyFnContext, fullUri: string, body: unknown) {
          const uri = fullUri.slice(prefix.length);
          const pathOnly = uri.split("?")[0] as string;
          const auth = String(this.req.headers.authorization ?? "").replace(/^token /i, "");
          const trigger = fake.revokeTriggers.findIndex(
            (t) => t.method === method.toUpperCase() && t.path.test(pathOnly),
          );
          if (trigger >= 0) {
            fake.revokeTriggers.splice(trigger, 1);
            fake.revokeTokens();
          }
          if (fake.revoked.has(auth)) {
            fake.refused.push(`${method.toUpperCase()} ${pathOnly}`);
            return [401, GITHUB_ERRORS[401], GITHUB_HEADERS];
          }
          const h = fake.hangs.find(
            (x) => x.method === method.toUpperCase() && x.path.test(pathOnly) && x.times > 0,
          );
          if (h) {
            h.times--;
            fake.hung.push(`${method.toUpperCase()} ${pathOnly}`);
            return new Promise<never>(() => {}) as never;
          }
          const req = this.req;
          const answer = () => {
            const parsed = typeof body === "string" && body ? (JSON.parse(body) as unknown) : body;
            const f = fake.failure(method.toUpperCase(), pathOnly, parsed);
            const failed = (): [number, string | Record<string, unknown>, Record<string, string>] => {
              fake.failed.push(`${method.toUpperCase()} ${pathOnly}`);
              return [
                f!.status,
                (f!.body ?? { message: `injected ${f!.status}` }) as Record<string, unknown>,
                f!.headers ?? {},
              ];
            };
            if (f && !f.applied) return failed();
            fake.lastAuthorization = auth; // the handler runs at once: this request's credentials
            const reply = handler(uri, parsed, req.headers);
            if (f) {
              f.applied!--;
              return failed();
            }
            // The fake answers as GitHub's description says GitHub does (checked in assertClean, on a copy: the
            // fake's state changes after it answers).
            if (
              fake.opts.checkResponses !== false &&
              typeof reply[1] === "object" &&
              !Buffer.isBuffer(reply[1])
            )
              fake.answers.push([method, pathOnly, reply[0], structuredClone(reply[1])]);
            const c = fake.cuts.find(
              (x) => x.method === method.toUpperCase() && x.path.test(pathOnly) && x.times > 0,
            );
            if (c) {
              c.times--;
              fake.cutOff.push(`${method.toUpperCase()} ${pathOnly}`);
              const whole = Buffer.from(typeof reply[1] === "string" ? reply[1] : JSON.stringify(reply[1]));
              const half = new Readable({ read() {} });
              half.push(whole.subarray(0, whole.length >> 1));
              return [reply[0], half, { ...GITHUB_HEADERS, ...reply[2] }] as never;
            }
            return reply as [number, string | Record<string, unknown>];
          };
          const held = fake.holds.find((x) => x.method === method.toUpperCase() && x.path.test(pathOnly));
          if (held) {
            fake.holds.splice(fake.holds.indexOf(held), 1);
            held.reach();
            return held.released.then(answer) as never;
          }
          return answer();
        })
        .persist();
    };

    on("token", "post", /^\/app\/installations\/\d+\/access_tokens$/, () => {
      const token = `ghs_test_token_not_a_secret${this.tokens.length ? `_${this.tokens.length + 1}` : ""}`;
      this.tokens.push(token);
      if (this.revokeNext && this.revokeNext.count-- > 0)
        setTimeout(() => this.revoked.add(token), this.revokeNext.ms).unref();
      return [
        201,
        {
          token,
          expires_at: new Date(Date.now() + 3600_000).toISOString(),
          permissions: {},
          repository_selection: this.repositorySelection,
        },
      ];
    });

    on("files", "get", /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/files/, (uri) => {
      const listed = this.pullFiles.get(pullOf(uri)) ?? this.prFiles;
      const { items, headers } = pageOf(uri, listed.slice(0, 3000), this.base);
      const slice = items.map((f) => ({
        sha: "0".repeat(40),
        additions: 1,
        deletions: 0,
        changes: 1,
        blob_url: "https://github.com/x",
        raw_url: "https://github.com/x",
        contents_url: "https://api.github.com/x",
        ...f,
      }));
      return [200, slice, headers];
    });

    on("contents", "get", /^\/repos\/[^/]+\/[^/]+\/contents\//, (uri) => {
      const url = new URL(uri, "https://api.github.com");
      const [, owner, repo] = url.pathname.split("/").slice(1);
      const path = decodeURIComponent(url.pathname.split("/contents/")[1] ?? "");
      const ref = url.searchParams.get("ref") ?? "HEAD";
      const files = this.hidden.has(`${owner}/${repo}`)
        ? undefined
        : this.contents.get(`${owner}/${repo}@${ref}`);
      let bytes = files?.get(path);
      if (!bytes) return [404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }];
      let sha = this.blobSha(owner!, repo!, ref, path);
      if (this.symlinks.has(path)) {
        // Like GitHub: a link to a file of the repository answers that file's content; any other link
        // (outside the repository, to a folder, to nothing) answers the link itself.
        const target = posix.normalize(posix.join(posix.dirname(path), bytes.toString("utf8")));
        const named =
          target.startsWith("../") || posix.isAbsolute(target) || this.symlinks.has(target)
            ? undefined
            : files?.get(target);
        if (!named)
          return [
            200,
            {
              type: "symlink",
              target: bytes.toString("utf8"),
              name: path.split("/").pop(),
              path,
              sha,
              size: bytes.length,
              url: `https://api.github.com${url.pathname}`,
              git_url: null,
              html_url: null,
              download_url: null,
              _links: { git: null, html: null, self: `https://api.github.com${url.pathname}` },
            },
          ];
        bytes = named;
        sha = this.blobSha(owner!, repo!, ref, target);
      }
      const big = bytes.length > 1024 * 1024;
      return [
        200,
        {
          type: "file",
          name: path.split("/").pop(),
          path,
          sha,
          size: bytes.length,
          // Like GitHub: no content for files over 1 MB.
          encoding: big ? "none" : "base64",
          content: big ? "" : bytes.toString("base64"),
        },
      ];
    });

    on("blob", "get", /^\/repos\/[^/]+\/[^/]+\/git\/blobs\//, (uri, _body, headers) => {
      const url = new URL(uri, "https://api.github.com");
      const [, owner, repo] = url.pathname.split("/").slice(1);
      const sha = url.pathname.split("/").pop();
      // The raw media type (application/vnd.github.raw, or Octokit's …v3.raw): the bytes themselves.
      const raw = /\bvnd\.github(?:\.v3)?\.raw\b/.test(String(headers.accept ?? ""));
      for (const [key, files] of this.contents) {
        if (!key.startsWith(`${owner}/${repo}@`)) continue;
        const ref = key.split("@")[1];
        for (const [path, bytes] of files) {
          if (this.blobSha(owner!, repo!, ref!, path) !== sha && gitBlobSha(bytes) !== sha) continue;
          if (raw) return [200, bytes, { "content-type": "application/vnd.github.raw; charset=utf-8" }];
          return [200, { sha, size: bytes.length, encoding: "base64", content: bytes.toString("base64") }];
        }
      }
      return [404, { message: "Not Found" }];
    });

    on("listCheckRuns", "get", /^\/repos\/[^/]+\/[^/]+\/commits\/[^/]+\/check-runs/, (uri) => {
      const sha = new URL(uri, "https://api.github.com").pathname.split("/")[5];
      const runs = this.checkRuns.filter((r) => r.head_sha === sha);
      return [200, { total_count: runs.length, check_runs: runs.map((r) => this.runJson(r)) }];
    });

    on("createCheckRun", "post", /^\/repos\/[^/]+\/[^/]+\/check-runs$/, (_uri, body) => {
      const b = body as {
        name: string;
        head_sha: string;
        status?: string;
        conclusion?: string;
        external_id?: string;
        output?: CheckRun["output"] & { annotations?: Record<string, unknown>[] };
      };
      const refused =
        outputTooLarge(b.output, "create-a-check-run") ?? annotationsRefused(b.output, "create-a-check-run");
      if (refused) return [422, refused];
      const run: CheckRun = {
        id: this.nextId++,
        name: b.name,
        head_sha: b.head_sha,
        status: b.status ?? "queued",
        annotations: [...(b.output?.annotations ?? [])],
        app: { id: APP_ID, slug: "plugin-review" },
        updates: 0,
      };
      if (b.conclusion) run.conclusion = b.conclusion;
      if (b.external_id !== undefined) run.external_id = b.external_id;
      if (b.output) run.output = { title: b.output.title, summary: b.output.summary };
      this.noteCompletion(run, b);
      this.checkRuns.push(run);
      return [201, this.runJson(run)];
    });

    on("updateCheckRun", "patch", /^\/repos\/[^/]+\/[^/]+\/check-runs\/\d+$/, (uri, body) => {
      const id = Number(uri.split("?")[0]!.split("/").pop());
      const run = this.checkRuns.find((r) => r.id === id);
      if (!run) return [404, { message: "Not Found" }];
      // Like GitHub: only the App that created a run may update it.
      if (run.app.id !== APP_ID)
        return [
          403,
          { message: "Invalid app_id `" + APP_ID + "` - check run can only be modified by its creator." },
        ];
      const b = body as {
        status?: string;
        conclusion?: string;
        external_id?: string;
        output?: CheckRun["output"] & { annotations?: Record<string, unknown>[] };
      };
      const refused =
        outputTooLarge(b.output, "update-a-check-run") ?? annotationsRefused(b.output, "update-a-check-run");
      if (refused) return [422, refused];
      run.updates++;
      if (b.external_id !== undefined) run.external_id = b.external_id;
      if (b.status) run.status = b.status;
      if (b.conclusion) {
        run.conclusion = b.conclusion;
        run.status = "completed";
      }
      if (b.status === "in_progress") delete run.conclusion;
      this.noteCompletion(run, b);
      if (b.output) {
        run.output = { title: b.output.title, summary: b.output.summary };
        // Like GitHub: every update appends its annotations to those the run has.
        run.annotations.push(...(b.output.annotations ?? []));
      }
      return [200, this.runJson(run)];
    });

    // Like GitHub: what the run's writes sent, in order, with GitHub's fields (null where none was sent).
    on("listAnnotations", "get", /^\/repos\/[^/]+\/[^/]+\/check-runs\/\d+\/annotations$/, (uri) => {
      const path = new URL(uri, "https://api.github.com").pathname;
      const [, owner, repo, , id] = path.split("/").slice(1);
      const run = this.checkRuns.find((r) => r.id === Number(id));
      if (!run) return [404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }];
      const { items, headers } = pageOf(uri, run.annotations, this.base);
      const listed = items.map((a) => ({
        path: a.path,
        blob_href: `https://github.com/${owner}/${repo}/blob/${run.head_sha}/${String(a.path)}`,
        start_line: a.start_line,
        end_line: a.end_line,
        start_column: a.start_column ?? null,
        end_column: a.end_column ?? null,
        annotation_level: a.annotation_level ?? null,
        title: a.title ?? null,
        message: a.message ?? null,
        raw_details: a.raw_details ?? null,
      }));
      return [200, listed, headers];
    });

    on("listComments", "get", /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/comments/, (uri) => [
      200,
      this.comments.filter((c) => ofPull(c, uri)).map((c) => ({ ...this.commentJson(c) })),
    ]);
    on("listReviews", "get", /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews/, (uri) => [
      200,
      this.reviews
        .filter((r) => ofPull(r, uri))
        .map(({ pull: _, dismissed: __, ...r }) => ({
          ...r,
          state: reviewState({ ...r }),
          html_url: "https://github.com/x",
          pull_request_url: "https://api.github.com/x",
          author_association: "NONE",
          node_id: "R",
          _links: {},
        })),
    ]);

    on("createReview", "post", /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews$/, (uri, body) => {
      const b = body as NewReview;
      const review = this.postReview(pullOf(uri), b);
      if (typeof review === "string")
        return [
          422,
          {
            message: "Unprocessable Entity",
            errors: [review],
            documentation_url: "https://docs.github.com/rest",
          },
        ];
      const { pull: _, ...json } = review;
      return [200, { ...json, state: "COMMENTED", html_url: "https://github.com/x", node_id: "R" }];
    });

    // Only a review that approves or requests changes can be dismissed; `refuseDismissals` is a protected
    // branch that restricts who may dismiss reviews.
    on(
      "dismissReview",
      "put",
      /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews\/\d+\/dismissals$/,
      (uri, body) => {
        const id = Number(uri.split("/").slice(-2)[0]);
        const review = this.reviews.find((r) => r.id === id);
        if (!review)
          return [404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }];
        const refused = this.dismissRefusal(review);
        if (refused)
          return [
            refused.status,
            { message: refused.message, documentation_url: "https://docs.github.com/rest" },
          ];
        review.dismissed = (body as { message: string }).message;
        const { pull: _, dismissed: __, ...json } = review;
        return [200, { ...json, state: "DISMISSED", html_url: "https://github.com/x", node_id: `PRR_${id}` }];
      },
    );

    on("reply", "post", /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/comments\/\d+\/replies$/, (uri, body) => {
      const parent = Number(uri.split("/").slice(-2)[0]);
      const root = this.comments.find((c) => c.id === parent);
      if (!root) return [404, { message: "Not Found" }];
      return [201, this.commentJson(this.reply(root, (body as { body: string }).body))];
    });

    on("listOrgRepos", "get", /^\/orgs\/[^/]+\/repos/, (uri) => {
      const org = new URL(uri, "https://api.github.com").pathname.split("/")[2];
      const all = [...this.repos].filter(([name]) => name.startsWith(`${org}/`) && !this.hidden.has(name));
      if (!all.length) return [404, { message: "Not Found" }];
      const { items, headers } = pageOf(uri, all, this.base);
      return [200, items.map(([n, r]) => this.repoJson(n, r)), headers];
    });

    // Only an installation's token (GitHub's `ghs_` tokens) may list the installation's repositories.
    on("installationRepos", "get", /^\/installation\/repositories/, (uri) => {
      const token = this.lastAuthorization.replace(/^bearer /i, "");
      if (!token.startsWith("ghs_"))
        return [
          403,
          {
            message:
              "You must authenticate with an installation access token in order to list repositories for an installation.",
            documentation_url: "https://docs.github.com/rest",
          },
        ];
      const seen = [...this.repos].filter(([name]) => !this.hidden.has(name));
      const { items, headers } = pageOf(uri, seen, this.base);
      const slice = items.map(([n, r]) => this.repoJson(n, r));
      return [
        200,
        { total_count: seen.length, repository_selection: this.repositorySelection, repositories: slice },
        headers,
      ];
    });

    on("orgInstallations", "get", /^\/orgs\/[^/]+\/installations/, (uri) => {
      const org = new URL(uri, "https://api.github.com").pathname.split("/")[2] as string;
      const installations = this.orgInstallations.map((x, i) => ({
        id: 500 + i,
        app_id: 900 + i,
        app_slug: x.app_slug,
        target_id: 1,
        target_type: "Organization",
        repository_selection: x.repository_selection,
        account: { login: org, id: 1, type: "Organization" },
        html_url: `https://github.com/organizations/${org}/settings/installations/${500 + i}`,
        permissions: { checks: "write", pull_requests: "write", contents: "read", metadata: "read" },
        events: ["pull_request"],
      }));
      return [200, { total_count: installations.length, installations }];
    });

    on("getRepo", "get", /^\/repos\/[^/]+\/[^/?]+$/, (uri) => {
      const [, owner, name] = new URL(uri, "https://api.github.com").pathname.split("/").slice(1);
      const r = this.hidden.has(`${owner}/${name}`) ? undefined : this.repos.get(`${owner}/${name}`);
      return r ? [200, this.repoJson(`${owner}/${name}`, r)] : [404, { message: "Not Found" }];
    });

    on("tree", "get", /^\/repos\/[^/]+\/[^/]+\/git\/trees\//, (uri) => {
      const url = new URL(uri, "https://api.github.com");
      const [, owner, name] = url.pathname.split("/").slice(1);
      const ref = decodeURIComponent(url.pathname.split("/git/trees/")[1] ?? "");
      // A commit's tree, from the files put at that commit (a merge group's or a pull request's base and head),
      // or one of its folders' trees by sha, as git stores them: blob and tree shas are git's, so a file or
      // folder unchanged between two commits has the same sha in both.
      const folder = this.contents.has(`${owner}/${name}@${ref}`)
        ? { key: `${owner}/${name}@${ref}`, path: "" }
        : this.folderTree(`${owner}/${name}`, ref);
      if (folder) {
        const trees = this.commitTrees(folder.key);
        const recursive = url.searchParams.has("recursive");
        const listed: TreeEntry[] = [];
        const walk = (path: string, prefix: string) => {
          for (const e of trees.get(path)!.entries) {
            listed.push({ ...e, path: prefix + e.path });
            if (recursive && e.type === "tree")
              walk(path ? `${path}/${e.path}` : e.path, `${prefix}${e.path}/`);
          }
        };
        walk(folder.path, "");
        // Cut short as GitHub does: `truncated`, and the entries listed up to its limit (here, the first half).
        const cut =
          recursive && (folder.path === "" ? this.cutTrees.has(ref) : this.cutFolders.has(folder.path));
        const tree = (cut ? listed.slice(0, Math.floor(listed.length / 2)) : listed).map((e) => ({
          ...e,
          url: `https://api.github.com/repos/${owner}/${name}/git/${e.type === "tree" ? "trees" : "blobs"}/${e.sha}`,
        }));
        return [
          200,
          {
            sha: trees.get(folder.path)!.sha,
            url: `https://api.github.com${url.pathname}`,
            tree,
            truncated: cut,
          },
        ];
      }
      const r = this.repos.get(`${owner}/${name}`);
      if (!r) return [404, { message: "Not Found" }];
      if (r.empty) return [409, { message: "Git Repository is empty." }];
      if (ref !== (r.defaultBranch ?? "main") && ref !== this.headCommit(`${owner}/${name}`))
        return [404, { message: "Not Found" }];
      const files = [...(this.contents.get(`${owner}/${name}@HEAD`) ?? new Map<string, Buffer>())];
      const recursive = url.searchParams.has("recursive");
      // Folders as tree entries too, as GitHub lists them; without `recursive`, only the top level.
      const dirs = new Set(
        files.flatMap(([p]) =>
          p
            .split("/")
            .slice(0, -1)
            .map((_, i, a) => a.slice(0, i + 1).join("/")),
        ),
      );
      const entries = [
        ...[...dirs].map((d) => ({ path: d, mode: "040000", type: "tree", sha: "d".repeat(40) })),
        ...files.map(([p, bytes]) => ({
          path: p,
          mode: this.symlinks.has(p) ? "120000" : "100644",
          type: "blob",
          sha: this.blobSha(owner!, name!, "HEAD", p),
          size: bytes.length,
        })),
      ].filter((e) => recursive || !e.path.includes("/"));
      entries.sort((a, b) => a.path.localeCompare(b.path));
      return [
        200,
        {
          sha: "t".repeat(40),
          url: `https://api.github.com${url.pathname}`,
          tree: entries,
          truncated: false,
        },
      ];
    });

    // A branch's reference: the default branch points at the repository's head commit (`headCommit`).
    on("ref", "get", /^\/repos\/[^/]+\/[^/]+\/git\/ref\//, (uri) => {
      const url = new URL(uri, "https://api.github.com");
      const [, owner, name] = url.pathname.split("/").slice(1);
      const ref = decodeURIComponent(url.pathname.split("/git/ref/")[1] ?? "");
      const full = `${owner}/${name}`;
      const r = this.hidden.has(full) ? undefined : this.repos.get(full);
      if (!r) return [404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }];
      if (r.empty) return [409, { message: "Git Repository is empty." }];
      if (ref !== `heads/${r.defaultBranch ?? "main"}`)
        return [404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }];
      const sha = this.headCommit(full);
      const api = `https://api.github.com/repos/${full}/git`;
      return [
        200,
        {
          ref: `refs/${ref}`,
          node_id: `REF_${sha.slice(0, 8)}`,
          url: `${api}/refs/${ref}`,
          object: { type: "commit", sha, url: `${api}/commits/${sha}` },
        },
      ];
    });

    // A comparison of two commits of a repository, from the files put at each: at most 300 files, like GitHub.
    on("compare", "get", /^\/repos\/[^/]+\/[^/]+\/compare\/[^/]+$/, (uri) => {
      const url = new URL(uri, "https://api.github.com");
      const [, owner, repo, , basehead] = url.pathname.split("/").slice(1);
      const [base, head] = decodeURIComponent(basehead!).split("...");
      const before = this.contents.get(`${owner}/${repo}@${base}`) ?? new Map<string, Buffer>();
      const after = this.contents.get(`${owner}/${repo}@${head}`) ?? new Map<string, Buffer>();
      const files: Record<string, unknown>[] = [];
      for (const [path, bytes] of after) {
        const old = before.get(path);
        if (old && old.equals(bytes)) continue;
        files.push({ filename: path, status: old ? "modified" : "added", sha: gitBlobSha(bytes) });
      }
      for (const path of before.keys())
        if (!after.has(path)) files.push({ filename: path, status: "removed", sha: "0".repeat(40) });
      return [
        200,
        {
          status: "ahead",
          ahead_by: 1,
          behind_by: 0,
          total_commits: 1,
          merge_base_commit: { sha: this.mergeBases.get(`${base}...${head}`) ?? base },
          commits: [],
          files: files.slice(0, 300).map((f) => ({ additions: 1, deletions: 0, changes: 1, ...f })),
        },
      ];
    });

    on("graphql", "post", /^\/graphql$/, (_uri, body) => {
      if (this.graphqlUnavailable) return [404, { message: "Not Found" }];
      if (this.graphqlRefuses?.test((body as { query: string }).query))
        return [
          200,
          { errors: [{ message: "Field doesn't exist on this server's schema (emulated refusal)" }] },
        ];
      this.graphqlDocuments.push(body as { query: string; variables?: Record<string, unknown> });
      let answer;
      try {
        answer = answerGraphql(
          {
            repoExists: (owner, name) => this.repoExists(owner, name),
            file: (owner, repo, ref, path) => {
              this.graphqlFiles.push(`${owner}/${repo}@${ref}:${path}`);
              const bytes = this.contents.get(`${owner}/${repo}@${ref}`)?.get(path);
              const mode = this.symlinks.has(path)
                ? 0o120000
                : this.submodules.has(path)
                  ? 0o160000
                  : 0o100644;
              return bytes && { bytes, sha: this.blobSha(owner, repo, ref, path), mode };
            },
            runs: (sha) => this.runsFor(sha).map((r) => ({ ...r, annotations: r.annotations.length })),
            ...this.threadsGraphql(),
          },
          body as { query: string; variables?: Record<string, unknown> },
        );
      } catch (e) {
        this.graphqlErrors.push(String(e));
        return [500, { message: String(e) }];
      }
      if (answer.invalid) this.graphqlErrors.push(...(answer.errors ?? []).map((e) => e.message));
      else
        for (const e of answer.errors ?? [])
          (e.type === "UNPROCESSABLE" || e.type === "FORBIDDEN"
            ? this.graphqlUnprocessable
            : this.graphqlNotFound
          ).push(e.message);
      return [
        200,
        {
          ...(answer.data !== undefined ? { data: answer.data } : {}),
          ...(answer.errors ? { errors: answer.errors } : {}),
        },
      ];
    });

    // The App's webhook delivery log (read with the App's JWT): newest first, cursor pagination.
    on("listDeliveries", "get", /^\/app\/hook\/deliveries(\?|$)/, (uri) => {
      if (this.deliveryLogRefused) return [this.deliveryLogRefused, notFoundOr(this.deliveryLogRefused)];
      const url = new URL(uri, "http://fake");
      const perPage = Math.min(100, Number(url.searchParams.get("per_page") ?? 30));
      const from = Number(url.searchParams.get("cursor") ?? 0);
      const newestFirst = [...this.deliveryLog].reverse();
      const items = newestFirst.slice(from, from + perPage).map(({ payload: _, ...item }) => item);
      const headers: Record<string, string> = {};
      if (from + perPage < newestFirst.length)
        headers.link = `<${this.base}/app/hook/deliveries?per_page=${perPage}&cursor=${from + perPage}>; rel="next"`;
      return [200, items, headers];
    });
    on("getDelivery", "get", /^\/app\/hook\/deliveries\/\d+$/, (uri) => {
      const id = Number(uri.split("/").pop());
      const a = this.deliveryLog.find((x) => x.id === id);
      if (!a) return [404, notFoundOr(404)];
      const { payload, ...item } = a;
      return [
        200,
        {
          ...item,
          url: "https://app.example/api/github/webhooks",
          request: { headers: { "X-GitHub-Event": a.event, "X-GitHub-Delivery": a.guid }, payload },
          response: { headers: {}, payload: null },
        },
      ];
    });
    on("redeliver", "post", /^\/app\/hook\/deliveries\/\d+\/attempts$/, () => [202, {}]);

    // The App itself, as its JWT authenticates it (GitHub: "You must use a JWT to access this endpoint"; an
    // installation's token is refused).
    on("app", "get", /^\/app$/, () => {
      if (!/^bearer [\w-]+\.[\w-]+\.[\w-]+$/i.test(this.lastAuthorization))
        return [
          401,
          {
            message: "A JSON web token could not be decoded",
            documentation_url: "https://docs.github.com/rest",
          },
        ];
      return [
        200,
        {
          id: APP_ID,
          slug: APP_SLUG,
          node_id: "A_kwDOAAAQkg",
          client_id: "Iv1.0123456789abcdef",
          owner: userJson(OWNER_LOGIN, "Organization"),
          name: APP_SLUG,
          description: "Reviews plugin.json descriptors",
          external_url: "https://plugin-review.example",
          html_url: `${this.webOrigin}/apps/${APP_SLUG}`,
          created_at: CREATED_AT,
          updated_at: CREATED_AT,
          permissions: { checks: "write", contents: "read", metadata: "read", pull_requests: "write" },
          events: ["check_run", "check_suite", "issue_comment", "merge_group", "pull_request"],
        },
      ];
    });

    // A person's permission on a repository (the recheck command's check).
    on("permission", "get", /^\/repos\/[^/]+\/[^/]+\/collaborators\/[^/]+\/permission$/, (uri) => {
      const login = decodeURIComponent(uri.split("/")[5] ?? "");
      const permission = this.permissions.get(login) ?? "none";
      return [
        200,
        {
          permission,
          role_name: permission === "none" ? "none" : permission,
          user: userJson(login, "User"),
        },
      ];
    });
    on("issueComment", "post", /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/, (uri, body) => {
      const [, , owner, repo, , number] = uri.split("/");
      const b = body as { body: string };
      const comment = { pull: `${owner}/${repo}#${number}`, body: b.body, user: BOT };
      this.issueComments.push(comment);
      const id = this.nextId++;
      return [
        201,
        {
          id,
          node_id: "IC",
          url: `${this.base}/repos/${owner}/${repo}/issues/comments/${id}`,
          html_url: `https://github.com/${owner}/${repo}/pull/${number}#issuecomment-${id}`,
          issue_url: `${this.base}/repos/${owner}/${repo}/issues/${number}`,
          body: b.body,
          user: null,
          created_at: CREATED_AT,
          updated_at: CREATED_AT,
          author_association: "NONE",
        },
      ];
    });

    // A pull request not in `pulls` is open, at its head now (`pullNow`) and on the harness's base commit
    // (`retarget` moves it); one in `pulls` as given there.
    on("getPull", "get", /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+$/, (uri) => {
      const n = Number(uri.split("?")[0]!.split("/").pop());
      if (this.absentPulls.has(n)) return [404, { message: "Not Found" }];
      const pr = (this.pulls.get(n) ?? { ...EXAMPLE_PULL, number: n, state: "open" }) as {
        head: object;
        base: { sha?: string };
      };
      const base = this.bases.get(n) ?? (this.pulls.has(n) ? pr.base.sha : "b".repeat(40));
      return [
        200,
        { ...pr, head: { ...pr.head, sha: this.pullNow(n).sha }, base: { ...pr.base, sha: base } },
      ];
    });

    this.answerUnrouted();
  }

  /** `METHOD` and path (with the API's prefix) of the routes this fake answers. */
  private readonly routed: { method: string; path: RegExp }[] = [];

  /**
   * A request no fake of the test routes (a route the test did not enable) is answered at once as GitHub
   * answers a route it does not have: 404. Left to nock, it failed like a connection GitHub never answered,
   * which the App rightly retries until its review's deadline, so that a missing route showed as a test that
   * timed out rather than as the request `assertClean` names (`unmatched`, as before). On a scope of its
   * own, after every route, so that it is neither among `requests` nor in the way of any fake's routes.
   */
  private answerUnrouted(): void {
    const origin = new URL(this.base).origin;
    LIVE_FAKES.add(this);
    const routedByAny = (method: string, path: string) =>
      [...LIVE_FAKES].some(
        (f) =>
          new URL(f.base).origin === origin && f.routed.some((r) => r.method === method && r.path.test(path)),
      );
    const scope = nock(origin);
    for (const method of ["GET", "POST", "PATCH", "PUT", "DELETE"]) {
      scope
        .intercept((uri) => !routedByAny(method, uri.split("?")[0]!), method)
        .optionally()
        .query(true)
        .reply(function (this: nock.ReplyFnContext, uri: string) {
          for (const f of LIVE_FAKES)
            if (new URL(f.base).origin === origin) f.mock.unmatched.push(`${method} ${origin}${uri}`);
          return [
            404,
            { message: "Not Found", documentation_url: "https://docs.github.com/rest", status: "404" },
            GITHUB_HEADERS,
          ];
        })
        .persist();
    }
  }

  /** The review threads' GraphQL fields and mutations, over the fake's comments (a thread: a root comment and its replies). */
  private threadsGraphql() {
    const threadId = (root: Comment) => `PRRT_${root.id}`;
    const rootOf = (id: unknown) =>
      this.comments.find((c) => !c.in_reply_to_id && threadId(c) === id) ??
      (() => {
        throw new Error(`Could not resolve to a node with the global id of '${String(id)}'`);
      })();
    const author = (u: Comment["user"]) => ({
      __typename: u.type === "Bot" ? "Bot" : "User",
      login: u.login.replace(/\[bot\]$/, ""),
    });
    const commentNode = (c: Comment) => ({
      id: `PRRC_${c.id}`,
      databaseId: c.id,
      body: c.body,
      path: c.path,
      line: c.line,
      author: author(c.user),
    });
    const page = <T>(all: T[], args: { first?: number; last?: number; after?: string }) => {
      const start = args.after ? Number(args.after) : 0;
      const nodes = args.last ? all.slice(-args.last) : all.slice(start, start + (args.first ?? all.length));
      const end = args.last ? all.length : start + nodes.length;
      return { nodes, pageInfo: { hasNextPage: end < all.length, endCursor: String(end) } };
    };
    const threadNode = (root: Comment) => ({
      id: threadId(root),
      isResolved: this.resolved.has(root.id),
      path: root.path,
      line: root.line,
      comments: (args: { first?: number; last?: number }) =>
        page(
          this.comments.filter((c) => c.id === root.id || c.in_reply_to_id === root.id).map(commentNode),
          args,
        ),
    });
    return {
      pullRequest: (owner: string, name: string, number: number) => {
        const uri = `/repos/${owner}/${name}/pulls/${number}`;
        return {
          id: pullNodeId(`${owner}/${name}#${number}`),
          headRefOid: this.pullNow(number).sha,
          state: this.pullNow(number).state,
          reviewThreads: (args: { first?: number; after?: string }) =>
            page(this.comments.filter((c) => !c.in_reply_to_id && ofPull(c, uri)).map(threadNode), args),
          reviews: (args: { first?: number; last?: number; states?: string[] }) =>
            page(
              this.reviews
                .filter((r) => ofPull(r, uri) && (!args.states || args.states.includes(reviewState(r))))
                .map((r) => ({
                  id: `PRR_${r.id}`,
                  databaseId: r.id,
                  body: r.body,
                  state: reviewState(r),
                  author: author(r.user),
                })),
              args,
            ),
        };
      },
      mutations: {
        // REST's review, with line comments as threads; refused like REST (UNPROCESSABLE for its 422).
        addPullRequestReview: ({
          input,
        }: {
          input: {
            pullRequestId: string;
            commitOID?: string;
            event?: string;
            body?: string;
            threads?: { path: string; line: number; side?: string; body: string }[];
          };
        }) => {
          const pull = Buffer.from(input.pullRequestId.replace(/^PR_/, ""), "base64url").toString();
          const review = this.postReview(pull, {
            body: input.body,
            event: input.event,
            commit_id: input.commitOID ?? "",
            comments: input.threads,
          });
          if (typeof review === "string") throw new Unprocessable(review);
          return {
            pullRequestReview: {
              id: `PRR_${review.id}`,
              comments: () => ({ totalCount: (input.threads ?? []).length }),
            },
          };
        },
        addPullRequestReviewThreadReply: ({
          input,
        }: {
          input: { pullRequestReviewThreadId: string; body: string };
        }) => {
          const root = rootOf(input.pullRequestReviewThreadId);
          return { comment: commentNode(this.reply(root, input.body)) };
        },
        dismissPullRequestReview: ({
          input,
        }: {
          input: { pullRequestReviewId: string; message: string };
        }) => {
          const review = this.reviews.find((r) => `PRR_${r.id}` === input.pullRequestReviewId);
          if (!review)
            throw new Error(
              `Could not resolve to a node with the global id of '${input.pullRequestReviewId}'`,
            );
          const refused = this.dismissRefusal(review);
          if (refused)
            throw refused.status === 403
              ? new Forbidden(refused.message)
              : new Unprocessable(refused.message);
          review.dismissed = input.message;
          return { pullRequestReview: { id: input.pullRequestReviewId, state: "DISMISSED" } };
        },
        resolveReviewThread: ({ input }: { input: { threadId: string } }) => {
          const root = rootOf(input.threadId);
          this.resolved.add(root.id);
          return { thread: threadNode(root) };
        },
      },
    };
  }

  /**
   * A review as GitHub creates it (REST and GraphQL), or GitHub's reason to refuse it: a line comment not on
   * a line of the diff, a body over 65,536 characters, changes requested by the pull request's author.
   */
  private postReview(pull: string, b: NewReview): Review | string {
    if (b.event === "REQUEST_CHANGES" && this.ownPulls.has(pull))
      return "Review Can not request changes on your own pull request";
    // GitHub's limit on a comment's body, the review's own and each line comment's.
    for (const body of [b.body ?? "", ...(b.comments ?? []).map((c) => c.body)])
      if (body.length > 65_536) return "Body is too long (maximum is 65536 characters)";
    for (const c of b.comments ?? []) {
      const file = (this.reviewDiff ?? this.pullFiles.get(pull) ?? this.prFiles).find(
        (f) => f.filename === c.path,
      );
      if (!file || !diffLines(file.patch).has(c.line)) return "Line could not be resolved";
    }
    if (b.event === "COMMENT" && !b.body && !(b.comments ?? []).length) return "Review body is required";
    const review: Review = {
      pull,
      id: this.nextId++,
      body: b.body ?? "",
      event: b.event ?? "PENDING",
      commit_id: b.commit_id,
      user: BOT,
    };
    this.reviews.push(review);
    for (const c of b.comments ?? []) {
      this.comments.push({
        pull,
        id: this.nextId++,
        path: c.path,
        line: c.line,
        side: c.side ?? "RIGHT",
        body: c.body,
        commit_id: b.commit_id,
        user: BOT,
      });
    }
    return review;
  }

  /** The app's reply in a comment's thread (REST `replies` and GraphQL `addPullRequestReviewThreadReply`). */
  private reply(root: Comment, body: string): Comment {
    const reply: Comment = {
      pull: root.pull,
      id: this.nextId++,
      path: root.path,
      line: root.line,
      side: "RIGHT",
      body,
      commit_id: root.commit_id,
      in_reply_to_id: root.id,
      user: BOT,
    };
    this.comments.push(reply);
    return reply;
  }

  private repoJson(fullName: string, r: FakeRepo) {
    const [owner, name] = fullName.split("/") as [string, string];
    const id = [...this.repos.keys()].indexOf(fullName) + 1;
    return {
      id,
      node_id: `R_${id}`,
      name,
      full_name: fullName,
      private: false,
      archived: r.archived ?? false,
      disabled: false,
      fork: false,
      size: r.empty ? 0 : 10,
      ...(r.empty ? {} : { default_branch: r.defaultBranch ?? "main" }),
      owner: { login: owner, id: 1, type: r.ownerType ?? "Organization" },
      html_url: `${this.webOrigin}/${fullName}`,
      url: `https://api.github.com/repos/${fullName}`,
    };
  }

  /** When the App's runs were completed, by id (kept apart: tests compare runs as they put them there). */
  private readonly completedAt = new Map<number, string>();

  /** Like GitHub: a completed run has `completed_at`, the write's or the time of the write. */
  private noteCompletion(run: CheckRun, b: { status?: string; completed_at?: string }): void {
    if (run.status !== "completed") this.completedAt.delete(run.id);
    else if (b.status === "completed" || b.completed_at || !this.completedAt.has(run.id))
      // GitHub keeps it to the second.
      this.completedAt.set(
        run.id,
        new Date(b.completed_at ?? Date.now()).toISOString().replace(/\.\d+Z$/, "Z"),
      );
  }

  private runJson(r: CheckRun) {
    return {
      id: r.id,
      name: r.name,
      head_sha: r.head_sha,
      status: r.status,
      conclusion: r.conclusion ?? null,
      output: {
        title: r.output?.title ?? null,
        summary: r.output?.summary ?? null,
        annotations_count: r.annotations.length,
      },
      app: r.app,
      node_id: "CR",
      external_id: r.external_id ?? null,
      url: "",
      html_url: "",
      details_url: "",
      started_at: null,
      completed_at: r.completed_at ?? this.completedAt.get(r.id) ?? null,
      check_suite: { id: 1 },
      pull_requests: [],
    };
  }

  private commentJson({ pull: _, ...c }: Comment) {
    return {
      ...c,
      original_line: c.line,
      pull_request_review_id: 1,
      node_id: "C",
      diff_hunk: "",
      position: c.line,
      original_position: c.line,
      original_commit_id: c.commit_id,
      url: `https://api.github.com/repos/o/r/pulls/comments/${c.id}`,
      html_url: `https://github.com/o/r/pull/1#discussion_r${c.id}`,
      pull_request_url: "https://api.github.com/repos/o/r/pulls/1",
      author_association: "NONE",
      _links: {},
      created_at: CREATED_AT,
      updated_at: CREATED_AT,
    };
  }
}

/** One attempt of the App's webhook delivery log, as GitHub lists it, with the payload it carried. */
export interface LoggedAttempt {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
  throttled_at: string | null;
  payload: Record<string, unknown>;
}

/** GitHub's answer when it refuses (403) or has no such thing (404). */
function notFoundOr(status: 403 | 404) {
  return status === 404
    ? { message: "Not Found", documentation_url: "https://docs.github.com/rest" }
    : {
        message: "Resource not accessible by integration",
        documentation_url: "https://docs.github.com/rest",
      };
}

/**
 * The page of `all` a listing request asks for (`per_page`, default 30; `page`, from 1), and GitHub's `link`
 * header to the next page when there is one, on the API's own host (`base`: a GitHub Enterprise Server's).
 */
function pageOf<T>(
  uri: string,
  all: readonly T[],
  base: string,
): { items: T[]; headers: Record<string, string> } {
  const url = new URL(uri, "https://api.github.com");
  const perPage = Number(url.searchParams.get("per_page") ?? 30);
  const page = Number(url.searchParams.get("page") ?? 1);
  const headers: Record<string, string> = {};
  if (page * perPage < all.length)
    headers.link = `<${base}${url.pathname}?per_page=${perPage}&page=${page + 1}>; rel="next"`;
  return { items: all.slice((page - 1) * perPage, page * perPage), headers };
}

const blobShas = new WeakMap<Buffer, string>();

/** The sha git gives a file's content (a blob); once per buffer (a test may put one large blob at many paths). */
export function gitBlobSha(bytes: Buffer): string {
  let sha = blobShas.get(bytes);
  if (sha === undefined) {
    sha = createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
    blobShas.set(bytes, sha);
  }
  return sha;
}

/** What a new review carries (REST's request body; GraphQL's input says the same). */
interface NewReview {
  body?: string;
  event?: string;
  commit_id: string;
  comments?: { path: string; line: number; side?: string; body: string }[];
}

/** A pull request's node id (opaque to the App), from `owner/repo#number`. */
function pullNodeId(pull: string): string {
  return `PR_${Buffer.from(pull).toString("base64url")}`;
}

/** `owner/repo#number` of a pull request route. */
function pullOf(uri: string): string {
  const [, owner, repo, , n] = new URL(uri, "https://api.github.com").pathname.split("/").slice(1);
  return `${owner}/${repo}#${n}`;
}

function ofPull(x: { pull?: string }, uri: string): boolean {
  return x.pull === undefined || x.pull === pullOf(uri);
}

/**
 * The lines of a file's new version that a diff shows, where GitHub takes a line comment (side RIGHT):
 * each hunk's header says where its new side starts and how many lines it has; its added ("+") and
 * context (" ") lines are those, its removed ("-") lines and "\ No newline" markers are not.
 */
function diffLines(patch: string | undefined): Set<number> {
  const shown = new Set<number>();
  const rows = (patch ?? "").split(/\r?\n/);
  rows.forEach((row, i) => {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(row);
    if (!hunk) return;
    let line = Number(hunk[1]);
    let left = hunk[2] === undefined ? 1 : Number(hunk[2]);
    for (const next of rows.slice(i + 1)) {
      if (left === 0 || next.startsWith("@@")) break;
      if (next.startsWith("-") || next.startsWith("\\")) continue;
      shown.add(line++);
      left--;
    }
  });
  return shown;
}

/** A user (or organisation, or bot) as GitHub's REST API describes one (`simple-user`). */
function userJson(login: string, type: "User" | "Organization" | "Bot") {
  const api = `https://api.github.com/users/${login}`;
  return {
    login,
    id: 7,
    node_id: "U_7",
    avatar_url: "https://avatars.githubusercontent.com/u/7",
    gravatar_id: "",
    url: api,
    html_url: `https://github.com/${login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type,
    site_admin: false,
  };
}
