/**
 * The files beside an extension.yaml, as the rules that check what it references read them. The core reads no
 * disk: its caller (the App, the CLI, the language server) lists the extension's files and reads the few the
 * review needs (`extensionReads` names them), and passes them in `DescriptorInput.files`. Per Dynatrace's
 * packaging, the extension is extension.yaml and what it references (alerts, dashboards, the activation
 * schema), and a Python extension's module is built from the project folder beside `extension/`. Pure.
 */
import { get } from "../guards.js";
import { decodeUtf8, utf8Length } from "../utf8.js";
import { selectorReferences, type SelectorReference } from "./selector.js";

/** What a caller passes of the files of the extension whose extension.yaml it reviews (`DescriptorInput.files`). */
export interface ExtensionFiles {
  /**
   * Every file of the extension's project at head, as repository paths (written as `DescriptorInput.path` is):
   * the files under the folder that holds extension.yaml and, when that folder is `extension/`, under its parent
   * (`projectFolder`: the Python SDK's layout, where the module's folder is beside `extension/`). Undefined when
   * the caller did not list them (the App lists them for an extension.yaml that says `alerts`,
   * `dashboards` or `python` only): the rules that need the list say
   * nothing, never that a file is missing.
   */
  paths?: readonly string[];
  /** The head contents of the files `extensionReads` names, by repository path (a file absent here is unread). */
  contents?: ReadonlyMap<string, FileRead>;
  /** The same files in the base, by repository path, when the base has them. */
  baseContents?: ReadonlyMap<string, FileRead>;
  /**
   * Every file of the project in the base, as `paths` (by head's paths where the extension was renamed): what
   * the base's own findings are judged on. Without it the base has none of the findings these files decide, so
   * that head's are new: never head's files taken for the base's.
   */
  basePaths?: readonly string[];
  /** The repository paths of the project's files that the change adds, modifies or deletes (extension.yaml aside). */
  changed?: readonly string[];
}

/**
 * A file's content as its caller read it: its text or bytes, or only its size when it is larger than the caller
 * reads (the App: GitHub answers a file over `max_file_size` with its size alone).
 */
export type FileRead = string | Uint8Array | { tooLarge: number };

/** A file the review read: its text, or why it has none. */
export type FileText = { text: string } | { problem: string; tooLarge?: true };

/** What the rules read of an extension's files. */
export interface ExtensionPackage {
  /** The folder that holds extension.yaml: "" at the repository's root, else a path ending in `/`. */
  folder: string;
  /** The folder of the Python SDK's project (`projectFolder`). */
  project: string;
  /** Undefined when not listed (`ExtensionFiles.paths`). */
  paths: ReadonlySet<string> | undefined;
  changed: readonly string[];
  /** A file named relative to extension.yaml, at head (`base`: in the base), when the caller read it. */
  read(relative: string, base?: boolean): FileText | undefined;
  /** The repository path of a path named relative to extension.yaml (undefined when it leaves the repository). */
  resolve(relative: string): string | undefined;
}

/** The folder of a repository path, "" or ending in `/`. */
export function folderOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut < 0 ? "" : path.slice(0, cut + 1);
}

/**
 * The Python SDK's project folder of an extension.yaml: the parent of its `extension/` folder (where the SDK
 * puts the module's folder and setup.py), else the folder that holds it.
 */
export function projectFolder(path: string): string {
  const folder = folderOf(path);
  if (folder === "extension/") return "";
  return folder.endsWith("/extension/") ? folder.slice(0, -"extension/".length) : folder;
}

/** `relative` (as extension.yaml writes a path) from `folder`, normalised; undefined when it leaves the root. */
export function resolveFrom(folder: string, relative: string): string | undefined {
  const parts = folder.split("/").filter(Boolean);
  for (const seg of relative.replace(/\\/g, "/").split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (!parts.length) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join("/");
}

/** The paths extension.yaml names that the review reads (the activation schemas), relative to it, as written. */
function readRelative(value: unknown): string[] {
  const activation = (value as { python?: { activation?: Record<string, { path?: unknown }> } } | undefined)
    ?.python?.activation;
  const out: string[] = [];
  for (const where of ["remote", "local"]) {
    const path = activation?.[where]?.path;
    if (typeof path === "string" && !out.includes(path)) out.push(path);
  }
  return out;
}

/**
 * The alert files `alerts` lists, relative to extension.yaml, as written: at most MAX_ALERT_READS (Dynatrace
 * takes ten; past that the file is refused anyway, and its length never decides how much is read).
 */
export function alertPaths(value: unknown): string[] {
  return entryPaths([(value as { alerts?: unknown } | undefined)?.alerts], MAX_ALERT_READS);
}

/** The `path` of the first `max` entries of each list (lists `{path}` in extension.yaml), each path once. */
function entryPaths(lists: readonly unknown[], max: number): string[] {
  const out: string[] = [];
  for (const list of lists)
    for (const entry of Array.isArray(list) ? list.slice(0, max) : []) {
      const path = (entry as { path?: unknown } | null)?.path;
      if (typeof path === "string" && !out.includes(path)) out.push(path);
    }
  return out;
}

/** The alert files read at most (Dynatrace takes ten `alerts`). */
export const MAX_ALERT_READS = 20;

/** A top-level key of a YAML line (`alerts:`, `"alerts":`), or undefined for any other line. */
const TOP_KEY = /^(?:"([^"]*)"|'([^']*)'|([^\s#'"{[\]},:-][^\s:]*))\s*:(?:\s|$)/;

/** A `path:` member and its value (quoted or plain), as a block or flow mapping writes it. */
const PATH_MEMBER = /(?:^|[\s{,])["']?path["']?\s*:\s*(?:"([^"]*)"|'([^']*)'|([^\s,}\]#"']+))/g;

/**
 * The paths an extension.yaml's `alerts` lists, found in its text without parsing it (one pass over its lines,
 * for a caller that reads the files before the document is parsed elsewhere, as the App does): the `path`
 * members written under the top-level `alerts:`, in block or flow style, at most MAX_ALERT_READS. A path it
 * misses is only unread, and one it takes wrongly only read: the rules judge the entries of the parsed document.
 */
export function alertPathsInText(text: string): string[] {
  const out: string[] = [];
  let inAlerts = false;
  for (const line of text.split("\n")) {
    const top = TOP_KEY.exec(line);
    if (top) inAlerts = (top[1] ?? top[2] ?? top[3]) === "alerts";
    else if (/^[^\s#-]/.test(line)) inAlerts = false;
    if (!inAlerts) continue;
    for (const m of line.matchAll(PATH_MEMBER)) {
      const path = (m[1] ?? m[2] ?? m[3])!.trim();
      if (path !== "" && !out.includes(path)) out.push(path);
      if (out.length >= MAX_ALERT_READS) return out;
    }
  }
  return out;
}

/**
 * The dashboard files read at most of each list, `dashboards` and `documents.dashboards` (Dynatrace takes ten
 * `dashboards`; past that the file is refused anyway, and a list's length never decides how much is read).
 */
export const MAX_DASHBOARD_READS = 20;

/**
 * The dashboard files `dashboards` and `documents.dashboards` list, relative to extension.yaml, as written: the
 * first MAX_DASHBOARD_READS entries of each, each path once.
 */
export function dashboardPaths(value: unknown): string[] {
  const doc = value as { dashboards?: unknown; documents?: unknown } | undefined;
  const documents = (doc?.documents as { dashboards?: unknown } | null | undefined)?.dashboards;
  return entryPaths([doc?.dashboards, documents], MAX_DASHBOARD_READS);
}

/** A key of a YAML line, indented (`  dashboards:`), and its indentation. */
const NESTED_KEY = /^([ \t]*)(?:"([^"]*)"|'([^']*)'|([^\s#'"{[\]},:-][^\s:]*))\s*:(?:\s|$)/;

/**
 * The paths an extension.yaml's `dashboards` and `documents.dashboards` list, found in its text without parsing
 * it, as alertPathsInText finds the alert files' (for the App): the `path` members under the top-level
 * `dashboards:`, and under the `dashboards:` key of the top-level `documents:` (block style, or flow style on the
 * `documents:` line), at most MAX_DASHBOARD_READS of each. A path it misses is only unread, and one it takes
 * wrongly only read.
 */
export function dashboardPathsInText(text: string): string[] {
  const out: string[] = [];
  const seen = { dashboards: 0, documents: 0 };
  let section: keyof typeof seen | undefined;
  // The indentation of `documents:`'s `dashboards:` key while its lines are read.
  let nested: number | undefined;
  const take = (from: string) => {
    if (!section) return;
    for (const m of from.matchAll(PATH_MEMBER)) {
      if (seen[section]++ >= MAX_DASHBOARD_READS) return;
      const path = (m[1] ?? m[2] ?? m[3])!.trim();
      if (path !== "" && !out.includes(path)) out.push(path);
    }
  };
  for (const line of text.split("\n")) {
    const top = TOP_KEY.exec(line);
    if (top) {
      const key = top[1] ?? top[2] ?? top[3];
      section = key === "dashboards" || key === "documents" ? key : undefined;
      nested = undefined;
      if (section === "documents") {
        const flow = line.indexOf("dashboards", top[0].length);
        if (flow >= 0) take(line.slice(flow));
        continue;
      }
    } else if (/^[^\s#-]/.test(line)) section = undefined;
    if (section === "dashboards") take(line);
    else if (section === "documents") {
      const key = NESTED_KEY.exec(line);
      const indent = key?.[1]!.length;
      if (key && (key[2] ?? key[3] ?? key[4]) === "dashboards") nested = indent;
      else if (key && nested !== undefined && indent! <= nested) nested = undefined;
      if (nested !== undefined) take(line);
    }
  }
  return out;
}

/** What an alert file that `alerts` lists holds: its metric event (a JSON object), or why it has none. */
export type AlertRead = { event: Record<string, unknown> } | { problem: string; tooLarge?: true };

/**
 * The alert file at `path` (as `alerts` lists it) when the caller read it: its metric event (extensions-2.md §6:
 * the JSON of a metric event), or why Dynatrace cannot take it (not JSON, not an object, not UTF-8 text, larger
 * than the review reads). A leading byte order mark is not JSON's, but readers take it: it is skipped.
 */
export function readAlert(pkg: ExtensionPackage, path: string): AlertRead | undefined {
  // Several rules read each alert file (asset-missing, unknown-metric-reference, alert-samples,
  // alert-placeholder): parsed once a package.
  let reads = alertReads.get(pkg);
  if (!reads) alertReads.set(pkg, (reads = new Map()));
  if (!reads.has(path)) {
    const read = parseObject(pkg, path, "the metric event Dynatrace imports");
    reads.set(path, read && "object" in read ? { event: read.object } : read);
  }
  return reads.get(path);
}

/**
 * The dashboard file at `path` (as `dashboards` or `documents.dashboards` lists it) when the caller read it:
 * nothing when it holds a JSON object (what a dashboard's JSON is; its members are not judged), else why
 * Dynatrace cannot take it, as readAlert says it.
 */
export function dashboardProblem(
  pkg: ExtensionPackage,
  path: string,
): { problem: string; tooLarge?: true } | undefined {
  const read = parseObject(pkg, path, "the dashboard Dynatrace imports");
  return read && "problem" in read ? read : undefined;
}

/** A metric event an alert file of `alerts` holds, with the entry that lists it. */
export interface AlertEvent {
  /** The path as `alerts` lists it. */
  path: string;
  /** The entry's `path` in extension.yaml, where a finding about the file is shown. */
  pointer: string;
  event: Record<string, unknown>;
}

/**
 * The metric events of the alert files `alerts` lists that the caller read and that hold a JSON object (the
 * first MAX_ALERT_READS entries, as alertPaths reads them), each file once, at its first entry: an unread
 * file says nothing, and one that is not a metric event's JSON is asset-missing's to say.
 */
export function alertEvents(
  pkg: ExtensionPackage | undefined,
  assets: readonly { path: string; pointer: string }[],
): AlertEvent[] {
  if (!pkg) return [];
  const out: AlertEvent[] = [];
  const said = new Set<string>();
  for (const asset of assets) {
    const index = /^\/alerts\/(\d+)\//.exec(asset.pointer)?.[1];
    if (index === undefined || Number(index) >= MAX_ALERT_READS || said.has(asset.path)) continue;
    said.add(asset.path);
    const read = readAlert(pkg, asset.path);
    if (read && "event" in read) out.push({ path: asset.path, pointer: asset.pointer, event: read.event });
  }
  return out;
}

/**
 * The metrics (and their dimensions) a metric event's `metricSelector` names, read once per event however many
 * rules ask (unknown-metric-reference, unknown-dimension-reference): empty without a selector.
 */
export function selectedBy(event: AlertEvent["event"]): readonly SelectorReference[] {
  let refs = selections.get(event);
  if (!refs) {
    const selector = get(event, "metricSelector");
    refs = typeof selector === "string" ? selectorReferences(selector) : [];
    selections.set(event, refs);
  }
  return refs;
}
const selections = new WeakMap<object, readonly SelectorReference[]>();

/** Each package's alert files as read (by the path `alerts` names), for as long as the package lives. */
const alertReads = new WeakMap<ExtensionPackage, Map<string, AlertRead | undefined>>();

/** The JSON object a listed file holds (`what`: what Dynatrace imports from it, for the message), or why not. */
function parseObject(
  pkg: ExtensionPackage,
  path: string,
  what: string,
): { object: Record<string, unknown> } | { problem: string; tooLarge?: true } | undefined {
  const read = pkg.read(path);
  if (!read) return undefined;
  if (!("text" in read)) return read;
  const text = read.text.replace(/^\uFEFF/, "");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // Only where, never the engine's words: they may quote the file's text.
    const at = /at position (\d+)/.exec(e instanceof Error ? e.message : "");
    if (!at) return { problem: "is not valid JSON" };
    const before = text.slice(0, Number(at[1]));
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    return { problem: `is not valid JSON (line ${line}, column ${column})` };
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? { object: value as Record<string, unknown> }
    : { problem: `is not a JSON object (${what})` };
}

/**
 * The repository paths of the files the review of the extension.yaml at `path` (its parsed `value`) reads,
 * for a caller to put in `ExtensionFiles.contents` (and `baseContents`): the activation schemas its
 * `python.activation` names, the alert files its `alerts` lists and the dashboard files its `dashboards` and
 * `documents.dashboards` list.
 */
export function extensionReads(path: string, value: unknown): string[] {
  const folder = folderOf(path);
  const reads = [...readRelative(value), ...alertPaths(value), ...dashboardPaths(value)];
  return [...new Set(reads.flatMap((r) => resolveFrom(folder, r) ?? []))];
}

function textOf(content: FileRead | undefined, maxSize: number): FileText | undefined {
  if (content === undefined) return undefined;
  if (typeof content === "object" && "tooLarge" in content)
    return { problem: `is larger than max_file_size (${maxSize} bytes)`, tooLarge: true };
  const size = typeof content === "string" ? utf8Length(content, maxSize) : content.length;
  if (size > maxSize) return { problem: `is larger than max_file_size (${maxSize} bytes)`, tooLarge: true };
  if (typeof content === "string") return { text: content };
  const { text, badOffset } = decodeUtf8(content);
  return badOffset === undefined ? { text } : { problem: "is not UTF-8 text" };
}

/** The rules' view of what the caller passed for the extension.yaml at `path`. */
export function extensionPackage(path: string, files: ExtensionFiles, maxSize: number): ExtensionPackage {
  const folder = folderOf(path);
  const resolve = (relative: string) => resolveFrom(folder, relative);
  const cache = new Map<string, FileText | undefined>();
  return {
    folder,
    project: projectFolder(path),
    paths: files.paths && new Set(files.paths),
    changed: files.changed ?? [],
    resolve,
    read(relative, base = false) {
      const at = resolve(relative);
      if (at === undefined) return undefined;
      const key = `${base ? "base" : "head"}:${at}`;
      if (!cache.has(key))
        cache.set(key, textOf((base ? files.baseContents : files.contents)?.get(at), maxSize));
      return cache.get(key);
    },
  };
}

/**
 * The rules' view of the base's files, for the base's own findings (new and existing findings): its paths and
 * contents read as its head's would be; undefined when the caller did not list the base's project.
 */
export function basePackage(
  path: string,
  files: ExtensionFiles,
  maxSize: number,
): ExtensionPackage | undefined {
  if (!files.basePaths) return undefined;
  const base: ExtensionFiles = { paths: files.basePaths };
  if (files.baseContents) base.contents = files.baseContents;
  return extensionPackage(path, base, maxSize);
}

/**
 * Whether a changed project file is part of the extension as Dynatrace packages it: a file extension.yaml
 * names (`alerts`, `dashboards`, `documents.dashboards`, the activation schemas), a wheel in its `lib/`, or a
 * file of the Python module its build packages.
 */
export function packaged(
  pkg: ExtensionPackage,
  value: unknown,
  module: string | undefined,
): (path: string) => boolean {
  const named = new Set<string>();
  const doc = value as Record<string, unknown> | undefined;
  const paths = (list: unknown) =>
    (Array.isArray(list) ? list : []).flatMap((e) => {
      const p = (e as { path?: unknown } | null)?.path;
      return typeof p === "string" ? [p] : [];
    });
  const documents = (doc?.documents as { dashboards?: unknown } | undefined)?.dashboards;
  for (const p of [
    ...paths(doc?.alerts),
    ...paths(doc?.dashboards),
    ...paths(documents),
    ...readRelative(value),
  ]) {
    const at = pkg.resolve(p);
    if (at !== undefined) named.add(at);
  }
  const folders = [`${pkg.folder}lib/`];
  if (module !== undefined) {
    const name = module.replace(/\./g, "/");
    folders.push(`${pkg.project}${name}/`, `${pkg.project}src/${name}/`);
  }
  return (path) => named.has(path) || folders.some((f) => path.startsWith(f));
}
