/** The git side of `--base-ref`: which descriptors changed since a ref, and their content there. */
import { execFileSync } from "node:child_process";
import { relative } from "node:path";
import { UsageError } from "./usage-error.js";

export interface GitChange {
  status: "added" | "modified" | "renamed";
  /** Path at the ref (the old path of a rename). */
  basePath?: string;
}

function git(cwd: string, args: string[], maxBuffer = 64 * 1024 * 1024): Buffer {
  return execFileSync("git", args, { cwd, maxBuffer, stdio: ["ignore", "pipe", "pipe"] });
}

/** `git diff --name-status -z -M` by path: added, modified, or renamed from its old path (copies are added). */
export function parseNameStatus(output: Buffer): Map<string, GitChange> {
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

export class GitRepo {
  private constructor(
    readonly root: string,
    readonly ref: string,
    private readonly changes: Map<string, GitChange>,
  ) {}

  static open(cwd: string, ref: string): GitRepo {
    let root: string;
    try {
      root = git(cwd, ["rev-parse", "--show-toplevel"]).toString().trim();
    } catch {
      throw new UsageError("--base-ref needs a git work tree, and this is not one (or git is not installed)");
    }
    try {
      git(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
    } catch {
      throw new UsageError(
        `--base-ref: '${ref}' is not a commit, branch or tag in this repository (fetch it first?)`,
      );
    }
    // Work tree (committed or not) against the ref, renames followed.
    const changes = parseNameStatus(git(root, ["diff", "--name-status", "-z", "-M", ref, "--"]));
    for (const path of git(root, ["ls-files", "--others", "--exclude-standard", "-z"])
      .toString()
      .split("\0")) {
      if (path) changes.set(path, { status: "added" });
    }
    return new GitRepo(root, ref, changes);
  }

  /** Repository-relative path with forward slashes of a real path (ConfigFinder.locate's: git's root is one). */
  relative(real: string): string {
    return relative(this.root, real).split("\\").join("/");
  }

  /** The change of a repository-relative path (`relative`'s), or undefined when the ref has it as it is. */
  change(path: string): GitChange | undefined {
    return this.changes.get(path);
  }

  /** The file's bytes at the ref, or undefined when it does not exist there. */
  show(path: string, maxBytes: number): Buffer | undefined {
    try {
      git(this.root, ["cat-file", "-e", `${this.ref}:${path}`]);
    } catch {
      return undefined;
    }
    return git(this.root, ["cat-file", "blob", `${this.ref}:${path}`], maxBytes + 1024 * 1024);
  }
}
