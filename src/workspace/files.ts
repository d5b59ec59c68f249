/** Turns the command line's files, directories and globs into descriptor files. */
import {
  closeSync,
  fstatSync,
  lstat,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpath,
  stat,
  statSync,
  type Dirent,
  type Stats,
} from "node:fs";
import { join, resolve } from "node:path";
import { glob as tinyglob, type FileSystemAdapter } from "tinyglobby";
import { isReviewedPath } from "../core/ef2/pairing.js";
import type { FoundConfig, Located } from "./find-config.js";
import { describeErrno, UsageError } from "./usage-error.js";

export interface Candidate {
  /** As the user will see it: the argument itself, or the argument joined with the path below it. */
  display: string;
  absolute: string;
  /** Named explicitly on the command line (not found by walking a directory or a glob). */
  explicit: boolean;
  /** Found under a directory argument: the path its configuration's `paths` matched (ConfigLookup.locate). */
  configPath?: string;
  /**
   * Found under a directory argument where a descriptor would be, but no file: what it is instead ("a
   * directory"). Never opened (a named pipe would wait forever): reading it fails saying so (readCandidate).
   */
  notFile?: string;
}

/** Folders never walked into: dependencies and VCS data are not the user's descriptors. */
const SKIP_DIRS = new Set(["node_modules", ".git"]);

/** The configuration that applies to a file or a folder's files (find-config.ts's ConfigFinder). */
export interface ConfigLookup {
  locate(filePath: string, fallbackRoot?: string): Located;
  findForDir(dir: string): FoundConfig;
}

/**
 * Would the review of the configuration that applies to a file have read it (a descriptor, or an extension.yaml
 * its `paths` reach: core/ef2/pairing.ts)? What a base must be (core/base-path.ts): `check --base-ref` and the
 * language server ask it of a rename's old path.
 */
export function isReviewedFile(configs: ConfigLookup, absolute: string): boolean {
  const { found, configPath } = configs.locate(absolute);
  return isReviewedPath(found.config, configPath);
}

/**
 * Is a file found under a directory argument one the configuration reviews (a descriptor, or an extension.yaml:
 * core/ef2/pairing.ts)? By the `paths` of the configuration that applies to it, relative to that
 * configuration's root as in the App; relative to the directory argument when the file is outside that root (a
 * `--config` elsewhere). Returns the path matched, or undefined.
 */
function descriptorPath(configs: ConfigLookup, absolute: string, walkRoot: string): string | undefined {
  const { found, configPath } = configs.locate(absolute, walkRoot);
  return isReviewedPath(found.config, configPath) ? configPath : undefined;
}

function walk(
  dir: string,
  display: string,
  match: (absolute: string) => string | undefined,
  out: Candidate[],
): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    throw new UsageError(`cannot read directory '${display}': ${describeErrno(e)}`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const abs = join(dir, e.name);
    const disp = join(display, e.name);
    // Symbolic links to folders are not followed (no cycles); links to files are, and a broken link (to
    // nothing, or back to itself) where a descriptor is expected is read, so that it fails saying why.
    if (e.isFile() || (e.isSymbolicLink() && (isFile(abs) || isBroken(abs)))) {
      const configPath = match(abs);
      if (configPath !== undefined) out.push({ display: disp, absolute: abs, explicit: false, configPath });
      continue;
    }
    // Anything else where a descriptor would be (a folder named plugin.json, a link to one, a named pipe) is
    // listed too, never left out in silence: reading it fails saying what it is. Only under a descriptor's
    // name: a glob such as `plugins/**` matches every folder below `plugins`, which is walked, not a descriptor.
    const configPath = SKIP_DIRS.has(e.name) || !DESCRIPTOR_NAME.test(e.name) ? undefined : match(abs);
    if (configPath !== undefined)
      out.push({ display: disp, absolute: abs, explicit: false, configPath, notFile: kindOf(e) });
    if (e.isDirectory() && !SKIP_DIRS.has(e.name)) walk(abs, disp, match, out);
  }
}

/** A name a descriptor can have: JSON (plugin.json) or YAML (extension.yaml). */
const DESCRIPTOR_NAME = /\.(json|ya?ml)$/i;

/** What a folder's entry that is not a file (nor a link to one) is, as a user would name it. */
function kindOf(e: Dirent): string {
  if (e.isDirectory()) return "a directory";
  if (e.isSymbolicLink()) return "a symbolic link to a directory";
  if (e.isFIFO()) return "a named pipe";
  if (e.isSocket()) return "a socket";
  if (e.isBlockDevice() || e.isCharacterDevice()) return "a device";
  return "something other than a file";
}

/** Does the symbolic link at this path lead nowhere (its target missing, or a loop of links)? */
function isBroken(p: string): boolean {
  try {
    statSync(p);
    return false;
  } catch {
    return true;
  }
}

/** Is there a file (or a link to one) at this path? */
export function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

const GLOB_CHARS = /[*?[\]{}]/;

/**
 * The glob's file system, where a symbolic link that leads nowhere (its target missing, a loop) is a file of
 * its own: tinyglobby resolves every link and drops one it cannot resolve, so a glob would leave out in
 * silence a broken link it matches. Listed, it is read and fails saying why, as in a folder walked.
 */
const BROKEN_LINKS_AS_FILES: FileSystemAdapter = {
  // Only the callback forms are called (the asynchronous crawl); Node's types also name its promisified forms.
  realpath: ((path: string, callback: (error: NodeJS.ErrnoException | null, resolved: string) => void) =>
    realpath(path, (error, resolved) =>
      error && isLink(path) ? callback(null, path) : callback(error, resolved),
    )) as typeof realpath,
  stat: ((path: string, callback: (error: NodeJS.ErrnoException | null, stats: Stats) => void) =>
    stat(path, (error, stats) =>
      error && isLink(path) ? lstat(path, callback) : callback(error, stats),
    )) as typeof stat,
};

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Expands arguments. A directory means every file below it that the configuration applying to it reviews
 * (its `paths`, default `**\/plugin.json` and `**\/extension.yaml`, and the extension.yaml files they reach:
 * core/ef2/pairing.ts); a file is taken as named; anything else with glob characters is a glob. An argument
 * that yields nothing is an error, never silently skipped.
 */
export async function expandArgs(
  args: readonly string[],
  cwd: string,
  configs: ConfigLookup,
): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const arg of args) {
    // `check "$FILE"` with FILE unset: "" would resolve to the working directory and review all of it.
    if (arg === "") throw new UsageError("an empty argument names no file (a variable that is not set?)");
    const abs = resolve(cwd, arg);
    // Nothing there (or a glob): undefined. Something there that cannot be looked at (a folder on its path
    // that may not be entered, a symbolic link that leads back to itself) says why, not "no such file".
    const stat = (follow: boolean) => {
      try {
        return (follow ? statSync : lstatSync)(abs);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") return undefined;
        throw new UsageError(`cannot read '${arg}': ${describeErrno(e)}`);
      }
    };
    const st = stat(false);
    if (st && (st.isDirectory() || (st.isSymbolicLink() && stat(true)?.isDirectory()))) {
      const before = out.length;
      walk(abs, arg, (file) => descriptorPath(configs, file, abs), out);
      if (out.length === before) {
        const paths = configs.findForDir(abs).config.paths;
        throw new UsageError(
          `no descriptors found under '${arg}' (looked for ${paths.join(", ")}; node_modules and .git are not searched)`,
        );
      }
    } else if (st) {
      out.push({ display: arg, absolute: abs, explicit: true });
    } else if (GLOB_CHARS.test(arg)) {
      const found = await tinyglob(arg, {
        cwd,
        onlyFiles: true,
        ignore: ["**/node_modules/**", "**/.git/**"],
        expandDirectories: false,
        fs: BROKEN_LINKS_AS_FILES,
      });
      if (found.length === 0) throw new UsageError(`no files match '${arg}'`);
      for (const f of found.sort()) out.push({ display: f, absolute: resolve(cwd, f), explicit: false });
    } else {
      throw new UsageError(`cannot read '${arg}': no such file or directory`);
    }
  }
  // The same file named twice (a file and its directory) is checked once.
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.absolute) && seen.add(c.absolute));
}

/** A candidate's bytes, as readLimited reads them; one found that is no file is not opened, and fails saying so. */
export function readCandidate(c: Candidate, limit: number): { content: Uint8Array; size: number } {
  if (c.notFile !== undefined)
    throw new UsageError(`cannot read '${c.display}': it is ${c.notFile}, not a file`);
  return readLimited(c.absolute, c.display, limit);
}

/** Reads at most `limit + 1` bytes: enough to tell a file is over the limit without loading 50 MB. */
export function readLimited(
  path: string,
  display: string,
  limit: number,
): { content: Uint8Array; size: number } {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new UsageError(`cannot read '${display}': ${describeErrno(e)}`);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new UsageError(`cannot read '${display}': it is a directory`);
    // A pipe or a device (`<(git show main:plugin.json)`, /dev/stdin) has no size: read it to its end, at
    // most one byte over the limit, from where it stands (it cannot seek).
    const stream = !st.isFile();
    const want = stream ? limit + 1 : Math.min(st.size, limit + 1);
    const buf = Buffer.alloc(stream ? Math.min(want, 64 * 1024) : want);
    let content = buf;
    let got = 0;
    while (got < want) {
      if (got === content.length) {
        const grown = Buffer.alloc(Math.min(want, content.length * 2));
        content.copy(grown, 0, 0, got);
        content = grown;
      }
      const n = readSync(fd, content, got, Math.min(want, content.length) - got, stream ? null : got);
      if (n === 0) break;
      got += n;
    }
    return {
      content: new Uint8Array(content.buffer, content.byteOffset, got),
      size: Math.max(st.size, got),
    };
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read '${display}': ${describeErrno(e)}`);
  } finally {
    closeSync(fd);
  }
}
