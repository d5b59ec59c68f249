/**
 * The version an open descriptor is compared with for the change rules: the file at the merge base of the
 * current branch and its upstream, or at `HEAD` when the branch has no upstream, read with `git`. A file
 * the ref lacks is followed through a rename from a path the configuration reviews (as `check --base-ref`
 * does: core/base-path.ts), else it is added by the change.
 * No git, a folder outside any repository, or a repository without commits: no base, and no error. An
 * extension.yaml's base also holds the plugin.json it replaces there, when the ref has one beside it.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { DescriptorInput } from "../core/analyse.js";
import { baseOf } from "../core/base-path.js";
import { replacedDescriptorPaths } from "../core/ef2/pairing.js";
import { realPath } from "../workspace/find-config.js";
import { GitRepo } from "../workspace/git.js";

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
  /** For an extension.yaml: the plugin.json it replaces, as the ref holds it (check --base-ref's pairing). */
  replaces?: DescriptorInput["replaces"];
}

/** A git that does not answer in time (a huge repository, a lock, a network file system) means no base. */
const GIT_TIMEOUT_MS = 15_000;

/** A git question that fails is answered "no": the editor goes without what it would have told. */
const no = () => undefined;

/**
 * `reviewedAtBase` says whether the review of the configuration that applies to a file (by its absolute path)
 * would have read it: a rename's old path is the base only then.
 */
export async function findBase(
  absolute: string,
  maxBytes: number,
  reviewedAtBase: (absolute: string) => boolean,
): Promise<Base | undefined> {
  const dir = dirname(absolute);
  if (!existsSync(dir)) return undefined;
  const repo = await GitRepo.find(dir, { timeoutMs: GIT_TIMEOUT_MS });
  const base = repo && (await fileBase(repo, absolute, maxBytes, reviewedAtBase));
  if (!repo || !base) return undefined;
  const replaces = await replacedAt(repo, base, maxBytes);
  return replaces ? { ...base, replaces } : base;
}

/**
 * The plugin.json an extension.yaml replaces (core/ef2/pairing.ts), as the ref holds it, and whether the work
 * tree still has it: the migration rules compare the two, as `check --base-ref` does.
 */
async function replacedAt(repo: GitRepo, base: Base, maxBytes: number): Promise<Base["replaces"]> {
  for (const path of replacedDescriptorPaths(base.path)) {
    const bytes = await repo.show(base.ref, path, maxBytes).catch(no);
    if (!bytes) continue;
    const status = existsSync(join(base.root, path)) ? "kept" : "deleted";
    return { path: `${base.ref.slice(0, 12)}:${path}`, content: new Uint8Array(bytes), status };
  }
  return undefined;
}

/** The file at the ref (followed through a rename the base reviewed), or none when the change adds it. */
async function fileBase(
  repo: GitRepo,
  absolute: string,
  maxBytes: number,
  reviewedAtBase: (absolute: string) => boolean,
): Promise<Base | undefined> {
  const ref = await repo.branchBase();
  if (!ref) return undefined;
  const { root } = repo;
  const path = repo.relative(realPath(absolute));
  if (path.startsWith("../")) return undefined;
  const content = await repo.show(ref, path, maxBytes).catch(no);
  if (content) return { root, ref, path, content: new Uint8Array(content), basePath: path };
  // Not at the ref: renamed (followed as check --base-ref follows it), else added by the change. Only a
  // file in the index can be a rename's target for git, so an untracked one is added without the whole
  // repository's diff; the diff runs off the event loop.
  if (!(await repo.tracked(path).catch(no))) return { root, ref, path };
  const change = (await repo.changes(ref).catch(no))?.get(path);
  if (change?.status !== "renamed" || change.basePath === undefined) return { root, ref, path };
  const from = baseOf({ path, status: change.status, previousPath: change.basePath }, (old) =>
    reviewedAtBase(join(root, old)),
  ).path;
  if (from === undefined) return { root, ref, path };
  const renamed = await repo.show(ref, from, maxBytes).catch(no);
  return renamed
    ? { root, ref, path, content: new Uint8Array(renamed), basePath: from }
    : { root, ref, path };
}
