/** Command-line entry: argument parsing only; the work is in check.ts. */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { CONFIG_PATH } from "../core/config.js";
import { FORMATS, runCheck, type Format } from "./check.js";
import { runAudit } from "./audit.js";
import { runPr } from "./pr.js";

const USAGE = `Usage: plugin-review check [options] <file|dir|glob>...
       plugin-review pr <owner>/<repo>#<number> [--api-url <url>] [--format text|json]
       plugin-review audit <org> [--repo <name>]... [--app <slug>] [--api-url <url>] [--format text|json|markdown]
       plugin-review lsp --stdio

Reviews monitoring-plugin descriptors (plugin.json). \`pr\` runs the GitHub App's review of a pull
request (token from GITHUB_TOKEN) and prints what it would post, without writing anything.
\`audit\` reviews every descriptor on the default branch of every repository of an organisation (or
the --repo ones) with the configuration the App would use there, read-only, and prints a table per
repository: descriptors, errors, warnings, whether a pull request touching one would fail under
\`existing: fail\`, and whether the App's installation (--app, default plugin-review) can read the
organisation's configuration there, with the totals. \`lsp --stdio\` is a language server for
editors: the same findings as you type, quick fixes and hover help.

Options:
  --base <file>          compare one head file with this base file (change rules apply)
  --base-ref <git-ref>   in a git work tree: compare every changed descriptor with its
                         version at <git-ref> (renames followed; added files have no base)
  --config <file>        configuration file (default: the nearest ${CONFIG_PATH}
                         found walking up from each file to the repository root, the folder
                         holding .git)
  --no-config            no configuration file: the built-in defaults
  --format <f>           text (default), json, sarif or github
  --output <f>=<file>    also write format <f> to <file> (repeatable): one review, several reports
  --fix                  apply the fixes (next version, restored metric group or unit, the letter
                         case of a value or member name) in place, keeping the formatting; then
                         report what is left. Suggestions (a misspelt member's likely name, the
                         closest allowed value) are guesses: shown, never applied
  --fix-dry-run          print the fixes as a unified diff instead of writing them
  -h, --help             show this help
  -v, --version          show the version

A directory means every plugin.json below it. Exit status: 0 no finding at or above the
failing level (fail_on, default error); 1 such findings; 2 usage or I/O error.
`;

function version(): string {
  // From dist/src/cli/ (compiled) or dist-cli/ (bundled): the package's own package.json.
  for (const rel of ["../../../package.json", "../package.json"]) {
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
}

export async function main(argv: string[], io: MainIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  const stderr = io.stderr ?? ((s: string) => void process.stderr.write(s));
  const [command, ...rest] = argv;
  if (command === undefined || command === "-h" || command === "--help" || command === "help") {
    (command === undefined ? stderr : stdout)(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === "-v" || command === "--version") {
    stdout(version() + "\n");
    return 0;
  }
  if (command === "pr") return pr(rest, stdout, stderr);
  if (command === "audit") return audit(rest, stdout, stderr);
  // Loaded only when asked for: the language server's code stays out of every other command's start-up.
  if (command === "lsp") return (await import("../lsp/stdio.js")).runLsp(rest, stderr);
  if (command !== "check") {
    stderr(`plugin-review: unknown command '${command}'\n\n${USAGE}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        base: { type: "string" },
        "base-ref": { type: "string" },
        config: { type: "string" },
        "no-config": { type: "boolean" },
        format: { type: "string", default: "text" },
        output: { type: "string", multiple: true },
        fix: { type: "boolean" },
        "fix-dry-run": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    stderr(`plugin-review: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const v = parsed.values;
  const outputs: { format: Format; file: string }[] = [];
  for (const o of v.output ?? []) {
    const eq = o.indexOf("=");
    const format = o.slice(0, Math.max(0, eq)) as Format;
    if (eq < 1 || eq === o.length - 1 || !FORMATS.includes(format)) {
      stderr(
        `plugin-review: --output takes <format>=<file> with a format among ${FORMATS.join(", ")}, not '${o}'\n`,
      );
      return 2;
    }
    outputs.push({ format, file: o.slice(eq + 1) });
  }
  if (v.fix && v["fix-dry-run"]) {
    stderr("plugin-review: use either --fix or --fix-dry-run, not both\n");
    return 2;
  }
  if (v.help) {
    stdout(USAGE);
    return 0;
  }
  if (!FORMATS.includes(v.format as Format)) {
    stderr(`plugin-review: --format must be one of ${FORMATS.join(", ")}, not '${v.format}'\n`);
    return 2;
  }
  const colour =
    io.colour ?? (process.stdout.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== "dumb");
  return runCheck(
    {
      targets: parsed.positionals,
      format: v.format as Format,
      outputs,
      ...(v.fix ? { fix: "write" as const } : v["fix-dry-run"] ? { fix: "dry-run" as const } : {}),
      ...(v.base !== undefined ? { base: v.base } : {}),
      ...(v["base-ref"] !== undefined ? { baseRef: v["base-ref"] } : {}),
      ...(v.config !== undefined ? { config: v.config } : {}),
      ...(v["no-config"] ? { noConfig: true } : {}),
    },
    { cwd: io.cwd ?? process.cwd(), stdout, stderr, colour, version: version() },
  );
}

type Values = Record<string, string | string[] | boolean | undefined>;

/**
 * The arguments of a command that talks to GitHub: `--api-url`, `--format`, `-h`, the command's own options,
 * and exactly one positional (`takes` names it in the error). A number is the exit status to return.
 */
function parseGithubArgs(
  args: string[],
  takes: string,
  own: NonNullable<Parameters<typeof parseArgs>[0]>["options"],
  stdout: (s: string) => void,
  stderr: (s: string) => void,
): { values: Values; target: string } | number {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        ...own,
        "api-url": { type: "string" },
        format: { type: "string", default: "text" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    stderr(`plugin-review: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    stdout(USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    stderr(`plugin-review: ${takes}\n\n${USAGE}`);
    return 2;
  }
  return { values: parsed.values as Values, target: parsed.positionals[0] as string };
}

const apiUrl = (v: Values) =>
  typeof v["api-url"] === "string" && v["api-url"] ? { apiUrl: v["api-url"] } : {};

async function pr(args: string[], stdout: (s: string) => void, stderr: (s: string) => void): Promise<number> {
  const parsed = parseGithubArgs(args, "pr takes one <owner>/<repo>#<number>", {}, stdout, stderr);
  if (typeof parsed === "number") return parsed;
  const format = parsed.values.format;
  if (format !== "text" && format !== "json") {
    stderr(`plugin-review: pr --format must be text or json, not '${String(format)}'\n`);
    return 2;
  }
  return runPr(
    { target: parsed.target, format, ...apiUrl(parsed.values) },
    { stdout, stderr, env: process.env },
  );
}

async function audit(
  args: string[],
  stdout: (s: string) => void,
  stderr: (s: string) => void,
): Promise<number> {
  const own = { repo: { type: "string" as const, multiple: true }, app: { type: "string" as const } };
  const parsed = parseGithubArgs(args, "audit takes one <org>", own, stdout, stderr);
  if (typeof parsed === "number") return parsed;
  return runAudit(
    {
      org: parsed.target,
      repos: (parsed.values.repo as string[] | undefined) ?? [],
      ...(typeof parsed.values.app === "string" && parsed.values.app ? { app: parsed.values.app } : {}),
      format: String(parsed.values.format),
      ...apiUrl(parsed.values),
    },
    { stdout, stderr, env: process.env, stderrIsTTY: process.stderr.isTTY === true },
  );
}
