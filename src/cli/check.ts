/** `plugin-review check`: collects descriptors (and bases), runs the core, prints, returns the exit code. */
import { existsSync, realpathSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { CONFIG_PATH, ConfigError, type ExistingMode, type ResolvedConfig } from "../core/config.js";
import { baseOf, notReviewedRenameNote } from "../core/base-path.js";
import { NOT_AN_EXTENSION } from "../core/ef2/extension-document.js";
import {
  extensionReads,
  folderOf,
  projectFolder,
  type ExtensionFiles,
  type FileRead,
} from "../core/ef2/package.js";
import { formatOf, replacedDescriptorPaths } from "../core/ef2/pairing.js";
import { fixDescriptors, unifiedDiff } from "../core/fix.js";
import { analyseDescriptors, type DescriptorInput, type AnalysedFile } from "../core/analyse.js";
import { AnalysisTiming } from "../core/timing.js";
import { findingCounts, hasFailures } from "../core/verdict.js";
import { formatGithub } from "../format/github.js";
import { formatJson } from "../format/json.js";
import { escaped, printable } from "../format/printable.js";
import { formatSarif, type RepositoryPath } from "../format/sarif.js";
import { plural } from "../format/summary.js";
import { formatText } from "../format/text.js";
import { formatTiming } from "../format/timing.js";
import { extensionFilesOnDisk, extensionValue } from "../workspace/extension-files.js";
import {
  expandArgs,
  filesProblem,
  isFile,
  isReviewedFile,
  onceEach,
  readCandidate,
  readLimited,
  type Candidate,
  type LimitedRead,
} from "../workspace/files.js";
import { configAtRef } from "../workspace/base-config.js";
import { extendsReader } from "./config-extends.js";
import { usageErrorText } from "./output.js";
import { ConfigFinder, displayPath, type FoundConfig } from "../workspace/find-config.js";
import { GitRepo, type GitChange } from "../workspace/git.js";
import { describeErrno, UsageError } from "../workspace/usage-error.js";

export type Format = "text" | "json" | "sarif" | "github";
export const FORMATS: readonly Format[] = ["text", "json", "sarif", "github"];

export interface CheckOptions {
  targets: string[];
  base?: string;
  baseRef?: string;
  config?: string;
  /** `--no-config`: the built-in defaults, whatever configuration files exist. */
  noConfig?: boolean;
  /** `--config-from-base`: the configuration as the `--base-ref` commit has it (workspace/base-config.ts). */
  configFromBase?: boolean;
  format: Format;
  /** `--output <format>=<file>`: further reports of the same review. */
  outputs?: { format: Format; file: string }[];
  /** `--fix` writes the fixed files; `--fix-dry-run` prints their unified diff instead. */
  fix?: "write" | "dry-run";
  /**
   * `--stdin` (or `-`): one descriptor read from standard input, named by `--stdin-filename` (configuration,
   * ignores, output); `read` returns at least its first `limit` bytes (all of it when shorter).
   */
  stdin?: { read: (limit: number) => Promise<Uint8Array>; filename?: string };
  /** `--max-warnings <n>`: more counted warnings than this fail the run too. */
  maxWarnings?: number;
  /** `--quiet`: errors only; warnings and notices are neither reported nor counted. */
  quiet?: boolean;
  /** `--timing` or `TIMING`: print this many of the slowest rules and steps to stderr (ESLint's TIMING). */
  timing?: number;
}

/** The most of a base project's file list read from git (some 50,000 paths). */
const BASE_LISTING_BYTES = 4 * 1024 * 1024;

/** An extension.yaml unchanged itself whose project's files changed: compared with itself at the ref. */
const PROJECT_CHANGED: GitChange = { status: "modified" };

/** Whether a text's first character past white space and a byte order mark opens a JSON object or array. */
function startsAsJson(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    if (i === 0 && b === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      i += 2;
      continue;
    }
    return b === 0x7b || b === 0x5b;
  }
  return false;
}

/** How standard input is named in the output when `--stdin-filename` does not name it. */
const STDIN_NAME = "<stdin>";

/** Said with the files that cannot be read: the others are not reviewed either (docs/cli.md, exit status). */
const NOTHING_REVIEWED = ", so nothing was reviewed";

export interface Io {
  cwd: string;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  colour: boolean;
  /** The width the text output's rows fit on standard output (a terminal's, or COLUMNS); none: no limit. */
  width?: number;
  version: string;
  /** The environment (default: the process's): GITHUB_TOKEN and the API's address for `_extends`. */
  env?: NodeJS.ProcessEnv;
}

export async function runCheck(opts: CheckOptions, io: Io): Promise<number> {
  try {
    return await check(opts, io);
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      io.stderr(`plugin-review: ${printedError(e)}\n`);
      return 2;
    }
    io.stderr(`plugin-review: unexpected error: ${escaped(e instanceof Error ? e.message : String(e))}\n`);
    return 2;
  }
}

/**
 * An error as printed: its lines without control characters, and a configuration's problems one per line
 * whatever they quote of the file (a key holding a line break does not start a line, which in GitHub
 * Actions could be a workflow command).
 */
function printedError(e: UsageError | ConfigError): string {
  if (!(e instanceof ConfigError)) return usageErrorText(e);
  return `invalid configuration ${escaped(e.source)}:\n${e.problems.map((p) => `  - ${printable(p)}`).join("\n")}`;
}

/** The descriptors one configuration applies to, reviewed together (set rules such as duplicate names). */
interface Group {
  found: FoundConfig;
  /** `real`: the file's path with its folders' links resolved (ConfigFinder.locate's), for `--fix-dry-run`. */
  items: { input: DescriptorInput; display: string; absolute: string; real: string; order: number }[];
}

async function check(opts: CheckOptions, io: Io): Promise<number> {
  if (opts.base !== undefined && opts.baseRef !== undefined)
    throw new UsageError("use either --base or --base-ref, not both");
  if (opts.configFromBase && opts.baseRef === undefined)
    throw new UsageError(
      "--config-from-base reads the configuration as the --base-ref commit has it: add --base-ref <ref>",
    );
  if (opts.configFromBase && opts.noConfig)
    throw new UsageError("use either --config-from-base or --no-config, not both");
  const repo = opts.baseRef !== undefined ? await openBaseRef(io.cwd, opts.baseRef) : undefined;
  const finder = new ConfigFinder({
    cwd: io.cwd,
    ...(repo && opts.configFromBase
      ? {
          given: await configAtRef(
            repo.git,
            repo.ref,
            io.cwd,
            opts.config,
            extendsReader(repo.git, io.env ?? process.env),
            opts.baseRef,
          ),
        }
      : opts.config !== undefined
        ? { config: opts.config }
        : {}),
    ...(opts.noConfig ? { noConfig: true } : {}),
  });
  const { stdin } = opts;
  /** What was read of standard input (no more than its configuration's max_file_size and a byte). */
  let stdinContent: Uint8Array | undefined;
  if (stdin) {
    if (opts.targets.length)
      throw new UsageError(
        "--stdin reads one descriptor from standard input: give no file arguments with it",
      );
    if (opts.fix === "write")
      throw new UsageError("--fix cannot write to standard input; --fix-dry-run prints the fixes as a diff");
    if (opts.baseRef !== undefined && stdin.filename === undefined)
      throw new UsageError(
        "--base-ref with --stdin needs --stdin-filename, the descriptor's path in the repository",
      );
  }
  const targets = opts.targets.length ? opts.targets : opts.baseRef !== undefined ? ["."] : [];
  if (targets.length === 0 && !stdin)
    throw new UsageError("no files given (try: plugin-review check <file|dir|glob>...)");
  /** The paths of a file reached twice that were left out: said in the notes. */
  const sameFileNotes: string[] = [];
  /**
   * Every argument and descriptor that cannot be read, each with why: all said in one run (nothing is reviewed
   * then), so that a fleet's owner fixes them at once rather than one a run.
   */
  const unreadable: string[] = [];
  const candidates: Candidate[] = stdin
    ? [
        {
          display: stdin.filename ?? STDIN_NAME,
          absolute: resolve(io.cwd, stdin.filename ?? STDIN_NAME),
          explicit: true,
        },
      ]
    : onceEach(
        await expandArgs(targets, io.cwd, finder, unreadable),
        // One file reached through a symbolic link (to it, or to a folder above it) and as itself is one
        // descriptor: reviewed once, its findings said once (and no duplicate-plugin-name with itself).
        (c) => (c.notFile === undefined ? realFile(c.absolute) : c.absolute),
        (path, kept) =>
          sameFileNotes.push(
            `${path.display} is the same file as ${kept.display} (through a symbolic link): one descriptor, taken as ${kept.display}`,
          ),
      );
  if (unreadable.length && opts.base !== undefined) throw filesProblem(unreadable, NOTHING_REVIEWED);
  if (opts.base !== undefined && candidates.length !== 1) {
    throw new UsageError(
      `--base compares one head file with one base file, but ${candidates.length} files were given`,
    );
  }
  // One group per configuration and repository: set rules compare descriptors of one repository, as the App.
  const groups = new Map<FoundConfig, Map<string, Group>>();
  let unchanged = 0;
  /** What the review of each file could not do (a rename not followed, a project not listed): said in the notes. */
  const fileNotes: string[] = [...(repo?.note ? [repo.note] : []), ...sameFileNotes];
  /**
   * By displayed name, a file's path in its repository: annotations (`github`) and code scanning (`sarif`)
   * name files as GitHub does, from the repository root, wherever the command runs.
   */
  const inRepository = new Map<string, RepositoryPath>();
  for (const c of candidates) {
    // Standard input without a name is named `<stdin>` in the working directory, with its configuration.
    const located = finder.locate(c.absolute);
    const { found } = located;
    const { config } = found;
    // Globs read the path below the configuration's root; the identity and git, the repository's path.
    const repoPath = repo ? repo.git.relative(located.real) : located.path;
    // Unnamed standard input is no file of the repository.
    if (located.repository !== undefined && !(stdin && stdin.filename === undefined))
      inRepository.set(c.display, { path: located.path, root: located.repository });
    // Only changed descriptors, like the App (counted in the summary); one left out is not even read.
    const change = repo && !stdin ? changeOf(repo, repoPath) : undefined;
    if (repo && !stdin && !c.explicit && !change) {
      unchanged++;
      continue;
    }
    // A pipe is read, but what --fix would write into it reaches no file.
    if (opts.fix === "write" && !stdin && c.notFile === undefined && !isFile(c.absolute))
      throw new UsageError(
        `--fix cannot write to '${c.display}': it is not a file (a pipe?); --fix-dry-run prints the fixes as a diff`,
      );
    if (stdin) {
      // Read once its configuration is known, past the size limit by one byte, as a pipe is read: an oversized
      // input is file-too-large, and however much is piped in, no more than that is held.
      const bytes = await stdin.read(config.maxFileSize + 1);
      stdinContent = bytes.subarray(0, config.maxFileSize + 1);
    }
    let read: LimitedRead;
    try {
      read = stdinContent
        ? {
            content: stdinContent,
            size: stdinContent.length,
            // Read to the limit and a byte: how much more was coming is not known.
            ...(stdinContent.length > config.maxFileSize ? { sizeIsLowerBound: true as const } : {}),
          }
        : readCandidate(c, config.maxFileSize);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      unreadable.push(e.message);
      continue;
    }
    // Nothing is reviewed: what is left to do is find the other files that cannot be read.
    if (unreadable.length) continue;
    const input: DescriptorInput = {
      path: repoPath,
      configPath: c.configPath ?? located.configPath,
      ...read,
    };
    const extension = formatOf(repoPath) === "extension.yaml";
    // Where the base is in the repository at the ref (a renamed file's old path): its extension's files are there.
    let baseRepoPath = repoPath;
    if (opts.base !== undefined) {
      const base = readLimited(resolve(io.cwd, opts.base), opts.base, config.maxFileSize);
      if (extension && /\.json$/i.test(opts.base)) {
        // An extension.yaml against a JSON file: the plugin.json it replaces (the migration's review).
        input.replaces = { path: opts.base, content: base.content, size: base.size };
        input.isNew = true;
      } else {
        input.base = { path: opts.base, content: base.content };
        input.isNew = false;
      }
    } else if (repo && stdin) {
      // The editor's text of a file against the file at the ref, whether or not the work tree changed it.
      const bytes = await repo.git.read(repo.ref, repoPath, config.maxFileSize);
      if (bytes) input.base = { path: `${repo.ref}:${repoPath}`, ...contentOf(bytes) };
      input.isNew = bytes === undefined;
      const replaces = extension ? await replacedAt(repo, repoPath, config) : undefined;
      if (replaces) input.replaces = replaces;
    } else if (repo) {
      // As in the App: an extension.yaml beside a plugin.json the ref holds is compared with it too.
      const replaces = extension ? await replacedAt(repo, repoPath, config) : undefined;
      if (replaces) input.replaces = replaces;
      // A base is only what the base's review read (core/base-path.ts): a rename's old path under the
      // configuration that applies to it there; a file renamed from elsewhere is new.
      const { path: basePath, notReviewedFrom } = change
        ? baseOf({ path: repoPath, status: change.status, previousPath: change.basePath }, (old) =>
            isReviewedFile(finder, join(repo.git.root, old)),
          )
        : { path: repoPath };
      if (notReviewedFrom !== undefined)
        fileNotes.push(notReviewedRenameNote(repoPath, notReviewedFrom, (p) => `'${p}'`));
      const bytes =
        basePath !== undefined ? await repo.git.read(repo.ref, basePath, config.maxFileSize) : undefined;
      if (bytes) {
        input.base = { path: `${repo.ref}:${basePath}`, ...contentOf(bytes) };
        baseRepoPath = basePath!;
        // A renamed file: what the configuration ignores at its old path was never seen there (core/analyse.ts).
        if (basePath !== repoPath)
          input.base.configPath = finder.locate(join(repo.git.root, basePath!)).configPath;
      }
      input.isNew = bytes === undefined;
    } else if (extension) {
      // Without a base, as the audit reviews one commit: beside the plugin.json it replaces, compared with it.
      // Outside any repository and the configuration's root, the path is the file's name alone: the plugin.json
      // is then named as found, absolute.
      const below = relative(located.repository ?? found.root, located.real);
      const anchored = !isAbsolute(below) && !below.startsWith("..");
      const replaces = replacedOnDisk(located.real, anchored ? located.path : undefined, config);
      if (replaces) input.replaces = replaces;
    }
    if (extension) {
      // What the extension's rules read beside it: its project's files, and what `--base-ref` changed there.
      const { files, unlisted, unchecked } = extensionFilesOnDisk(
        located.real,
        repoPath,
        input.content,
        config.maxFileSize,
      );
      if (files && repo)
        await addBaseFiles(
          files,
          repo,
          repoPath,
          { path: baseRepoPath, content: input.base?.content },
          config.maxFileSize,
        );
      if (files) input.files = files;
      if (unlisted)
        fileNotes.push(`${c.display}: ${unchecked ?? "its project's files"} were not checked: ${unlisted}`);
    }
    const byRepo = groups.get(found) ?? new Map<string, Group>();
    groups.set(found, byRepo);
    // The folder the path is relative to: within a group no two descriptors share a path.
    const repoKey = located.real.slice(0, located.real.length - located.path.length);
    const group = byRepo.get(repoKey) ?? { found, items: [] };
    byRepo.set(repoKey, group);
    group.items.push({
      input,
      display: c.display,
      absolute: c.absolute,
      real: located.real,
      order: group.items.length,
    });
  }
  if (unreadable.length) throw filesProblem(unreadable, NOTHING_REVIEWED);
  const reviewGroups = [...groups.values()].flatMap((byRepo) => [...byRepo.values()]);
  const notes = [...new Set([...groups.keys()].flatMap((f) => f.config.notes)), ...fileNotes];
  if (unchanged)
    notes.push(
      `${plural(unchanged, "descriptor")} unchanged since ${opts.baseRef} ${unchanged === 1 ? "was" : "were"} not checked`,
    );
  if (opts.fix) notes.push(...applyFixes(opts.fix, reviewGroups, io));
  // Each group on its own configuration; then the files in the order the command line named them.
  const order = new Map(candidates.map((c, i) => [c.absolute, i]));
  const timing = opts.timing !== undefined ? new AnalysisTiming() : undefined;
  const analysed = reviewGroups.flatMap(({ found, items }) =>
    analyseDescriptors(
      items.map((i) => i.input),
      found.config,
      timing ? { timing } : {},
    ).map((file, i) => {
      const item = items[i] as Group["items"][number];
      return { file: { ...file, path: item.display }, found, order: order.get(item.absolute) ?? 0 };
    }),
  );
  analysed.sort((a, b) => a.order - b.order);
  // Unnamed standard input is a plugin.json: an extension.yaml piped in is "not valid JSON", and the way out is
  // said (not for a broken plugin.json).
  if (
    stdin !== undefined &&
    stdin.filename === undefined &&
    stdinContent !== undefined &&
    !startsAsJson(stdinContent) &&
    analysed.some((r) => r.file.findings.some((f) => f.ruleId === "invalid-json"))
  )
    notes.push(
      `${STDIN_NAME} was read as a plugin.json: for an extension.yaml, name it with --stdin-filename <path>/extension.yaml`,
    );
  // Likewise a YAML file named otherwise (a test fixture's basic_extension.yaml): by its name it is a plugin.json
  // (core/ef2/pairing.ts), and its "not valid JSON" alone would not say why.
  for (const r of analysed)
    if (/\.ya?ml$/i.test(r.file.path) && r.file.findings.some((f) => f.ruleId === "invalid-json"))
      notes.push(
        `${r.file.path} was read as a plugin.json: only a file named extension.yaml is an extension; ` +
          "rename it, or pipe it in with --stdin --stdin-filename <path>/extension.yaml",
      );
  // Another tool's extension.yaml (core/ef2/extension-document.ts): left out of the review, and said.
  for (const r of analysed.filter((r) => r.file.notAnExtension))
    notes.push(`${r.file.path}: ${NOT_AN_EXTENSION}`);
  const reviewed = analysed.filter((r) => !r.file.notAnExtension);
  // --quiet: errors only, for the output and the exit status alike (as ESLint does).
  if (opts.quiet)
    for (const r of reviewed) r.file.findings = r.file.findings.filter((f) => f.severity === "error");
  const files = reviewed.map((r) => r.file);
  const existingOf = new Map(reviewed.map((r) => [r.file, r.found.config.existing]));
  let failed = reviewed.some((r) => hasFailures([r.file], r.found.config));
  if (opts.maxWarnings !== undefined) {
    // The warnings that count, as findings count towards failing (existing ones only with `existing: fail`).
    const warnings = reviewed.reduce(
      (n, r) =>
        n +
        r.file.findings.filter((f) => f.severity === "warning" && findingCounts(f, r.found.config)).length,
      0,
    );
    if (warnings > opts.maxWarnings) {
      failed = true;
      notes.push(`too many warnings: ${warnings} (--max-warnings ${opts.maxWarnings})`);
    }
  }
  const show = (p: string) => p;
  const names = { show, inRepository: (p: string) => inRepository.get(p) };
  const textNotes = [describeConfigs([...groups.keys()], io.cwd, finder), ...notes];
  const write = (format: Format, colour: boolean, width: number | undefined) =>
    render(
      format,
      files,
      names,
      format === "text" ? textNotes : notes,
      { ...io, colour, width },
      (r) => existingOf.get(r) ?? "report",
      failed,
    );
  for (const o of opts.outputs ?? []) {
    const file = resolve(io.cwd, o.file);
    try {
      writeFileSync(file, write(o.format, false, undefined));
    } catch (e) {
      throw new UsageError(`cannot write '${o.file}': ${describeErrno(e)}`);
    }
  }
  // The dry run's standard output is the diff alone (to pipe into `git apply`); its notes go to stderr.
  const stdoutFormat = opts.fix === "dry-run" ? undefined : opts.format;
  if (stdoutFormat) io.stdout(write(stdoutFormat, io.colour, io.width));
  if (stdoutFormat !== "text") for (const n of notes) io.stderr(`plugin-review: ${escaped(n)}\n`);
  // On stderr, so that a JSON or SARIF report on stdout stays whole.
  if (timing) io.stderr(formatTiming(timing, opts.timing));
  return failed ? 1 : 0;
}

/** A file's content at the ref as `DescriptorInput` takes it: its bytes, or past what git read, its size alone. */
function contentOf(read: Buffer | { tooLarge: number }): { content: Uint8Array; size?: number } {
  return read instanceof Uint8Array
    ? { content: new Uint8Array(read) }
    : { content: new Uint8Array(0), size: read.tooLarge };
}

/** `--base-ref`: the repository the command runs in, the ref, and what changed since it. */
interface BaseRef {
  git: GitRepo;
  ref: string;
  /** By repository path; a descriptor not in it is as it is at the ref. */
  changes: Map<string, GitChange>;
  /** What the output says about the ref (HEAD before the first commit). */
  note?: string;
}

/**
 * The plugin.json an extension.yaml replaces (ef2/pairing.ts), as the ref holds it, and what the work tree
 * did with it since; undefined when the ref holds none beside the extension.
 */
async function replacedAt(
  repo: BaseRef,
  extensionPath: string,
  config: ResolvedConfig,
): Promise<DescriptorInput["replaces"]> {
  for (const path of replacedDescriptorPaths(extensionPath)) {
    const bytes = await repo.git.read(repo.ref, path, config.maxFileSize);
    if (!bytes) continue;
    const status = !existsSync(join(repo.git.root, path))
      ? "deleted"
      : repo.changes.has(path)
        ? "changed"
        : "kept";
    return { path: `${repo.ref}:${path}`, ...contentOf(bytes), status };
  }
  return undefined;
}

/**
 * The plugin.json an extension.yaml replaces (ef2/pairing.ts) on disk, kept beside it, named as the extension
 * is (its path in the repository); else none.
 */
function replacedOnDisk(
  real: string,
  path: string | undefined,
  config: ResolvedConfig,
): DescriptorInput["replaces"] {
  const named = path === undefined ? [] : replacedDescriptorPaths(path);
  const files = replacedDescriptorPaths(real.split(sep).join("/"));
  for (const [i, file] of files.entries()) {
    if (!isFile(file)) continue;
    const shown = named[i] ?? file;
    const { content, size } = readLimited(file, shown, config.maxFileSize);
    return { path: shown, content, size, status: "kept" };
  }
  return undefined;
}

async function openBaseRef(cwd: string, ref: string): Promise<BaseRef> {
  const git = await GitRepo.find(cwd);
  if (!git)
    throw new UsageError("--base-ref needs a git work tree, and this is not one (or git is not installed)");
  if ((await git.commit(ref)) === undefined) {
    // `--base-ref HEAD` on a repository's first commit (the pre-commit hook's documented arguments): nothing
    // is committed yet, so every file is added, as against the empty tree.
    const empty = ref === "HEAD" ? await git.unbornHeadTree() : undefined;
    if (empty === undefined)
      throw new UsageError(
        `--base-ref: '${ref}' is not a commit, branch or tag in this repository (fetch it first?)`,
      );
    return {
      git,
      ref: empty,
      changes: await git.changes(empty, { untracked: true }),
      note: "--base-ref: HEAD names no commit yet (nothing is committed on its branch): every descriptor is new",
    };
  }
  // The work tree (committed or not) against the ref, renames followed; untracked files are added.
  return { git, ref, changes: await git.changes(ref, { untracked: true }) };
}

/**
 * A file's name in `--fix-dry-run`'s diff: relative to the working directory, so that `git apply` (or
 * `patch -p1`) takes the diff where the command ran, whatever way the file was named (absolute, `./`, `..`).
 * A file outside the working directory has no such name: it is named by its path in its repository (the
 * name its identity has), and `root` is where the diff applies.
 */
function diffName(item: Group["items"][number], here: string): { name: string; root?: string } {
  const rel = relative(here, item.real);
  if (rel && !/^\.\.(?:[\\/]|$)/.test(rel) && !isAbsolute(rel)) return { name: rel.split("\\").join("/") };
  const name = item.input.path;
  return { name, root: item.real.slice(0, item.real.length - name.length).replace(/[\\/]$/, "") || "/" };
}

/** `--fix` writes the fixed files, `--fix-dry-run` prints their diff; returns the notes that say what was done. */
function applyFixes(mode: "write" | "dry-run", groups: Group[], io: Io): string[] {
  let count = 0;
  let files = 0;
  const here = realFolder(io.cwd);
  const elsewhere = new Set<string>();
  for (const { found, items } of groups) {
    const byInput = new Map(items.map((i) => [i.input, i]));
    for (const [input, f] of fixDescriptors(
      items.map((i) => i.input),
      found.config,
    )) {
      const item = byInput.get(input) as Group["items"][number];
      count += f.applied;
      files++;
      if (mode === "dry-run") {
        const { name, root } = diffName(item, here);
        if (root !== undefined) elsewhere.add(root);
        io.stdout(unifiedDiff(`a/${name}`, `b/${name}`, f.before, f.after));
        continue;
      }
      try {
        writeFileSync(item.absolute, f.after);
      } catch (e) {
        throw new UsageError(`cannot write '${item.display}': ${describeErrno(e)}`);
      }
    }
  }
  if (mode === "write")
    return [`--fix: ${plural(count, "fix", "fixes")} applied in ${plural(files, "file")}`];
  return [
    `--fix-dry-run: ${plural(count, "fix", "fixes")} in ${plural(files, "file")} would be applied; nothing was written`,
    ...[...elsewhere].map(
      (root) =>
        `--fix-dry-run: the diff names files outside the working directory by their path below ${root}: apply it there (git -C ${root} apply)`,
    ),
  ];
}

/** A file's path with its links resolved; as given when it cannot be resolved (reading it fails saying why). */
function realFile(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/** A folder's path with its links resolved, as ConfigFinder.locate's `real` paths have theirs. */
function realFolder(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}

/** The text output's line naming the configuration used (several when nested ones apply to different files). */
function describeConfigs(used: FoundConfig[], cwd: string, finder: ConfigFinder): string {
  const name = (f: FoundConfig) =>
    f.label !== undefined
      ? f.label
      : f.path !== undefined
        ? displayPath(f.path, cwd)
        : f.none === "disabled"
          ? "none (--no-config: built-in defaults)"
          : `none (no ${CONFIG_PATH} found walking up from the files: built-in defaults)`;
  if (used.length === 0) return `configuration: ${name(finder.findForDir(cwd))}`;
  return `configuration: ${used.map(name).join(", ")}`;
}

function render(
  format: Format,
  files: readonly AnalysedFile[],
  /** `show`: a file's name for people and in JSON; `inRepository`: its path in its repository, for GitHub. */
  names: { show: (path: string) => string; inRepository: (path: string) => RepositoryPath | undefined },
  notes: string[],
  io: Io,
  existing: (file: AnalysedFile) => ExistingMode,
  failed: boolean,
): string {
  switch (format) {
    case "json":
      return formatJson(files, names.show);
    case "sarif":
      return formatSarif(files, names.show, io.version, names.inRepository);
    case "github":
      return formatGithub(files, (p) => names.inRepository(p)?.path ?? names.show(p), existing);
    default:
      return formatText(files, names.show, { colour: io.colour, notes, width: io.width, failed });
  }
}

/**
 * The base side of an extension's files with `--base-ref`: the project's files changed since the ref, and the
 * files the review reads (the head's and the base's activation schemas) as the ref holds them. A renamed
 * extension's base files are at its old place (`base.path`, its extension.yaml's path at the ref), named by
 * head's paths as the App names them (review/extension-files.ts): read at head's place, a module or alert file
 * the move left behind would be missing at the base too, and its finding would pass as existing.
 */
async function addBaseFiles(
  files: ExtensionFiles,
  repo: BaseRef,
  path: string,
  base: { path: string; content: Uint8Array | string | undefined },
  maxBytes: number,
): Promise<void> {
  const project = projectFolder(path);
  files.changed = [...repo.changes.keys()].filter((p) => p !== path && p.startsWith(project));
  // The base's own files, so that a base finding is judged on them (a module the change removed is new): its
  // project's, moved to head's.
  const baseProject = projectFolder(base.path);
  const basePaths = await repo.git.filesAt(repo.ref, baseProject, BASE_LISTING_BYTES);
  if (basePaths) files.basePaths = basePaths.map((p) => project + p.slice(baseProject.length));
  const reads = new Set([
    ...(files.contents?.keys() ?? []),
    ...extensionReads(path, extensionValue(base.content)),
  ]);
  // Each read as extension.yaml names it from its folder: at the ref, from the old folder; a read outside the
  // folder only when the folder did not move (else it is not read: the base says nothing of it).
  const folder = folderOf(path);
  const baseFolder = folderOf(base.path);
  const baseContents = new Map<string, FileRead>();
  for (const read of reads) {
    const at = read.startsWith(folder)
      ? baseFolder + read.slice(folder.length)
      : folder === baseFolder
        ? read
        : undefined;
    const bytes = at === undefined ? undefined : await repo.git.read(repo.ref, at, maxBytes);
    if (bytes) baseContents.set(read, bytes instanceof Uint8Array ? new Uint8Array(bytes) : bytes);
  }
  files.baseContents = baseContents;
}

/**
 * What the change did to a descriptor: its own change, or for an extension.yaml a change to a file of its project
 * (version-not-bumped judges whether the extension packages it: its version must go up for that change to be
 * uploaded); undefined when neither changed.
 */
function changeOf(repo: BaseRef, path: string) {
  const own = repo.changes.get(path);
  if (own || formatOf(path) !== "extension.yaml") return own;
  const project = projectFolder(path);
  return [...repo.changes.keys()].some((p) => p.startsWith(project)) ? PROJECT_CHANGED : undefined;
}
