/**
 * The command-line conventions authors know from ESLint, run as a user runs the CLI (a child process, real files,
 * real standard input): --stdin / --stdin-filename, --max-warnings, --quiet, colour (--color, --no-color,
 * FORCE_COLOR, NO_COLOR), per-command --help, and a clean message with exit 2 for an unknown option.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, text, validHost } from "../helpers.js";
import { BIN, ensureBuilt, findingLines, type Run } from "./run.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-conventions-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI with these arguments, standard input and environment (colour variables unset unless given). */
function run(args: string[], opts: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {}): Run {
  const env = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    input: opts.input ?? "",
    encoding: "utf8",
    env: { ...env, ...opts.env },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const example = (name: string) => readFileSync(join(ROOT, "examples/mistakes", name, "plugin.json"), "utf8");
const REMOTE = example("remote-mistakes"); // 3 errors, 1 warning
const WARNING_ONLY = example("ignored-member"); // 1 warning
const ANSI = /\x1b\[/; // eslint-disable-line no-control-regex

function write(rel: string, content: string): string {
  const p = join(dir, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, content);
  return p;
}

describe("--stdin and --stdin-filename", () => {
  it("reviews standard input, named <stdin> or by --stdin-filename", () => {
    const unnamed = run(["check", "--stdin"], { input: REMOTE });
    expect(findingLines(unnamed.stdout)).toMatch(/^<stdin>:4:11 +error +variant-mismatch /m);
    expect(unnamed.status).toBe(1);
    const named = run(["check", "--stdin", "--stdin-filename", "plugins/remote/plugin.json"], {
      input: REMOTE,
    });
    expect(findingLines(named.stdout)).toMatch(
      /^plugins\/remote\/plugin\.json:4:11 +error +variant-mismatch /m,
    );
    expect(named.stdout).toMatch(/✖ 4 findings \(3 errors, 1 warning\) in 1 of 1 descriptor/);
    expect(named.status).toBe(1);
    const json = run(["check", "--stdin", "--stdin-filename", "p/plugin.json", "--format", "json"], {
      input: REMOTE,
    });
    expect((JSON.parse(json.stdout) as { file: string }[]).map((f) => f.file)).toEqual(
      Array(4).fill("p/plugin.json"),
    );
    expect(run(["check", "--stdin"], { input: text(validHost()) }).status).toBe(0);
  });

  it("finds the configuration of the path it names, and applies its ignores", () => {
    const repo = join(dir, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true }); // the repository root, as far as discovery goes
    write(
      "repo/.github/plugin-review.yml",
      'rules:\n  ignored-member: off\nignore:\n  - paths: ["legacy/**"]\n',
    );
    const cwd = join(repo, "somewhere");
    mkdirSync(cwd);
    const plugins = run(["check", "--stdin", "--stdin-filename", "../plugins/x/plugin.json"], {
      input: REMOTE,
      cwd,
    });
    expect(plugins.stdout).toMatch(/variant-mismatch/);
    expect(plugins.stdout).not.toMatch(/ignored-member/); // off in the file found above the named path
    expect(plugins.stdout).toMatch(/^configuration: \.\.\/\.github\/plugin-review\.yml$/m);
    const legacy = run(["check", "--stdin", "--stdin-filename", "../legacy/plugin.json"], {
      input: REMOTE,
      cwd,
    });
    expect(legacy.stdout).toMatch(/1 descriptor checked: no findings/);
    expect(legacy.status).toBe(0);
    // The same text from a folder outside that repository has the defaults.
    const outside = run(["check", "--stdin", "--stdin-filename", "x/plugin.json"], {
      input: REMOTE,
      cwd: dir,
    });
    expect(outside.stdout).toMatch(/ignored-member/);
  });

  it("compares standard input with the named file at --base-ref", () => {
    const repo = join(dir, "git");
    mkdirSync(repo);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    writeFileSync(join(repo, "plugin.json"), text(validHost()));
    git("add", ".");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "base");
    // An editor's unsaved text: a change without a version bump.
    const edited = text({ ...validHost(), ui: {} });
    const r = run(["check", "--stdin", "--stdin-filename", "plugin.json", "--base-ref", "HEAD"], {
      input: edited,
      cwd: repo,
    });
    expect(findingLines(r.stdout)).toMatch(/^plugin\.json:3:\d+ +error +version-not-bumped /m);
    expect(r.status).toBe(1);
  });

  it("`-` is standard input too, as --stdin (named <stdin>, or by --stdin-filename)", () => {
    const dash = run(["check", "-"], { input: REMOTE });
    expect(findingLines(dash.stdout)).toMatch(/^<stdin>:4:11 +error +variant-mismatch /m);
    expect(dash.status).toBe(1);
    const named = run(["check", "--stdin-filename", "plugins/remote/plugin.json", "-", "--format", "json"], {
      input: REMOTE,
    });
    expect((JSON.parse(named.stdout) as { file: string }[])[0]!.file).toBe("plugins/remote/plugin.json");
    expect(run(["check", "-"], { input: text(validHost()) }).status).toBe(0);
    const mixed = run(["check", "-", "examples/host-valid"], { input: REMOTE });
    expect(mixed.stderr).toMatch(
      /^plugin-review: '-' reads one descriptor from standard input \(as --stdin\)/,
    );
    expect(mixed.status).toBe(2);
  });

  it("reads no more of an endless standard input than max_file_size allows: file-too-large, at once", async () => {
    const child = spawn(process.execPath, [BIN, "check", "--stdin", "--format", "json"], { cwd: dir });
    const chunk = Buffer.alloc(1024 * 1024, " ");
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => void (stdout += d.toString()));
    // The command stops reading: writing then fails with EPIPE, which is what a writer sees.
    child.stdin.on("error", () => {});
    let open = true;
    const pump = () => {
      while (open && child.stdin.write(chunk));
      if (open) child.stdin.once("drain", pump);
    };
    pump();
    const timer = setTimeout(() => child.kill(), 30_000);
    const status = await new Promise<number | null>((done) => child.on("close", (code) => done(code)));
    open = false;
    clearTimeout(timer);
    expect(status).toBe(1);
    expect((JSON.parse(stdout) as { ruleId: string }[]).map((f) => f.ruleId)).toEqual(["file-too-large"]);
  }, 40_000);

  it("refuses what cannot go with standard input (exit 2)", () => {
    const cases: [string[], RegExp][] = [
      [["--stdin", "examples/host-valid"], /give no file arguments with it/],
      [["--stdin", "--fix"], /--fix cannot write to standard input/],
      [
        ["--stdin-filename", "p/plugin.json", "examples/host-valid"],
        /--stdin-filename names standard input: add --stdin/,
      ],
      [["--stdin", "--base-ref", "HEAD"], /--base-ref with --stdin needs --stdin-filename/],
    ];
    for (const [args, message] of cases) {
      const r = run(["check", ...args], { input: REMOTE });
      expect(r.stderr, args.join(" ")).toMatch(message);
      expect(r.status, args.join(" ")).toBe(2);
    }
  });
});

describe("--max-warnings and --quiet", () => {
  it("--max-warnings n fails with more than n warnings, and says so", () => {
    const file = write("warn/plugin.json", WARNING_ONLY);
    expect(run(["check", file]).status).toBe(0);
    const over = run(["check", "--max-warnings", "0", file]);
    expect(over.stdout).toMatch(/too many warnings: 1 \(--max-warnings 0\)/);
    expect(over.status).toBe(1);
    expect(run(["check", "--max-warnings", "1", file]).status).toBe(0);
    const json = run(["check", "--max-warnings", "0", "--format", "json", file]);
    expect(json.stderr).toMatch(/too many warnings/); // notes go to stderr when stdout is a report
    expect(json.status).toBe(1);
    for (const bad of ["-1", "x", "1.5"]) {
      const r = run(["check", `--max-warnings=${bad}`, file]);
      expect(r.stderr).toMatch(/--max-warnings takes a number of warnings/);
      expect(r.status).toBe(2);
    }
  });

  it("a value that starts with '-' after a space: the option's own message, never 'takes no value'", () => {
    const file = write("dash/plugin.json", WARNING_ONLY);
    // The numeric option says what it takes, as for `--max-warnings=-1`.
    for (const bad of ["-1", "-0", "--5"]) {
      const r = run(["check", "--max-warnings", bad, file]);
      expect(r.stderr).toBe(
        `plugin-review: --max-warnings takes a number of warnings (0 or more), not '${bad}' (leave it out for no limit)\nRun 'plugin-review check --help' for the options.\n`,
      );
      expect(r.status).toBe(2);
    }
    // Every other option that takes a value says how to give one that starts with '-'.
    for (const option of ["--config", "--format", "--base", "--base-ref", "--stdin-filename", "--output"]) {
      const r = run(["check", option, "-x.yml", file]);
      expect(r.stderr).toMatch(
        new RegExp(
          `^plugin-review: option '${option}' needs a value; to give one that starts with '-', write ${option}=-x\\.yml\\n`,
        ),
      );
      expect(r.status).toBe(2);
    }
    for (const [command, option] of [
      ["audit", "--repo"],
      ["audit", "--app"],
      ["pr", "--api-url"],
    ] as const) {
      const r = run([command, option, "-x"]);
      expect(r.stderr).toMatch(
        new RegExp(`^plugin-review: option '${option}' needs a value; .* write ${option}=-x\\n`),
      );
      expect(r.status).toBe(2);
    }
  });

  it("--quiet reports errors only, and neither warnings nor notices count then", () => {
    const quiet = run(["check", "--quiet", "--stdin"], { input: REMOTE });
    expect(quiet.stdout).toMatch(/variant-mismatch/);
    expect(quiet.stdout).not.toMatch(/warning|ignored-member/);
    expect(quiet.stdout).toMatch(/✖ 3 findings \(3 errors\)/);
    expect(quiet.status).toBe(1);
    const strict = write("strict/.github/plugin-review.yml", "fail_on: warning\n");
    const file = write("strict/p/plugin.json", WARNING_ONLY);
    expect(run(["check", "--config", strict, file]).status).toBe(1);
    expect(run(["check", "--config", strict, "--quiet", file]).status).toBe(0);
    expect(run(["check", "--quiet", "--max-warnings", "0", file]).status).toBe(0);
  });
});

describe("colour", () => {
  const colours = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    ANSI.test(run(["check", ...args, "--stdin"], { input: REMOTE, env }).stdout);

  it("is off when standard output is not a terminal, on with --color or FORCE_COLOR", () => {
    expect(colours([])).toBe(false);
    expect(colours(["--color"])).toBe(true);
    expect(colours([], { FORCE_COLOR: "1" })).toBe(true);
    expect(colours([], { FORCE_COLOR: "0" })).toBe(false);
  });

  it("honours NO_COLOR, which flags override; the last flag wins", () => {
    expect(colours([], { NO_COLOR: "1", FORCE_COLOR: "" })).toBe(false);
    expect(colours(["--color"], { NO_COLOR: "1" })).toBe(true);
    expect(colours(["--no-color"], { FORCE_COLOR: "1" })).toBe(false);
    expect(colours(["--color", "--no-color"])).toBe(false);
    expect(colours(["--no-color", "--color"])).toBe(true);
  });

  it("never colours a report written to a file or another format", () => {
    const out = join(dir, "report.txt");
    const r = run(["check", "--color", "--stdin", "--output", `text=${out}`], { input: REMOTE });
    expect(ANSI.test(r.stdout)).toBe(true);
    expect(ANSI.test(readFileSync(out, "utf8"))).toBe(false);
    expect(
      ANSI.test(run(["check", "--color", "--format", "json", "--stdin"], { input: REMOTE }).stdout),
    ).toBe(false);
  });
});

describe("help", () => {
  it("lists the commands; each command's --help gives its own options", () => {
    const top = run(["--help"]);
    expect(top.stdout).toMatch(/^Usage: plugin-review <command> \[options\]/);
    for (const c of ["check", "pr", "audit"]) expect(top.stdout).toMatch(new RegExp(`^  ${c} `, "m"));
    expect(top.status).toBe(0);
    const check = run(["check", "--help"]);
    expect(check.stdout).toMatch(/^Usage: plugin-review check \[options\]/);
    for (const o of ["--stdin", "--stdin-filename", "--max-warnings", "--quiet", "--color", "--no-color"])
      expect(check.stdout).toMatch(new RegExp(`^  (--\\S+, )?${o}\\b`, "m"));
    expect(check.stdout).not.toContain("--api-url");
    expect(run(["help", "check"]).stdout).toBe(check.stdout);
    expect(run(["check", "-h", "--bogus-but-help-wins"]).status).toBe(2); // an unknown option is still a mistake
    const pr = run(["pr", "--help"]);
    expect(pr.stdout).toMatch(/^Usage: plugin-review pr <owner>\/<repo>#<number>/);
    expect(pr.stdout).toContain("--api-url");
    expect(pr.stdout).not.toContain("--stdin");
    expect(run(["audit", "--help"]).stdout).toMatch(/^Usage: plugin-review audit <org>[\s\S]*--repo <name>/);
    expect(run([]).status).toBe(2); // no command: the overview on stderr
  });

  it("`help <command>` is that command's help; an unknown one is a usage error, as the command itself is", () => {
    const overview = run(["--help"]).stdout;
    expect(run(["help"])).toEqual({ status: 0, stdout: overview, stderr: "" });
    expect(run(["help", "lsp"]).stdout).toBe(run(["lsp", "--help"]).stdout);
    for (const args of [
      ["help", "chekc"],
      ["help", "--bogus"],
    ]) {
      const r = run(args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(`plugin-review: unknown command '${args[1]}'\n${overview}`);
    }
    expect(run(["chekc"]).stderr).toBe(`plugin-review: unknown command 'chekc'\n${overview}`);
    const extra = run(["help", "check", "pr"]);
    expect(extra.status).toBe(2);
    expect(extra.stderr).toMatch(/^plugin-review: help takes one command, not 'pr'\n/);
  });

  it("lists the top-level options under an Options: heading, their descriptions in the commands' column", () => {
    const top = run(["--help"]).stdout;
    const column = (line: string | undefined) => /^ {2}\S.*?\s{2,}(?=\S)/.exec(line ?? "")?.[0].length;
    const lines = top.split("\n");
    const commands = lines.slice(
      lines.indexOf("Commands:") + 1,
      lines.indexOf("", lines.indexOf("Commands:")),
    );
    const options = lines.slice(lines.indexOf("Options:") + 1, lines.indexOf("", lines.indexOf("Options:")));
    expect(options).toEqual([
      expect.stringMatching(/^ {2}-h, --help +show this help$/),
      expect.stringMatching(/^ {2}-v, --version +show the version$/),
    ]);
    // Each row's description in one column (a description broken to fit the terminal continues in it).
    const rows = [...commands, ...options].filter((l) => /^ {2}\S/.test(l));
    expect(new Set(rows.map(column))).toEqual(new Set([column(commands[0])]));
    for (const l of commands.filter((l) => !/^ {2}\S/.test(l)))
      expect(l).toMatch(new RegExp(`^ {${column(commands[0])}}\\S`));
    expect(top).toMatch(/\n\nRun 'plugin-review <command> --help' for a command's options\.\n$/);
  });
});

describe("mistakes on the command line", () => {
  it("an unknown option is one clean line and a pointer to the help, exit 2", () => {
    const r = run(["check", "--frobnicate", "examples/host-valid"]);
    expect(r.stderr).toBe(
      "plugin-review: unknown option '--frobnicate'\nRun 'plugin-review check --help' for the options.\n",
    );
    expect(r.stdout).toBe("");
    expect(r.status).toBe(2);
  });

  it("takes a path that starts with '-' as a path, not as an option: a folder named -old", () => {
    const cwd = join(dir, "dash");
    write("dash/-old/plugin.json", REMOTE);
    write("dash/-new/plugin.json", text(validHost()));
    const r = run(["check", "--format", "json", "-old/plugin.json", "--quiet", "-new/plugin.json"], { cwd });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    const files = (JSON.parse(r.stdout) as { file: string }[]).map((f) => f.file);
    expect(new Set(files)).toEqual(new Set(["-old/plugin.json"]));
    // Options keep their values, also a value that looks like a path: --output's file.
    const both = run(["check", "--output", "json=-new/report.json", "-new/plugin.json"], { cwd });
    expect([both.status, both.stderr]).toEqual([0, ""]);
    expect(readFileSync(join(cwd, "-new/report.json"), "utf8").trim()).toBe("[]");
    // A mistyped option stays a mistake.
    expect(run(["check", "--bogus", "-old/plugin.json"], { cwd }).stderr).toMatch(
      /^plugin-review: unknown option '--bogus'\n/,
    );
  });

  it("suggests the option meant, and says which option lacks its value", () => {
    expect(run(["check", "--fromat", "json", "."]).stderr).toMatch(
      /^plugin-review: unknown option '--fromat' \(did you mean --format\?\)\n/,
    );
    expect(run(["check", "--max-warning", "0", "."]).stderr).toMatch(/did you mean --max-warnings\?/);
    const missing = run(["check", "examples/host-valid", "--format"]);
    expect(missing.stderr).toMatch(/^plugin-review: option '--format' needs a value\n/);
    expect(missing.status).toBe(2);
    const noValue = run(["check", "--quiet=yes", "."]);
    expect(noValue.stderr).toMatch(/^plugin-review: option '--quiet' takes no value\n/);
    expect(noValue.status).toBe(2);
  });

  it("is as clean for pr and audit, and before a command", () => {
    const audit = run(["audit", "acme", "--bogus"]);
    expect(audit.stderr).toMatch(
      /^plugin-review: unknown option '--bogus'\nRun 'plugin-review audit --help'/,
    );
    expect(audit.status).toBe(2);
    const pr = run(["pr", "--repo", "x", "acme/plugins#1"]);
    expect(pr.stderr).toMatch(/^plugin-review: unknown option '--repo'/);
    expect(pr.status).toBe(2);
    const before = run(["--quiet", "check", "."]);
    expect(before.stderr).toMatch(/^plugin-review: unknown option '--quiet' \(options follow a command/);
    expect(before.status).toBe(2);
    for (const r of [audit, pr, before])
      expect(r.stderr).not.toMatch(/ERR_PARSE_ARGS|To specify a positional|\n\s+at /);
  });

  it("a bad value or an unknown argument of pr, audit and lsp: named, with the pointer to the command's help", () => {
    const cases: [string[], string][] = [
      [["pr", "--format", "sarif", "acme/plugins#1"], "pr --format must be text or json, not 'sarif'"],
      [
        ["audit", "acme", "--format", "xml"],
        "audit --format must be one of text, json, markdown, html, csv, sarif, not 'xml'",
      ],
      [
        ["audit", "acme", "--output", "pdf=x"],
        "audit --output takes <format>=<file> with a format among text, json, markdown, html, csv (SARIF: --format sarif --output-dir), not 'pdf=x'",
      ],
      [["lsp", "--stdio", "--bogus"], "unknown option '--bogus' (lsp takes --stdio alone)"],
      [["lsp", "--stdio", "x\u001b[31m"], "unexpected argument 'x\\x1b[31m' (lsp takes --stdio alone)"],
    ];
    for (const [args, what] of cases) {
      const r = run(args, { env: { GITHUB_TOKEN: "" } });
      const command = args[0]!;
      expect(r.stderr, args.join(" ")).toBe(
        `plugin-review: ${what}\nRun 'plugin-review ${command} --help' for the options.\n`,
      );
      expect([r.status, r.stdout], args.join(" ")).toEqual([2, ""]);
    }
  });

  it("every error, of every command, starts with one prefix: `plugin-review: `", () => {
    const failures = [
      ["check", "--frobnicate", "."],
      ["check", "--format", "xml", "."],
      ["check", "--fix", "--fix-dry-run", "."],
      ["check"],
      ["check", "no/such/plugin.json"],
      ["check", "--config", "no/such.yml", "examples/host-valid"],
      ["pr", "--format", "xml", "acme/plugins#1"],
      ["pr"],
      ["audit"],
      ["lsp"],
      ["migrate", "nope.json"],
      ["frobnicate"],
      ["--quiet"],
    ].map((args) => ({ args, ...run(args) }));
    for (const { args, stderr, status } of failures) {
      expect(status, args.join(" ")).toBe(2);
      expect(stderr, args.join(" ")).toMatch(/^plugin-review: \S/);
    }
  });
});

describe("counts", () => {
  it("are said with real plurals in every message of the sources: no `file(s)`, `fix(es)`", () => {
    const sources = ["src", "action"].flatMap((dir) =>
      readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
        .filter((f) => /\.(ts|mjs)$/.test(f))
        .map((f) => join(dir, f)),
    );
    const hedged = sources.flatMap((file) =>
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .map((line, i) => `${file}:${i + 1}: ${line.trim()}`)
        // A word with `(s)` or `(es)` in a string, not a call such as `escape(s)` in code or a comment.
        .filter(
          (l) =>
            !/^\S+ (\*|\/\*|\/\/)/.test(l) && /[a-z]{2,}\((?:s|es)\)(?: (?!as\b)[a-z]|, [a-z]|`|")/.test(l),
        ),
    );
    expect(hedged).toEqual([]);
  });
});
