/** Command-line entry: argument parsing only; the work is in check.ts. */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { CONFIG_PATH } from "../core/config.js";
import { fitHelp } from "../format/fit.js";
import { escaped, printable } from "../format/printable.js";
import { timingRows, TIMING_ROWS } from "../format/timing.js";
import { FORMATS, runCheck, type Format } from "./check.js";
import { runAudit } from "./audit.js";
import { runMigrate } from "./migrate.js";
import { CLOSED_OUTPUT_STATUS, stdoutWasClosed, writeReport, writeStderr, writeStdout } from "./output.js";
import { runPr } from "./pr.js";

const USAGES = {
  check: `Usage: plugin-review check [options] <file|dir|glob>...
       plugin-review check [options] --stdin [--stdin-filename <path>]

Reviews monitoring-plugin descriptors (plugin.json) and Extensions 2.0 extensions (extension.yaml). A
directory means every descriptor below it (the configuration's paths).

Options:
  --base <file>          compare one head file with this base file (change rules apply)
  --base-ref <git-ref>   in a git work tree: compare every changed descriptor with its
                         version at <git-ref> (renames followed; added files have no base)
  --config <file>        configuration file (default: the nearest ${CONFIG_PATH}
                         found walking up from each file to the repository root, the folder
                         holding .git)
  --no-config            no configuration file: the built-in defaults
  --config-from-base     with --base-ref: read the configuration as <git-ref> has it (the
                         repository's ${CONFIG_PATH}, or the --config file), never
                         the work tree's, so a change cannot loosen what judges it (for CI)
  --stdin                read one descriptor from standard input (or give '-' as the file)
  --stdin-filename <p>   the path standard input stands for: its configuration, ignores and
                         name in the output (and its base with --base-ref)
  --format <f>           text (default), json, sarif or github
  --output <f>=<file>    also write format <f> to <file> (repeatable): one review, several reports
  --max-warnings <n>     exit 1 also when more than n warnings count
  --quiet                report errors only (warnings and notices are neither shown nor counted)
  --color, --no-color    colour the text output (default: on a terminal, unless NO_COLOR is set;
                         FORCE_COLOR=1 or 0 decides when set)
  --fix                  apply the fixes (next version, restored metric group or unit, the letter
                         case of a value or member name) in place, keeping the formatting; then
                         report what is left. Suggestions (a misspelt member's likely name, the
                         closest allowed value) are guesses: shown, never applied
  --fix-dry-run          print the fixes as a unified diff instead of writing them
  --timing               print to stderr the rules and steps that took the most time
                         (as TIMING=1; TIMING=all or TIMING=<n> shows more rows)
  -h, --help             show this help

Exit status: 0 no finding at or above the failing level (fail_on, default error); 1 such
findings (or too many warnings); 2 usage, configuration or I/O error.
`,
  pr: `Usage: plugin-review pr <owner>/<repo>#<number> [options]

Runs the GitHub App's review of a pull request (token from GITHUB_TOKEN) with the configuration the
App would use, and prints the check run, annotations and review it would post. Writes nothing.

Options:
  --app <slug>           the App whose review it is (default plugin-review): only what its account
                         (<slug>[bot]) wrote on the pull request counts as the App's
  --api-url <url>        GitHub Enterprise Server's API (https://<host>/api/v3)
  --format <f>           text (default) or json
  -h, --help             show this help

Exit status: 0 the check would pass; 1 it would fail; 2 usage or GitHub error.
`,
  audit: `Usage: plugin-review audit <org> [options]

Reviews every descriptor on the default branch of every repository of an organisation (or the
--repo ones) with the configuration the App would use there, read-only (token from GITHUB_TOKEN),
and prints a table per repository: descriptors, errors, warnings, whether a pull request touching
one would fail under \`existing: fail\`, and whether the App's installation can read the
organisation's configuration there, with the totals.

Options:
  --repo <name>          only this repository (repeatable)
  --app <slug>           the App whose installation is checked (default plugin-review)
  --api-url <url>        GitHub Enterprise Server's API (https://<host>/api/v3)
  --format <f>           text (default), json, markdown, html (one self-contained page), csv (one
                         row per finding) or sarif (one SARIF file per repository, in --output-dir)
  --output-dir <dir>     where --format sarif writes <repository>.sarif files; it prints one line
                         per file: file, repository, commit and ref, tab-separated
  --output <f>=<file>    also write format <f> (not sarif) to <file> (repeatable): one audit,
                         several reports
  --compare <file>       an earlier audit's JSON report (--format json): what was fixed and what
                         is new since, per rule and per repository, in every format
  -h, --help             show this help

Exit status: 0 the audit ran; 2 it could not.
`,
  migrate: `Usage: plugin-review migrate <plugin.json|dir|glob>... [options]

Converts Extension Framework 1.0 descriptors (JMX and Python plugin.json) to
Extensions 2.0 extensions: extension/extension.yaml (with activationSchema.json
for Python, alerts/ for alert settings, dashboards/ for the charts),
metric-keys.json and .csv (every EF1 metric, its ext: id and the EF2 selector
of the same series) and MIGRATION.md (what is not carried over or changes
meaning, with the EF1 line of each; why, for a descriptor not converted). A
folder means every plugin.json below it. The EF2 names and metric keys of all
of them are checked against each other and the map: the descriptors a
collision meets are named from their EF1 name instead, else refused.
Without --out it prints what it would write.

Options:
  --out <dir>            write the files: <dir>/extension/extension.yaml, ...;
                         with several descriptors, each in <dir>/<name>/ (its
                         EF2 name without custom:); the map is written back
                         and the --rewrite files rewritten in place; a file
                         of a migration edited since migrate wrote it (or
                         not migrate's) is kept, and nothing of that one is
                         written
  --force                with --out, overwrite such files too
  --name <custom:name>   the EF2 name (one descriptor), instead of the derived
  --name-prefix <p>      a section before every derived name: custom:<p>.<name>
  --key-prefix <p>       a section before every key prefix: <p>.<name>.<key>
  --map <file>           the migration map: per EF1 plugin, its EF2 name and
                         key prefix (read when it exists; written with --out)
  --rewrite <path>       rewrite the EF1 metric references (ext:...) of this
                         file, folder or glob: exported dashboards, SLOs,
                         metric events, notebooks, text (repeatable)
  --format <f>           text (default) or json (a summary of each, with the
                         files' contents when nothing is written)
  -h, --help             show this help

Exit status: 0 every descriptor converted; 1 a name or key collision met
(resolved, or refusing some); 2 one was not converted otherwise (PMI, no MBean, no valid name: the
reason is printed and in its MIGRATION.md), or not written (a file of it edited since migrate wrote
it: --force), or a usage or I/O error; 130 Ctrl-C stopped it between two
descriptors (each folder written whole or not at all).
`,
  lsp: `Usage: plugin-review lsp --stdio

A language server for editors, over standard input and output: the same findings as check while
you type (configuration found as check finds it, change rules against the branch's merge base or
HEAD), quick fixes, suggestions and hover help.

Options:
  --stdio                talk the Language Server Protocol over standard input and output
  -h, --help             show this help
`,
};
type Command = keyof typeof USAGES;
const isCommand = (c: string): c is Command => Object.hasOwn(USAGES, c);

const USAGE = `Usage: plugin-review <command> [options]

Commands:
  check <file|dir|glob>...   review descriptors (plugin.json, extension.yaml) on this machine
  pr <owner>/<repo>#<n>      print the GitHub App's review of a pull request, writing nothing
  audit <org>                review every repository of an organisation, read-only
  migrate <plugin.json>...   convert EF1 descriptors to Extensions 2.0 (extension.yaml)
  lsp --stdio                a language server for editors

Options:
  -h, --help                 show this help
  -v, --version              show the version

Run 'plugin-review <command> --help' for a command's options.
`;

/** Options that take a number: what they take, said the same whichever way a bad value is written. */
const NUMBERS: Record<string, string> = { "max-warnings": "a number of warnings (0 or more)" };

/** The message for a bad value of a numeric option (ESLint's `--max-warnings -1` means no limit: say how). */
function badNumber(option: string, value: string): string {
  const hint = value.startsWith("-") ? " (leave it out for no limit)" : "";
  return `--${option} takes ${NUMBERS[option] ?? "a number"}, not '${value}'${hint}`;
}

/** parseArgs's error as one line for people, naming the command's help (never Node's raw wording). */
function usageError(command: Command, e: unknown, known: readonly string[], args: readonly string[]): string {
  const error = e as { code?: string; message?: string };
  const option = /'(-[^'\s]*)/.exec(error.message ?? "")?.[1] ?? "";
  let what: string;
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const name = option.replace(/^-+/, "").split("=")[0]!;
    const close = known.filter((k) => k !== name && closeEnough(name, k)).map((k) => `--${k}`);
    what = `unknown option '${option}'${close.length ? ` (did you mean ${close.join(" or ")}?)` : ""}`;
  } else if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (/argument missing/.test(error.message ?? "")) what = `option '${option.split(" ")[0]}' needs a value`;
    else if (/ambiguous/.test(error.message ?? "")) {
      // `--max-warnings -1`: parseArgs will not take a value that looks like an option after a space.
      const at = args.findIndex((a, i) => a === option && args[i + 1]?.startsWith("-"));
      const value = args[at + 1] ?? "";
      const name = option.replace(/^-+/, "");
      what = Object.hasOwn(NUMBERS, name)
        ? badNumber(name, value)
        : `option '${option}' needs a value; to give one that starts with '-', write ${option}=${value}`;
    } else what = `option '${option}' takes no value`;
  } else if (error.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    what = `unexpected argument '${/'([^']*)'/.exec(error.message ?? "")?.[1] ?? ""}'`;
  } else what = error.message ?? String(e);
  return usageFailure(command, what);
}

/** A command's usage error: what is wrong, and where its options are (one prefix for every error, as ESLint's). */
function usageFailure(command: Command, what: string): string {
  // On one line, whatever it quotes: an option's value or a file's name may hold a line break or an escape.
  return `plugin-review: ${escaped(what)}\nRun 'plugin-review ${command} --help' for the options.\n`;
}

/** A likely misspelling: one edit apart, or one a prefix of the other (`--max-warning`, `--fromat`). */
function closeEnough(a: string, b: string): boolean {
  if (a.length >= 3 && (b.startsWith(a) || a.startsWith(b))) return true;
  if (Math.abs(a.length - b.length) > 2) return false;
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const keep = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = keep;
    }
  }
  return d[b.length]! <= 2;
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>["options"] & object;

/**
 * Arguments that start with `-` but hold a path separator before any `=` (`-old/plugin.json`: a file of a folder
 * named `-old`, as pre-commit passes it) are paths, never options: moved behind a `--`, which ends the options.
 * An option's separate value stays with its option.
 */
function pathsAsPositionals(args: readonly string[], options: Options): string[] {
  const end = args.indexOf("--");
  const head = end < 0 ? args : args.slice(0, end);
  const kept: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < head.length; i++) {
    const arg = head[i]!;
    if (/^-[^=]*[/\\]/.test(arg)) {
      paths.push(arg);
      continue;
    }
    kept.push(arg);
    const name = /^--([^=]+)$/.exec(arg)?.[1];
    const short = /^-([^-])$/.exec(arg)?.[1];
    const option = name ? options[name] : Object.values(options).find((o) => short && o.short === short);
    if (option?.type === "string" && i + 1 < head.length) kept.push(head[++i]!);
  }
  return paths.length ? [...kept, "--", ...paths, ...(end < 0 ? [] : args.slice(end + 1))] : [...args];
}

/** parseArgs with the command's options and -h; a number is the exit status to return (help or usage error). */
function parse<T extends Options>(
  command: Command,
  args: string[],
  options: T,
  stdout: Out,
  stderr: Out,
  width: number,
) {
  const all = { ...options, help: { type: "boolean", short: "h" } } as const;
  try {
    const parsed = parseArgs({
      args: pathsAsPositionals(args, all),
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: all,
    });
    if ((parsed.values as { help?: boolean }).help) {
      stdout(fitHelp(USAGES[command], width));
      return 0;
    }
    return parsed;
  } catch (e) {
    stderr(usageError(command, e, Object.keys(all), args));
    return 2;
  }
}

type Out = (s: string) => void;

function version(): string {
  // From dist/src/cli/ (compiled), dist-cli/ (bundled) or src/cli/ (the sources, as tests run them in
  // process): the package's own package.json.
  for (const rel of ["../../../package.json", "../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8")) as {
        name?: string;
        version: string;
      };
      if (pkg.name === "plugin-review") return pkg.version;
    } catch {
      // try the next location
    }
  }
  return "0.0.0";
}

export interface MainIo {
  cwd?: string;
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
  colour?: boolean;
  /** The width the text output fits (default: COLUMNS, else the terminal's; none when neither says). */
  width?: number;
  /**
   * Standard input, for `--stdin` or `-`: at least its first `limit` bytes, or all of it when shorter (default:
   * the process's, read no further than that).
   */
  stdin?: (limit: number) => Promise<Uint8Array>;
  env?: NodeJS.ProcessEnv;
}

export async function main(argv: string[], io: MainIo = {}): Promise<number> {
  // Every command writes through these: quiet when the reader goes away (`| head`, output.ts).
  const stdout = io.stdout ?? writeStdout;
  const stderr = io.stderr ?? writeStderr;
  const [command, ...rest] = argv;
  // Help is fitted to the terminal: COLUMNS, else its width, else 80 (a pipe, a file).
  const width = io.width ?? widthFor(io.env ?? process.env, process.stdout) ?? 80;
  const usage = fitHelp(USAGE, width);
  if (command === undefined || command === "-h" || command === "--help") {
    (command === undefined ? stderr : stdout)(usage);
    return command === undefined ? 2 : 0;
  }
  if (command === "help") {
    const about = rest[0];
    if (about === undefined) {
      stdout(usage);
      return 0;
    }
    // `help chekc` is a mistake (exit 2, as for `plugin-review chekc`), never the overview passing for an answer.
    if (!isCommand(about)) {
      stderr(`plugin-review: unknown command '${printable(about)}'\n${usage}`);
      return 2;
    }
    if (rest.length > 1) {
      stderr(`plugin-review: help takes one command, not '${printable(rest.slice(1).join(" "))}'\n${usage}`);
      return 2;
    }
    stdout(fitHelp(USAGES[about], width));
    return 0;
  }
  if (command === "-v" || command === "--version") {
    stdout(version() + "\n");
    return 0;
  }
  if (command === "pr") return pr(rest, stdout, stderr, width);
  if (command === "audit") return audit(rest, stdout, stderr, io.cwd, width);
  if (command === "migrate") return migrateCommand(rest, io, stdout, stderr, width);
  if (command === "lsp") {
    if (rest.length === 1 && (rest[0] === "-h" || rest[0] === "--help")) {
      stdout(fitHelp(USAGES.lsp, width));
      return 0;
    }
    // Loaded only when asked for: the language server's code stays out of every other command's start-up.
    return (await import("../lsp/stdio.js")).runLsp(rest, stderr);
  }
  if (command !== "check") {
    stderr(
      command.startsWith("-")
        ? `plugin-review: unknown option '${printable(command)}' (options follow a command: plugin-review <command> [options])\n${usage}`
        : `plugin-review: unknown command '${printable(command)}'\n${usage}`,
    );
    return 2;
  }
  return check(rest, io, stdout, stderr, width);
}

const CHECK_OPTIONS = {
  base: { type: "string" },
  "base-ref": { type: "string" },
  config: { type: "string" },
  "no-config": { type: "boolean" },
  "config-from-base": { type: "boolean" },
  stdin: { type: "boolean" },
  "stdin-filename": { type: "string" },
  format: { type: "string", default: "text" },
  output: { type: "string", multiple: true },
  "max-warnings": { type: "string" },
  quiet: { type: "boolean" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  fix: { type: "boolean" },
  "fix-dry-run": { type: "boolean" },
  timing: { type: "boolean" },
} satisfies Options;

async function check(args: string[], io: MainIo, stdout: Out, stderr: Out, width: number): Promise<number> {
  const parsed = parse("check", args, CHECK_OPTIONS, stdout, stderr, width);
  if (typeof parsed === "number") return parsed;
  const v = parsed.values;
  const fail = (message: string) => {
    stderr(usageFailure("check", message));
    return 2;
  };
  const outputs: { format: Format; file: string }[] = [];
  for (const o of v.output ?? []) {
    const eq = o.indexOf("=");
    const format = o.slice(0, Math.max(0, eq)) as Format;
    if (eq < 1 || eq === o.length - 1 || !FORMATS.includes(format))
      return fail(`--output takes <format>=<file> with a format among ${FORMATS.join(", ")}, not '${o}'`);
    outputs.push({ format, file: o.slice(eq + 1) });
  }
  if (v.fix && v["fix-dry-run"]) return fail("use either --fix or --fix-dry-run, not both");
  if (!FORMATS.includes(v.format as Format))
    return fail(`--format must be one of ${FORMATS.join(", ")}, not '${v.format}'`);
  // `-` is standard input, as in most tools reading files (POSIX's utility syntax guideline 13): `--stdin`.
  const dash = parsed.positionals.includes("-");
  if (dash && parsed.positionals.length > 1)
    return fail("'-' reads one descriptor from standard input (as --stdin): give no other file with it");
  const fromStdin = v.stdin === true || dash;
  if (v["stdin-filename"] !== undefined && !fromStdin)
    return fail("--stdin-filename names standard input: add --stdin");
  let maxWarnings: number | undefined;
  if (v["max-warnings"] !== undefined) {
    if (!/^\d+$/.test(v["max-warnings"])) return fail(badNumber("max-warnings", v["max-warnings"]));
    maxWarnings = Number(v["max-warnings"]);
  }
  const env = io.env ?? process.env;
  // ESLint's TIMING: its value says how many rows; --timing alone is TIMING=1.
  const timing = timingRows(env.TIMING) ?? (v.timing ? TIMING_ROWS : undefined);
  const stdin = fromStdin
    ? {
        read: io.stdin ?? readStdin,
        ...(v["stdin-filename"] !== undefined ? { filename: v["stdin-filename"] } : {}),
      }
    : undefined;
  return runCheck(
    {
      targets: dash ? [] : parsed.positionals,
      format: v.format as Format,
      outputs,
      ...(v.fix ? { fix: "write" as const } : v["fix-dry-run"] ? { fix: "dry-run" as const } : {}),
      ...(v.base !== undefined ? { base: v.base } : {}),
      ...(v["base-ref"] !== undefined ? { baseRef: v["base-ref"] } : {}),
      ...(v.config !== undefined ? { config: v.config } : {}),
      ...(v["no-config"] ? { noConfig: true } : {}),
      ...(v["config-from-base"] ? { configFromBase: true } : {}),
      ...(stdin ? { stdin } : {}),
      ...(maxWarnings !== undefined ? { maxWarnings } : {}),
      ...(v.quiet ? { quiet: true } : {}),
      ...(timing !== undefined ? { timing } : {}),
    },
    {
      cwd: io.cwd ?? process.cwd(),
      stdout,
      stderr,
      colour: io.colour ?? colourFor(parsed.tokens, env, process.stdout.isTTY === true),
      width: io.width ?? widthFor(env, process.stdout),
      version: version(),
      env,
    },
  );
}

/**
 * Whether to colour the text output: the last of --color / --no-color given, else FORCE_COLOR when set (`0` or
 * `false` off, anything else on), else off when NO_COLOR is set (https://no-color.org), else on for a terminal.
 */
function colourFor(
  tokens: readonly { kind: string; name?: string }[],
  env: NodeJS.ProcessEnv,
  isTTY: boolean,
): boolean {
  const flag = tokens
    .filter((t) => t.kind === "option" && (t.name === "color" || t.name === "no-color"))
    .pop();
  if (flag) return flag.name === "color";
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return !/^(0|false)$/i.test(force);
  if (env.NO_COLOR) return false;
  return isTTY && env.TERM !== "dumb";
}

/**
 * The width the text output fits: `COLUMNS` when set (as `ls` and Python read it), else the terminal's; none
 * when standard output is not a terminal (a pipe, a file, CI's log) and `COLUMNS` is not set.
 */
function widthFor(env: NodeJS.ProcessEnv, stdout: { isTTY?: boolean; columns?: number }): number | undefined {
  const columns = Number(env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return columns;
  return stdout.isTTY && stdout.columns ? stdout.columns : undefined;
}

/**
 * Standard input to its end or to `limit` bytes, whichever comes first: what is piped in never decides how much
 * memory the run takes (`yes | plugin-review check -` is file-too-large, not a run that never ends).
 */
async function readStdin(limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early closes standard input: the writer then gets EPIPE, as when `head` stops reading.
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= limit) break;
  }
  return new Uint8Array(Buffer.concat(chunks));
}

type Values = Record<string, string | string[] | boolean | undefined>;

/**
 * The arguments of a command that talks to GitHub: `--api-url`, `--format`, `-h`, the command's own options,
 * and exactly one positional (`takes` names it in the error). A number is the exit status to return.
 */
function parseGithubArgs(
  command: "pr" | "audit",
  args: string[],
  takes: string,
  own: Options,
  stdout: Out,
  stderr: Out,
  width: number,
): { values: Values; target: string } | number {
  const parsed = parse(
    command,
    args,
    { ...own, "api-url": { type: "string" }, format: { type: "string", default: "text" } },
    stdout,
    stderr,
    width,
  );
  if (typeof parsed === "number") return parsed;
  if (parsed.positionals.length !== 1) {
    stderr(usageFailure(command, takes));
    return 2;
  }
  return { values: parsed.values as Values, target: parsed.positionals[0] as string };
}

const apiUrl = (v: Values) =>
  typeof v["api-url"] === "string" && v["api-url"] ? { apiUrl: v["api-url"] } : {};

async function pr(args: string[], stdout: Out, stderr: Out, width: number): Promise<number> {
  const own = { app: { type: "string" as const } };
  const parsed = parseGithubArgs(
    "pr",
    args,
    "pr takes one <owner>/<repo>#<number>",
    own,
    stdout,
    stderr,
    width,
  );
  if (typeof parsed === "number") return parsed;
  const format = parsed.values.format;
  if (format !== "text" && format !== "json") {
    stderr(usageFailure("pr", `pr --format must be text or json, not '${String(format)}'`));
    return 2;
  }
  const app = parsed.values.app;
  return runPr(
    {
      target: parsed.target,
      format,
      ...apiUrl(parsed.values),
      ...(typeof app === "string" ? { app } : {}),
    },
    { stdout, stderr, env: process.env },
  );
}

async function audit(
  args: string[],
  stdout: Out,
  stderr: Out,
  cwd: string | undefined,
  width: number,
): Promise<number> {
  const own = {
    repo: { type: "string" as const, multiple: true },
    app: { type: "string" as const },
    compare: { type: "string" as const },
    "output-dir": { type: "string" as const },
    output: { type: "string" as const, multiple: true },
  };
  const parsed = parseGithubArgs("audit", args, "audit takes one <org>", own, stdout, stderr, width);
  if (typeof parsed === "number") return parsed;
  return runAudit(
    {
      org: parsed.target,
      repos: (parsed.values.repo as string[] | undefined) ?? [],
      ...(typeof parsed.values.app === "string" && parsed.values.app ? { app: parsed.values.app } : {}),
      format: String(parsed.values.format),
      ...apiUrl(parsed.values),
      ...(typeof parsed.values.compare === "string" ? { compare: parsed.values.compare } : {}),
      ...(typeof parsed.values["output-dir"] === "string" ? { outputDir: parsed.values["output-dir"] } : {}),
      outputs: (parsed.values.output as string[] | undefined) ?? [],
    },
    {
      stdout,
      stderr,
      env: process.env,
      stderrIsTTY: process.stderr.isTTY === true,
      version: version(),
      ...(cwd ? { cwd } : {}),
    },
  );
}

function migrateCommand(
  args: string[],
  io: MainIo,
  stdout: Out,
  stderr: Out,
  width: number,
): number | Promise<number> {
  const parsed = parse(
    "migrate",
    args,
    {
      out: { type: "string" },
      name: { type: "string" },
      "name-prefix": { type: "string" },
      "key-prefix": { type: "string" },
      map: { type: "string" },
      rewrite: { type: "string", multiple: true },
      force: { type: "boolean" },
      format: { type: "string", default: "text" },
    },
    stdout,
    stderr,
    width,
  );
  if (typeof parsed === "number") return parsed;
  const v = parsed.values;
  const fail = (message: string) => {
    stderr(usageFailure("migrate", message));
    return 2;
  };
  if (parsed.positionals.length === 0) return fail("name at least one plugin.json to convert");
  // `-` is standard input to check, and a user pipes a descriptor in the same way: migrate needs a file (a Python
  // plugin's code is read beside it, MIGRATION.md names its path), so it says so instead of "no such file".
  if (parsed.positionals.includes("-"))
    return fail(
      "'-' (standard input) cannot be migrated: migrate reads plugin.json files (a Python plugin's code beside it too); save it as a file and name that (./- for a file named '-')",
    );
  if (v.format !== "text" && v.format !== "json")
    return fail(`--format must be text or json, not '${v.format}'`);
  if (v.name !== undefined && parsed.positionals.length > 1)
    return fail("--name names one extension: give it with one plugin.json");
  if (v.name !== undefined && v["name-prefix"] !== undefined)
    return fail("--name gives the whole name: use either --name or --name-prefix");
  if (v.out === "") return fail("--out needs a folder");
  if (v.map === "") return fail("--map needs a file");
  // With --out the files are the product and the lines only a report: a reader gone (`| head -1`) stops the
  // report, the fleet and the map are written whole, and the status says the output was cut short (141).
  const report = v.out !== undefined && stdout === writeStdout ? writeReport : stdout;
  const status = runMigrate(
    {
      files: parsed.positionals,
      format: v.format,
      ...(v.out !== undefined ? { out: v.out } : {}),
      ...(v.name !== undefined ? { name: v.name } : {}),
      ...(v["name-prefix"] !== undefined ? { namePrefix: v["name-prefix"] } : {}),
      ...(v["key-prefix"] !== undefined ? { keyPrefix: v["key-prefix"] } : {}),
      ...(v.map !== undefined ? { map: v.map } : {}),
      ...(v.rewrite !== undefined ? { rewrite: v.rewrite } : {}),
      ...(v.force === true ? { force: true } : {}),
    },
    { cwd: io.cwd ?? process.cwd(), stdout: report, stderr, width },
  );
  return report === writeReport ? status.then((n) => (stdoutWasClosed() ? CLOSED_OUTPUT_STATUS : n)) : status;
}
