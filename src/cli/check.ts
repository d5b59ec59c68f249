/** `plugin-review check`: collects descriptors (and bases), runs the core, prints, returns the exit code. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, relative, resolve } from "node:path";
import {
  CONFIG_PATH,
  ConfigError,
  parseConfig,
  resolveConfig,
  type ExistingMode,
  type ResolvedConfig,
} from "../core/config.js";
import { fixDescriptors, unifiedDiff } from "../core/fix.js";
import { hasFailures, reviewDescriptors, type DescriptorInput, type FileReview } from "../core/review.js";
import { formatGithub } from "../format/github.js";
import { formatJson } from "../format/json.js";
import { formatSarif } from "../format/sarif.js";
import { formatText } from "../format/text.js";
import { describeErrno, expandArgs, readLimited, UsageError } from "./files.js";
import { GitRepo } from "./git.js";

export type Format = "text" | "json" | "sarif" | "github";
export const FORMATS: readonly Format[] = ["text", "json", "sarif", "github"];

export interface CheckOptions {
  targets: string[];
  base?: string;
  baseRef?: string;
  config?: string;
  format: Format;
  /** `--output <format>=<file>`: further reports of the same review. */
  outputs?: { format: Format; file: string }[];
  /** `--fix` writes the fixed files; `--fix-dry-run` prints their unified diff instead. */
  fix?: "write" | "dry-run";
}

export interface Io {
  cwd: string;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  colour: boolean;
  version: string;
}

function loadConfig(opts: CheckOptions, io: Io): { config: ResolvedConfig; root: string } {
  const explicit = opts.config !== undefined;
  const file = resolve(io.cwd, opts.config ?? CONFIG_PATH);
  if (!existsSync(file)) {
    if (explicit) throw new UsageError(`cannot read configuration '${opts.config}': no such file`);
    return { config: resolveConfig(), root: io.cwd };
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read configuration '${opts.config ?? CONFIG_PATH}': ${describeErrno(e)}`);
  }
  const raw = parseConfig(text, opts.config ?? CONFIG_PATH);
  // `ignore` globs are relative to the repository: the folder that holds `.github/`.
  const dir = dirname(file);
  const root = basename(dir) === ".github" ? dirname(dir) : io.cwd;
  return { config: resolveConfig({ repo: raw }), root };
}

export async function runCheck(opts: CheckOptions, io: Io): Promise<number> {
  try {
    return await check(opts, io);
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      io.stderr(`plugin-review: ${e.message}\n`);
      return 2;
    }
    io.stderr(`plugin-review: unexpected error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}

async function check(opts: CheckOptions, io: Io): Promise<number> {
  if (opts.base !== undefined && opts.baseRef !== undefined)
    throw new UsageError("use either --base or --base-ref, not both");
  const { config, root } = loadConfig(opts, io);
  const targets = opts.targets.length ? opts.targets : opts.baseRef !== undefined ? ["."] : [];
  if (targets.length === 0)
    throw new UsageError("no files given (try: plugin-review check <file|dir|glob>...)");
  const candidates = await expandArgs(targets, io.cwd, config.paths);
  if (opts.base !== undefined && candidates.length !== 1) {
    throw new UsageError(
      `--base compares one head file with one base file, but ${candidates.length} files were given`,
    );
  }
  const repo = opts.baseRef !== undefined ? GitRepo.open(io.cwd, opts.baseRef) : undefined;
  const inputs: DescriptorInput[] = [];
  const display = new Map<string, string>();
  const absolutes = new Map<string, string>();
  let unchanged = 0;
  for (const c of candidates) {
    const repoPath = repo ? repo.relative(c.absolute) : relative(root, c.absolute).split("\\").join("/");
    const input: DescriptorInput = {
      path: repoPath,
      ...readLimited(c.absolute, c.display, config.maxFileSize),
    };
    if (opts.base !== undefined) {
      const base = readLimited(resolve(io.cwd, opts.base), opts.base, config.maxFileSize);
      input.base = { path: opts.base, content: base.content };
      input.isNew = false;
    } else if (repo) {
      const change = repo.change(c.absolute);
      if (!change && !c.explicit) {
        unchanged++;
        continue; // only changed descriptors, like the App; counted in the summary
      }
      const basePath = change ? change.basePath : repoPath;
      const bytes = basePath !== undefined ? repo.show(basePath, config.maxFileSize) : undefined;
      if (bytes) input.base = { path: `${opts.baseRef}:${basePath}`, content: new Uint8Array(bytes) };
      input.isNew = bytes === undefined;
    }
    display.set(repoPath, c.display);
    absolutes.set(repoPath, c.absolute);
    inputs.push(input);
  }
  const show = (p: string) => display.get(p) ?? p;
  const notes = [...config.notes];
  if (unchanged) notes.push(`${unchanged} descriptor(s) unchanged since ${opts.baseRef} were not checked`);
  if (opts.fix) {
    const fixed = fixDescriptors(inputs, config);
    const files = [...fixed.entries()];
    const count = files.reduce((n, [, f]) => n + f.applied, 0);
    if (opts.fix === "dry-run") {
      for (const [input, f] of files) {
        const name = show(input.path).replace(/\\/g, "/");
        io.stdout(unifiedDiff(`a/${name}`, `b/${name}`, f.before, f.after));
      }
      notes.push(
        `--fix-dry-run: ${count} fix(es) in ${files.length} file(s) would be applied; nothing was written`,
      );
    } else {
      for (const [input, f] of files) {
        const absolute = absolutes.get(input.path) as string;
        try {
          writeFileSync(absolute, f.after);
        } catch (e) {
          throw new UsageError(`cannot write '${show(input.path)}': ${describeErrno(e)}`);
        }
      }
      notes.push(`--fix: ${count} fix(es) applied in ${files.length} file(s)`);
    }
  }
  const reviews = reviewDescriptors(inputs, config);
  for (const o of opts.outputs ?? []) {
    const file = resolve(io.cwd, o.file);
    try {
      writeFileSync(file, render(o.format, reviews, show, notes, { ...io, colour: false }, config.existing));
    } catch (e) {
      throw new UsageError(`cannot write '${o.file}': ${describeErrno(e)}`);
    }
  }
  // The dry run's standard output is the diff alone (to pipe into `git apply`); its notes go to stderr.
  const stdoutFormat = opts.fix === "dry-run" ? undefined : opts.format;
  if (stdoutFormat) io.stdout(render(stdoutFormat, reviews, show, notes, io, config.existing));
  if (stdoutFormat !== "text") for (const n of notes) io.stderr(`plugin-review: ${n}\n`);
  return hasFailures(reviews, config) ? 1 : 0;
}

function render(
  format: Format,
  reviews: readonly FileReview[],
  show: (path: string) => string,
  notes: string[],
  io: Io,
  existing: ExistingMode,
): string {
  switch (format) {
    case "json":
      return formatJson(reviews, show);
    case "sarif":
      return formatSarif(reviews, show, io.version);
    case "github":
      return formatGithub(reviews, show, existing);
    default:
      return formatText(reviews, show, { colour: io.colour, notes });
  }
}
