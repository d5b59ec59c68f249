/**
 * What the rules of an extension read beside its extension.yaml (core/ef2/package.ts `ExtensionFiles`), from
 * GitHub: the files of its project at the head commit (python-module-missing; asset-missing for the files
 * `alerts` and `dashboards` list; activation-schema-invalid for a schema that is not there) and a Python
 * extension's activation schema at head and base (activation-schema-invalid, activation-property-unused,
 * property-removed). Without them those rules say nothing.
 *
 * The base's project is listed too, for the base's own findings: a module, schema or listed file the change
 * breaks is a new finding, never an existing one (core/ef2/package.ts basePackage).
 *
 * Only for an extension.yaml whose text says `python`, `alerts` or `dashboards`, or holds a backslash (a YAML
 * escape may spell one of those keys without its word; no other extension names a file of its project): its
 * text is not parsed here, off the analysis thread, so the schema read is the one
 * Dynatrace's SDK writes and its examples use, `activationSchema.json` beside extension.yaml. One listing of
 * each commit's tree serves every extension of a batch.
 *
 * Every extension.yaml, whatever it says, gets the files of its project that the change touched (`changed`, from
 * the change's file list): a packaged file changed is a change to the extension (version-not-bumped).
 */
import type { DescriptorInput } from "../../core/analyse.js";
import { formatOf } from "../../core/ef2/pairing.js";
import { folderOf, projectFolder, type ExtensionFiles } from "../../core/ef2/package.js";
import { quote } from "../../format/markdown.js";
import { step } from "../api/errors.js";
import type { CommitTarget, FileAt, GitHubGateway } from "../api/port.js";
import { projectChanges } from "./extension-projects.js";

/** A project's files listed at most: past that, nothing is passed (a partial list would call a module missing). */
export const PROJECT_FILES_MAX = 5000;

/** The activation schema's name, as Dynatrace's SDK writes it beside extension.yaml. */
export const ACTIVATION_SCHEMA = "activationSchema.json";

/** Whether a file's bytes hold `word`. */
function says(content: string | Uint8Array, word: string): boolean {
  if (typeof content === "string") return content.includes(word);
  return Buffer.from(content.buffer, content.byteOffset, content.byteLength).indexOf(word, 0, "utf8") >= 0;
}

/**
 * A text that may spell a key without its word: YAML's double-quoted escapes (`"pyth\x6fn"`, `"\u0061lerts"`,
 * a line continued by `\`) make one that Dynatrace reads all the same. Every escape needs a backslash.
 */
const escapes = (content: string | Uint8Array) => says(content, "\\");

/** A Python extension writes a top-level `python:` (its module and activation schema). */
const saysPython = (content: string | Uint8Array) => says(content, "python") || escapes(content);

/** An extension that lists files of its project: a Python one, or one with `alerts` or `dashboards` (asset-missing). */
const namesFiles = (content: string | Uint8Array) =>
  saysPython(content) || says(content, "alerts") || says(content, "dashboards");

/**
 * Gives each extension.yaml of `inputs` that names files of its project its `files`, read from GitHub (one tree
 * listing of each commit for the batch, and one read of the Python extensions' activation schemas). Returns
 * notes for the summary (a project too large to list) and the bytes read.
 */
export async function addExtensionFiles(
  gw: GitHubGateway,
  target: CommitTarget,
  inputs: readonly DescriptorInput[],
  maxFileSize: number,
  others: readonly string[],
): Promise<{ notes: string[]; bytes: number }> {
  const extensions = inputs.filter((i) => formatOf(i.path) === "extension.yaml");
  // Every extension: which of its project's files changed (version-not-bumped), from the change's file list.
  for (const input of extensions) {
    const changed = projectChanges(input.path, others);
    if (changed.length) input.files = { changed };
  }
  const listed = extensions.filter((i) => i.size === undefined && namesFiles(i.content));
  if (!listed.length) return { notes: [], bytes: 0 };
  const python = new Set(listed.filter((i) => saysPython(i.content)));
  const at = { owner: target.owner, repo: target.repo };
  const folders = listed.map((i) => projectFolder(i.path));
  // A Python extension's activation schema, at head and base: indexes into `reads`.
  const reads: FileAt[] = [];
  const schemas = listed.map((i) => {
    if (!python.has(i)) return undefined;
    const head = reads.push({ ...at, ref: target.headSha, path: folderOf(i.path) + ACTIVATION_SCHEMA }) - 1;
    const base = i.base
      ? reads.push({ ...at, ref: target.baseSha, path: folderOf(i.base.path) + ACTIVATION_SCHEMA }) - 1
      : undefined;
    return { head, base };
  });
  // The base's project too, for the base's own findings (new and existing): a renamed one at its old folder.
  const based = listed.filter((i) => i.base);
  const baseFolders = based.map((i) => projectFolder(i.base!.path));
  const [headListed, baseListed, contents] = await Promise.all([
    step("content", () => gw.folderFiles({ ...at, ref: target.headSha }, folders, PROJECT_FILES_MAX)),
    based.length
      ? step("content", () => gw.folderFiles({ ...at, ref: target.baseSha }, baseFolders, PROJECT_FILES_MAX))
      : [],
    reads.length ? step("content", () => gw.readFiles(reads, maxFileSize)) : [],
  ]);
  const notes: string[] = [];
  let bytes = 0;
  listed.forEach((input, i) => {
    const paths = headListed[i];
    if (!paths) {
      const unchecked = python.has(input)
        ? "the Python module, the activation schema and the files it lists were not checked"
        : "the files it lists (alerts, dashboards) were not checked";
      notes.push(
        `${quote(input.path)}: its project folder has more than ${PROJECT_FILES_MAX.toLocaleString("en-US")} files (or GitHub cut its listing short), so ${unchecked}.`,
      );
      return;
    }
    // Repository paths as the head's extension.yaml names them (a renamed extension's base schema too).
    const schema = folderOf(input.path) + ACTIVATION_SCHEMA;
    const headContents = new Map<string, Uint8Array>();
    const baseContents = new Map<string, Uint8Array>();
    const read = schemas[i];
    const headSchema = read && contents[read.head];
    if (headSchema?.kind === "file") headContents.set(schema, headSchema.content);
    const baseSchema = read?.base === undefined ? undefined : contents[read.base];
    if (baseSchema?.kind === "file") baseContents.set(schema, baseSchema.content);
    for (const m of [headContents, baseContents]) for (const c of m.values()) bytes += c.length;
    const files: ExtensionFiles = { ...input.files, paths, contents: headContents, baseContents };
    const k = based.indexOf(input);
    const basePaths = k < 0 ? undefined : baseListed[k];
    // Written as head's paths (extensionPackage resolves what extension.yaml names from head's folder).
    if (basePaths)
      files.basePaths = basePaths.map((p) => folders[i] + p.slice((baseFolders[k] as string).length));
    input.files = files;
  });
  return { notes, bytes };
}
