/**
 * `plugin-review migrate <plugin.json|dir|glob>… [--out <dir>] [--name <custom:…>] [--name-prefix <p>]
 * [--key-prefix <p>] [--map <file>] [--rewrite <file|dir|glob>]… [--format text|json]`: reads each EF1
 * descriptor, converts the fleet (src/migrate/fleet.ts, pure: names and keys checked against each other and
 * the map), and writes each EF2 extension's files (a refused descriptor's MIGRATION.md), or prints what it
 * would write. One input with `--out <dir>` writes `<dir>/extension/extension.yaml`…; several write each to
 * `<dir>/<name>/` (the EF2 name without `custom:`). With `--out`, the map is written back and the `--rewrite`
 * files are rewritten in place.
 */
import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import {
  digest,
  manifestFrom,
  manifestText,
  MANIFEST_FILE,
  readManifest,
  type Manifest,
} from "../migrate/manifest.js";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { DEFAULT_MAX_FILE_SIZE, resolveConfig, type ResolvedConfig } from "../core/config.js";
import { decodeUtf8 } from "../core/utf8.js";
import { lossesOf, type MigrationResult, type OutputFile } from "../migrate/migrate.js";
import { frameworkOf } from "../core/ef2/key-map.js";
import { isExtensionPath } from "../core/ef2/pairing.js";
import { readPluginFolder } from "../workspace/plugin-folder.js";
import { keyPrefix, nameProblem } from "../core/ef2/names.js";
import { keyPrefixProblem, readMigrationMap, type MigrationMap } from "../core/ef2/mapping.js";
import { ef1Group } from "../core/ef2/selectors.js";
import { migrateFleet, type Collision, type FleetEntry, type FleetInput } from "../migrate/fleet.js";
import { writeMigrationMap } from "../migrate/mapping.js";
import { rewriteReferences, rewriteTable, type Rewritten } from "../migrate/rewrite.js";
import { fitLine } from "../format/fit.js";
import { escaped, jsonText, printable, printableLines } from "../format/printable.js";
import { plain, said } from "../migrate/notes.js";
import { parseJsonFast } from "../core/json/parse.js";
import { get } from "../core/guards.js";
import {
  expandArgs,
  filesProblem,
  readLimited,
  type Candidate,
  type ConfigLookup,
} from "../workspace/files.js";
import { ConfigFinder } from "../workspace/find-config.js";
import { makeFolder } from "../workspace/make-folder.js";
import { describeErrno, UsageError } from "../workspace/usage-error.js";
import { usageErrorText } from "./output.js";
import { detached, Stage, type Kept } from "./migrate-stage.js";

export interface MigrateCommandOptions {
  /** Descriptors: files, folders (every plugin.json below) and globs. */
  files: string[];
  out?: string;
  name?: string;
  namePrefix?: string;
  keyPrefix?: string;
  /** The migration map, read when it exists and written back with `--out`. */
  map?: string;
  /** Files whose EF1 metric references are rewritten (files, folders, globs). */
  rewrite?: string[];
  /** Overwrite the files of a migration that were edited since migrate wrote them (or are not migrate's). */
  force?: boolean;
  format: "text" | "json";
}

export interface MigrateIo {
  cwd: string;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** The width its lines for people fit (COLUMNS, else the terminal's, else 80). */
  width?: number;
}

interface Done extends FleetEntry {
  /** The folder its files go to, relative to `--out` ("" for a single input). */
  folder?: string;
  written?: string[];
  /** Of those, the ones that already held what this run writes: left untouched, said `unchanged`. */
  unchanged?: Set<string>;
  error?: string;
  /** Files already there that it would overwrite: edited since migrate wrote them, or not migrate's. */
  kept?: string[];
  /** Files the user fills in (OutputFile.yours), edited since: left as they are. */
  yours?: string[];
  /** Files an earlier run wrote in its folder that this one does not, unchanged since: removed. */
  removed?: string[];
  /** Such files edited since: left as they are. */
  leftOver?: string[];
  /** How it fared, once reported (its notes are no longer held then). */
  outcome?: Outcome;
  /** The folders of `--out` an earlier run wrote its migration in (their manifests name its plugin.json). */
  earlier?: string[];
  /** Of `removed` and `leftOver`, those of such a folder that this run does not write. */
  elsewhere?: Set<string>;
}

/** How a descriptor fared: converted with nothing lost, converted with something not carried over, refused. */
type Outcome = "converted" | "partly" | "refused";

function outcomeOf(d: Done): Outcome {
  if (d.outcome) return d.outcome;
  if (!d.result.converted || d.error) return "refused";
  // A call of the plugin's code not carried to EF2 is a loss as a member of plugin.json is.
  return lossesOf(d.result) ? "partly" : "converted";
}

/** A result reduced to what the run's end needs of it when nothing is rewritten: no files, notes nor metrics. */
function summarised(r: MigrationResult): MigrationResult {
  return r.converted
    ? { ...r, files: [], notes: [], keyMap: { framework: r.keyMap.framework, metrics: [] } }
    : { ...r, files: [], notes: [], reasons: [] };
}

/** A file's text, or why it cannot be read (too large, not UTF-8, missing). */
function read(file: string, cwd: string, limit = DEFAULT_MAX_FILE_SIZE): { text: string } | { why: string } {
  try {
    const { content, size } = readLimited(resolve(cwd, file), file, limit);
    if (size > limit)
      return { why: `it is larger than ${limit} bytes, the largest file plugin-review reads` };
    const { text, badOffset } = decodeUtf8(content);
    if (badOffset !== undefined) return { why: `it is not UTF-8 text (byte ${badOffset})` };
    return { text };
  } catch (e) {
    if (e instanceof UsageError)
      return { why: e.message.replace(/^cannot read '[^']*': /, "cannot read it: ") };
    throw e;
  }
}

/** A path segment made of descriptor text: letters, digits and `._-`, never `.` or `..` alone. */
function safeSegment(s: string): string {
  const cleaned = s.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[.]+/, "");
  return cleaned === "" || cleaned === "." || cleaned === ".." ? "descriptor" : cleaned.slice(0, 100);
}

/**
 * Each input's folder under `--out`: "" for one input, else its EF2 name without `custom:` (a refused one's
 * derived name, its EF1 name, else its file's folder), told apart with `-2`, `-3` when shared, or shared but for case.
 * The converted take theirs first: an extension is always in the folder of its name, whatever a refused
 * descriptor found before it (a broken plugin.json in a folder of that name) would have taken. A refused one then
 * keeps the folder an earlier run wrote its migration in (a plugin.json broken since: its MIGRATION.md where its
 * extension was, not in a second folder); the others are numbered in the order of their paths.
 */
function folders(done: Done[], ef1: ReadonlyMap<string, Ef1Names>): void {
  if (done.length === 1) {
    done[0]!.folder = "";
    return;
  }
  // Compared without case: on macOS and Windows `Alpha/` and `alpha/` are one folder, and one MIGRATION.md would
  // overwrite the other.
  const taken = new Set<string>();
  // The next number to try after each base: copies of one plugin share their base (not one probe per copy).
  const next = new Map<string, number>();
  const place = (d: Done, base: string) => {
    let folder = base;
    let n = next.get(base.toLowerCase()) ?? 2;
    while (taken.has(folder.toLowerCase())) folder = `${base}-${n++}`;
    next.set(base.toLowerCase(), n);
    taken.add(folder.toLowerCase());
    d.folder = folder;
  };
  for (const d of done) if (d.result.converted) place(d, keyPrefix(d.result.name));
  const refused = done.filter((d) => !d.result.converted);
  for (const d of refused) {
    // Not `--out` itself (a run of one descriptor's): a fleet's descriptor has a folder of its own.
    const earlier = d.earlier?.find((f) => f !== "" && !taken.has(f.toLowerCase()));
    if (earlier !== undefined) place(d, earlier);
  }
  // The run's order, which is the paths' (not the arguments'): the same descriptors get the same numbers.
  for (const d of refused.filter((d) => d.folder === undefined)) {
    const r = d.result;
    const plugin = ef1.get(d.file)?.name;
    place(
      d,
      r.name !== undefined
        ? keyPrefix(r.name)
        : safeSegment(plugin ?? d.file.split(/[\\/]/).slice(-2, -1)[0] ?? d.file),
    );
  }
}

/**
 * Writes a file whole or not at all: a temporary file beside it, renamed over it, so that a crash or Ctrl-C
 * leaves the old file or the new one, never half of one (and a link at the place is replaced, not followed).
 */
function writeFile(absolute: string, content: string | Buffer): void {
  makeFolder(dirname(absolute));
  const temporary = join(dirname(absolute), `.${basename(absolute)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, content);
    renameSync(temporary, absolute);
  } catch (e) {
    rmSync(temporary, { force: true });
    throw e;
  }
}

/** Whether nothing is at a path, not even a link (a typo): a usage error, never a descriptor not converted. */
function namesNothing(absolute: string): boolean {
  try {
    lstatSync(absolute);
    return false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR";
  }
}

/** The file a path names, through its links (a user's file is rewritten where it is, its links kept). */
function realPath(absolute: string): string {
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** What is at a path migrate writes: nothing, a file (its digest), or something else (a folder, a link). */
function found(absolute: string): { digest: string } | "absent" | "other" {
  let stat;
  try {
    stat = lstatSync(absolute);
  } catch {
    return "absent";
  }
  if (!stat.isFile()) return "other";
  return { digest: digest(readFileSync(absolute)) };
}

/**
 * The files an earlier run wrote in a plugin's own folder (its migration's folder too: `--out` the plugin's
 * folder, or its parent when the folder has the extension's name): not the plugin's code, never copied into it.
 */
function writtenBefore(folder: string): string[] {
  const written = [...manifestAt(folder).keys()].map((path) => join(folder, path));
  // The manifest itself, which lists the others.
  return written.length ? [...written, join(folder, MANIFEST_FILE)] : written;
}

/** The manifest of a migration's folder, as the last run left it. */
function manifestAt(folder: string): Manifest {
  try {
    return readManifest(readFileSync(join(folder, MANIFEST_FILE), "utf8"));
  } catch {
    return readManifest(undefined);
  }
}

/**
 * Writes a descriptor's files, all or none: a file already there is overwritten only when it holds what migrate
 * wrote (its manifest says so) or what it writes now; one edited since, or not migrate's, is kept and nothing of
 * the descriptor is written (its folder stays as consistent as it was), unless `force`.
 */
function write(d: Done, out: string, cwd: string, force: boolean): void {
  const folder = resolve(cwd, out, d.folder!);
  const manifest = manifestAt(folder);
  const planned = d.result.files.map((f) => {
    const bytes = f.encoding === "base64" ? Buffer.from(f.content, "base64") : Buffer.from(f.content, "utf8");
    const there = found(join(folder, f.path));
    const sha = digest(bytes);
    const same = there !== "absent" && there !== "other" && there.digest === sha;
    const changed =
      there === "other" ||
      (there !== "absent" && there.digest !== sha && manifest.get(f.path) !== there.digest);
    // A local run's settings and passwords, once filled in, are the user's: left as they are, never an error.
    const keep = !changed ? undefined : f.yours && there !== "other" ? "yours" : "edited";
    return { f, bytes, sha, keep, same };
  });
  const shown = (f: OutputFile) => join(out, d.folder!, f.path);
  const kept = planned.filter((p) => p.keep === "edited").map((p) => shown(p.f));
  if (kept.length && !force) {
    d.kept = kept;
    d.error = `not written: ${plural(kept.length, "file")} of its migration changed since migrate wrote ${kept.length === 1 ? "it" : "them"}, or not written by migrate; kept as ${kept.length === 1 ? "it is" : "they are"} (--force overwrites ${kept.length === 1 ? "it" : "them"})`;
    return;
  }
  d.written = [];
  d.unchanged = new Set();
  d.yours = [];
  for (const [i, p] of planned.entries()) {
    if (p.keep === "yours") {
      d.yours.push(shown(p.f));
      continue;
    }
    try {
      // A file that holds it already is left as it is (its time too: a build or a sync sees no change).
      if (p.same) d.unchanged.add(shown(p.f));
      else writeFile(resolve(cwd, shown(p.f)), p.bytes);
    } catch (e) {
      d.error = `cannot write '${shown(p.f)}': ${describeErrno(e)}`;
      break;
    }
    manifest.set(p.f.path, p.sha);
    // By the file's index: wroteLines and the JSON pair each file with where it went.
    d.written[i] = shown(p.f);
  }
  if (d.error === undefined)
    removeLeftOver(d, folder, join(out, d.folder!), manifest, new Set(d.result.files.map((f) => f.path)));
  // Also after a failure: what was written is recorded, so that the next run overwrites it.
  try {
    writeFile(join(folder, MANIFEST_FILE), manifestText(manifest, fromFolder(folder, resolve(cwd, d.file))));
  } catch (e) {
    d.error ??= `cannot write '${join(out, d.folder!, MANIFEST_FILE)}': ${describeErrno(e)}`;
  }
}

/**
 * The files an earlier run wrote in a migration's folder that this run does not write (an alert removed from the
 * plugin.json, a descriptor now refused: its extension): removed when nobody changed them since, so that the
 * folder holds this migration and nothing of an older one; an edited one is left and listed.
 */
function removeLeftOver(
  d: Done,
  folder: string,
  shownFolder: string,
  manifest: Manifest,
  now: ReadonlySet<string>,
): void {
  d.removed ??= [];
  d.leftOver ??= [];
  for (const [path, sha] of [...manifest]) {
    if (now.has(path)) continue;
    const absolute = join(folder, path);
    // The record is a file in the folder, anybody's to edit: what it names outside the folder is not migrate's.
    if (!inside(folder, absolute)) continue;
    const shown = join(shownFolder, path);
    const there = found(absolute);
    if (there !== "absent" && (there === "other" || there.digest !== sha)) {
      d.leftOver.push(shown);
      continue;
    }
    try {
      if (there !== "absent") rmSync(absolute);
    } catch (e) {
      d.error = `cannot remove '${shown}', which an earlier run wrote: ${describeErrno(e)}`;
      return;
    }
    manifest.delete(path);
    if (there !== "absent") d.removed.push(shown);
    // Its folders, once empty (an alerts/ folder without alerts), go too; never the migration's own.
    for (
      let dir = dirname(absolute);
      relative(folder, dir) !== "" && !relative(folder, dir).startsWith("..");
      dir = dirname(dir)
    )
      try {
        rmdirSync(dir);
      } catch {
        break;
      }
  }
}

/** A descriptor's path from its migration's folder, as its manifest records it (`/` between the names). */
function fromFolder(folder: string, descriptor: string): string {
  return relative(folder, descriptor).split("\\").join("/");
}

/**
 * The folders of `--out` that an earlier run wrote, by the descriptor each is the migration of (its real path, from
 * the folder's manifest), in the order of their names; "" for `--out` itself, where a run of one descriptor writes
 * (a fleet of one, grown since, or the reverse).
 */
function earlierFolders(out: string): Map<string, string[]> {
  const byDescriptor = new Map<string, string[]>();
  let names: string[];
  try {
    names = readdirSync(out, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    names.unshift("");
  } catch {
    return byDescriptor;
  }
  for (const name of names) {
    let from: string | undefined;
    try {
      from = manifestFrom(readFileSync(join(out, name, MANIFEST_FILE), "utf8"));
    } catch {
      continue;
    }
    if (from === undefined) continue;
    const real = realPath(resolve(out, name, from));
    byDescriptor.set(real, [...(byDescriptor.get(real) ?? []), name]);
  }
  return byDescriptor;
}

/**
 * An earlier run's folder of a descriptor that this run migrates to another (its extension renamed, its migration
 * refused where another extension now is): its files are removed as a folder's left-over are (not those edited
 * since), and the folder once empty, so that one plugin.json does not leave two migrations side by side.
 */
function removeEarlier(d: Done, out: string, cwd: string, earlier: string): void {
  const folder = resolve(cwd, out, earlier);
  const manifest = manifestAt(folder);
  const before = new Set([...(d.removed ?? []), ...(d.leftOver ?? [])]);
  removeLeftOver(d, folder, join(out, earlier), manifest, new Set());
  d.elsewhere ??= new Set();
  for (const path of [...d.removed!, ...d.leftOver!]) if (!before.has(path)) d.elsewhere.add(path);
  const record = join(folder, MANIFEST_FILE);
  try {
    // What is left (edited since) stays recorded, so that the next run says it again.
    if (manifest.size) writeFile(record, manifestText(manifest, fromFolder(folder, resolve(cwd, d.file))));
    else rmSync(record, { force: true });
  } catch (e) {
    d.error ??= `cannot update '${join(out, earlier, MANIFEST_FILE)}': ${describeErrno(e)}`;
    return;
  }
  try {
    if (earlier !== "") rmdirSync(folder);
  } catch {
    // Not empty: a file of the user's, or one kept.
  }
}

/** Whether a path is below a folder, also through the links on the way (never a file elsewhere a link leads to). */
function inside(folder: string, absolute: string): boolean {
  const below = (from: string, to: string) => {
    const rel = relative(from, to);
    return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  };
  return (
    below(folder, absolute) && below(realPath(folder), join(realPath(dirname(absolute)), basename(absolute)))
  );
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The folders of a Python project that are not shown file by file: the layer and the plugin's own code. */
function foldedFolder(r: Extract<MigrationResult, { converted: true }>, path: string): string | undefined {
  const module = r.project?.module;
  if (module === undefined) return undefined;
  for (const folder of [`${module}/ef1compat/`, `${module}/plugin/`])
    if (path.startsWith(folder)) return folder;
  return undefined;
}

/** Without --out: the files printed whole, and the folded folders with their counts. */
function printedFiles(r: Extract<MigrationResult, { converted: true }>): {
  shown: OutputFile[];
  folded: Map<string, number>;
} {
  const shown: OutputFile[] = [];
  const folded = new Map<string, number>();
  for (const f of r.files) {
    // The descriptor's own copy is not printed again (the user has it; its text stays where it is).
    const folder = f.path === `${r.project?.module}/ef1-plugin.json` ? f.path : foldedFolder(r, f.path);
    if (folder === undefined) shown.push(f);
    else folded.set(folder, (folded.get(folder) ?? 0) + 1);
  }
  return { shown, folded };
}

/** A file written, or found holding what it would be: `wrote <path>`, `unchanged <path>`. */
function wroteLine(d: Done, written: string): string {
  return `${d.unchanged?.has(written) ? "unchanged" : "wrote"} ${printable(written)}`;
}

/**
 * The "wrote" and "unchanged" lines: each file; a Python project's layer and the plugin's code one line per
 * folder (`unchanged` when none of its files changed, else how many did not).
 */
function wroteLines(d: Done, out: string): string[] {
  if (!d.result.converted) return (d.written ?? []).map((w) => wroteLine(d, w));
  const r = d.result;
  const lines: string[] = [];
  const folded = new Map<string, { files: number; unchanged: number }>();
  r.files.forEach((f, i) => {
    const written = d.written![i];
    if (written === undefined) return;
    const folder = foldedFolder(r, f.path);
    if (folder === undefined) lines.push(wroteLine(d, written));
    else {
      const counts = folded.get(folder) ?? { files: 0, unchanged: 0 };
      if (!folded.has(folder)) lines.push(folder);
      counts.files++;
      if (d.unchanged?.has(written)) counts.unchanged++;
      folded.set(folder, counts);
    }
  });
  return lines.map((line) => {
    const n = folded.get(line);
    if (n === undefined) return line;
    const what = line.endsWith("/ef1compat/") ? "the compatibility layer" : "the EF1 plugin's code";
    const path = printable(join(out, d.folder ?? "", line));
    if (n.unchanged === n.files) return `unchanged ${path} (${plural(n.files, "file")}: ${what})`;
    const some = n.unchanged ? `, ${n.unchanged} unchanged` : "";
    return `wrote ${path} (${plural(n.files, "file")}${some}: ${what})`;
  });
}

/** How to try a written Python project, and what it still lacks. */
function projectLines(d: Done, out: string): string[] {
  if (!d.result.converted || !d.result.project) return [];
  const project = printable(join(out, d.folder ?? "") || ".");
  const lines = [
    `  project: ${project}: try it with \`cd ${project} && python3 -m ${d.result.project.module}\` (after \`pip install dt-extensions-sdk .\`)`,
  ];
  if (d.result.project.codeMissing !== undefined)
    lines.push(
      `  to do: the plugin's code is not in the project (${printable(d.result.project.codeMissing)}): copy it into ${printable(join(out, d.folder ?? "", d.result.project.module, "plugin"))}/`,
    );
  return lines;
}

/** What a converted file became, in one line. */
function summary(r: Extract<MigrationResult, { converted: true }>): string {
  const notes = (kind: string) => r.notes.filter((n) => n.kind === kind).length;
  return (
    `${r.name} ${r.version} (${r.framework === "JMX" ? "JMX" : "Python"}): ${plural(r.metrics, "metric")}` +
    (r.subgroups !== undefined ? ` in ${plural(r.subgroups, "subgroup")}` : "") +
    `, ${plural(r.alerts, "metric event")}` +
    (r.dashboard ? `, a dashboard of ${plural(r.dashboard.tiles, "tile")}` : "") +
    `; MIGRATION.md: ${lossesOf(r)} not carried over` +
    (r.project?.notCarried ? ` (${r.project.notCarried.length} of them in the code)` : "") +
    ", " +
    `${notes("changed")} changed in meaning, ${notes("todo")} to do by hand`
  );
}

/** The files of an earlier run removed, and those left because they were edited since. */
function removedLines(d: Done, out: string): string[] {
  // A file of another folder: an earlier migration of this plugin.json, whose folder this run does not write.
  const own = join(out, d.folder ?? "");
  const elsewhere = (path: string) => d.elsewhere?.has(path) === true;
  return [
    ...(d.removed ?? []).map(
      (r) =>
        `  removed ${printable(r)} (${elsewhere(r) ? `an earlier run wrote it from this plugin.json; its migration is in ${printable(own)} now` : "an earlier run wrote it; this one does not"})`,
    ),
    ...(d.leftOver ?? []).map(
      (r) =>
        `  kept ${printable(r)} (an earlier run wrote it, this one does not, and it was edited since: delete it if it is not yours)`,
    ),
  ];
}

/** The files kept rather than overwritten, one a line (not fitted: paths to copy). */
function keptLines(d: Done): string[] {
  return (d.kept ?? []).map((k) => `  kept ${printable(k)}`);
}

function reasons(d: Done): string[] {
  if (d.result.converted) return [];
  return d.result.reasons.map((r) => `  ${r.line !== undefined ? `line ${r.line}: ` : ""}${plain(r.text)}`);
}

/** A collision for people: what both would be, and where each side is (`file:line`, or the map's entry). */
function collisionLine(c: Collision): string {
  const [a, b] = c.sides.map((s) =>
    s.map
      ? `${printable(s.plugin ?? "")} in the map ${printable(s.map.source)}:${s.map.line}`
      : `${printable(s.file ?? "")}${s.line !== undefined ? `:${s.line}` : ""}${s.now !== undefined ? ` (now ${printable(s.now)})` : ""}`,
  );
  return `  ${c.kind} ${printable(c.value)}: ${a} and ${b}\n`;
}

interface RewriteDone {
  file: string;
  result?: Rewritten;
  error?: string;
  /** Found in a folder and not text: listed, not an error. */
  skipped?: boolean;
  written?: boolean;
}

/** The files a migration's folder holds beside its MIGRATION.md (others are in its subfolders). */
const MIGRATION_FILES = new Set([
  "metric-keys.json",
  "metric-keys.csv",
  "activation.json",
  "secrets.json",
  "setup.py",
]);

/** The largest file `--rewrite` reads: exported dashboards are large, but not this large. */
const REWRITE_MAX_SIZE = 50 * 1024 * 1024;

/** A folder given to `--rewrite` means every file below it (node_modules and .git aside). */
function everyFile(cwd: string): ConfigLookup {
  const config: ResolvedConfig = { ...resolveConfig(), paths: ["**/*"] };
  const found = { root: cwd, config };
  return {
    findForDir: () => found,
    locate: (filePath, fallbackRoot) => {
      const absolute = resolve(cwd, filePath);
      const configPath = relative(fallbackRoot ?? cwd, absolute)
        .split("\\")
        .join("/");
      return { found, real: absolute, configPath, path: configPath };
    },
  };
}

/** A summary, and each reason, broken between words to fit the terminal; continued in the 5th column. */
function fitter(io: MigrateIo): (line: string) => string {
  return (line: string) => `${fitLine(line, io.width ?? 80, line.startsWith("  ") ? 2 : 4)}\n`;
}

/** What became of one descriptor, for people: printed as soon as it is written (its files, in full, at hand). */
function descriptorText(d: Done, opts: MigrateCommandOptions, io: MigrateIo): void {
  const fit = fitter(io);
  // An error: its lines on standard error, the first with the prefix every error of the CLI has.
  const problem = (first: string, ...more: string[]) =>
    io.stderr([`plugin-review: ${first}`, ...more].map(fit).join(""));
  {
    const file = escaped(d.file);
    if (!d.result.converted) {
      problem(
        `${file}: not converted:`,
        ...reasons(d),
        ...wroteLines(d, opts.out ?? "").map((w) => `  ${w}`),
        ...removedLines(d, opts.out ?? ""),
        ...(d.error ? [`  ${printable(d.error)}`] : []),
        ...keptLines(d),
      );
      return;
    }
    if (opts.out === undefined) {
      const { shown, folded } = printedFiles(d.result);
      for (const f of shown) {
        const path = d.folder ? `${d.folder}/${f.path}` : f.path;
        io.stdout(`==> ${printable(path)} (from ${file}) <==\n${printableLines(f.content)}\n`);
      }
      for (const [folder, n] of folded)
        io.stdout(
          `==> ${d.folder ? `${d.folder}/` : ""}${printable(folder)} (from ${file}): ${plural(n, "file")}, written with --out <==\n\n`,
        );
      return;
    }
    if (d.error) {
      problem(`${file}: ${summary(d.result)}`, `  ${printable(d.error)}`, ...keptLines(d));
      return;
    }
    io.stdout(
      fit(`${file}: ${summary(d.result)}`) +
        wroteLines(d, opts.out)
          .map((w) => `  ${w}\n`)
          .join("") +
        (d.yours ?? []).map((y) => `  kept ${printable(y)} (edited: yours to fill in)\n`).join("") +
        removedLines(d, opts.out)
          .map((l) => `${l}\n`)
          .join("") +
        // Not fitted: a command broken over lines is no longer one to copy.
        projectLines(d, opts.out)
          .map((l) => `${l}\n`)
          .join(""),
    );
  }
}

/** After the descriptors, for people: the collisions, the files rewritten, the map, the counts. */
function tailText(
  done: Done[],
  rewrites: RewriteDone[],
  collisions: Collision[],
  resolved: Collision[],
  opts: MigrateCommandOptions,
  io: MigrateIo,
  mapWritten?: string,
): void {
  const fit = fitter(io);
  /** "2 name collisions and 1 key collision". */
  const counted = (list: Collision[]) => {
    const count = (kind: Collision["kind"], one: string, many?: string) => {
      const n = list.filter((c) => c.kind === kind).length;
      return n ? plural(n, one, many) : "";
    };
    const counts = [
      count("name", "name collision"),
      count("key", "key collision"),
      count("plugin", "plugin given twice", "plugins given twice"),
    ].filter(Boolean);
    return counts.length > 1 ? `${counts.slice(0, -1).join(", ")} and ${counts.at(-1)!}` : counts[0]!;
  };
  // Each collision's line is not fitted: its paths are to copy.
  if (resolved.length)
    io.stderr(
      fit(
        `plugin-review: ${counted(resolved)} resolved: the descriptors involved were converted, named from their EF1 \`name\` instead of their \`metricGroup\` (record the names with --map: docs/migrate.md, "Migrating a fleet")`,
      ) + resolved.map(collisionLine).join(""),
    );
  if (collisions.length)
    io.stderr(
      fit(
        `plugin-review: ${counted(collisions)}: the descriptors involved were not converted${collisions.some((c) => c.sides.some((s) => s.now !== undefined)) ? ", but those shown with the name they now have, named from their EF1 `name`" : ""} (resolve with --map, --name-prefix or --key-prefix: docs/migrate.md, "Migrating a fleet")`,
      ) + collisions.map(collisionLine).join(""),
    );
  for (const r of rewrites) {
    const file = printable(r.file);
    if (r.error) {
      // A file named that cannot be rewritten is an error (with the CLI's prefix); one found in a folder that
      // is not text, a note.
      io.stderr(
        `${r.skipped ? `${file}: skipped` : `plugin-review: ${file}: not rewritten`}: ${printable(r.error)}\n`,
      );
      continue;
    }
    const result = r.result!;
    const verb = r.written ? "rewrote" : opts.out === undefined ? "would rewrite" : "left as it is";
    io.stdout(
      `${file}: ${verb}: ${plural(result.replacements.length, "reference")} replaced, ${result.notRewritten.length} not rewritten\n` +
        result.replacements
          .map((x) => `  ${file}:${x.line}:${x.column} ${printable(x.from)} -> ${printable(x.to)}\n`)
          .join(""),
    );
    if (result.notRewritten.length)
      io.stderr(
        result.notRewritten
          .map(
            (x) =>
              `  ${file}:${x.line}:${x.column} not rewritten: ${printable(x.reference)}: ${printable(x.why)}\n`,
          )
          .join(""),
      );
  }
  if (mapWritten !== undefined) io.stdout(`wrote the map ${printable(mapWritten)}\n`);
  const count = (o: Outcome) => done.filter((d) => outcomeOf(d) === o).length;
  const refused = count("refused");
  const mark = refused || collisions.length || resolved.length ? "✖" : "✔";
  const line = `${mark} ${plural(done.length, "descriptor")}: ${count("converted")} converted, ${count("partly")} partly (MIGRATION.md lists what is not carried over), ${refused} refused`;
  (opts.out === undefined ? io.stderr : io.stdout)(
    fit(`${line}${opts.out === undefined ? " (nothing written: --out <dir> writes the files)" : ""}`),
  );
}

/** An element of the JSON array, as `JSON.stringify(array, null, 2)` would lay it out. */
function jsonElement(value: unknown): string {
  return `  ${jsonText(value, 2).replace(/\n/g, "\n  ")}`;
}

/** An earlier run's files: removed, or left as they are (edited since). */
function leftOverJson(d: Done): { removed?: string[]; leftOver?: string[] } {
  return {
    ...(d.removed?.length ? { removed: d.removed } : {}),
    ...(d.leftOver?.length ? { leftOver: d.leftOver } : {}),
  };
}

/** What became of one descriptor, as an element of the JSON array. */
function descriptorJson(d: Done, opts: MigrateCommandOptions): unknown {
  const files = (d: Done) =>
    d.result.files.map((f, i) => {
      const path = d.folder ? `${d.folder}/${f.path}` : f.path;
      if (opts.out === undefined || !d.written?.length)
        return { path, content: f.content, ...(f.encoding ? { encoding: f.encoding } : {}) };
      const at = join(opts.out, d.folder ?? "", f.path);
      if (d.written[i] !== undefined)
        return { path, written: at, ...(d.unchanged?.has(at) ? { unchanged: true } : {}) };
      // Left as it is (a file the user fills in, edited), or not reached after a write that failed.
      return d.yours?.includes(at) ? { path, kept: at } : { path };
    });
  const collisionJson = (c: Collision) => ({
    kind: c.kind,
    value: c.value,
    sides: c.sides.map((s) => ({
      ...(s.file !== undefined ? { file: s.file } : {}),
      ...(s.line !== undefined ? { line: s.line } : {}),
      ...(s.plugin !== undefined ? { plugin: s.plugin } : {}),
      ...(s.map ? { map: s.map } : {}),
      ...(s.now !== undefined ? { now: s.now } : {}),
    })),
  });
  const collisions = (d: Done) =>
    d.collisions.length ? { collisions: d.collisions.map(collisionJson) } : {};
  {
    const r = d.result;
    if (!r.converted)
      return {
        file: d.file,
        converted: false,
        outcome: "refused",
        ...(r.type !== undefined ? { type: r.type } : {}),
        ...(r.name !== undefined ? { name: r.name } : {}),
        reasons: r.reasons.map((x) => ({
          ...(x.line !== undefined ? { line: x.line } : {}),
          text: plain(x.text),
          ...(x.fix ? { fix: plain(x.fix) } : {}),
        })),
        ...collisions(d),
        ...(d.error ? { error: d.error } : {}),
        ...(d.kept ? { kept: d.kept } : {}),
        ...leftOverJson(d),
        files: files(d),
      };
    return {
      file: d.file,
      converted: !d.error,
      outcome: outcomeOf(d),
      ...(d.error ? { error: d.error } : {}),
      ...(d.kept ? { kept: d.kept } : {}),
      ...leftOverJson(d),
      framework: r.framework,
      name: r.name,
      // Named from its EF1 `name`: the name it would have had, and the collisions it resolves.
      ...(d.renamed
        ? { renamed: { from: d.renamed.from, collisions: d.renamed.collisions.map(collisionJson) } }
        : {}),
      version: r.version,
      metrics: r.metrics,
      ...(r.subgroups !== undefined ? { subgroups: r.subgroups } : {}),
      alerts: r.alerts,
      ...(r.dashboard ? { dashboard: r.dashboard } : {}),
      ...(r.project
        ? {
            project: {
              module: r.project.module,
              run: `python3 -m ${r.project.module}`,
              code: r.project.codeMissing === undefined,
              ...(r.project.codeMissing !== undefined ? { codeMissing: r.project.codeMissing } : {}),
              ...(r.project.notCarried
                ? {
                    notCarried: r.project.notCarried.map((x) => ({
                      file: printable(x.file),
                      line: x.line,
                      call: printable(x.call),
                      why: x.why,
                    })),
                  }
                : {}),
            },
          }
        : {}),
      files: files(d),
      notes: r.notes.map((n) => ({
        kind: n.kind,
        ...(n.line !== undefined ? { line: n.line } : {}),
        member: n.member,
        text: plain(n.text),
      })),
    };
  }
}

/** A file `--rewrite` read, as an element of the JSON array. */
function rewriteJson(r: RewriteDone): unknown {
  return {
    rewritten: r.file,
    ...(r.error
      ? { error: r.error }
      : {
          written: r.written === true,
          replacements: r.result!.replacements,
          notRewritten: r.result!.notRewritten,
        }),
  };
}

/**
 * The plugin.json's path from the folder its migration goes to, for the command MIGRATION.md ends with: `--out`
 * (the working directory without it, where the printed paths are relative to), and below it the folder named
 * after the extension when there are several (one path segment: which one does not change the way up).
 */
function sourceFrom(file: string, opts: MigrateCommandOptions, cwd: string, several: boolean): string {
  const folder = resolve(cwd, opts.out ?? ".", several ? "extension" : "");
  const path = relative(folder, resolve(cwd, file));
  return (isAbsolute(path) ? resolve(cwd, file) : path).split("\\").join("/");
}

/** The map named by `--map`: read when the file exists (an absent one is created), refused when invalid. */
function readMap(file: string, cwd: string): MigrationMap | undefined {
  const got = read(file, cwd);
  if ("why" in got) {
    if (/no such file/i.test(got.why)) return undefined;
    throw new UsageError(`cannot read the map '${file}': ${got.why.replace(/^cannot read it: /, "")}`);
  }
  const parsed = readMigrationMap(got.text, file);
  if (!parsed.ok)
    throw new UsageError(
      `the map '${file}' is not valid:`,
      parsed.problems.map((p) => `${file}${p.line !== undefined ? `:${p.line}` : ""}: ${p.message}`),
    );
  return parsed.map;
}

function checkOptions(opts: MigrateCommandOptions): void {
  if (opts.namePrefix !== undefined) {
    const problem = nameProblem(`custom:${opts.namePrefix}.a`);
    if (opts.namePrefix === "" || problem)
      throw new UsageError(
        `--name-prefix '${opts.namePrefix}' does not start a valid EF2 name (lower-case letters and digits in sections joined by '.' or '-')`,
      );
  }
  if (opts.keyPrefix !== undefined) {
    const problem = keyPrefixProblem(opts.keyPrefix);
    if (problem)
      throw new UsageError(`--key-prefix '${opts.keyPrefix}' does not start EF2 metric keys: ${problem}`);
  }
}

/**
 * Runs the command: 0 every descriptor converted (and written) under the name derived or given; 1 a collision
 * met: resolved (named from the EF1 `name`) or refusing some; 2 one was refused otherwise, or a usage or I/O error.
 */
export async function runMigrate(opts: MigrateCommandOptions, io: MigrateIo): Promise<number> {
  try {
    return await run(opts, io);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`plugin-review: ${usageErrorText(e)}\n`);
    return 2;
  }
}

async function run(opts: MigrateCommandOptions, io: MigrateIo): Promise<number> {
  checkOptions(opts);
  const finder = new ConfigFinder({ cwd: io.cwd });
  const outDir = opts.out === undefined ? undefined : resolve(io.cwd, opts.out);
  const inOut = (absolute: string) => {
    if (outDir === undefined) return false;
    const rel = relative(outDir, absolute);
    return !rel.startsWith("..") && !isAbsolute(rel);
  };
  // What migrate wrote before is not a descriptor to migrate again: what is below a folder it wrote (one with
  // its MIGRATION.md and metric-keys.json), and its own files beside them. Not all of --out: that may be the
  // folder the plugins are in (`migrate plugins --out plugins`), and they are to migrate.
  const migration = new Map<string, boolean>();
  const isMigration = (dir: string) => {
    let is = migration.get(dir);
    if (is === undefined) {
      is = existsSync(join(dir, "MIGRATION.md")) && existsSync(join(dir, "metric-keys.json"));
      migration.set(dir, is);
    }
    return is;
  };
  // Below a migration's folder, what its manifest lists is migrate's (a Python plugin's copied files); anything
  // else there is the user's: a plugin kept below a plugin whose folder has its extension's name (`--out` the
  // plugins' folder) is migrated again, not passed over in silence. A folder without a manifest (written before
  // there was one) vouches for everything below it, as it did.
  const listedBy = (folder: string, absolute: string) => {
    if (!existsSync(join(folder, MANIFEST_FILE))) return true;
    return manifestAt(folder).has(relative(folder, absolute).split(sep).join("/"));
  };
  const wroteBefore = (absolute: string) => {
    if (!inOut(absolute)) return false;
    const dir = dirname(absolute);
    if (isMigration(dir) && MIGRATION_FILES.has(basename(absolute))) return true;
    for (let above = dir; above !== outDir && inOut(above);) {
      above = dirname(above);
      if (isMigration(above) && listedBy(above, absolute)) return true;
    }
    return false;
  };
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  const byRealPath = new Map<string, string>();
  // Arguments that name nothing on disk (a typo): said together, as `check` does, before anything is written.
  const missing: string[] = [];
  for (const arg of opts.files) {
    let found: Candidate[];
    let unread = false;
    try {
      found = await expandArgs([arg], io.cwd, finder);
    } catch (e) {
      // A file that is there but cannot be read is a descriptor not converted (the others are, and its
      // MIGRATION.md says why); a path to nothing, a glob or a folder that finds nothing is a usage error.
      if (!(e instanceof UsageError) || !/^cannot read '[^']*': /.test(e.message)) throw e;
      if (namesNothing(resolve(io.cwd, arg))) {
        missing.push(e.message);
        continue;
      }
      found = [{ display: arg, absolute: resolve(io.cwd, arg), explicit: true }];
      unread = true;
    }
    // A folder means its plugin.json files: the extension.yaml files `check` also finds there are EF2 already
    // (a plugin migrated beside its plugin.json), never an EF1 descriptor to convert; so is one named or globbed,
    // which read as JSON would only be "not JSON".
    const all = found.length;
    if (!unread) found = found.filter((c) => !isExtensionPath(c.configPath ?? basename(c.absolute)));
    if (!found.length)
      throw new UsageError(
        all === 1 && isExtensionPath(basename(resolve(io.cwd, arg)))
          ? `'${arg}' is an Extensions 2.0 extension already: migrate converts EF1 plugin.json descriptors to extension.yaml (plugin-review check reviews this one)`
          : `no plugin.json found under '${arg}' (only EF2 extensions, extension.yaml, which are migrated already)`,
      );
    for (const c of found) {
      if ((!c.explicit && wroteBefore(c.absolute)) || seen.has(c.absolute)) continue;
      seen.add(c.absolute);
      // One file reached from two places (a link to it) is one plugin: migrated once, not refused as its own
      // copy (two descriptors of one EF1 plugin), and said, not dropped in silence.
      // (What is no file fails on its own, each where it was found.)
      const real = c.notFile === undefined ? realPath(c.absolute) : c.absolute;
      const first = byRealPath.get(real);
      if (first !== undefined) {
        io.stderr(
          `plugin-review: ${printable(c.display)} is the same file as ${printable(first)} (through a symbolic link): migrated once, as ${printable(first)}\n`,
        );
        continue;
      }
      byRealPath.set(real, c.display);
      candidates.push(c);
    }
  }
  if (missing.length) throw filesProblem(missing, ", so nothing was migrated");
  if (opts.name !== undefined && candidates.length > 1)
    throw new UsageError(`--name names one extension, but ${candidates.length} descriptors were given`);
  const map = opts.map === undefined ? undefined : readMap(opts.map, io.cwd);
  const stage = new Stage();
  try {
    return await migrateCandidates(candidates, map, stage, inOut, opts, io);
  } finally {
    stage.close();
  }
}

/** A descriptor's EF1 `name` and metric group, the little of its text the run needs after converting it. */
interface Ef1Names {
  name?: string;
  group?: string;
}

/** What the fleet reads of a descriptor: its text and a Python plugin's code, or why it cannot be read. */
type Loaded = Readonly<Pick<FleetInput, "text" | "unreadable" | "code">>;

async function migrateCandidates(
  candidates: readonly Candidate[],
  map: MigrationMap | undefined,
  stage: Stage,
  inOut: (absolute: string) => boolean,
  opts: MigrateCommandOptions,
  io: MigrateIo,
): Promise<number> {
  const ef1 = new Map<string, Ef1Names>();
  const readInput = (c: Candidate): Loaded => {
    const got: ReturnType<typeof read> =
      c.notFile !== undefined
        ? { why: `cannot read it: it is ${c.notFile}, not a file` }
        : read(c.display, io.cwd);
    if ("why" in got)
      return {
        unreadable: {
          text: said`${got.why}`,
          fix: said`make it a readable UTF-8 plugin.json, then migrate it again`,
        },
      };
    // A Python plugin's code is the files beside its plugin.json (not the migration's own output).
    const parsed = parseJsonFast(got.text);
    if (parsed.ok) {
      const name = get(parsed.value, "name");
      const group = ef1Group(get(parsed.value, "metricGroup"), name);
      ef1.set(
        c.display,
        detached({
          ...(typeof name === "string" ? { name } : {}),
          ...(group !== undefined ? { group } : {}),
        }),
      );
    }
    const code =
      parsed.ok && frameworkOf(parsed.value) === "python"
        ? readPluginFolder(c.display, io.cwd, writtenBefore(dirname(resolve(io.cwd, c.display))), opts.out)
        : undefined;
    return { text: got.text, ...(code ? { code } : {}) };
  };
  // Each descriptor is read once: what the fleet asks for again (a collision's) comes from the stage, as it was.
  const loaded = new Map<string, Kept<Loaded>>();
  // Converted in the order of their paths, not of the arguments: which copy of a plugin the other's MIGRATION.md
  // names, which one keeps a name, which refused one gets which folder and the map's new entries are the same
  // however the fleet is given (`migrate b a`, a shell's glob in another locale). Reported in the arguments' order.
  const given = new Map(candidates.map((c, i) => [c.display, i]));
  const byPath = [...candidates].sort((a, b) =>
    a.absolute < b.absolute ? -1 : a.absolute > b.absolute ? 1 : 0,
  );
  const inputs: FleetInput[] = byPath.map((c) => ({
    file: c.display,
    source: sourceFrom(c.display, opts, io.cwd, candidates.length > 1),
    load: () => {
      const kept = loaded.get(c.display);
      if (kept) return stage.get(kept);
      const got = readInput(c);
      loaded.set(c.display, stage.put(got));
      return got;
    },
  }));
  // A result's files wait in the stage until written: never the whole fleet's in memory at once.
  const filesOf = new WeakMap<object, Kept<OutputFile[]>>();
  const keep = (r: MigrationResult): MigrationResult => {
    // Held for the whole run (the summary, --rewrite's table): without the descriptor's text behind its strings.
    const light = detached({ ...r, files: [] });
    filesOf.set(light, stage.put(r.files));
    return light;
  };
  const fleet = migrateFleet(inputs, {
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    ...(opts.namePrefix !== undefined ? { namePrefix: opts.namePrefix } : {}),
    ...(opts.keyPrefix !== undefined ? { keyPrefix: opts.keyPrefix } : {}),
    ...(map ? { map } : {}),
    keep,
  });
  loaded.clear();
  // The fleet's entries are the run's from here on: not held twice.
  const done: Done[] = fleet.entries.splice(0).map((e) => ({ ...e }));
  inputs.length = 0;
  // Where an earlier run wrote each descriptor's migration: a fleet's folders are named by the extensions, which
  // change (a plugin.json broken since, a metricGroup renamed), the descriptor's path less often.
  const earlier = opts.out !== undefined ? earlierFolders(resolve(io.cwd, opts.out)) : undefined;
  if (earlier) {
    if (earlier.size)
      for (const d of done) {
        const folders = earlier.get(realPath(resolve(io.cwd, d.file)));
        if (folders) d.earlier = folders;
      }
  }
  folders(done, ef1);
  done.sort((a, b) => given.get(a.file)! - given.get(b.file)!);
  const ofThisRun = new Set(done.map((d) => d.folder!.toLowerCase()));
  if (opts.out !== undefined)
    try {
      makeFolder(resolve(io.cwd, opts.out));
    } catch (e) {
      throw new UsageError(`--out: cannot make the folder '${opts.out}': ${describeErrno(e)}`);
    }

  // Each descriptor written, then reported, one at a time. Ctrl-C is taken between two descriptors, never
  // within one: the run stops there, each folder written whole or not at all, and says which.
  let interrupted = false;
  let elements = 0;
  const element = (value: unknown) => io.stdout(`${elements++ ? ",\n" : "[\n"}${jsonElement(value)}`);
  const onInterrupt = () => void (interrupted = true);
  if (opts.out !== undefined) process.on("SIGINT", onInterrupt);
  try {
    for (const d of done) {
      const light = d.result;
      const files = filesOf.get(light);
      d.result = { ...light, files: files ? stage.get(files) : light.files } as MigrationResult;
      if (opts.out !== undefined) {
        if (interrupted) d.error = "not written: interrupted (Ctrl-C) before its turn";
        else {
          write(d, opts.out, io.cwd, opts.force === true);
          for (const earlier of d.earlier ?? [])
            if (d.error === undefined && !ofThisRun.has(earlier.toLowerCase()))
              removeEarlier(d, opts.out, io.cwd, earlier);
          // A turn of the event loop, where a Ctrl-C pressed meanwhile is delivered.
          await new Promise((resume) => setImmediate(resume));
        }
      }
      if (opts.format === "json") element(descriptorJson(d, opts));
      else descriptorText(d, opts, io);
      // Reported: what the summary and the exit status need is kept, not the files, nor the notes and the key
      // map (a fleet's thousands of metrics), but for the rewrite's table.
      d.outcome = outcomeOf(d);
      d.result = opts.rewrite?.length ? light : summarised(light);
      if (d.written) d.written = [];
      delete d.unchanged;
      delete d.kept;
      delete d.yours;
      delete d.removed;
      delete d.leftOver;
      delete d.elsewhere;
    }
  } finally {
    if (opts.out !== undefined) process.off("SIGINT", onInterrupt);
  }
  // An earlier migration whose plugin.json is gone (deleted, moved): left as it is, but said, never in silence.
  for (const [descriptor, names] of earlier ?? [])
    if (namesNothing(descriptor))
      for (const name of names)
        if (!ofThisRun.has(name.toLowerCase()))
          io.stderr(
            `plugin-review: ${printable(join(opts.out!, name))} holds the migration of ${printable(relative(io.cwd, descriptor))}, which is no longer there: left as it is (delete the folder if its plugin is gone for good)\n`,
          );

  let mapWritten: string | undefined;
  let mapError: UsageError | undefined;
  if (opts.map !== undefined && opts.out !== undefined) {
    const content = writeMigrationMap(map, fleet.updates);
    try {
      writeFile(realPath(resolve(io.cwd, opts.map)), content);
      mapWritten = opts.map;
    } catch (e) {
      mapError = new UsageError(`cannot write the map '${opts.map}': ${describeErrno(e)}`);
    }
  }

  const rewrites: RewriteDone[] = [];
  // Interrupted: the user wants it to stop, so nothing more is rewritten in place.
  if (opts.rewrite?.length && !interrupted && !mapError) {
    const converted = done.flatMap((d) => (d.result.converted ? [d.result.keyMap] : []));
    const groups = candidates.map((c) => ef1.get(c.display)?.group);
    const table = rewriteTable(converted, groups);
    const targets = (await expandArgs(opts.rewrite, io.cwd, everyFile(io.cwd))).filter(
      // A folder's folders are walked, not rewritten (a glob's are not walked: one it matches is named below).
      (c) =>
        !(c.notFile === "a directory" && c.configPath !== undefined) && (c.explicit || !inOut(c.absolute)),
    );
    for (const t of targets) {
      // What is not a file (a named pipe, a folder a glob matched) is named, never opened: a pipe would wait.
      const got =
        t.notFile !== undefined
          ? { why: `cannot read it: it is ${t.notFile}, not a file` }
          : read(t.display, io.cwd, REWRITE_MAX_SIZE);
      if ("why" in got) {
        // A file found in a folder that is not text (an image) is listed, not an error; one named is.
        rewrites.push({ file: t.display, error: got.why, ...(t.explicit ? {} : { skipped: true }) });
        continue;
      }
      const result = rewriteReferences(got.text, table);
      const entry: RewriteDone = { file: t.display, result };
      if (opts.out !== undefined && result.text !== got.text) {
        try {
          writeFile(realPath(t.absolute), result.text);
          entry.written = true;
        } catch (e) {
          entry.error = `cannot write it: ${describeErrno(e)}`;
        }
      }
      // The text is not kept: only what the report says of it.
      rewrites.push({ ...entry, ...(entry.result ? { result: { ...entry.result, text: "" } } : {}) });
    }
  }

  if (opts.format === "json") {
    for (const r of rewrites) element(rewriteJson(r));
    io.stdout(elements ? "\n]\n" : "[]\n");
  } else tailText(done, rewrites, fleet.collisions, fleet.resolved, opts, io, mapWritten);
  if (mapError) throw mapError;
  if (interrupted) {
    const written = done.filter((d) => d.written !== undefined).length;
    io.stderr(
      `plugin-review: interrupted: ${written} of ${plural(done.length, "descriptor")} written, each whole; run the same command again to write the others\n`,
    );
    return 130;
  }
  const refusedOtherwise = done.some((d) => (!d.result.converted && !d.collisions.length) || d.error);
  if (refusedOtherwise || rewrites.some((r) => r.error && !r.skipped)) return 2;
  return fleet.collisions.length || fleet.resolved.length ? 1 : 0;
}
