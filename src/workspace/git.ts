/**
 * Git, read for `check --base-ref` and for the language server's base: which files changed since a ref
 * (renames followed) and a file's content there. One implementation for both, asynchronous (`execFile`), so
 * that the language server's event loop never waits on git; the CLI awaits it. What a failure means is the
 * caller's to decide: the CLI reports it, the editor goes without a base.
 */
import { execFile } from "node:child_process";
import { relative } from "node:path";

export interface GitChange {
  status: "added" | "modified" | "renamed";
  /** Path at the ref (the old path of a rename). */
  basePath?: string;
}

export interface GitOptions {
  /** Milliseconds a git command may run before it is stopped and counts as failed (default: no limit). */
  timeoutMs?: number;
}

/** `git diff --name-status -z -M` by path: added, modified, or renamed from its old path (copies are added). */
function parseNameStatus(output: Buffer): Map<string, GitChange> {
  const changes = new Map<string, GitChange>();
  const diff = output.toString().split("\0");
  for (let i = 0; i < diff.length - 1;) {
    const status = diff[i++] as string;
    if (status.startsWith("R")) {
      const from = diff[i++] as string;
      const to = diff[i++] as string;
      changes.set(to, { status: "renamed", basePath: from });
    } else if (status.startsWith("C")) {
      i++;
      changes.set(diff[i++] as string, { status: "added" });
    } else {
      const path = diff[i++] as string;
      if (status === "A") changes.set(path, { status: "added" });
      else if (status === "M" || status === "T") changes.set(path, { status: "modified", basePath: path });
    }
  }
  return changes;
}

function git(
  cwd: string,
  args: string[],
  options: GitOptions,
  maxBuffer = 64 * 1024 * 1024,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      { cwd, maxBuffer, encoding: "buffer", timeout: options.timeoutMs ?? 0 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
}

/** A command's one line of output; undefined when it printed none or failed. */
const line = (output: Promise<Buffer>): Promise<string | undefined> =>
  output.then(
    (b) => b.toString("utf8").trim() || undefined,
    () => undefined,
  );

/** The empty tree's hash in a SHA-1 and in a SHA-256 repository. */
const EMPTY_TREES = [
  "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
  "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
];

/** One git work tree. Its methods fail (reject) when git does, unless they say otherwise. */
export class GitRepo {
  private constructor(
    /** The work tree's root as git names it (symbolic links resolved: compare it with `realPath`s). */
    readonly root: string,
    private readonly options: GitOptions,
  ) {}

  /** The work tree holding a folder; undefined outside any work tree, or when git is missing or fails. */
  static async find(dir: string, options: GitOptions = {}): Promise<GitRepo | undefined> {
    const root = await line(git(dir, ["rev-parse", "--show-toplevel"], options));
    return root === undefined ? undefined : new GitRepo(root, options);
  }

  private git(args: string[], maxBuffer?: number): Promise<Buffer> {
    return git(this.root, args, this.options, maxBuffer);
  }

  /** Repository-relative path with forward slashes of a real path (ConfigFinder.locate's `real`). */
  relative(real: string): string {
    return relative(this.root, real).split("\\").join("/");
  }

  /** The commit a ref names (its hash); undefined when it names none (or git fails). */
  commit(ref: string): Promise<string | undefined> {
    return line(this.git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]));
  }

  /**
   * The empty tree, when HEAD is a branch with no commit yet (a repository before its first commit), else
   * undefined: compared with it, every file is added. Git knows the empty tree without storing it; which of
   * the two hashes it answers to says the repository's hash (SHA-1 or SHA-256).
   */
  async unbornHeadTree(): Promise<string | undefined> {
    if ((await this.commit("HEAD")) !== undefined) return undefined;
    if ((await line(this.git(["symbolic-ref", "--quiet", "HEAD"]))) === undefined) return undefined;
    for (const tree of EMPTY_TREES) {
      if (await line(this.git(["rev-parse", "--verify", "--quiet", `${tree}^{tree}`]))) return tree;
    }
    return undefined;
  }

  /** The address of the remote `origin` (where the repository lives on GitHub); undefined without one. */
  originUrl(): Promise<string | undefined> {
    return line(this.git(["config", "--get", "remote.origin.url"]));
  }

  /**
   * What the current branch's changes are compared with when no ref is named: the merge base of HEAD and
   * its upstream, else HEAD (no upstream, or no merge base); undefined in a repository without commits.
   */
  async branchBase(): Promise<string | undefined> {
    if (await this.commit("@{upstream}")) {
      const mergeBase = await line(this.git(["merge-base", "HEAD", "@{upstream}"]));
      if (mergeBase) return mergeBase;
    }
    return this.commit("HEAD");
  }

  /**
   * The work tree's changes (committed or not) since a ref, by repository path: added, modified, or renamed
   * from its old path (copies are added). With `untracked`, the files git neither tracks nor ignores are
   * added too (a whole-repository listing: a caller asking about one file need not pay for it).
   */
  async changes(ref: string, { untracked = false } = {}): Promise<Map<string, GitChange>> {
    const changes = parseNameStatus(await this.git(["diff", "--name-status", "-z", "-M", ref, "--"]));
    if (untracked) {
      const others = await this.git(["ls-files", "--others", "--exclude-standard", "-z"]);
      for (const path of others.toString().split("\0")) if (path) changes.set(path, { status: "added" });
    }
    return changes;
  }

  /**
   * The repository paths of the files under `folder` ("" or ending in `/`) at a ref; undefined when git fails
   * or its answer is larger than `maxBytes` (a partial list would say files are missing that are there).
   */
  async filesAt(ref: string, folder: string, maxBytes: number): Promise<string[] | undefined> {
    try {
      const out = await this.git(
        ["ls-tree", "-r", "--full-name", "--name-only", "-z", ref, "--", folder || "."],
        maxBytes,
      );
      return out.toString().split("\0").filter(Boolean);
    } catch {
      return undefined;
    }
  }

  /**
   * A file's bytes at a ref as `show` reads them, or only its size when it is larger than `show` reads (more
   * than a megabyte over `maxBytes`), as GitHub answers the App for a file over max_file_size: a base past the
   * limit is then a base too large to compare (its review says so), never a failed run.
   */
  async read(
    ref: string,
    path: string,
    maxBytes: number,
  ): Promise<Buffer | { tooLarge: number } | undefined> {
    try {
      return await this.show(ref, path, maxBytes);
    } catch (e) {
      if ((e as { code?: unknown }).code !== "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") throw e;
      const size = Number(await line(this.git(["cat-file", "-s", `${ref}:${path}`])));
      if (!Number.isSafeInteger(size)) throw e;
      return { tooLarge: size };
    }
  }

  /** Is a repository path in the index? Only such a file can be the target of a rename git reports. */
  async tracked(path: string): Promise<boolean> {
    return (await this.git(["ls-files", "-z", "--", `:(literal)${path}`])).length > 0;
  }

  /**
   * A file's bytes at a ref, or undefined when the ref has no file there (git answers so: nothing at that
   * path, or a folder). Read whole, in one git process: a file more than a megabyte over `maxBytes` fails,
   * as does a git that does not finish (missing, stopped at the time limit).
   */
  async show(ref: string, path: string, maxBytes: number): Promise<Buffer | undefined> {
    try {
      return await this.git(["cat-file", "blob", `${ref}:${path}`], maxBytes + 1024 * 1024);
    } catch (e) {
      // An exit status is git's answer; a failure to finish has none (a signal, an error code of Node's).
      if (typeof (e as { code?: unknown }).code === "number") return undefined;
      throw e;
    }
  }
}
