/**
 * The files of an extension.yaml's project as a working tree holds them, for the core (`DescriptorInput.files`,
 * core/ef2/package.ts): without them the rules that judge a Python extension's module and activation schema
 * (python-module-missing, activation-schema-invalid, activation-property-unused), the files any extension
 * lists (asset-missing) and the metrics its alert files are on (unknown-metric-reference) say nothing, and a change to a packaged file does not ask for a new version. Used by `check` and the language server.
 *
 * The project folder is user input and may be a repository's root: it is listed at most MAX_FILES files and
 * MAX_DEPTH folders deep, without what is no part of an extension (VCS data, caches, virtual environments,
 * dependencies, hidden folders) and without following symbolic links (listed by name). Past a bound nothing is
 * passed: a partial listing would call a module missing that is there. A file the review reads is read only
 * inside the repository (or the configuration's root), links resolved.
 */
import { closeSync, fstatSync, openSync, readdirSync, readSync, realpathSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { extensionReads, projectFolder, type ExtensionFiles, type FileRead } from "../core/ef2/package.js";
import { decodeUtf8 } from "../core/utf8.js";
import { parseYamlAsDynatrace } from "../core/yaml/snakeyaml.js";

export const MAX_FILES = 5000;
export const MAX_DEPTH = 16;

/** Folders that are no part of an extension's project as Dynatrace's SDK builds it. */
const SKIP_DIRS = new Set(["node_modules", "__pycache__", "venv", "env", "site-packages"]);

class Bound extends Error {}

/** The project's files below `dir`, as repository paths under `prefix`; throws Bound past a bound. */
function list(dir: string, prefix: string): string[] {
  const out: string[] = [];
  const visit = (at: string, rel: string, depth: number) => {
    if (depth > MAX_DEPTH) throw new Bound();
    for (const e of readdirSync(at, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (e.name.startsWith(".") || SKIP_DIRS.has(e.name) || e.name.endsWith(".egg-info")) continue;
        visit(join(at, e.name), `${rel}${e.name}/`, depth + 1);
      } else if (e.isFile() || e.isSymbolicLink()) {
        // A link is listed by its name, never followed: a linked module's folder is there all the same.
        if (out.length >= MAX_FILES) throw new Bound();
        out.push(`${prefix}${rel}${e.name}${e.isSymbolicLink() ? "/" : ""}`);
      }
    }
  };
  visit(dir, "", 0);
  return out;
}

/**
 * A file's bytes, undefined when it cannot be read or is not inside `root` once links are resolved (a pull
 * request's link to a file of the machine must not have it quoted in a finding); only its size when larger than
 * `limit` (as the App knows it: never read past max_file_size, a dashboard may be large), and the core says so.
 */
function readCut(path: string, limit: number, root: string): FileRead | undefined {
  let fd: number;
  try {
    if (!realpathSync(path).startsWith(realpathSync(root) + sep)) return undefined;
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    if (stat.size > limit) return { tooLarge: stat.size };
    const buffer = Buffer.alloc(stat.size);
    let got = 0;
    while (got < buffer.length) {
      const n = readSync(fd, buffer, got, buffer.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return new Uint8Array(buffer.buffer, buffer.byteOffset, got);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The value of an extension.yaml's text (undefined when it does not parse). */
export function extensionValue(content: Uint8Array | string | undefined): unknown {
  if (content === undefined) return undefined;
  const text = typeof content === "string" ? content : decodeUtf8(content).text;
  const parsed = parseYamlAsDynatrace(text);
  return parsed.ok ? parsed.value : undefined;
}

/** What the working tree gives an extension.yaml's rules: its project's files, or why they could not be listed. */
export interface ProjectOnDisk {
  files?: ExtensionFiles;
  /**
   * Why the project of an extension whose rules read it (a Python extension's module and activation schema, the
   * files an extension lists) was not listed, so that those were not checked (the rules say nothing without
   * files): for the caller to say, with `unchecked`. Unset for an extension that needs no listing.
   */
  unlisted?: string;
  /** What was not checked, for the caller's note: "its Python module and activation schema", … */
  unchecked?: string;
}

/** What an extension's rules judge on its project's files (undefined: nothing, it needs no listing). */
function judgedOnFiles(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  // Each kind of file it lists by `path` (asset-missing, unknown-metric-reference), named as its key is.
  const kinds = ["alerts", "dashboards", "documents"].filter((key) => key in value);
  const lists = kinds.length ? `the files it lists (${kinds.join(", ")})` : undefined;
  if ("python" in value)
    return lists
      ? `its Python module, its activation schema and ${lists}`
      : "its Python module and activation schema";
  return lists;
}

/**
 * The files of the project of the extension.yaml at `absolute` (its repository path `path`, its text `content`)
 * as the working tree holds them: every file's path, and the contents of those the review reads
 * (`extensionReads`), each cut past `maxBytes`; no files when the project cannot be listed whole.
 */
export function extensionFilesOnDisk(
  absolute: string,
  path: string,
  content: Uint8Array | string | undefined,
  maxBytes: number,
): ProjectOnDisk {
  // Parsed once, for what is read and what the note says (the core parses the text for its rules).
  const value = extensionValue(content);
  const unlisted = (why: string): ProjectOnDisk => {
    const unchecked = judgedOnFiles(value);
    return unchecked !== undefined ? { unlisted: why, unchecked } : {};
  };
  const normalised = absolute.replace(/\\/g, "/");
  if (!normalised.endsWith(path)) return unlisted("its project folder could not be found");
  const root = absolute.slice(0, absolute.length - path.length);
  // A path named without its folders (a file outside the configuration's root and any repository) cannot say
  // that its folder is the SDK's `extension/`: a Python project (the module beside that folder) would be
  // misplaced, so it is not judged. Any other extension's files are named from extension.yaml's own folder
  // (its alerts and dashboards), which the path does say: those are read.
  if (
    isPython(value) &&
    basename(dirname(absolute)) === "extension" &&
    !/(^|\/)extension\/extension\.yaml$/.test(path)
  )
    return unlisted(
      "outside a repository, a path without its `extension/` folder does not say where its project is (run the check in the folder above, naming extension/extension.yaml)",
    );
  const project = projectFolder(path);
  let paths: string[];
  try {
    paths = list(join(root, project), project);
  } catch (e) {
    return unlisted(
      e instanceof Bound
        ? `its project folder has more than ${MAX_FILES.toLocaleString("en-US")} files or ${MAX_DEPTH} levels of folders`
        : "its project folder could not be read",
    );
  }
  const contents = new Map<string, FileRead>();
  for (const read of extensionReads(path, value)) {
    const bytes = readCut(join(root, read), maxBytes, root);
    if (!bytes) continue;
    contents.set(read, bytes);
    // A schema outside the project folder is read all the same: it exists.
    if (!paths.includes(read)) paths.push(read);
  }
  return { files: { paths, contents } };
}

/** A Python extension: its module is beside its `extension/` folder, not in it. */
function isPython(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "python" in value;
}
