/**
 * Which files of a change are descriptors: a pull request's file list (every page), a comparison of two
 * commits (a merge group), and, when GitHub's lists stop short (3,000 files of a pull request, 300 of a
 * comparison), the full trees of both commits, so that no descriptor goes unseen.
 */
import { reviewedPathMatcher } from "../../../core/ef2/pairing.js";
import type { Octokit } from "../octokit/octokit.js";
import { PR_FILES_CAP, type ChangedDescriptor, type ChangedFiles, type ChangeRange } from "../port.js";

/** GitHub's comparison lists at most this many files. */
export const COMPARE_FILES_CAP = 300;

interface ListedFile {
  filename: string;
  status: string;
  previous_filename?: string;
  patch?: string;
}

export async function listChangedDescriptors(
  octokit: Octokit,
  change: ChangeRange,
  paths: readonly string[],
): Promise<ChangedFiles> {
  // The descriptors and extensions the configuration reviews (core/ef2/pairing.ts).
  const match = reviewedPathMatcher(paths);
  let files: ListedFile[];
  let cap: number;
  if (change.number !== undefined) {
    cap = PR_FILES_CAP;
    files = await octokit.paginate(octokit.rest.pulls.listFiles, {
      owner: change.owner,
      repo: change.repo,
      pull_number: change.number,
      per_page: 100,
    });
  } else {
    cap = COMPARE_FILES_CAP;
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      owner: change.owner,
      repo: change.repo,
      basehead: `${change.baseSha}...${change.headSha}`,
    });
    files = data.files ?? [];
  }
  const listed = fromList(files, match);
  if (files.length < cap) return { ...listed, totalFiles: files.length, capped: false };
  // The list stopped short: the trees say which descriptors differ; the listed ones keep their diffs. A pull
  // request's files are what its head changed since it left its base branch (GitHub's three-dot diff): its
  // head's tree is compared with the merge base's, not with the base branch as it is now, whose later
  // commits the pull request did not make.
  const from = change.number !== undefined ? await mergeBase(octokit, change) : change.baseSha;
  const trees = await treeDiff(octokit, { ...change, baseSha: from }, match);
  const patches = new Map(listed.descriptors.map((d) => [d.path, d]));
  return {
    descriptors: trees.descriptors.map((d) => patches.get(d.path) ?? d),
    removed: trees.removed,
    others: trees.others,
    totalFiles: Math.max(files.length, trees.totalFiles),
    capped: trees.truncated,
    throughTrees: true,
  };
}

/** The commit where a pull request's head left its base branch (GitHub's comparison says it). */
async function mergeBase(octokit: Octokit, change: ChangeRange): Promise<string> {
  const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
    owner: change.owner,
    repo: change.repo,
    basehead: `${change.baseSha}...${change.headSha}`,
    // The merge base is all that is read: the fewest commits GitHub lists beside it.
    per_page: 1,
  });
  return data.merge_base_commit.sha;
}

function fromList(
  files: readonly ListedFile[],
  match: (path: string) => boolean,
): Pick<ChangedFiles, "descriptors" | "removed" | "others"> {
  const descriptors: ChangedDescriptor[] = [];
  const removed: string[] = [];
  const others: string[] = [];
  for (const f of files) {
    if (!match(f.filename)) {
      if (f.status === "unchanged") continue;
      others.push(f.filename);
      if (f.previous_filename && !match(f.previous_filename)) others.push(f.previous_filename);
      continue;
    }
    if (f.status === "removed") {
      removed.push(f.filename);
      continue;
    }
    if (f.status === "unchanged") continue;
    const d: ChangedDescriptor = { path: f.filename, status: f.status as ChangedDescriptor["status"] };
    if (f.previous_filename && f.status === "renamed") d.previousPath = f.previous_filename;
    if (f.patch) d.patch = f.patch;
    descriptors.push(d);
  }
  return { descriptors, removed, others };
}

/** Path → blob sha of the files of a commit: those that match, and the others. */
async function blobs(
  octokit: Octokit,
  owner: string,
  repo: string,
  sha: string,
  match: (path: string) => boolean,
): Promise<{ files: Map<string, string>; others: Map<string, string>; total: number; truncated: boolean }> {
  // A commit sha names its tree; `recursive` lists every file below it in one answer.
  const { data } = await octokit.rest.git.getTree({ owner, repo, tree_sha: sha, recursive: "true" });
  const files = new Map<string, string>();
  const others = new Map<string, string>();
  let total = 0;
  for (const e of data.tree) {
    if (e.type !== "blob" || !e.path || !e.sha) continue;
    total++;
    (match(e.path) ? files : others).set(e.path, e.sha);
  }
  return { files, others, total, truncated: data.truncated };
}

/** The descriptors that differ between the base and head trees (a file moved unchanged counts as renamed). */
export async function treeDiff(
  octokit: Octokit,
  change: ChangeRange,
  match: (path: string) => boolean,
): Promise<{
  descriptors: ChangedDescriptor[];
  removed: string[];
  others: string[];
  totalFiles: number;
  truncated: boolean;
}> {
  // Both trees from the base repository, a fork pull request's head too (port.ts CommitTarget).
  const [base, head] = await Promise.all([
    blobs(octokit, change.owner, change.repo, change.baseSha, match),
    blobs(octokit, change.owner, change.repo, change.headSha, match),
  ]);
  const removed = [...base.files.keys()].filter((p) => !head.files.has(p));
  const removedBySha = new Map(removed.map((p) => [base.files.get(p) as string, p]));
  const renamedFrom = new Set<string>();
  const descriptors: ChangedDescriptor[] = [];
  for (const [path, sha] of head.files) {
    const before = base.files.get(path);
    if (before === sha) continue;
    if (before !== undefined) {
      descriptors.push({ path, status: "modified" });
      continue;
    }
    const from = removedBySha.get(sha);
    if (from !== undefined && !renamedFrom.has(from)) {
      renamedFrom.add(from);
      descriptors.push({ path, status: "renamed", previousPath: from });
    } else descriptors.push({ path, status: "added" });
  }
  // The other files that differ, either side (a file moved is a change at both its paths).
  const others = [...head.others].flatMap(([path, sha]) => (base.others.get(path) === sha ? [] : [path]));
  for (const path of base.others.keys()) if (!head.others.has(path)) others.push(path);
  return {
    descriptors,
    removed: removed.filter((p) => !renamedFrom.has(p)),
    others,
    totalFiles: head.total,
    truncated: base.truncated || head.truncated,
  };
}
