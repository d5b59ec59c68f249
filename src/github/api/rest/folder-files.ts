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
  const counts = folders.map(() => 0);
  for (const e of data.tree) {
    if ((e.type !== "blob" && e.type !== "commit") || !e.path) continue;
    // A symbolic link (mode 120000) may point to a folder or a file, which the tree does not say: listed both
    // as a file and by its name and `/`, as `check` lists one (workspace/extension-files.ts), so a linked
    // module or dashboards folder is not called missing. A submodule (type `commit`, mode 160000) is a folder
    // whose files the tree does not list either: listed alike.
    const names = e.mode === "120000" || e.type === "commit" ? [e.path, `${e.path}/`] : [e.path];
    for (let i = 0; i < folders.length; i++) {
      const list = out[i];
      if (!list || !e.path.startsWith(folders[i] as string)) continue;
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
