import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, text, validHost } from "../helpers.js";
import { BIN, cli, ensureBuilt, findingLines, type Run } from "./run.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(rel: string, content: string | Buffer): string {
  const p = join(dir, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, content);
  return p;
}

const STACK = /\n\s+at .+:\d+:\d+/;

describe("plugin-review check", () => {
  it("passes the valid examples with exit 0 and a summary", () => {
    const r = cli(["check", "examples/host-valid", "examples/remote-valid/plugin.json"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/✔ 2 descriptors checked: no findings/);
  });

  /**
   * The text output's blocks, each a file's path and its findings' rows (a long message continued below its
   * first line, in its column), checked for the layout of ESLint's stylish: lines right-aligned and columns
   * left-aligned around the colon; severity, message and rule id each starting where they start on every
   * other row of the file; the rule id two spaces after the longest message line. Returns every message line.
   */
  function checkLayout(stdout: string): { rows: string[]; messageLines: string[] } {
    const blocks = stdout.split("\n\n").slice(0, -1); // the last is the summary
    expect(blocks.length).toBeGreaterThan(10);
    const all: string[] = [];
    const messageLines: string[] = [];
    for (const block of blocks) {
      const [file, ...lines] = block.split("\n");
      expect(file).toMatch(/^examples\/\S+\/(plugin\.json|extension\.yaml)$/);
      const cells = lines
        .map((row) => /^( +\d+):(\d+ +)(error|warning|notice) +(.*?)( +)(\S+)$/.exec(row))
        .filter((c) => c !== null);
      expect(cells.length, block).toBeGreaterThan(0);
      const at = (c: RegExpExecArray, group: number) => c[0].indexOf(c[group]!, c[1]!.length);
      for (const group of [1, 2] as const)
        expect(new Set(cells.map((c) => c[group]!.length)).size, block).toBe(1);
      for (const group of [3, 4]) expect(new Set(cells.map((c) => at(c, group))).size, block).toBe(1);
      const message = at(cells[0]!, 4);
      // Every other line continues the message above it, in its column.
      const continued = lines.filter((l) => !cells.some((c) => c[0] === l));
      for (const l of continued) expect(l, block).toMatch(new RegExp(`^ {${message}}\\S`));
      const lengths = [...cells.map((c) => c[4]!.length), ...continued.map((l) => l.trimStart().length)];
      const ruleIds = new Set(cells.map((c) => c[0].length - c[6]!.length));
      expect([...ruleIds], block).toEqual([message + Math.max(...lengths) + 2]);
      all.push(...lines);
      messageLines.push(...cells.map((c) => c[4]!), ...continued.map((l) => l.trimStart()));
    }
    return { rows: all, messageLines };
  }

  it("lays findings out as ESLint's stylish does: per file its path, then aligned columns", () => {
    const r = cli(["check", "examples/"]);
    const { messageLines } = checkLayout(r.stdout);
    // Without a width (not a terminal, no COLUMNS), only the message column's own limit: 100 characters.
    expect(Math.max(...messageLines.map((l) => l.length))).toBeLessThanOrEqual(100);
    // The messages, wrapped between words, are the messages.
    const json = JSON.parse(cli(["check", "--format", "json", "examples/"]).stdout) as { message: string }[];
    expect(
      findingLines(r.stdout)
        .split("\n")
        .map((l) => l.replace(/^\S+ \S+ \S+ /, "")),
    ).toEqual(json.map((f) => f.message));
    // Widths count characters, not colour codes: with colour the same text, painted.
    const coloured = cli(["check", "--color", "examples/"]).stdout;
    expect(coloured).toContain("\u001b[");
    expect(stripVTControlCharacters(coloured)).toBe(r.stdout);
  });

  it("fits an 80-column terminal (COLUMNS=80): the message column wraps, no line is over 160 characters", () => {
    const r = cli(["check", "examples/"], undefined, { COLUMNS: "80" });
    expect(r.status).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines.filter((l) => l.length > 160)).toEqual([]);
    // The findings' rows themselves fit the 80 columns: the message column is what gives way.
    const { rows } = checkLayout(r.stdout);
    expect(rows.filter((l) => l.length > 80)).toEqual([]);
    // A wider terminal gets longer message lines, up to 100 characters, and no more rows than it needs.
    const wide = cli(["check", "examples/"], undefined, { COLUMNS: "300" });
    expect(checkLayout(wide.stdout).rows.length).toBeLessThan(rows.length);
    const longest = Math.max(...checkLayout(wide.stdout).messageLines.map((l) => l.length));
    expect(longest).toBeGreaterThan(80);
    expect(longest).toBeLessThanOrEqual(100);
    // The same findings, the narrow column's words cut where one is longer than the column.
    const squeezed = (out: string) => findingLines(out).replace(/ /g, "");
    expect(squeezed(wide.stdout)).toBe(squeezed(r.stdout));
  });

  it("reports mistakes as file:line:col severity rule message, exit 1", () => {
    const r = cli(["check", "examples/"]);
    expect(r.status).toBe(1);
    expect(findingLines(r.stdout)).toMatch(
      /^examples\/mistakes\/invalid-json\/plugin\.json:4:3 +error +invalid-json +not valid JSON: comments are not allowed/m,
    );
    expect(findingLines(r.stdout)).toMatch(
      /^examples\/mistakes\/host-mistakes\/plugin\.json:19:17 +error +invalid-value .*Did you mean `Percent`\?/m,
    );
    expect(r.stdout).toMatch(
      /✖ \d+ findings \(\d+ errors, \d+ warnings, \d+ notices\) in \d+ of \d+ descriptors/,
    );
    expect(r.stdout).not.toContain("\u001b["); // no colour when not a terminal
  });

  it("prints the contract's JSON findings with --format json", () => {
    const r = cli(["check", "--format", "json", "examples/mistakes/remote-mistakes"]);
    expect(r.status).toBe(1);
    const findings = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) {
      expect(Object.keys(f)).toEqual([
        "file",
        "ruleId",
        "severity",
        "message",
        "messageId",
        "pointer",
        "line",
        "column",
        "endLine",
        "endColumn",
        "fingerprint",
        ...(f.suggestions ? ["suggestions"] : []),
      ]);
      expect(f.file).toBe("examples/mistakes/remote-mistakes/plugin.json");
      expect(f.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(findings).toContainEqual(
      expect.objectContaining({
        ruleId: "unknown-dimension-reference",
        pointer: "/ui/charts/0/series/0/dimensions/0",
        line: 23,
      }),
    );
  });

  it("prints workflow commands with --format github", () => {
    const r = cli(["check", "--format", "github", "examples/mistakes/invalid-json/plugin.json"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      /^::error file=examples\/mistakes\/invalid-json\/plugin\.json,line=4,endLine=4,col=3,endColumn=5,title=invalid-json::not valid JSON: comments are not allowed in JSON \[invalid-json\]$/m,
    );
  });

  it("prints SARIF 2.1.0 with --format sarif", () => {
    const r = cli(["check", "--format", "sarif", "examples/mistakes/remote-mistakes"]);
    expect(r.status).toBe(1);
    const sarif = JSON.parse(r.stdout) as {
      version: string;
      runs: { results: { ruleId: string }[]; tool: { driver: { rules: { id: string }[] } } }[];
    };
    expect(sarif.version).toBe("2.1.0");
    const run = sarif.runs[0]!;
    expect(run.results.map((x) => x.ruleId)).toContain("variant-mismatch");
    expect(run.tool.driver.rules.map((x) => x.id)).toContain("variant-mismatch");
  });

  it("compares with --base and names the next version", () => {
    const r = cli(["check", "examples/change/plugin.json", "--base", "examples/change/plugin.base.json"]);
    expect(r.status).toBe(1);
    expect(findingLines(r.stdout)).toMatch(/plugin\.json:3:14 +error +version-not-bumped .*`1\.2\.1`/);
    expect(r.stdout).toMatch(/metric-group-changed/);
    expect(r.stdout).toMatch(/metric-unit-changed/);
  });

  // A pipe has no size to read up to: `check <(git show main:plugin.json)`, `--base <(…)`, as users write it.
  it.skipIf(process.platform === "win32")("reads a file that is a pipe (process substitution) whole", () => {
    /** The CLI run by bash, `$1`.. the arguments (`<(cat "$1")` makes a pipe of the file named first). */
    const bash = (script: string, ...args: string[]) => {
      const r = spawnSync("bash", ["-c", `"$0" "$BIN" ${script}`, process.execPath, ...args], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, BIN, NO_COLOR: "", FORCE_COLOR: "", COLUMNS: "" },
        timeout: 60_000,
      });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const mistakes = "examples/mistakes/remote-mistakes/plugin.json";
    const asFile = cli(["check", "--format", "json", mistakes]);
    const piped = bash(`check --format json <(cat "$1")`, mistakes);
    expect(piped.stderr).toBe("");
    const file = (JSON.parse(piped.stdout) as { file: string }[])[0]?.file;
    expect(file).toMatch(/^\/dev\/fd\//);
    // The same findings; the fingerprint names the file, so it differs.
    const same = (out: string) =>
      (JSON.parse(out) as { fingerprint?: string }[]).map((f) => ({ ...f, file, fingerprint: undefined }));
    expect(same(piped.stdout)).toEqual(same(asFile.stdout));
    // A piped base: the change rules apply, as with the base in a file.
    const r = bash(
      `check "$1" --base <(cat "$2")`,
      "examples/change/plugin.json",
      "examples/change/plugin.base.json",
    );
    expect(r.stdout).not.toMatch(/base-invalid-json/);
    expect(findingLines(r.stdout)).toMatch(/plugin\.json:3:14 +error +version-not-bumped/);
    expect(r.status).toBe(1);
    // A piped configuration is read as a file is.
    const tuned = bash(`check "$1" --config <(printf 'fail_on: never\\n')`, mistakes);
    expect(tuned.stderr).toBe("");
    expect(tuned.stdout).toMatch(/variant-mismatch/);
    expect(tuned.status).toBe(0);
    // --fix has no file to write into: refused before anything is written, the dry run shows the fixes.
    const fix = bash(
      `check --fix <(cat "$1") --base "$2"`,
      "examples/change/plugin.json",
      "examples/change/plugin.base.json",
    );
    expect(fix.stderr).toMatch(/--fix cannot write to '\/dev\/fd\/\d+': it is not a file/);
    expect(fix.status).toBe(2);
    const dry = bash(
      `check --fix-dry-run <(cat "$1") --base "$2"`,
      "examples/change/plugin.json",
      "examples/change/plugin.base.json",
    );
    expect(dry.stdout).toMatch(/^\+ {2}"version": "1\.2\.1",$/m);
    // A stream that never ends is read up to the limit, not without end.
    const endless = cli(["check", "--format", "json", "/dev/zero"]);
    expect(JSON.parse(endless.stdout)).toMatchObject([{ ruleId: "file-too-large" }]);
  });

  it("refuses an empty argument (a variable not set), never reviewing the working directory for it", () => {
    for (const command of ["check", "migrate"]) {
      const r = cli([command, ""]);
      expect(r.status, command).toBe(2);
      expect(r.stderr, command).toBe(
        "plugin-review: an empty argument names no file (a variable that is not set?)\n",
      );
      expect(r.stdout, command).toBe("");
    }
  });

  it("exits 2 with a clear message and no stack trace on a missing file", () => {
    const r = cli(["check", "does/not/exist.json"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot read 'does\/not\/exist\.json': no such file or directory/);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.stdout).toBe("");
  });

  it("exits 2 with a clear message and no stack trace on a symbolic link that leads back to itself", () => {
    symlinkSync("loop-b.json", join(dir, "loop-a.json"));
    symlinkSync("loop-a.json", join(dir, "loop-b.json"));
    const r = cli(["check", "loop-a.json"], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^plugin-review: cannot read 'loop-a\.json': too many levels of symbolic links/);
    expect(r.stderr).not.toMatch(/unexpected error|ELOOP/);
    expect(r.stderr).not.toMatch(STACK);
    // migrate: that descriptor is not converted, saying why; the others are.
    write("loop-other/plugin.json", readFileSync(join(ROOT, "examples", "jmx-valid", "plugin.json"), "utf8"));
    const m = cli(["migrate", "loop-a.json", "loop-other/plugin.json"], dir);
    expect(m.status).toBe(2);
    expect(m.stderr).toMatch(
      /^plugin-review: loop-a\.json: not converted:\n {2}cannot read it: too many levels of symbolic links/m,
    );
    expect(m.stderr).toMatch(/1 partly .*1 refused/s);
    expect(m.stderr).not.toMatch(STACK);
  });

  it("a descriptor below a folder that is a broken symbolic link is an error naming it, never skipped", () => {
    write("broken/a/plugin.json", text(validHost()));
    mkdirSync(join(dir, "broken", "b"));
    symlinkSync("gone.json", join(dir, "broken", "b", "plugin.json"));
    const r = cli(["check", "broken"], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^plugin-review: cannot read 'broken\/b\/plugin\.json': no such file or directory$/m,
    );
    expect(r.stdout).toBe("");
  });

  it("a folder named plugin.json below a folder argument is named, never skipped: check exits 2, migrate counts it refused", () => {
    write("dir-named/a/plugin.json", text(validHost()));
    mkdirSync(join(dir, "dir-named", "b", "plugin.json"), { recursive: true });
    mkdirSync(join(dir, "dir-named", "c"));
    symlinkSync("../b/plugin.json", join(dir, "dir-named", "c", "plugin.json")); // a link to that folder
    const r = cli(["check", "dir-named"], dir);
    expect(r.stderr).toBe(
      "plugin-review: 2 problems with the files given, so nothing was reviewed:\n" +
        "  cannot read 'dir-named/b/plugin.json': it is a directory, not a file\n" +
        "  cannot read 'dir-named/c/plugin.json': it is a symbolic link to a directory, not a file\n",
    );
    expect(r.stdout).toBe("");
    expect(r.status).toBe(2);
    const m = cli(["migrate", "dir-named", "--out", "dir-named-out"], dir);
    expect(m.stderr).toMatch(
      /^plugin-review: dir-named\/b\/plugin\.json: not converted:\n {2}cannot read it: it is a directory, not a file$/m,
    );
    expect(m.stderr).toMatch(
      /^plugin-review: dir-named\/c\/plugin\.json: not converted:\n {2}cannot read it: it is a symbolic link to a directory, not a file$/m,
    );
    expect(m.stdout).toMatch(/3 descriptors: 0 converted, 1 partly .*2 refused/s);
    expect(m.status).toBe(2);
    const json = cli(["migrate", "--format", "json", "dir-named"], dir);
    const files = (JSON.parse(json.stdout) as { file: string; outcome: string }[]).map((d) => [
      d.file,
      d.outcome,
    ]);
    expect(files).toEqual([
      ["dir-named/a/plugin.json", "partly"],
      ["dir-named/b/plugin.json", "refused"],
      ["dir-named/c/plugin.json", "refused"],
    ]);
    expect(json.status).toBe(2);
  });

  it("a glob that matches a folder, a link to a folder or a named pipe under a descriptor's name names it as a folder argument does", () => {
    write("glob-named/a/plugin.json", text(validHost()));
    mkdirSync(join(dir, "glob-named", "b", "plugin.json"), { recursive: true });
    mkdirSync(join(dir, "glob-named", "c"));
    symlinkSync("../b/plugin.json", join(dir, "glob-named", "c", "plugin.json"));
    mkdirSync(join(dir, "glob-named", "d"));
    execFileSync("mkfifo", [join(dir, "glob-named", "d", "plugin.json")]);
    const r = cli(["check", "glob-named/*/plugin.json"], dir);
    expect(r.stderr).toBe(
      "plugin-review: 3 problems with the files given, so nothing was reviewed:\n" +
        "  cannot read 'glob-named/b/plugin.json': it is a directory, not a file\n" +
        "  cannot read 'glob-named/c/plugin.json': it is a symbolic link to a directory, not a file\n" +
        "  cannot read 'glob-named/d/plugin.json': it is a named pipe, not a file\n",
    );
    expect(r.stdout).toBe("");
    expect(r.status).toBe(2);
    for (const [glob, kind] of [
      ["glob-named/c/*.json", "a symbolic link to a directory"],
      ["glob-named/d/*.json", "a named pipe"],
    ]) {
      const one = cli(["check", glob!], dir);
      expect(one.stderr).toBe(
        `plugin-review: cannot read '${glob!.replace("*", "plugin")}': it is ${kind}, not a file\n`,
      );
      expect(one.status).toBe(2);
    }
    const json = cli(["migrate", "--format", "json", "glob-named/*/plugin.json"], dir);
    expect(
      (JSON.parse(json.stdout) as { file: string; outcome: string }[]).map((d) => [d.file, d.outcome]),
    ).toEqual([
      ["glob-named/a/plugin.json", "partly"],
      ["glob-named/b/plugin.json", "refused"],
      ["glob-named/c/plugin.json", "refused"],
      ["glob-named/d/plugin.json", "refused"],
    ]);
    expect(json.status).toBe(2);
    // Folders under other names are what a glob such as `*` matches: walked or left, not descriptors.
    const star = cli(["check", "glob-named/*"], dir);
    expect(star.stderr).toBe(
      "plugin-review: no files match 'glob-named/*' (node_modules and .git folders are searched only where it names them)\n",
    );
    const deep = cli(["check", "glob-named/a/**"], dir);
    expect(deep.stderr).toBe("");
    expect(deep.status).toBe(0);
  });

  it("a configuration whose paths glob matches folders (plugins/**) walks them, not naming them unreadable", () => {
    write("folder-glob/.github/plugin-review.yml", 'paths: ["plugins/**"]\n');
    write("folder-glob/plugins/a/plugin.json", text(validHost()));
    const r = cli(["check", "."], join(dir, "folder-glob"));
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/1 descriptor checked/);
    expect(r.status).toBe(0);
  });

  it("a broken symbolic link a glob matches is an error naming it, never silently left out", () => {
    write("globbed/a/plugin.json", text(validHost()));
    mkdirSync(join(dir, "globbed", "b"));
    symlinkSync("gone.json", join(dir, "globbed", "b", "plugin.json"));
    mkdirSync(join(dir, "globbed", "c"));
    symlinkSync("plugin.json", join(dir, "globbed", "c", "plugin.json")); // a link to itself
    const r = cli(["check", "globbed/*/plugin.json"], dir);
    expect(r.stderr).toBe(
      "plugin-review: 2 problems with the files given, so nothing was reviewed:\n" +
        "  cannot read 'globbed/b/plugin.json': no such file or directory\n" +
        "  cannot read 'globbed/c/plugin.json': too many levels of symbolic links (a link that leads back to itself?)\n",
    );
    expect(r.stdout).toBe("");
    expect(r.status).toBe(2);
    const loop = cli(["check", "globbed/c/*.json"], dir);
    expect(loop.stderr).toBe(
      "plugin-review: cannot read 'globbed/c/plugin.json': too many levels of symbolic links (a link that leads back to itself?)\n",
    );
    expect(loop.status).toBe(2);
    // A link to a file is followed, and what the glob does not match is not looked at.
    symlinkSync("../a/plugin.json", join(dir, "globbed", "b", "linked.json"));
    const linked = cli(["check", "globbed/{a,b}/*.json"], dir);
    expect(linked.stderr).toMatch(/^plugin-review: cannot read 'globbed\/b\/plugin\.json'/);
    const fine = cli(["check", "globbed/*/linked.json"], dir);
    expect(fine.stderr).toBe("");
    expect(fine.stdout).toMatch(/^globbed\/b\/linked\.json$|1 descriptor checked: no findings/m);
    expect(fine.status).toBe(0);
  });

  it("names every argument and descriptor of a fleet that cannot be read in one run, and reviews none", () => {
    // A folder of its own that nobody may read but the files its test makes unreadable.
    const fleet = mkdtempSync(join(tmpdir(), "plugin-review-fleet-"));
    try {
      chmodSync(fleet, 0o755);
      const put = (rel: string, content: string) => {
        mkdirSync(join(fleet, rel, ".."), { recursive: true });
        writeFileSync(join(fleet, rel), content);
      };
      put("plugins/a/plugin.json", text(validHost()));
      put("plugins/b/plugin.json", text(validHost())); // may not be read
      mkdirSync(join(fleet, "plugins", "c", "plugin.json"), { recursive: true }); // a folder
      mkdirSync(join(fleet, "plugins", "d"));
      symlinkSync("gone.json", join(fleet, "plugins", "d", "plugin.json")); // a link to nothing
      put("plugins/e/x/plugin.json", text(validHost())); // in a folder that may not be read
      put("other/plugin.json", text(validHost()));
      chmodSync(join(fleet, "plugins", "b", "plugin.json"), 0o000);
      chmodSync(join(fleet, "plugins", "e"), 0o000);
      // root reads every file: the CLI is run as nobody then (setpriv), as a user without permission runs it.
      const asRoot = process.getuid?.() === 0;
      const r = spawnSync(
        asRoot ? "setpriv" : process.execPath,
        [
          ...(asRoot ? ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath] : []),
          BIN,
          "check",
          "plugins",
          "missing/plugin.json",
          "other/plugin.json",
        ],
        { cwd: fleet, encoding: "utf8", env: { ...process.env, NO_COLOR: "", COLUMNS: "" } },
      );
      chmodSync(join(fleet, "plugins", "e"), 0o755);
      expect(r.stderr).toBe(
        [
          "plugin-review: 5 problems with the files given, so nothing was reviewed:",
          "  cannot read directory 'plugins/e': permission denied",
          "  cannot read 'missing/plugin.json': no such file or directory",
          "  cannot read 'plugins/b/plugin.json': permission denied",
          "  cannot read 'plugins/c/plugin.json': it is a directory, not a file",
          "  cannot read 'plugins/d/plugin.json': no such file or directory",
          "",
        ].join("\n"),
      );
      expect(r.stdout).toBe("");
      expect(r.status).toBe(2);
    } finally {
      rmSync(fleet, { recursive: true, force: true });
    }
  });

  it("one descriptor reached through a symbolic link and as itself is reviewed once, and the other path is named", () => {
    const { metricGroup: _, ...noGroup } = validHost();
    write("linked/a/plugin.json", text(noGroup));
    mkdirSync(join(dir, "linked", "b"));
    symlinkSync("../a/plugin.json", join(dir, "linked", "b", "plugin.json")); // a link to the file
    symlinkSync("a", join(dir, "linked", "c")); // a link to its folder
    const r = cli(["check", "linked", "linked/c"], dir);
    expect(findingLines(r.stdout).split("\n")).toEqual([
      expect.stringMatching(/^linked\/a\/plugin\.json:1:1 warning metric-group-missing /),
    ]);
    expect(r.stdout).toContain(
      "linked/b/plugin.json is the same file as linked/a/plugin.json (through a symbolic link): one descriptor, taken as linked/a/plugin.json\n",
    );
    expect(r.stdout).toContain(
      "linked/c/plugin.json is the same file as linked/a/plugin.json (through a symbolic link): one descriptor, taken as linked/a/plugin.json\n",
    );
    expect(r.stdout).not.toMatch(/duplicate-plugin-name/);
    expect(r.status).toBe(0);
    // Named both ways: the first named; in JSON and SARIF once too, the note on stderr.
    const json = cli(["check", "--format", "json", "linked/b/plugin.json", "linked/a/plugin.json"], dir);
    expect((JSON.parse(json.stdout) as { file: string }[]).map((f) => f.file)).toEqual([
      "linked/b/plugin.json",
    ]);
    expect(json.stderr).toBe(
      "plugin-review: linked/a/plugin.json is the same file as linked/b/plugin.json (through a symbolic link): one descriptor, taken as linked/b/plugin.json\n",
    );
    const sarif = cli(["check", "--format", "sarif", "linked", "linked/c"], dir);
    const runs = (JSON.parse(sarif.stdout) as { runs: { results: unknown[] }[] }).runs;
    expect(runs[0]!.results).toHaveLength(1);
  });

  it("with --base-ref, a file named is checked even when a folder argument before it found it too", () => {
    const repo = join(dir, "named-after");
    write("named-after/a/plugin.json", text(validHost()));
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
    git("init", "-q");
    git("add", ".");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "base");
    const named = cli(["check", "--base-ref", "HEAD", "a/plugin.json"], repo);
    expect(named.stdout).toMatch(/1 descriptor checked/);
    const after = cli(["check", "--base-ref", "HEAD", ".", "a/plugin.json"], repo);
    expect(after.stdout).toMatch(/1 descriptor checked/);
    expect(after.stdout).not.toMatch(/unchanged/);
    expect(after.status).toBe(0);
  });

  it("with --base-ref, a broken link the change leaves alone is neither read nor failed, as the App would not", () => {
    const repo = join(dir, "broken-unchanged");
    write("broken-unchanged/a/plugin.json", text(validHost()));
    mkdirSync(join(repo, "b"));
    symlinkSync("gone.json", join(repo, "b", "plugin.json"));
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
    git("init", "-q");
    git("add", ".");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "base");
    write(
      "broken-unchanged/a/plugin.json",
      text({ ...validHost(), version: "1.2.1", requiredAgentVersion: "1.102.0" }),
    );
    const r = cli(["check", "--base-ref", "HEAD", "."], repo);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/1 descriptor checked: no findings/);
    expect(r.status).toBe(0);
  });

  it("exits 2 for a directory without descriptors and for a glob that matches nothing", () => {
    mkdirSync(join(dir, "empty"), { recursive: true });
    const r = cli(["check", join(dir, "empty")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no descriptors found under/);
    const g = cli(["check", "nothing/**/*.json"]);
    expect(g.status).toBe(2);
    expect(g.stderr).toMatch(/no files match 'nothing\/\*\*\/\*\.json'/);
  });

  it("a glob that names node_modules searches it, as a folder argument naming it walks it; one that does not, says so", () => {
    write("vendored/node_modules/p/plugin.json", text(validHost()));
    for (const args of [["vendored/node_modules/*/plugin.json"], ["vendored/node_modules"]]) {
      const r = cli(["check", ...args], dir);
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(/1 descriptor checked: no findings/);
      expect(r.status).toBe(0);
    }
    const wild = cli(["check", "vendored/*/*/plugin.json"], dir);
    expect(wild.stderr).toBe(
      "plugin-review: no files match 'vendored/*/*/plugin.json' (node_modules and .git folders are searched only where it names them)\n",
    );
    expect(wild.status).toBe(2);
  });

  it("expands globs", () => {
    const r = cli(["check", "--format", "json", "examples/*-valid/plugin.json"]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it("exits 2 on usage errors", () => {
    expect(cli(["check", "--bogus", "x"]).status).toBe(2);
    expect(cli(["check"]).stderr).toMatch(/no files given/);
    expect(cli(["check", "--format", "xml", "examples"]).stderr).toMatch(
      /--format must be one of text, json, sarif, github/,
    );
    expect(cli(["frobnicate"]).stderr).toMatch(/unknown command 'frobnicate'/);
    expect(cli(["check", "a.json", "b.json", "--base", "c.json"]).status).toBe(2);
    expect(cli([]).status).toBe(2);
    expect(cli(["--help"]).stdout).toMatch(/^Usage: plugin-review <command>/);
    expect(cli(["check", "--help"]).stdout).toMatch(/^Usage: plugin-review check/);
  });

  it("reports a 50 MB file as too large without reading it, exit 1", () => {
    const big = write("big/plugin.json", Buffer.alloc(50 * 1024 * 1024, 0x20));
    const r = cli(["check", "--format", "json", big]);
    expect(r.status).toBe(1);
    const [f] = JSON.parse(r.stdout) as { ruleId: string; message: string; line: number }[];
    expect(f).toMatchObject({ ruleId: "file-too-large", line: 1 });
    expect(f!.message).toMatch(/52,428,800 bytes, over the limit of 5,242,880 bytes/);
  });

  it.skipIf(process.platform === "win32")(
    "a pipe over the limit, read no further: says it is over the limit, never a size it does not know",
    () => {
      const config = write("pipe-size/limit.yml", "max_file_size: 100\n");
      const piped = " ".repeat(1000);
      const file = write("pipe-size/plugin.json", piped);
      const runs = {
        stdin: cli(["check", "--format", "json", "--config", config, "--stdin"], dir, {}, piped),
        // A file that is a pipe (process substitution), run by bash: `$1` the configuration, `$2` the file.
        pipe: ((r) => ({ status: r.status, stdout: r.stdout, stderr: r.stderr }))(
          spawnSync(
            "bash",
            [
              "-c",
              `"$0" "$BIN" check --format json --config "$1" <(cat "$2")`,
              process.execPath,
              config,
              file,
            ],
            { encoding: "utf8", env: { ...process.env, BIN }, timeout: 60_000 },
          ),
        ),
        file: cli(["check", "--format", "json", "--config", config, file], dir),
      };
      const only = (r: Run) => {
        expect([r.status, r.stderr]).toEqual([1, ""]);
        const findings = JSON.parse(r.stdout) as { ruleId: string; messageId: string; message: string }[];
        expect(findings.map((f) => f.ruleId)).toEqual(["file-too-large"]);
        return findings[0]!;
      };
      for (const r of [runs.stdin, runs.pipe])
        expect(only(r)).toMatchObject({
          messageId: "tooLargeRead",
          message:
            "the input is over the limit of 100 bytes (`max_file_size`), read no further; it was not reviewed",
        });
      // A file's size is known: it is said.
      expect(only(runs.file)).toMatchObject({
        messageId: "tooLarge",
        message:
          "the file is 1,000 bytes, over the limit of 100 bytes (`max_file_size`); it was not reviewed",
      });
    },
  );

  it("reports binary garbage as invalid JSON at the first bad byte", () => {
    const p = write("bin/plugin.json", Buffer.from([0x7b, 0x0a, 0x20, 0xff, 0xfe, 0x00, 0x01]));
    const r = cli(["check", "--format", "json", p]);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([
      expect.objectContaining({
        ruleId: "invalid-json",
        line: 2,
        column: 2,
        message: expect.stringMatching(/not valid UTF-8/),
      }),
    ]);
  });

  it("applies --config: severities, off, ignore and fail_on", () => {
    const cfg = write("cfg/off.yml", "rules:\n  invalid-json: warning\nfail_on: error\n");
    const r = cli(["check", "--config", cfg, "examples/mistakes/invalid-json"]);
    expect(r.status).toBe(0);
    expect(findingLines(r.stdout)).toMatch(/warning +invalid-json/);
    const strict = write("cfg/strict.yml", "fail_on: notice\n");
    expect(cli(["check", "--config", strict, "examples/host-valid"]).status).toBe(0);
    const ignore = write("cfg/ignore.yml", 'ignore:\n  - paths: ["examples/mistakes/**"]\n');
    const ig = cli(["check", "--config", ignore, "examples/mistakes"]);
    expect(ig.stdout).toMatch(/no findings/);
    expect(ig.status).toBe(0);
  });

  it("reads .github/plugin-review.yml from the working directory by default", () => {
    const repo = join(dir, "defaultcfg");
    write("defaultcfg/.github/plugin-review.yml", "rules:\n  invalid-json: off\n");
    write("defaultcfg/p/plugin.json", "{ nope");
    const r = cli(["check", "p"], repo);
    expect(r.stdout).toMatch(/no findings/);
    expect(r.status).toBe(0);
  });

  it("exits 2 with every problem of an invalid configuration", () => {
    const bad = write("cfg/bad.yml", "fail_on: sometimes\nrules:\n  unknown-membr: off\nextra: 1\n");
    const r = cli(["check", "--config", bad, "examples/host-valid"]);
    expect(r.status).toBe(2);
    // Every problem in one run, each with its line: not one class of problem at a time.
    expect(r.stderr).toMatch(/line 1, column 10: fail_on: "sometimes" is not one of/);
    expect(r.stderr).toMatch(/line 3, column 3: rules: unknown rule id `unknown-membr`/);
    expect(r.stderr).toMatch(/line 4, column 1: \(top level\): unknown key `extra`/);
    expect(r.stderr).not.toMatch(STACK);
    const typo = write("cfg/typo.yml", "rules:\n  unknown-membr: off\n");
    expect(cli(["check", "--config", typo, "examples/host-valid"]).stderr).toMatch(
      /unknown rule id `unknown-membr` \(did you mean `unknown-member`\?\)/,
    );
    const yaml = write("cfg/yaml.yml", "rules: [\n");
    expect(cli(["check", "--config", yaml, "examples/host-valid"]).stderr).toMatch(/line \d+, column \d+/);
    expect(cli(["check", "--config", "missing.yml", "examples/host-valid"]).stderr).toMatch(
      /cannot read configuration 'missing.yml'/,
    );
  });
});

describe("plugin-review check: what a file holds reaches no terminal as a control", () => {
  /** Control characters but the line breaks between our lines. */
  const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/; // eslint-disable-line no-control-regex
  const HOSTILE_KEY =
    "x\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007\u001b[2J\u001b[31m\r\n::error title=pwned::owned\u0000";

  it("text, github and stderr: no escape sequence or control character of the file's, no line of its own", () => {
    const path = write("controls/\u001b[1mbold/plugin.json", text({ ...validHost(), [HOSTILE_KEY]: 1 }));
    for (const format of ["text", "github"]) {
      const r = cli(["check", "--format", format, path], dir, { NO_COLOR: "1" });
      expect(r.status).toBe(0); // an unknown member is a warning
      expect(r.stdout, format).toMatch(/unknown member/);
      expect(r.stdout, format).not.toMatch(CONTROL);
      // Every line is one of ours: the key's line break started none (and, as a workflow command, none a command).
      const commands = r.stdout.split("\n").filter((l) => l.startsWith("::"));
      expect(
        commands.every((l) => /^::warning file=.*,title=unknown-member::/.test(l)),
        format,
      ).toBe(true);
      expect(r.stdout).not.toMatch(/^::error title=pwned/m);
    }
    // A configuration's key quoted in its error, on standard error.
    write("controls/cfg/.github/plugin-review.yml", `${JSON.stringify(HOSTILE_KEY)}: 1\n`);
    const d = write("controls/cfg/plugin.json", text(validHost()));
    const bad = cli(["check", d], join(dir, "controls/cfg"));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown key/);
    expect(bad.stderr).not.toMatch(CONTROL);
    expect(bad.stderr).not.toMatch(/^::/m);
  });

  it("json and sarif, on stdout and with --output: the file's C1 controls and invisible marks escaped, not printed", () => {
    // A C1 CSI (`\x9b`, as `\x1b[`), a C1 OSC, a line separator and a right-to-left override: JSON.stringify
    // escapes none of them, and a terminal showing the report acts on the first two.
    const key = "x\u009b2J\u009d0;title\u009c\u2028y\u202egnp.json";
    const path = write("controls-json/plugin.json", text({ ...validHost(), [key]: 1 }));
    const raw = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    for (const format of ["json", "sarif"]) {
      const report = join(dir, `controls-json/report.${format}`);
      const r = cli(["check", "--format", format, "--output", `${format}=${report}`, path], dir);
      expect(r.status, format).toBe(0); // an unknown member is a warning
      for (const out of [r.stdout, readFileSync(report, "utf8")]) {
        expect(out, format).not.toMatch(raw);
        // Escaped, so read back whole: the message still names the member as the file spells it.
        expect(out, format).toContain("\\u009b2J\\u009d0;title\\u009c\\u2028y\\u202egnp.json");
        expect(JSON.stringify(JSON.parse(out)), format).toContain(key);
      }
    }
  });
});

describe("plugin-review check: a folder whose name holds a line break (git and GitHub allow one)", () => {
  it("is searched like any other: its descriptor is reviewed, its ignore globs apply, and it starts no line", () => {
    const hostile = "plugins/a\n::error title=pwned::x\r\u2028y/plugin.json";
    write(`breaks/${hostile}`, text({ ...validHost(), unknownThing: 1 }));
    write("breaks/plugins/ok/plugin.json", text({ ...validHost(), name: "custom.python.ok" }));
    write(
      "breaks/legacy/b\nc/plugin.json",
      text({ ...validHost(), name: "custom.python.old", unknownThing: 1 }),
    );
    write(
      "breaks/.github/plugin-review.yml",
      'ignore:\n  - paths: ["legacy/**"]\n    rules: [unknown-member]\n',
    );
    const json = cli(["check", "--format", "json", "."], join(dir, "breaks"));
    expect(json.stderr).toBe("");
    const found = (JSON.parse(json.stdout) as { file: string; ruleId: string }[]).map((f) => [
      f.file,
      f.ruleId,
    ]);
    expect(found).toEqual([[hostile, "unknown-member"]]);
    expect(json.status).toBe(0);
    for (const format of ["text", "github"]) {
      const r = cli(["check", "--format", format, "."], join(dir, "breaks"));
      expect(r.stdout, format).toMatch(/unknown member/);
      expect(r.stdout, format).not.toMatch(/^::error title=pwned/m);
      expect(r.stdout, format).toMatch(/3 descriptors/);
    }
  });
});

describe("plugin-review check --base-ref", () => {
  let repo: string;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" }).toString();

  beforeAll(() => {
    repo = join(dir, "repo");
    mkdirSync(repo, { recursive: true });
    git("init", "-q", "-b", "main");
    git("config", "user.email", "t@example.com");
    git("config", "user.name", "t");
    const host = validHost();
    writeFileSync(join(repo, "keep.json"), "{}");
    mkdirSync(join(repo, "a"));
    mkdirSync(join(repo, "untouched"));
    writeFileSync(join(repo, "a", "plugin.json"), text(host));
    writeFileSync(join(repo, "untouched", "plugin.json"), text({ ...host, name: "custom.python.untouched" }));
    git("add", ".");
    git("commit", "-q", "-m", "base");
    // Change a/ without a version bump and move it to b/; add a new plugin without metricGroup.
    const changed = { ...host, ui: {} };
    mkdirSync(join(repo, "b"));
    git("mv", "a/plugin.json", "b/plugin.json");
    writeFileSync(join(repo, "b", "plugin.json"), text(changed));
    mkdirSync(join(repo, "new"));
    const fresh: Record<string, unknown> = { ...host, name: "custom.python.fresh" };
    delete fresh.metricGroup;
    writeFileSync(join(repo, "new", "plugin.json"), text(fresh));
  });

  it("compares changed descriptors with the ref, following renames; added files have no base", () => {
    const r = cli(["check", "--base-ref", "main", "--format", "json", "."], repo);
    const findings = JSON.parse(r.stdout) as { file: string; ruleId: string; severity: string }[];
    expect(findings.map((f) => [f.file, f.ruleId, f.severity])).toEqual([
      ["b/plugin.json", "version-not-bumped", "error"],
      ["new/plugin.json", "metric-group-missing", "error"],
    ]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/1 descriptor unchanged since main was not checked/);
  });

  it("defaults to the whole work tree and explains unknown refs", () => {
    expect(cli(["check", "--base-ref", "main"], repo).stdout).toMatch(/version-not-bumped/);
    const r = cli(["check", "--base-ref", "no-such-branch"], repo);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/'no-such-branch' is not a commit, branch or tag/);
  });

  it("--base-ref HEAD before the first commit: every descriptor is added (pre-commit's first commit)", () => {
    const fresh = mkdtempSync(join(tmpdir(), "plugin-review-unborn-"));
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: fresh });
    const host: Record<string, unknown> = validHost();
    delete host.metricGroup;
    mkdirSync(join(fresh, "p"));
    writeFileSync(join(fresh, "p", "plugin.json"), text(host));
    execFileSync("git", ["add", "."], { cwd: fresh });
    for (const args of [
      ["--base-ref", "HEAD"],
      ["--base-ref", "HEAD", "--config-from-base"],
    ]) {
      const r = cli(["check", ...args, "--format", "json"], fresh);
      expect(r.stderr).toMatch(/HEAD names no commit yet/);
      // Added, so no base: a missing metricGroup is an error, as for any added file.
      expect(JSON.parse(r.stdout)).toMatchObject([
        { file: "p/plugin.json", ruleId: "metric-group-missing", severity: "error", baseline: "new" },
      ]);
      expect(r.status).toBe(1);
    }
    // The configuration as HEAD has it: none yet, named as the command line names the ref.
    expect(cli(["check", "--base-ref", "HEAD", "--config-from-base"], fresh).stdout).toMatch(
      /configuration: none \(HEAD has no \.github\/plugin-review\.yml: built-in defaults\)/,
    );
    // Any other ref still has to name a commit.
    expect(cli(["check", "--base-ref", "main"], fresh).status).toBe(2);
    rmSync(fresh, { recursive: true, force: true });
  });

  it("explains when it is not run in a git work tree", () => {
    const outside = mkdtempSync(join(tmpdir(), "plugin-review-nogit-"));
    writeFileSync(join(outside, "plugin.json"), readFileSync("examples/host-valid/plugin.json"));
    const r = cli(["check", "--base-ref", "main", "plugin.json"], outside);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/needs a git work tree/);
    rmSync(outside, { recursive: true, force: true });
  });
});

describe("plugin-review check --fix / --fix-dry-run", () => {
  /** A descriptor with a version to bump (against `base`), a unit in the wrong case and a misspelt member. */
  function broken(name: string, eol = "\n") {
    const base = validHost();
    const head = structuredClone(base) as ReturnType<typeof validHost> & {
      metrics: { timeseries: Record<string, unknown> }[];
    };
    head.requiredAgentVersion = "1.300";
    const ts = head.metrics[0]!.timeseries;
    ts.unit = String(ts.unit).toUpperCase();
    head.metrics[0]!.timeseries = Object.fromEntries(
      Object.entries(ts).map(([k, v]) => [k === "displayname" ? "displaynam" : k, v]),
    );
    head.type = "pyton"; // `python` would be a guess (edit distance): reported, never applied
    write(`${name}/base.json`, text(base).replace(/\n/g, eol));
    const headPath = write(`${name}/plugin.json`, text(head).replace(/\n/g, eol).slice(0, -eol.length));
    // Relative paths, as an author types them (the diff's file names are the ones given).
    return {
      basePath: `${name}/base.json`,
      headPath,
      head: `${name}/plugin.json`,
      before: readFileSync(headPath, "utf8"),
    };
  }

  it("--fix-dry-run prints a unified diff that git apply accepts, and writes nothing", () => {
    const { basePath, headPath, head, before } = broken("dry", "\r\n");
    const r = cli(["check", "--fix-dry-run", "--base", basePath, head], dir);
    expect(readFileSync(headPath, "utf8")).toBe(before);
    expect(r.stdout).toMatch(/^--- a\/dry\/plugin\.json\n\+\+\+ b\/dry\/plugin\.json\n@@ /);
    expect(r.stdout).toMatch(/^- {2}"version": "1\.2\.0",\r$/m);
    expect(r.stdout).toMatch(/^\+ {2}"version": "1\.2\.1",\r$/m);
    // A misspelt member's likely name is a suggestion: never applied.
    expect(r.stdout).not.toMatch(/"displayname"/);
    expect(r.stderr).toMatch(/--fix-dry-run: 2 fixes in 1 file would be applied; nothing was written/);
    expect(r.status).toBe(1); // what --fix would leave (`pyton`) still fails
    // The diff is a real patch: applying it gives what --fix writes.
    const patch = join(dir, "dry.patch");
    writeFileSync(patch, r.stdout);
    execFileSync("git", ["apply", "--unsafe-paths", "-p1", `--directory=${dir.slice(1)}`, patch], {
      cwd: "/",
    });
    const applied = readFileSync(headPath, "utf8");
    writeFileSync(headPath, before);
    const w = cli(["check", "--fix", "--base", basePath, head], dir);
    expect(readFileSync(headPath, "utf8")).toBe(applied);
    expect(w.status).toBe(1);
  });

  it("--fix edits in place byte for byte outside the fixes, then reports what is left", () => {
    const { basePath, headPath, before } = broken("write");
    const r = cli(["check", "--fix", "--base", basePath, headPath], dir);
    const after = readFileSync(headPath, "utf8");
    expect(after).toBe(
      before
        .replace('"version": "1.2.0"', '"version": "1.2.1"')
        .replace(/"unit": "([A-Z]+)"/, (_m, u: string) => `"unit": "${validUnit(u)}"`),
    );
    expect(after.endsWith("}")).toBe(true); // still no final newline
    // Guesses stay for the author: the closest value and the misspelt member's likely name.
    expect(findingLines(r.stdout)).toMatch(/invalid-value .*"pyton"/);
    expect(findingLines(r.stdout)).toMatch(/unknown-member .*`displaynam`.*did you mean `displayname`/);
    expect(r.stdout).not.toMatch(/version-not-bumped/);
    expect(r.stdout).toMatch(/--fix: 2 fixes applied in 1 file\nno finding can be fixed with `--fix`\n$/);
    expect(r.status).toBe(1);
    // Nothing left to fix: a second run changes nothing.
    cli(["check", "--fix", "--base", basePath, headPath], dir);
    expect(readFileSync(headPath, "utf8")).toBe(after);
  });

  it("--fix of a value the base already had wrong: fixed once, the version bumped, each counted once", () => {
    // Fixing `percent` must not bring metric-unit-changed's restore of `percent` back, fix after fix.
    const base = validHost() as ReturnType<typeof validHost> & {
      metrics: { timeseries: { unit: string } }[];
    };
    base.metrics[0]!.timeseries.unit = "percent";
    const basePath = write("cycle/base.json", text(base));
    const headPath = write("cycle/plugin.json", text(base));
    const r = cli(["check", "--fix", "--base", basePath, headPath], dir);
    expect(readFileSync(headPath, "utf8")).toBe(
      text(base).replace('"unit": "percent"', '"unit": "Percent"').replace('"1.2.0"', '"1.2.1"'),
    );
    expect(r.stdout).toMatch(/no findings\n0 new, 0 existing, 1 fixed\n/);
    expect(r.stdout).toMatch(/--fix: 2 fixes applied in 1 file\n$/);
    expect(r.status).toBe(0);
  });

  it("refuses --fix with --fix-dry-run", () => {
    const r = cli(["check", "--fix", "--fix-dry-run", "examples/host-valid"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/either --fix or --fix-dry-run/);
  });
});

/** The allowed unit an upper-cased one came from (the example's units). */
function validUnit(upper: string): string {
  return ["PerSecond", "MilliSecond", "Count", "Percent"].find((u) => u.toUpperCase() === upper) ?? upper;
}

describe("plugin-review check --output", () => {
  it("writes several reports of one review, besides the format on standard output", () => {
    const json = join(dir, "out", "r.json");
    mkdirSync(join(dir, "out"), { recursive: true });
    const r = cli([
      "check",
      "--format",
      "github",
      "--output",
      `json=${json}`,
      "--output",
      `sarif=${join(dir, "out", "r.sarif")}`,
      "--output",
      `text=${join(dir, "out", "r.txt")}`,
      "examples/mistakes/remote-mistakes",
    ]);
    expect(r.status).toBe(1);
    const findings = JSON.parse(readFileSync(json, "utf8")) as { ruleId: string }[];
    const annotations = r.stdout.split("\n").filter((l) => l.startsWith("::"));
    expect(findings.length).toBeGreaterThan(0);
    expect(annotations).toHaveLength(findings.length);
    const sarif = JSON.parse(readFileSync(join(dir, "out", "r.sarif"), "utf8")) as {
      runs: { results: { ruleId: string }[] }[];
    };
    expect(sarif.runs[0]!.results.map((x) => x.ruleId)).toEqual(findings.map((f) => f.ruleId));
    const txt = readFileSync(join(dir, "out", "r.txt"), "utf8");
    expect(txt).toMatch(new RegExp(`✖ ${findings.length} findings`));
    expect(txt).not.toContain("\u001b[");
  });

  it("refuses an output without a known format, or that cannot be written (exit 2)", () => {
    for (const bad of ["r.json", "xml=r.xml", "json=", "=r.json"]) {
      const r = cli(["check", "--output", bad, "examples/host-valid"]);
      expect(r.status, bad).toBe(2);
      expect(r.stderr, bad).toMatch(/--output takes <format>=<file>/);
    }
    const r = cli([
      "check",
      "--output",
      `json=${join(dir, "no", "such", "dir", "r.json")}`,
      "examples/host-valid",
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot write '.*r\.json': no such file or directory/);
    // A folder, a full device, a virtual file system's path: one line in words, nothing on stdout.
    const cases: [string, string][] = [[dir, "it is a directory"]];
    if (existsSync("/dev/full")) cases.push(["/dev/full", "no space left on the device"]);
    if (existsSync("/proc/self")) cases.push(["/proc/plugin-review.json", "no such file or directory"]);
    for (const [file, why] of cases) {
      const bad = cli(["check", "--format", "json", "--output", `sarif=${file}`, "examples/host-valid"]);
      expect(bad.stderr, file).toBe(`plugin-review: cannot write '${file}': ${why}\n`);
      expect(bad.status, file).toBe(2);
      expect(bad.stdout, file).toBe("");
    }
  });
});
