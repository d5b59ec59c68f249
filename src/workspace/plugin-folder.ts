/**
 * An EF1 Python plugin's folder, read for `migrate`: every file beside its plugin.json (the EF1 engine loaded the
 * plugin's code from there, and its packaging zipped that folder), bounded, because the folder is user input
 * and may be a repository's root: at most MAX_FILES files and MAX_BYTES bytes, MAX_DEPTH folders deep. Over a
 * bound nothing is read and the reason says which (the project then gets a to-do, never part of the code).
 * Symbolic links are not followed (one could name any file of the machine); they are listed as skipped.
 */
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readSync, type Dirent } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

export const MAX_FILES = 1000;
export const MAX_BYTES = 50 * 1024 * 1024;
export const MAX_DEPTH = 16;

/** Folders that are not the plugin's code: VCS data, caches, virtual environments, dependencies. */
const SKIP_DIRS = new Set([
  ".git",
  ".hg",
  ".svn",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".nox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".idea",
  ".vscode",
  "node_modules",
]);

export interface PluginFolder {
  /** The folder as the user named it (the descriptor's argument's folder). */
  folder: string;
  files: { path: string; bytes: Uint8Array }[];
  /** Why nothing was read. */
  problem?: string;
  /** What was left out on purpose, and why (links, hidden files, an EF2 extension, the output folder). */
  skipped: { path: string; why: string }[];
}

class Bound extends Error {}

const OUTPUT = "the migration's output";

/** The record migrate keeps in each folder it writes (src/migrate/manifest.ts's MANIFEST_FILE; this layer may not
 * import that one). */
export const MIGRATION_RECORD = ".plugin-review-migrate.json";

/** The order the folder is read in: name by name, each folder's entries sorted, depth first. */
function readOrder(a: string, b: string): number {
  const x = a.replace(/\/$/, "").split("/");
  const y = b.replace(/\/$/, "").split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The files of the folder of `descriptor` (a path as given, resolved against `cwd`), without the folders named
 * and files named in `exclude` (the files an earlier run of migrate wrote there, left out in silence) and without an
 * `extension/` folder holding an extension.yaml (an EF2 extension beside the plugin, not its code; in silence
 * when migrate wrote it). `output`, the migration's folder, is left out and listed when it is inside, also before
 * it exists, so that a second run lists what the first did.
 */
export function readPluginFolder(
  descriptor: string,
  cwd: string,
  exclude: readonly string[] = [],
  output?: string,
): PluginFolder {
  const shown = dirname(descriptor);
  const root = resolve(cwd, shown);
  const out: PluginFolder = { folder: shown, files: [], skipped: [] };
  const outputAt = output === undefined ? undefined : resolve(cwd, output);
  const excluded = new Set(
    [...exclude, ...(output === undefined ? [] : [output])].map((e) => resolve(cwd, e)),
  );
  let bytes = 0;
  const visit = (dir: string, depth: number) => {
    if (depth > MAX_DEPTH) throw new Bound(`it is more than ${MAX_DEPTH} folders deep`);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      // The plugin's folder itself: nothing is read. A folder below it: named, and the rest is read.
      if (dir === root) throw e;
      out.skipped.push({ path: `${relative(root, dir).split(sep).join("/")}/`, why: unreadable(e) });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const abs = join(dir, e.name);
      const rel = relative(root, abs).split(sep).join("/");
      if (e.isSymbolicLink()) {
        out.skipped.push({ path: rel, why: "a symbolic link, not followed (it may name any file)" });
      } else if (e.isDirectory() && (SKIP_DIRS.has(e.name) || e.name.endsWith(".egg-info"))) {
        continue;
      } else if (e.isFile() && excluded.has(abs)) {
        // A file an earlier run of migrate wrote here (its .gitignore too): its own, not the plugin's.
        continue;
      } else if (e.isDirectory() && excluded.has(abs)) {
        out.skipped.push({ path: `${rel}/`, why: OUTPUT });
      } else if (e.name.startsWith(".")) {
        // .env and the like hold a machine's settings or secrets, which the extension's package must not carry.
        out.skipped.push({
          path: rel,
          why: "hidden: not copied into a package that is uploaded (copy it if the code needs it)",
        });
      } else if (e.isDirectory()) {
        if (depth === 0 && e.name === "extension" && isFile(join(abs, "extension.yaml"))) {
          // The extension an earlier run wrote beside plugin.json (`--out` the plugin's folder) is migrate's own.
          if (!excluded.has(join(abs, "extension.yaml")))
            out.skipped.push({ path: `${rel}/`, why: "an EF2 extension, not the plugin's code" });
          continue;
        }
        // A migration's folder (its record there): one a fleet's run wrote in the plugin's folder (`--out` it), its
        // own or another descriptor's. Migrate's, not the plugin's code: copied, it would grow with every run.
        if (isFile(join(abs, MIGRATION_RECORD))) continue;
        visit(abs, depth + 1);
      } else if (e.isFile()) {
        if (/\.py[co]$/.test(e.name)) continue;
        if (out.files.length >= MAX_FILES) throw new Bound(`it holds more than ${MAX_FILES} files`);
        let content;
        try {
          content = readBounded(abs, MAX_BYTES - bytes);
        } catch (e) {
          // One file that cannot be read (no permission) is named; the others are still copied.
          out.skipped.push({ path: rel, why: unreadable(e) });
          continue;
        }
        if (!content) throw new Bound(`its files are larger than ${MAX_BYTES / 1024 / 1024} MB together`);
        bytes += content.length;
        out.files.push({ path: rel, bytes: content });
      } else {
        // Never opened (a named pipe would wait for a writer): named, as everything left out is.
        out.skipped.push({ path: rel, why: `${kindOf(e)}, not a file` });
      }
    }
  };
  try {
    visit(root, 0);
    // The output inside the folder, not there yet (the first run): listed as the next run, which finds it, lists
    // it, in the order the folders are read in.
    const rel = outputAt === undefined ? "" : relative(root, outputAt);
    if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) && !exists(outputAt!)) {
      out.skipped.push({ path: `${rel.split(sep).join("/")}/`, why: OUTPUT });
      out.skipped.sort((a, b) => readOrder(a.path, b.path));
    }
  } catch (e) {
    out.files = [];
    const why =
      e instanceof Bound
        ? `${e.message}, more than migrate copies (move plugin.json and its code into a folder of their own)`
        : `it could not be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
    out.problem = `the plugin's folder ${JSON.stringify(shown)} was not copied: ${why}`;
  }
  return out;
}

/** Why an entry of the folder could not be read, as a user would fix it. */
function unreadable(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return `it could not be read (${code === "EACCES" || code === "EPERM" ? "no permission" : (code ?? String(e))})`;
}

/** What an entry that is neither a file, a folder nor a link is. */
function kindOf(e: Dirent): string {
  if (e.isFIFO()) return "a named pipe";
  if (e.isSocket()) return "a socket";
  if (e.isBlockDevice() || e.isCharacterDevice()) return "a device";
  return "something other than a file";
}

function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/** A file's bytes, or undefined when it is larger than `limit` (read no further than that). */
function readBounded(path: string, limit: number): Uint8Array | undefined {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size > limit) return undefined;
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return new Uint8Array(buffer.buffer, buffer.byteOffset, read);
  } finally {
    closeSync(fd);
  }
}
