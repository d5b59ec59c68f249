/**
 * The files under some folders of a commit, from one listing of the commit's tree (GitHub's `recursive` tree:
 * at most 100,000 entries and 7 MB, which GitHub cuts short, saying so). An extension's rules need the files of
 * its project (core/ef2/package.ts): a review lists a commit's tree once for all its extensions.
 *
 * When GitHub cuts that listing short (a big monorepo, or a pull request that adds many files anywhere), each
 * folder is listed from its own tree instead, as GitHub's documentation advises: found by listing the folders
 * above it one level each (shared by the folders of a call), then listed recursively. A folder stays unlisted
 * (undefined) only when its own listing is cut short too, holds more than the bound, or is too deep to walk.
 */
import { mapLimit } from "../map-limit.js";
import type { Octokit } from "../octokit/octokit.js";
import type { CommitFiles } from "../port.js";

/** Tree listings made at most to find the folders of one call when GitHub cut the commit's listing short. */
export const TREE_WALK_MAX = 100;

/** Sub-tree listings in flight at once. */
const CONCURRENCY = 4;

interface TreeEntry {
  path?: string;
  mode?: string;
  type?: string;
  sha?: string;
}

/** The paths of `entries` (relative to `prefix`'s tree) under each of `folders`; undefined past `maxPerFolder`. */
function underFolders(
  entries: readonly TreeEntry[],
  prefix: string,
  folders: readonly string[],
  maxPerFolder: number,
): (string[] | undefined)[] {
  const out: (string[] | undefined)[] = folders.map(() => []);
  const counts = folders.map(() => 0);
  for (const e of entries) {
    if ((e.type !== "blob" && e.type !== "commit") || !e.path) continue;
    const path = prefix + e.path;
    // A symbolic link (mode 120000) may point to a folder or a file, which the tree does not say: listed both
    // as a file and by its name and `/`, as `check` lists one (workspace/extension-files.ts), so a linked
    // module or dashboards folder is not called missing. A submodule (type `commit`, mode 160000) is a folder
    // whose files the tree does not list either: listed alike.
    const names = e.mode === "120000" || e.type === "commit" ? [path, `${path}/`] : [path];
    for (let i = 0; i < folders.length; i++) {
      const list = out[i];
      if (!list || !path.startsWith(folders[i] as string)) continue;
      // Past the bound nothing: a partial list would call a file missing that is there.
      if ((counts[i] as number) >= maxPerFolder) out[i] = undefined;
      else {
        counts[i] = (counts[i] as number) + 1;
        list.push(...names);
      }
    }
  }
  return out;
}

export async function listFolderFiles(
  octokit: Octokit,
  at: CommitFiles,
  folders: readonly string[],
  maxPerFolder: number,
): Promise<(string[] | undefined)[]> {
  const getTree = async (sha: string, recursive: boolean) =>
    (
      await octokit.rest.git.getTree({
        owner: at.owner,
        repo: at.repo,
        tree_sha: sha,
        ...(recursive ? { recursive: "true" } : {}),
      })
    ).data;
  // A commit sha names its tree; `recursive` lists every file below it in one answer.
  const whole = await getTree(at.ref, true);
  if (!whole.truncated) return underFolders(whole.tree, "", folders, maxPerFolder);

  // Cut short: a file missing from it may be there. Each folder from its own tree. The folders the partial
  // listing names are found already (GitHub's entries, whatever else it left out).
  const shas = new Map<string, Promise<string | null | undefined>>([["", Promise.resolve(at.ref)]]);
  for (const e of whole.tree)
    if (e.path && e.sha) shas.set(e.path, Promise.resolve(e.type === "tree" ? e.sha : null));
  const levels = new Map<string, Promise<Map<string, TreeEntry> | undefined>>();
  let walked = 0;
  /** The entries of the folder at `path` by name (one level); undefined when they cannot all be known. */
  const levelOf = (path: string) => {
    let level = levels.get(path);
    if (!level) {
      level = (async () => {
        const sha = await shaOf(path);
        if (!sha) return sha === null ? new Map<string, TreeEntry>() : undefined;
        // A deep folder costs a listing a level: bounded, so that a path's depth does not decide the calls.
        if (++walked > TREE_WALK_MAX) return undefined;
        const data = await getTree(sha, false);
        // One level cut short (over 100,000 entries in one folder) cannot say a name is not there.
        if (data.truncated) return undefined;
        return new Map(data.tree.filter((e) => e.path).map((e) => [e.path as string, e]));
      })();
      levels.set(path, level);
    }
    return level;
  };
  /** The tree sha of the folder at `path` (no trailing `/`); null when there is no such folder, undefined when unknown. */
  function shaOf(path: string): Promise<string | null | undefined> {
    let sha = shas.get(path);
    if (!sha) {
      const cut = path.lastIndexOf("/");
      const parent = cut < 0 ? "" : path.slice(0, cut);
      sha = levelOf(parent).then((level) => {
        if (!level) return undefined;
        const e = level.get(path.slice(cut + 1));
        return e?.type === "tree" && e.sha ? e.sha : null;
      });
      shas.set(path, sha);
    }
    return sha;
  }
  const listed = new Map<string, Promise<string[] | undefined>>();
  const listFolder = async (folder: string): Promise<string[] | undefined> => {
    // The whole commit: its listing was cut short, and its files are too many to list another way.
    if (folder === "") return undefined;
    const sha = await shaOf(folder.slice(0, -1));
    // No such folder at this commit: it holds no file.
    if (sha === null) return [];
    if (sha === undefined) return undefined;
    const data = await getTree(sha, true);
    if (data.truncated) return undefined;
    return underFolders(data.tree, folder, [folder], maxPerFolder)[0];
  };
  return mapLimit(folders, CONCURRENCY, (folder) => {
    let files = listed.get(folder);
    if (!files) listed.set(folder, (files = listFolder(folder)));
    return files;
  });
}
