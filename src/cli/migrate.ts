/**
 * `plugin-review migrate <plugin.json>… [--out <dir>] [--name <custom:…>] [--format text|json]`: reads each EF1
 * descriptor, converts it (src/migrate/, pure), and writes the EF2 extension's files, or prints what it would
 * write. One input with `--out <dir>` writes `<dir>/extension/extension.yaml`…; several write each to
 * `<dir>/<name>/` (the EF2 name without `custom:`, `-2`, `-3` after it when two share it).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { DEFAULT_MAX_FILE_SIZE } from "../core/config.js";
import { decodeUtf8 } from "../core/utf8.js";
import { migrate, type MigrateOptions, type MigrationResult, type OutputFile } from "../migrate/migrate.js";
import { frameworkOf } from "../core/ef2/key-map.js";
import { parseJsonFast } from "../core/json/parse.js";
import { readPluginFolder } from "../workspace/plugin-folder.js";
import { keyPrefix } from "../core/ef2/names.js";
import { fitLine } from "../format/fit.js";
import { printable, printableLines } from "../format/printable.js";
import { plain, said } from "../migrate/notes.js";
import { readLimited } from "../workspace/files.js";
import { describeErrno, UsageError } from "../workspace/usage-error.js";

export interface MigrateCommandOptions {
  files: string[];
  out?: string;
  name?: string;
  format: "text" | "json";
}

export interface MigrateIo {
  cwd: string;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** The width its lines for people fit (COLUMNS, else the terminal's, else 80). */
  width?: number;
}

interface Done {
  file: string;
  result: MigrationResult;
  /** The folder its files go to, relative to `--out` ("" for a single input). */
  folder?: string;
  written?: string[];
  error?: string;
}

/** The result of a file that could not be read or decoded: not converted, saying why. */
function unreadable(why: string): MigrationResult {
  return { converted: false, reasons: [{ text: said`${why}` }], notes: [] };
}

function read(file: string, cwd: string): MigrationResult | string {
  try {
    const { content, size } = readLimited(resolve(cwd, file), file, DEFAULT_MAX_FILE_SIZE);
    if (size > DEFAULT_MAX_FILE_SIZE)
      return unreadable(
        `it is larger than ${DEFAULT_MAX_FILE_SIZE} bytes, the largest descriptor plugin-review reads`,
      );
    const { text, badOffset } = decodeUtf8(content);
    if (badOffset !== undefined) return unreadable(`it is not UTF-8 text (byte ${badOffset})`);
    return text;
  } catch (e) {
    if (e instanceof UsageError)
      return unreadable(e.message.replace(/^cannot read '[^']*': /, "cannot read it: "));
    throw e;
  }
}

/** Each converted input's folder under `--out`: "" for one input, else its EF2 name, told apart when shared. */
function folders(done: Done[]): void {
  if (done.length === 1) {
    done[0]!.folder = "";
    return;
  }
  const taken = new Set<string>();
  for (const d of done) {
    if (!d.result.converted) continue;
    const base = keyPrefix(d.result.name);
    let folder = base;
    for (let n = 2; taken.has(folder); n++) folder = `${base}-${n}`;
    taken.add(folder);
    d.folder = folder;
  }
}

function write(d: Done, out: string, cwd: string): void {
  if (!d.result.converted) return;
  d.written = [];
  for (const f of d.result.files) {
    const shown = join(out, d.folder!, f.path);
    const absolute = resolve(cwd, shown);
    try {
      mkdirSync(dirname(absolute), { recursive: true });
      writeFileSync(absolute, f.encoding === "base64" ? Buffer.from(f.content, "base64") : f.content);
    } catch (e) {
      d.error = `cannot write '${shown}': ${describeErrno(e)}`;
      return;
    }
    d.written.push(shown);
  }
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What a converted file became, in one line. */
function summary(r: Extract<MigrationResult, { converted: true }>): string {
  const notes = (kind: string) => r.notes.filter((n) => n.kind === kind).length;
  return (
    `${r.name} ${r.version} (${r.framework === "JMX" ? "JMX" : "Python"}): ${plural(r.metrics, "metric")}` +
    (r.subgroups !== undefined ? ` in ${plural(r.subgroups, "subgroup")}` : "") +
    `, ${plural(r.alerts, "metric event")}; MIGRATION.md: ${notes("dropped")} not carried over, ` +
    `${notes("changed")} changed in meaning, ${notes("todo")} to do by hand`
  );
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

/** The "wrote" lines: each file; a Python project's layer and the plugin's code one line per folder. */
function wroteLines(d: Done, out: string): string[] {
  if (!d.result.converted) return [];
  const r = d.result;
  const lines: string[] = [];
  const folded = new Map<string, number>();
  r.files.forEach((f, i) => {
    const written = d.written![i];
    if (written === undefined) return;
    const folder = foldedFolder(r, f.path);
    if (folder === undefined) lines.push(printable(written));
    else {
      if (!folded.has(folder)) lines.push(folder);
      folded.set(folder, (folded.get(folder) ?? 0) + 1);
    }
  });
  return lines.map((line) => {
    const n = folded.get(line);
    if (n === undefined) return line;
    const what = line.endsWith("/ef1compat/") ? "the compatibility layer" : "the EF1 plugin's code";
    return `${printable(join(out, d.folder ?? "", line))} (${plural(n, "file")}: ${what})`;
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

function reasons(d: Done): string[] {
  if (d.result.converted) return [];
  return d.result.reasons.map((r) => `  ${r.line !== undefined ? `line ${r.line}: ` : ""}${plain(r.text)}`);
}

function text(done: Done[], opts: MigrateCommandOptions, io: MigrateIo): void {
  // A summary, and each reason, broken between words to fit the terminal; continued in the 5th column.
  const fit = (line: string) => `${fitLine(line, io.width ?? 80, line.startsWith("  ") ? 2 : 4)}\n`;
  // An error: its lines on standard error, the first with the prefix every error of the CLI has.
  const problem = (first: string, ...more: string[]) =>
    io.stderr([`plugin-review: ${first}`, ...more].map(fit).join(""));
  for (const d of done) {
    const file = printable(d.file);
    if (!d.result.converted) {
      problem(`${file}: not converted:`, ...reasons(d));
      continue;
    }
    if (opts.out === undefined) {
      const { shown, folded } = printedFiles(d.result);
      for (const f of shown) {
        const path = d.folder ? `${d.folder}/${f.path}` : f.path;
        io.stdout(`==> ${path} (from ${file}) <==\n${printableLines(f.content)}\n`);
      }
      for (const [folder, n] of folded)
        io.stdout(
          `==> ${d.folder ? `${d.folder}/` : ""}${printable(folder)} (from ${file}): ${plural(n, "file")}, written with --out <==\n\n`,
        );
      continue;
    }
    if (d.error) {
      problem(`${file}: ${summary(d.result)}`, `  ${printable(d.error)}`);
      continue;
    }
    io.stdout(
      fit(`${file}: ${summary(d.result)}`) +
        wroteLines(d, opts.out)
          .map((w) => `  wrote ${w}\n`)
          .join("") +
        // Not fitted: a command broken over lines is no longer one to copy.
        projectLines(d, opts.out)
          .map((l) => `${l}\n`)
          .join(""),
    );
  }
  const converted = done.filter((d) => d.result.converted && !d.error).length;
  const line =
    converted === done.length
      ? `✔ ${converted} of ${plural(done.length, "descriptor")} converted`
      : `✖ ${done.length - converted} of ${plural(done.length, "descriptor")} not converted`;
  (opts.out === undefined ? io.stderr : io.stdout)(
    `${line}${opts.out === undefined ? " (nothing written: --out <dir> writes the files)" : ""}\n`,
  );
}

function json(done: Done[], opts: MigrateCommandOptions): string {
  return (
    JSON.stringify(
      done.map((d) => {
        const r = d.result;
        if (!r.converted)
          return {
            file: d.file,
            converted: false,
            ...(r.type !== undefined ? { type: r.type } : {}),
            reasons: r.reasons.map((x) => ({
              ...(x.line !== undefined ? { line: x.line } : {}),
              text: plain(x.text),
            })),
          };
        return {
          file: d.file,
          converted: !d.error,
          ...(d.error ? { error: d.error } : {}),
          framework: r.framework,
          name: r.name,
          version: r.version,
          metrics: r.metrics,
          ...(r.subgroups !== undefined ? { subgroups: r.subgroups } : {}),
          alerts: r.alerts,
          ...(r.project
            ? {
                project: {
                  module: r.project.module,
                  run: `python3 -m ${r.project.module}`,
                  code: r.project.codeMissing === undefined,
                  ...(r.project.codeMissing !== undefined ? { codeMissing: r.project.codeMissing } : {}),
                },
              }
            : {}),
          files: r.files.map((f) => {
            const path = d.folder ? `${d.folder}/${f.path}` : f.path;
            return opts.out === undefined
              ? { path, content: f.content, ...(f.encoding ? { encoding: f.encoding } : {}) }
              : { path, written: join(opts.out, d.folder ?? "", f.path) };
          }),
          notes: r.notes.map((n) => ({
            kind: n.kind,
            ...(n.line !== undefined ? { line: n.line } : {}),
            member: n.member,
            text: plain(n.text),
          })),
        };
      }),
      null,
      2,
    ) + "\n"
  );
}

function isPython(text: string): boolean {
  const parsed = parseJsonFast(text);
  return parsed.ok && frameworkOf(parsed.value) === "python";
}

/**
 * The plugin.json's path from the folder its migration goes to, for the command MIGRATION.md ends with: `--out`
 * (the working directory without it, where the printed paths are relative to), and below it the folder named
 * after the extension when there are several (one path segment: which one does not change the way up).
 */
function sourceFrom(file: string, opts: MigrateCommandOptions, cwd: string): string {
  const folder = resolve(cwd, opts.out ?? ".", opts.files.length > 1 ? "extension" : "");
  const path = relative(folder, resolve(cwd, file));
  return (isAbsolute(path) ? resolve(cwd, file) : path).split("\\").join("/");
}

/** Runs the command; the exit status is 0 when every file was converted (and written), else 2. */
export function runMigrate(opts: MigrateCommandOptions, io: MigrateIo): number {
  const done: Done[] = opts.files.map((file) => {
    const text = read(file, io.cwd);
    if (typeof text !== "string") return { file, result: text };
    const options: MigrateOptions = {
      ...(opts.name !== undefined ? { name: opts.name } : {}),
      source: sourceFrom(file, opts, io.cwd),
    };
    // A Python plugin's code is the files beside its plugin.json (not the migration's own output).
    if (isPython(text))
      options.code = readPluginFolder(file, io.cwd, opts.out !== undefined ? [opts.out] : []);
    return { file, result: migrate(text, options) };
  });
  folders(done);
  if (opts.out !== undefined) for (const d of done) write(d, opts.out, io.cwd);
  if (opts.format === "json") io.stdout(json(done, opts));
  else text(done, opts, io);
  return done.every((d) => d.result.converted && !d.error) ? 0 : 2;
}
