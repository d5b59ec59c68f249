/**
 * The files under some folders of a commit, from one listing of the commit's tree (GitHub's `recursive` tree:
 * at most 100,000 entries and 7 MB, which GitHub cuts short, saying so). An extension's rules need the files of
 * its project (core/ef2/package.ts): a review lists a commit's tree once for all its extensions.
 */
import type { Octokit } from "../octokit/octokit.js";
import type { CommitFiles } from "../port.js";

export async function listFolderFiles(
  octokit: Octokit,
  at: CommitFiles,
  folders: readonly string[],
  maxPerFolder: number,
): Promise<(string[] | undefined)[]> {
  // A commit sha names its tree; `recursive` lists every file below it in one answer.
  const { data } = await octokit.rest.git.getTree({
    owner: at.owner,
    repo: at.repo,
    tree_sha: at.ref,
    recursive: "true",
  });
  // A tree cut short cannot say that a file is not there.
  if (data.truncated) return folders.map(() => undefined);
  const out: (string[] | undefined)[] = folders.map(() => []);
  for (const e of data.tree) {
    if (e.type !== "blob" || !e.path) continue;
    for (let i = 0; i < folders.length; i++) {
      const list = out[i];
      if (!list || !e.path.startsWith(folders[i] as string)) continue;
      // Past the bound nothing: a partial list would call a file missing that is there.
      if (list.length >= maxPerFolder) out[i] = undefined;
      else list.push(e.path);
    }
  }
  return out;
}
