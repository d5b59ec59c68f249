/**
 * Reads that GitHub's GraphQL API answers in one request where REST needs several (gateway.ts here):
 * - the start of a review: this app's check run on the head commit (with how many annotations it holds)
 *   and the configuration files on the default branches of the repository and of the organisation's
 *   `.github` repository;
 * - the contents of files at commits (every changed descriptor at base and head), as blobs;
 * - a pull request's review threads and latest reviews.
 * A blob GraphQL cannot give byte for byte (binary, truncated, not valid UTF-8) is read through the REST
 * blob API, which serves up to 100 MB; files over the size limit are reported, not read.
 *
 * A repository that does not exist or that the installation cannot see (often the organisation's `.github`)
 * is `null` in GitHub's answer, with a NOT_FOUND error beside the rest of the data: that is an answer, not
 * a failure. Where GraphQL itself fails, the gateway reads through REST instead (api/gateway.ts).
 */
import { CONFIG_PATH } from "../../../core/config.js";
import { mapLimit } from "../map-limit.js";
import { graphqlQuery as query } from "./query.js";
import { readBlob } from "../rest/blob.js";
import { fetchFile } from "../rest/content.js";
import type { Octokit } from "../octokit/octokit.js";
import {
  CHECK_NAME,
  CONFIG_MAX_BYTES,
  type Author,
  FILES_PER_READ,
  type ChangesRequested,
  type FileAt,
  type FileContent,
  type PullState,
  type PullTarget,
  type ReviewStart,
} from "../port.js";

interface BlobNode {
  oid: string;
  byteSize: number;
  isBinary: boolean | null;
  isTruncated: boolean;
  text: string | null;
}

const BLOB_FIELDS = "... on Blob { oid byteSize isBinary isTruncated text }";

/** A commit's entry at a path: its git mode and its object. */
interface EntryNode {
  mode: number;
  object: BlobNode | null;
}

/** Git's mode of a symbolic link (120000 in octal), as GraphQL gives it. */
const SYMLINK_MODE = 0o120000;

/** The bytes of a blob node: its text when that is exactly the file, else the REST blob API's. */
async function toContent(
  octokit: Octokit,
  where: { owner: string; repo: string },
  node: BlobNode | null | undefined,
  maxSize: number,
): Promise<FileContent> {
  if (!node) return { kind: "missing" };
  // Another kind of object at the path (a tree, a submodule's commit): none of the blob's fields.
  if (typeof node.byteSize !== "number") return { kind: "missing", notFile: true };
  if (node.byteSize > maxSize) return { kind: "too-large", size: node.byteSize };
  if (!node.isBinary && !node.isTruncated && typeof node.text === "string") {
    const bytes = Buffer.from(node.text, "utf8");
    // GraphQL decodes the blob: equal sizes and no replacement character mean the text is the file.
    if (bytes.length === node.byteSize && !node.text.includes("\uFFFD"))
      return { kind: "file", content: new Uint8Array(bytes), size: node.byteSize };
  }
  const bytes = await readBlob(octokit, where, node.oid, node.byteSize);
  return { kind: "file", content: bytes, size: node.byteSize };
}

/** Blobs read through REST at once (a query's files over GraphQL's text limit). */
const BLOBS_AT_ONCE = 4;

/** Files read per query: GitHub limits a query's size and its answer's. */
const FILES_PER_QUERY = FILES_PER_READ;

/** Reads files at commits, in as few queries as GitHub allows; results in the order asked. */
export async function readFilesGraphql(
  octokit: Octokit,
  files: readonly FileAt[],
  maxSize: number,
): Promise<FileContent[]> {
  const out: FileContent[] = [];
  for (let start = 0; start < files.length; start += FILES_PER_QUERY) {
    const chunk = files.slice(start, start + FILES_PER_QUERY);
    const vars: Record<string, string> = {};
    const decls: string[] = [];
    const fields = chunk.map((f, i) => {
      vars[`o${i}`] = f.owner;
      vars[`r${i}`] = f.repo;
      vars[`e${i}`] = f.ref;
      vars[`p${i}`] = f.path;
      decls.push(`$o${i}: String!`, `$r${i}: String!`, `$e${i}: String!`, `$p${i}: String!`);
      // The tree entry, not the blob alone: its mode says whether the file is a symbolic link.
      return `f${i}: repository(owner: $o${i}, name: $r${i}) { object(expression: $e${i}) { ... on Commit { file(path: $p${i}) { mode object { ${BLOB_FIELDS} } } } } }`;
    });
    const text = `query ReadFiles(${decls.join(", ")}) { ${fields.join(" ")} }`;
    const data = await query<Record<string, { object: { file?: EntryNode | null } | null } | null>>(
      octokit,
      text,
      vars,
    );
    // The blobs GraphQL cannot give (over its text limit) a few at a time, as REST reads files.
    out.push(
      ...(await mapLimit([...chunk.entries()], BLOBS_AT_ONCE, async ([i, f]): Promise<FileContent> => {
        const entry = data[`f${i}`]?.object?.file;
        // A symbolic link's blob is the path it names. The contents API reads what REST reviews (gateway.ts):
        // the file a link names inside the repository, or "not a file" for any other link.
        if (entry?.mode === SYMLINK_MODE) return fetchFile(octokit, f, maxSize);
        // An entry without an object here: a submodule's commit, which lives in another repository.
        if (entry && !entry.object) return { kind: "missing", notFile: true };
        return toContent(octokit, f, entry?.object, maxSize);
      })),
    );
  }
  return out;
}

interface StartAnswer {
  repository: {
    object: {
      checkSuites?: {
        nodes: ({
          checkRuns: {
            nodes: ({
              databaseId: number;
              status: string;
              conclusion: string | null;
              externalId: string | null;
              annotations: { totalCount: number };
            } | null)[];
          } | null;
        } | null)[];
      } | null;
    } | null;
    config: BlobNode | null;
  } | null;
  org?: { config: BlobNode | null } | null;
}

/**
 * One query: this app's latest `plugin-review` run on the head commit, and the configuration files of the
 * repository and (for an organisation) of its `.github` repository, on their default branches.
 */
export async function readReviewStartGraphql(
  octokit: Octokit,
  where: { owner: string; repo: string; headSha: string; ownerType: string },
  appId: number | undefined,
): Promise<ReviewStart> {
  const withOrg = where.ownerType === "Organization" && where.repo !== ".github";
  const text = `query ReviewStart($owner: String!, $repo: String!, $head: GitObjectID!, $appId: Int, $name: String!, $config: String!, $withOrg: Boolean!) {
  repository(owner: $owner, name: $repo) {
    object(oid: $head) { ... on Commit { checkSuites(first: 10, filterBy: { appId: $appId, checkName: $name }) { nodes { checkRuns(first: 1, filterBy: { checkName: $name, checkType: LATEST }) { nodes { databaseId status conclusion externalId annotations { totalCount } } } } } } }
    config: object(expression: $config) { ${BLOB_FIELDS} }
  }
  org: repository(owner: $owner, name: ".github") @include(if: $withOrg) { config: object(expression: $config) { ${BLOB_FIELDS} } }
}`;
  const data = await query<StartAnswer>(octokit, text, {
    owner: where.owner,
    repo: where.repo,
    head: where.headSha,
    appId: appId ?? null,
    name: CHECK_NAME,
    config: `HEAD:${CONFIG_PATH}`,
    withOrg,
  });
  const runs = (data.repository?.object?.checkSuites?.nodes ?? []).flatMap((s) => s?.checkRuns?.nodes ?? []);
  const latest = runs.filter((r) => r !== null).sort((a, b) => b.databaseId - a.databaseId)[0];
  const configs = new Map<string, Uint8Array | undefined>();
  const put = async (owner: string, repo: string, node: BlobNode | null | undefined) => {
    const file = await toContent(octokit, { owner, repo }, node, CONFIG_MAX_BYTES);
    if (file.kind === "too-large") return; // left out: review/load-config.ts reads it and says it is too large
    configs.set(`${owner}/${repo}:${CONFIG_PATH}`, file.kind === "file" ? file.content : undefined);
  };
  await put(where.owner, where.repo, data.repository?.config);
  if (withOrg) await put(where.owner, ".github", data.org?.config);
  const unseen = new Set(withOrg && !data.org ? [`${where.owner}/.github`] : []);
  return {
    unseen,
    run: latest && {
      id: latest.databaseId,
      status: latest.status.toLowerCase(),
      conclusion: latest.conclusion?.toLowerCase() ?? null,
      annotations: latest.annotations.totalCount,
      externalId: latest.externalId,
    },
    configs,
  };
}

interface Page {
  repository: {
    pullRequest:
      | (ChangesRequestedFields & {
          id: string;
          reviewThreads: {
            pageInfo: { hasNextPage: boolean; endCursor: string | null };
            nodes: {
              id: string;
              isResolved: boolean;
              root: { nodes: CommentNode[] };
              replies: { nodes: { databaseId: number | null; body: string; author: ActorNode | null }[] };
            }[];
          };
          reviews: { nodes: { body: string; author: ActorNode | null }[] };
        })
      | null;
  } | null;
}

/** Who wrote a comment or a review, as GraphQL names them (`Actor`: a user, a bot, …). */
interface ActorNode {
  __typename: string;
  login: string;
}

const AUTHOR_FIELDS = "author { __typename login }";

/**
 * An author as REST names them (port.ts, `Author`): GraphQL gives a bot's login without REST's `[bot]`
 * suffix (the App `plugin-review` writes as `plugin-review`, which a person may also be called), so the
 * suffix is added to a `Bot`'s login only, unless GitHub already gave it.
 */
function authorOf(actor: ActorNode | null | undefined): Author {
  if (!actor) return null;
  return actor.__typename === "Bot" && !actor.login.endsWith("[bot]") ? `${actor.login}[bot]` : actor.login;
}

interface RequestingNode {
  id: string;
  databaseId: number | null;
  body: string;
  author: ActorNode | null;
}

/** The reviews that still request changes: the App dismisses its own once its verdict no longer does. */
const CHANGES_REQUESTED_FIELD = `changesRequested: reviews(states: [CHANGES_REQUESTED], last: 100) { nodes { id databaseId body ${AUTHOR_FIELDS} } }`;

/** Where the pull request is now: asked with its reviews, so that knowing it costs no request. */
const HEAD_FIELDS = "headRefOid state";

/** What HEAD_FIELDS and CHANGES_REQUESTED_FIELD answer (both queries below ask them of the pull request). */
interface ChangesRequestedFields {
  headRefOid: string;
  state: string;
  changesRequested: { nodes: (RequestingNode | null)[] };
}

function changesRequestedOf(pull: ChangesRequestedFields): Required<ChangesRequested> {
  return {
    reviews: pull.changesRequested.nodes.flatMap((n) =>
      n && n.databaseId !== null
        ? [{ id: n.databaseId, nodeId: n.id, author: authorOf(n.author), body: n.body }]
        : [],
    ),
    head: { sha: pull.headRefOid, open: pull.state === "OPEN" },
  };
}

const CHANGES_REQUESTED_QUERY = `query pluginReviewChangesRequested($owner: String!, $repo: String!, $number: Int!) {
  repository(owner: $owner, name: $repo) { pullRequest(number: $number) { ${HEAD_FIELDS} ${CHANGES_REQUESTED_FIELD} } }
}`;

/** The pull request's reviews that still request changes, and its head: one light query (no threads). */
export async function readChangesRequestedGraphql(
  octokit: Octokit,
  pr: PullTarget,
): Promise<ChangesRequested> {
  const data = await query<{ repository: { pullRequest: ChangesRequestedFields | null } | null }>(
    octokit,
    CHANGES_REQUESTED_QUERY,
    { owner: pr.owner, repo: pr.repo, number: pr.number },
  );
  const pull = data.repository?.pullRequest;
  return pull ? changesRequestedOf(pull) : { reviews: [] };
}

interface CommentNode {
  databaseId: number | null;
  body: string;
  path: string;
  line: number | null;
  author: ActorNode | null;
}

// The latest 100 reviews are enough to know whether this head was already reviewed (the newest are last).
export const THREADS_QUERY = `query pluginReviewThreads($owner: String!, $repo: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      id
      ${HEAD_FIELDS}
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id
          isResolved
          root: comments(first: 1) { nodes { databaseId body path line ${AUTHOR_FIELDS} } }
          replies: comments(last: 20) { nodes { databaseId body ${AUTHOR_FIELDS} } }
        }
      }
      reviews(last: 100) { nodes { body ${AUTHOR_FIELDS} } }
      ${CHANGES_REQUESTED_FIELD}
    }
  }
}`;

/** Every review thread and the latest reviews of a pull request: one query per 100 threads. */
export async function readPullStateGraphql(octokit: Octokit, pr: PullTarget): Promise<PullState> {
  const state: PullState = { threads: [], reviews: [], changesRequested: [] };
  let after: string | null = null;
  for (let page = 0; page < 30; page++) {
    const data: Page = await query<Page>(octokit, THREADS_QUERY, {
      owner: pr.owner,
      repo: pr.repo,
      number: pr.number,
      after,
    });
    const pull = data.repository?.pullRequest;
    if (!pull) break;
    if (page === 0) {
      state.reviews = pull.reviews.nodes.map((r) => ({ author: authorOf(r.author), body: r.body ?? "" }));
      const { reviews, head } = changesRequestedOf(pull);
      state.changesRequested = reviews;
      state.pullRequestId = pull.id;
      state.head = head;
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
        author: authorOf(root.author),
        resolved: t.isResolved,
        // The thread's latest 20 comments: the root too, while it has fewer replies.
        replies: t.replies.nodes
          .filter((c) => c.databaseId !== root.databaseId)
          .map((c) => ({ author: authorOf(c.author), body: c.body })),
      });
    }
    if (!pull.reviewThreads.pageInfo.hasNextPage) break;
    after = pull.reviewThreads.pageInfo.endCursor;
  }
  return state;
}
