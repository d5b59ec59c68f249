/** Which files of a pull request are descriptors, across every page of its file list. */
import { globMatcher } from "../core/config.js";
import type { Octokit, PullTarget } from "./types.js";

/** GitHub lists at most this many files of a pull request, whatever the pagination. */
export const PR_FILES_CAP = 3000;

export interface ChangedDescriptor {
  path: string;
  status: "added" | "modified" | "renamed" | "copied" | "changed";
  /** Path in the base, for a renamed file. */
  previousPath?: string;
  /** The unified diff, when GitHub sends one (not for huge or binary diffs). */
  patch?: string;
}

export interface ChangedFiles {
  descriptors: ChangedDescriptor[];
  removed: string[];
  totalFiles: number;
  capped: boolean;
}

export async function listChangedDescriptors(
  octokit: Octokit,
  pr: PullTarget,
  paths: readonly string[],
): Promise<ChangedFiles> {
  const match = globMatcher(paths);
  const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    per_page: 100,
  });
  const descriptors: ChangedDescriptor[] = [];
  const removed: string[] = [];
  for (const f of files) {
    if (!match(f.filename)) continue;
    if (f.status === "removed") {
      removed.push(f.filename);
      continue;
    }
    if (f.status === "unchanged") continue;
    const d: ChangedDescriptor = { path: f.filename, status: f.status };
    if (f.previous_filename && f.status === "renamed") d.previousPath = f.previous_filename;
    if (f.patch) d.patch = f.patch;
    descriptors.push(d);
  }
  return { descriptors, removed, totalFiles: files.length, capped: files.length >= PR_FILES_CAP };
}
