/**
 * The version an open descriptor is compared with for the change rules: the file at the merge base of the
 * current branch and its upstream, or at `HEAD` when the branch has no upstream, read with `git`. A file
 * the ref lacks is followed through a rename (as `check --base-ref` does), else it is added by the change.
 * No git, a folder outside any repository, or a repository without commits: no base, and no error.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, relative } from "node:path";
import { realPath } from "../workspace/find-config.js";
import { parseNameStatus } from "../workspace/git.js";

export interface Base {
  /** The repository root (git's view: symbolic links resolved). */
  root: string;
  /** The commit compared with (a merge base's hash, or `HEAD`'s). */
  ref: string;
  /** The file's path in the repository, forward slashes: what findings and `ignore` globs read. */
  path: string;
  /** The file at the ref, under `basePath`; absent when the change adds it. */
  content?: Uint8Array;
  basePath?: string;
}

/** A git that does not answer in time (a huge repository, a lock, a network file system) means no base. */
const GIT_TIMEOUT_MS = 15_000;

function git(cwd: string, args: string[], maxBuffer = 64 * 1024 * 1024): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    execFile("git", args, { cwd, maxBuffer, encoding: "buffer", timeout: GIT_TIMEOUT_MS }, (error, stdout) =>
      resolve(error ? undefined : stdout),
    );
  });
}

const line = (b: Buffer | undefined) => b?.toString("utf8").trim() || undefined;

/** The merge base with the upstream, or HEAD; undefined without a commit. */
async function compareRef(root: string): Promise<string | undefined> {
  const upstream = await git(root, ["rev-parse", "--verify", "--quiet", "@{upstream}^{commit}"]);
  if (upstream) {
    const mergeBase = line(await git(root, ["merge-base", "HEAD", "@{upstream}"]));
    if (mergeBase) return mergeBase;
  }
  return line(await git(root, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]));
}

export async function findBase(absolute: string, maxBytes: number): Promise<Base | undefined> {
  const dir = dirname(absolute);
  if (!existsSync(dir)) return undefined;
  const root = line(await git(dir, ["rev-parse", "--show-toplevel"]));
  if (!root) return undefined;
  const ref = await compareRef(root);
  if (!ref) return undefined;
  const real = realPath(absolute);
  const path = relative(root, real).split("\\").join("/");
  if (path.startsWith("../")) return undefined;
  const content = await git(root, ["cat-file", "blob", `${ref}:${path}`], maxBytes + 1024 * 1024);
  if (content) return { root, ref, path, content: new Uint8Array(content), basePath: path };
  // Not at the ref: renamed (followed as check --base-ref follows it), else added by the change. Only a
  // file in the index can be a rename's target for git, so an untracked one is added without the whole
  // repository's diff; the diff runs off the event loop.
  if (!line(await git(root, ["ls-files", "-z", "--", `:(literal)${path}`]))) return { root, ref, path };
  const diff = await git(root, ["diff", "--name-status", "-z", "-M", ref, "--"]);
  const change = diff && parseNameStatus(diff).get(path);
  if (change?.status !== "renamed" || change.basePath === undefined) return { root, ref, path };
  const renamed = await git(root, ["cat-file", "blob", `${ref}:${change.basePath}`], maxBytes + 1024 * 1024);
  return renamed
    ? { root, ref, path, content: new Uint8Array(renamed), basePath: change.basePath }
    : { root, ref, path };
}
