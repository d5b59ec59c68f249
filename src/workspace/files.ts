/** Turns the command line's files, directories and globs into descriptor files. */
import {
  closeSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  readdir,
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
  problems: string[],
): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    // Said, and the walk goes on: the other folders that cannot be read are named in the same run.
    problems.push(`cannot read directory '${display}': ${describeErrno(e)}`);
    return;
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
    if (e.isDirectory() && !SKIP_DIRS.has(e.name)) walk(abs, disp, match, out, problems);
  }
}

/** A name a descriptor can have: JSON (plugin.json) or YAML (extension.yaml). */
const DESCRIPTOR_NAME = /\.(json|ya?ml)$/i;

/** What a folder's entry that is not a file (nor a link to one) is, as a user would name it. */
function kindOf(e: Dirent | Stats): string {
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
 * The glob's file system. tinyglobby lists files (and folders) only: it resolves every symbolic link, drops one it
 * cannot resolve (its target missing, a loop) and walks one to a folder, and it drops a named pipe, a socket or
 * a device; a glob would leave out in silence what a folder walked names. So its folders' listings show a
 * link that leads nowhere, and anything else under a descriptor's name that is no folder, as a file: listed,
 * it fails saying what it is (expandArgs), as in a folder walked.
 */
const NO_FILE_LEFT_OUT: FileSystemAdapter = {
  // Only the callback form is called (the asynchronous crawl); Node's types also name its promisified forms.
  readdir: ((
    path: string,
    options: { withFileTypes: true },
    callback: (error: NodeJS.ErrnoException | null, entries: Dirent[]) => void,
  ) =>
    readdir(path, options, (error, entries) =>
      callback(
        error,
        (entries ?? []).map((e) => (shownAsFile(e, join(path, e.name)) ? asFile(e) : e)),
      ),
    )) as typeof readdir,
};

/** Is a folder's entry one a glob must match as a file (NO_FILE_LEFT_OUT)? */
function shownAsFile(e: Dirent, path: string): boolean {
  if (e.isFile() || e.isDirectory()) return false;
  if (e.isSymbolicLink()) return isBroken(path) || (DESCRIPTOR_NAME.test(e.name) && !isFile(path));
  return DESCRIPTOR_NAME.test(e.name);
}

/** The entry as a file's: matched by name, never walked nor resolved. */
function asFile(e: Dirent): Dirent {
  const file = Object.create(e) as Dirent;
  file.isFile = () => true;
  file.isDirectory = () => false;
  file.isSymbolicLink = () => false;
  return file;
}

/**
 * What a path a glob matched is: a file to read (or a link that leads nowhere, which fails saying why), or what
 * it is instead, under a descriptor's name (a folder named plugin.json, a named pipe); undefined for a folder
 * under any other name (`plugins/*` matches folders: they are not descriptors).
 */
function globbedKind(absolute: string, folder: boolean): { notFile?: string } | undefined {
  if (!DESCRIPTOR_NAME.test(absolute)) return folder ? undefined : {};
  if (folder) return { notFile: "a directory" };
  try {
    const st = lstatSync(absolute);
    if (st.isFile() || (st.isSymbolicLink() && (isFile(absolute) || isBroken(absolute)))) return {};
    return { notFile: kindOf(st) };
  } catch {
    return {};
  }
}

/** What is wrong with one argument (expandArg): said with the others', never a configuration's error. */
class ArgumentProblem extends Error {}

/**
 * Problems with the files given, each a line naming one argument or file and why (`cannot read 'x': permission
 * denied`), as one error: the problem itself when there is one, else the count with each below it, so that a
 * fleet's owner fixes them all at once rather than one a run.
 */
export function filesProblem(problems: readonly string[], consequence = ""): UsageError {
  if (problems.length === 1) return new UsageError(problems[0]!);
  return new UsageError(`${problems.length} problems with the files given${consequence}:`, problems);
}

/**
 * Expands arguments. A directory means every file below it that the configuration applying to it reviews
 * (its `paths`, default `**\/plugin.json` and `**\/extension.yaml`, and the extension.yaml files they reach:
 * core/ef2/pairing.ts); a file is taken as named; anything else with glob characters is a glob. An argument
 * that yields nothing is an error, never silently skipped. Every argument is expanded whatever the others'
 * problems: given `problems`, each is added there (for the caller to name with its own); without, they fail
 * together (filesProblem).
 */
export async function expandArgs(
  args: readonly string[],
  cwd: string,
  configs: ConfigLookup,
  problems?: string[],
): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const found: string[] = problems ?? [];
  for (const arg of args) {
    try {
      await expandArg(arg, cwd, configs, out, found);
    } catch (e) {
      if (!(e instanceof ArgumentProblem)) throw e;
      found.push(e.message);
    }
  }
  if (!problems && found.length) throw filesProblem(found);
  // The same file named twice (a file and its directory) is checked once, as named if it was (explicit).
  return onceEach(out, (c) => c.absolute);
}

async function expandArg(
  arg: string,
  cwd: string,
  configs: ConfigLookup,
  out: Candidate[],
  problems: string[],
): Promise<void> {
  // `check "$FILE"` with FILE unset: "" would resolve to the working directory and review all of it.
  if (arg === "") throw new ArgumentProblem("an empty argument names no file (a variable that is not set?)");
  const abs = resolve(cwd, arg);
  // Nothing there (or a glob): undefined. Something there that cannot be looked at (a folder on its path
  // that may not be entered, a symbolic link that leads back to itself) says why, not "no such file".
  const stat = (follow: boolean) => {
    try {
      return (follow ? statSync : lstatSync)(abs);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw new ArgumentProblem(`cannot read '${arg}': ${describeErrno(e)}`);
    }
  };
  const st = stat(false);
  if (st && (st.isDirectory() || (st.isSymbolicLink() && stat(true)?.isDirectory()))) {
    const before = out.length;
    const problemsBefore = problems.length;
    walk(abs, arg, (file) => descriptorPath(configs, file, abs), out, problems);
    // A folder that could not be read was named: what it holds is not known to be nothing.
    if (out.length === before && problems.length === problemsBefore) {
      const paths = configs.findForDir(abs).config.paths;
      throw new ArgumentProblem(
        `no descriptors found under '${arg}' (looked for ${paths.join(", ")}; node_modules and .git are not searched)`,
      );
    }
  } else if (st) {
    out.push({ display: arg, absolute: abs, explicit: true });
  } else if (GLOB_CHARS.test(arg)) {
    // node_modules and .git are searched only where the glob names them, as a folder argument is walked.
    const unnamed = [...SKIP_DIRS].filter((name) => !arg.split(/[\\/]/).includes(name));
    // Folders too (a trailing `/`), for one named as a descriptor is (NO_FILE_LEFT_OUT, globbedKind).
    const found = await tinyglob(arg, {
      cwd,
      onlyFiles: false,
      ignore: unnamed.map((name) => `**/${name}/**`),
      expandDirectories: false,
      fs: NO_FILE_LEFT_OUT,
    });
    const matched = found
      .map((f) => ({ path: f.replace(/\/$/, ""), folder: f.endsWith("/") }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const before = out.length;
    for (const { path, folder } of matched) {
      const absolute = resolve(cwd, path);
      const kind = globbedKind(absolute, folder);
      if (kind) out.push({ display: path, absolute, explicit: false, ...kind });
    }
    if (out.length === before)
      throw new ArgumentProblem(
        `no files match '${arg}'${unnamed.length ? ` (${unnamed.join(" and ")} folders are searched only where it names them)` : ""}`,
      );
  } else {
    throw new ArgumentProblem(`cannot read '${arg}': no such file or directory`);
  }
}

/**
 * Candidates that are one file by `key` (its path; its path with links resolved), each once: where it first
 * came, as the user named it if they did (a file named is always checked: `--base-ref`), else as first found;
 * `leftOut` hears of each other path of it, with the one kept.
 */
export function onceEach(
  candidates: readonly Candidate[],
  key: (c: Candidate) => string,
  leftOut?: (path: Candidate, kept: Candidate) => void,
): Candidate[] {
  const kept = new Map<string, number>();
  const out: Candidate[] = [];
  const dropped: [Candidate, string][] = [];
  for (const c of candidates) {
    const k = key(c);
    const at = kept.get(k);
    if (at === undefined) {
      kept.set(k, out.length);
      out.push(c);
    } else if (c.explicit && !out[at]!.explicit) {
      dropped.push([out[at]!, k]);
      out[at] = c;
    } else dropped.push([c, k]);
  }
  for (const [c, k] of dropped)
    if (c.display !== out[kept.get(k)!]!.display) leftOut?.(c, out[kept.get(k)!]!);
  return out;
}

/** A candidate's bytes, as readLimited reads them; one found that is no file is not opened, and fails saying so. */
export function readCandidate(c: Candidate, limit: number): LimitedRead {
  if (c.notFile !== undefined)
    throw new UsageError(`cannot read '${c.display}': it is ${c.notFile}, not a file`);
  return readLimited(c.absolute, c.display, limit);
}

/**
 * What `readLimited` read: the bytes and the file's size; `sizeIsLowerBound` when it is a pipe or a device read
 * to the limit and a byte, whose size is only known to be at least that.
 */
export interface LimitedRead {
  content: Uint8Array;
  size: number;
  sizeIsLowerBound?: true;
}

/** Reads at most `limit + 1` bytes: enough to tell a file is over the limit without loading 50 MB. */
export function readLimited(path: string, display: string, limit: number): LimitedRead {
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
      ...(stream && got === want ? { sizeIsLowerBound: true as const } : {}),
    };
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read '${display}': ${describeErrno(e)}`);
  } finally {
    closeSync(fd);
  }
}
