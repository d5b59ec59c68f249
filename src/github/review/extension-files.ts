/**
 * What the rules of an extension read beside its extension.yaml (core/ef2/package.ts `ExtensionFiles`), from
 * GitHub: the files of its project at the head commit (python-module-missing; asset-missing for the files
 * `alerts` and `dashboards` list; activation-schema-invalid for a schema that is not there) and a Python
 * extension's activation schema at head and base (activation-schema-invalid, activation-property-unused,
 * property-removed), the alert files `alerts` lists at head and base (unknown-metric-reference, asset-missing
 * for one that is not JSON) and the dashboard files `dashboards` and `documents.dashboards` list (asset-missing
 * for one that is not JSON), as `check` reads them. A file over max_file_size is passed as its size alone. Without
 * them those rules say nothing.
 *
 * The base's project is listed too, for the base's own findings: a module, schema or listed file the change
 * breaks is a new finding, never an existing one (core/ef2/package.ts basePackage).
 *
 * Only for an extension.yaml whose text says `python`, `alerts` or `dashboards`, or holds a backslash (a YAML
 * escape may spell one of those keys without its word; no other extension names a file of its project): its
 * text is not parsed here, off the analysis thread, so the schema read is the one Dynatrace's SDK writes and its
 * examples use, `activationSchema.json` beside extension.yaml, and the alert and dashboard files are found by a
 * scan of its lines (core/ef2/package.ts alertPathsInText, dashboardPathsInText), or, in a text the scan may
 * misread, are all its JSON files. One listing of each commit's tree serves every extension of a batch, and one
 * batched read all their files.
 *
 * Every extension.yaml, whatever it says, gets the files of its project that the change touched (`changed`, from
 * the change's file list): a packaged file changed is a change to the extension (version-not-bumped).
 *
 * A project too large to list (more than PROJECT_FILES_MAX files, or GitHub cut its listing short) is a note when
 * it was so at the base already, so that an extension.yaml at the root of a large repository does not fail every
 * pull request. When the change made it so (the base's listing of its folder was whole: a renamed extension's old
 * folder, a new extension's own, none at all when the folder is new), the extension was not reviewed whole and the
 * check fails (projectsNotListed): else deleting its module and adding 5,001 files would silence the rules.
 *
 * Alert and dashboard files are read at most ALERT_READS_MAX a call (what they hold in memory is bounded as the
 * descriptors' reads are). When extensions reviewed together need more, the call reads none of them and says so
 * (`split`): the caller asks again for each half of them, so that extensions that fit alone are never cut short
 * by others (a pull request bumping many extensions' versions). An extension that alone needs more than the bound
 * is cut short, which fails the check too (alertsNotRead)
 * when the change caused it: a file it adds or modifies in the extension's project was not read, or the reads
 * the extension's base needs alone (the files its base extension.yaml lists, and every JSON file of its base
 * project when the scan may misread that text) are within the bound (a new extension's are none): else adding 80
 * JSON files to a project, or an extension listing 80 files reviewed with it, would silence its alert files.
 * An extension whose base alone needed more than the bound keeps a note, so that it does not fail every pull
 * request that touches it.
 */
import type { DescriptorInput } from "../../core/analyse.js";
import { formatOf } from "../../core/ef2/pairing.js";
import {
  alertPathsInText,
  dashboardPathsInText,
  folderOf,
  projectFolder,
  resolveFrom,
  type ExtensionFiles,
  type FileRead,
} from "../../core/ef2/package.js";
import { decodeUtf8 } from "../../core/utf8.js";
import type { NotReviewed } from "../../core/verdict.js";
import { quote } from "../../format/markdown.js";
import { step } from "../api/errors.js";
import {
  FILES_PER_READ,
  type CommitTarget,
  type FileAt,
  type FileContent,
  type GitHubGateway,
} from "../api/port.js";
import { projectChanges } from "./extension-projects.js";

/** A project's files listed at most: past that, nothing is passed (a partial list would call a module missing). */
export const PROJECT_FILES_MAX = 5000;

/** Alert and dashboard files read at most for a batch of descriptors, head and base together (each file once). */
export const ALERT_READS_MAX = 2 * FILES_PER_READ;

/** Why extensions whose alert and dashboard files the change left unread fail the check (`unread`). */
export function alertsNotRead(paths: readonly string[]): NotReviewed {
  return {
    paths,
    why: `A review reads at most ${ALERT_READS_MAX} alert and dashboard files of an extension, head and base together (the files \`alerts\` and \`dashboards\` list, or every JSON file of a project whose extension.yaml may list them in a way its lines do not show), so some of the files they list were not read and not checked, and this change caused it: it adds or modifies some of those files, or the extension's base alone needed no more than ${ALERT_READS_MAX}. Keep the JSON files of a project whose extension.yaml uses YAML escapes, anchors, aliases or tags within ${ALERT_READS_MAX}`,
  };
}

/** The activation schema's name, as Dynatrace's SDK writes it beside extension.yaml. */
export const ACTIVATION_SCHEMA = "activationSchema.json";

/** Why extensions whose project the change made too large to list fail the check (addExtensionFiles `unlisted`). */
export function projectsNotListed(paths: readonly string[]): NotReviewed {
  const bound = PROJECT_FILES_MAX.toLocaleString("en-US");
  return {
    paths,
    why: `The project folders of these extensions have more than ${bound} files at the head commit (or GitHub cut their listing short), and had not at the base commit: this change made them too large to list, so the files of their projects (a Python module, the activation schema, the files \`alerts\` and \`dashboards\` list) were not checked. Keep each project within ${bound} files (move what is not the extension's out of its folder)`,
  };
}

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

/** A descriptor's text, for a scan of its lines (an undecodable byte reads as U+FFFD). */
const textOf = (content: string | Uint8Array) =>
  typeof content === "string" ? content : decodeUtf8(content).text;

/** A file GitHub gave, as the core reads it: its bytes, or only its size when over `max_file_size`. */
const readOf = (file: Exclude<FileContent, { kind: "missing" }>): FileRead =>
  file.kind === "file" ? file.content : { tooLarge: file.size };

/**
 * A text whose `alerts` list a scan of its lines may not see as YAML reads it: an escape may spell the key or a
 * path, an anchor and alias or a tag may put the list elsewhere, a complex key (`? `) may name it. Such an
 * extension's JSON files are all read as alert files it may list (rarely needed: none of Dynatrace's published
 * extensions writes one of these), so that no alert file goes unchecked in the App where `check` checks it.
 */
const unsure = (content: string | Uint8Array) =>
  escapes(content) || /(?:^|[\s[{,])[&*!][^\s,\]}]|^\?\s/m.test(textOf(content));

/** A Python extension writes a top-level `python:` (its module and activation schema). */
const saysPython = (content: string | Uint8Array) => says(content, "python") || escapes(content);

/**
 * The top-level keys under which an extension lists files by `path` (`documents`: its `dashboards`), for a note,
 * as `check` names them: " (alerts, documents)"; empty when no line starts with one (a key spelled otherwise).
 */
function listsNamed(content: string | Uint8Array): string {
  const text = textOf(content);
  const keys = ["alerts", "dashboards", "documents"].filter((key) =>
    new RegExp(`^["']?${key}["']?[ \t]*:`, "m").test(text),
  );
  return keys.length ? ` (${keys.join(", ")})` : "";
}

/** An extension that lists files of its project: a Python one, or one with `alerts` or `dashboards` (asset-missing). */
const namesFiles = (content: string | Uint8Array) =>
  saysPython(content) || says(content, "alerts") || says(content, "dashboards");

/**
 * Gives each extension.yaml of `inputs` that names files of its project its `files`, read from GitHub (one tree
 * listing of each commit for the batch, and one read of the Python extensions' activation schemas). Returns
 * notes for the summary (a project too large to list at base and head, alert and dashboard files past the bound
 * at the base already), the extensions whose project the change made too large to list (`unlisted`:
 * projectsNotListed), those whose alert and dashboard files the change left unread (`unread`: alertsNotRead) and
 * the bytes read.
 */
export async function addExtensionFiles(
  gw: GitHubGateway,
  target: CommitTarget,
  inputs: readonly DescriptorInput[],
  maxFileSize: number,
  others: readonly string[],
): Promise<{ notes: string[]; unlisted: string[]; unread: string[]; bytes: number; split?: true }> {
  const extensions = inputs.filter((i) => formatOf(i.path) === "extension.yaml");
  // Every extension: which of its project's files changed (version-not-bumped), from the change's file list.
  for (const input of extensions) {
    const changed = projectChanges(input.path, others);
    if (changed.length) input.files = { changed };
  }
  const listed = extensions.filter((i) => i.size === undefined && namesFiles(i.content));
  if (!listed.length) return { notes: [], unlisted: [], unread: [], bytes: 0 };
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
  // The alert files `alerts` lists (unknown-metric-reference, asset-missing), as `check` reads them: head's at
  // head, and head's and base's at base, each by head's path (a renamed extension's from its old folder).
  // The dashboard files `dashboards` and `documents.dashboards` list (asset-missing: each must be JSON) too,
  // after the alert files. Each file once a call, and at most ALERT_READS_MAX of them, alert and dashboard
  // files together: what they hold in memory is bounded as the descriptors' reads are, whatever the extensions
  // list. `cutShort`: which kinds of an extension's files were not read past the bound; `unreadAtHead`: their
  // paths at head (did the change add or modify one?).
  const alertReads = new Map<string, number>();
  const cutShort = new Map<DescriptorInput, Set<string>>();
  const unreadAtHead = new Map<DescriptorInput, Set<string>>();
  const readAlert = (
    input: DescriptorInput,
    ref: string,
    path: string,
    kind = "alert files",
  ): number | undefined => {
    const key = `${ref}:${path}`;
    let index = alertReads.get(key);
    if (index === undefined && alertReads.size < ALERT_READS_MAX)
      alertReads.set(key, (index = reads.push({ ...at, ref, path }) - 1));
    if (index === undefined) cutShort.set(input, (cutShort.get(input) ?? new Set()).add(kind));
    if (index === undefined && ref === target.headSha)
      unreadAtHead.set(input, (unreadAtHead.get(input) ?? new Set()).add(path));
    return index;
  };
  const listedIn = (content: string | Uint8Array) => ({
    alerts: says(content, "alerts") ? alertPathsInText(textOf(content)) : [],
    dashboards: says(content, "dashboards") ? dashboardPathsInText(textOf(content)) : [],
  });
  const alerts = listed.map((i) => {
    const head = listedIn(i.content);
    const base = i.base ? listedIn(i.base.content) : { alerts: [], dashboards: [] };
    const out: { path: string; head?: number; base?: number }[] = [];
    for (const kind of ["alerts", "dashboards"] as const)
      for (const relative of new Set([...head[kind], ...base[kind]])) {
        const path = resolveFrom(folderOf(i.path), relative);
        if (path === undefined || out.some((e) => e.path === path)) continue;
        const entry: { path: string; head?: number; base?: number } = { path };
        const named = kind === "alerts" ? "alert files" : "dashboards";
        if (head[kind].includes(relative)) entry.head = readAlert(i, target.headSha, path, named);
        const from = i.base && resolveFrom(folderOf(i.base.path), relative);
        if (from !== undefined) entry.base = readAlert(i, target.baseSha, from, named);
        out.push(entry);
      }
    return out;
  });
  // The base's project too, for the base's own findings (new and existing): a renamed one at its old folder.
  const based = listed.filter((i) => i.base);
  const baseFolders = based.map((i) => projectFolder(i.base!.path));
  const [headListed, baseListed, firstRead] = await Promise.all([
    step("content", () => gw.folderFiles({ ...at, ref: target.headSha }, folders, PROJECT_FILES_MAX)),
    based.length
      ? step("content", () => gw.folderFiles({ ...at, ref: target.baseSha }, baseFolders, PROJECT_FILES_MAX))
      : [],
    reads.length ? step("content", () => gw.readFiles(reads, maxFileSize)) : [],
  ]);
  const contents: FileContent[] = [...firstRead];
  // A text the scan may have misread: every JSON file of its project not read yet, read as an alert or dashboard
  // file it may list (at head, and at base by head's path as above), in a second read once the listings are in;
  // bounded as above (past the bound, the note below).
  const first = reads.length;
  listed.forEach((input, i) => {
    const paths = headListed[i];
    if (!paths || !(unsure(input.content) || (input.base && unsure(input.base.content)))) return;
    const folder = folderOf(input.path);
    const k = based.indexOf(input);
    const basePaths = k < 0 ? undefined : new Set(baseListed[k]);
    for (const path of paths) {
      if (!/\.json$/i.test(path) || path === folder + ACTIVATION_SCHEMA) continue;
      if (alerts[i]!.some((e) => e.path === path)) continue;
      const entry: { path: string; head?: number; base?: number } = {
        path,
        head: readAlert(input, target.headSha, path, "JSON files"),
      };
      const from = input.base && folderOf(input.base.path) + path.slice(folder.length);
      if (from !== undefined && basePaths?.has(from))
        entry.base = readAlert(input, target.baseSha, from, "JSON files");
      alerts[i]!.push(entry);
    }
  });
  if (reads.length > first)
    contents.push(...(await step("content", () => gw.readFiles(reads.slice(first), maxFileSize))));
  // A project head cannot list: did the change make it so? Only if the base listed it whole (a new extension's
  // folder is listed at the base only now: a call only when a project is not listed).
  const fresh = listed.filter((input, i) => !headListed[i] && !input.base);
  const freshListed = fresh.length
    ? await step("content", () =>
        gw.folderFiles(
          { ...at, ref: target.baseSha },
          fresh.map((input) => projectFolder(input.path)),
          PROJECT_FILES_MAX,
        ),
      )
    : [];
  const unlisted: string[] = [];
  const notes: string[] = [];
  // The reads a review of an extension's base alone needs: the files its base extension.yaml lists, and every
  // JSON file of its base project when the scan may misread that text.
  const baseNeeds = (input: DescriptorInput): number => {
    const k = based.indexOf(input);
    if (k < 0 || !input.base) return 0;
    const baseFolder = folderOf(input.base.path);
    const needed = new Set<string>();
    const named = listedIn(input.base.content);
    for (const relative of [...named.alerts, ...named.dashboards]) {
      const path = resolveFrom(baseFolder, relative);
      if (path !== undefined) needed.add(path);
    }
    if (unsure(input.base.content))
      for (const path of baseListed[k] ?? [])
        if (/\.json$/i.test(path) && path !== baseFolder + ACTIVATION_SCHEMA) needed.add(path);
    return needed.size;
  };
  // Cut short by the others' reads: nothing of this call is kept, the caller asks for each half (the reads of
  // one extension alone are judged below).
  if (cutShort.size && listed.length > 1)
    return { notes: [], unlisted: [], unread: [], bytes: 0, split: true };
  const unread: string[] = [];
  for (const [input, kinds] of cutShort) {
    const changed = new Set(input.files?.changed);
    const touched = [...(unreadAtHead.get(input) ?? [])].some((path) => changed.has(path));
    if (touched || baseNeeds(input) <= ALERT_READS_MAX) {
      unread.push(input.path);
      continue;
    }
    notes.push(
      `${quote(input.path)}: it lists more than ${ALERT_READS_MAX} alert and dashboard files (head and base together), so some of its ${[...kinds].join(" and ")} were not read and not checked.`,
    );
  }
  let bytes = 0;
  listed.forEach((input, i) => {
    const paths = headListed[i];
    if (!paths) {
      const k = based.indexOf(input);
      const before = k < 0 ? freshListed[fresh.indexOf(input)] : baseListed[k];
      if (before) return void unlisted.push(input.path);
      const unchecked = python.has(input)
        ? "the Python module, the activation schema and the files it lists were not checked"
        : `the files it lists${listsNamed(input.content)} were not checked`;
      notes.push(
        `${quote(input.path)}: its project folder has more than ${PROJECT_FILES_MAX.toLocaleString("en-US")} files (or GitHub cut its listing short), so ${unchecked}.`,
      );
      return;
    }
    // Repository paths as the head's extension.yaml names them (a renamed extension's base schema too).
    const schema = folderOf(input.path) + ACTIVATION_SCHEMA;
    const headContents = new Map<string, FileRead>();
    const baseContents = new Map<string, FileRead>();
    const read = schemas[i];
    const headSchema = read && contents[read.head];
    if (headSchema && headSchema.kind !== "missing") headContents.set(schema, readOf(headSchema));
    const baseSchema = read?.base === undefined ? undefined : contents[read.base];
    if (baseSchema && baseSchema.kind !== "missing") baseContents.set(schema, readOf(baseSchema));
    for (const alert of alerts[i]!) {
      const head = alert.head === undefined ? undefined : contents[alert.head];
      if (head && head.kind !== "missing") headContents.set(alert.path, readOf(head));
      const base = alert.base === undefined ? undefined : contents[alert.base];
      if (base && base.kind !== "missing") baseContents.set(alert.path, readOf(base));
    }
    for (const m of [headContents, baseContents])
      for (const c of m.values()) if (c instanceof Uint8Array) bytes += c.length;
    const files: ExtensionFiles = { ...input.files, paths, contents: headContents, baseContents };
    const k = based.indexOf(input);
    const basePaths = k < 0 ? undefined : baseListed[k];
    // Written as head's paths (extensionPackage resolves what extension.yaml names from head's folder).
    if (basePaths)
      files.basePaths = basePaths.map((p) => folders[i] + p.slice((baseFolders[k] as string).length));
    input.files = files;
  });
  return { notes, unlisted, unread, bytes };
}
