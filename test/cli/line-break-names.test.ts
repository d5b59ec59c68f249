/**
 * Names from the user or a repository that hold a line break or an escape sequence (a folder `a\nb`, an option's
 * value), run as a user runs the CLI: every error and every file name is printed on one line, escaped
 * (`a\nb`), in every format; a space instead would name another file, and a line of its own could pass for
 * the tool's (or, in GitHub Actions, for a workflow command).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { text, validHost } from "../helpers.js";
import { cli, ensureBuilt, findingLines } from "./run.js";

let dir: string;
const FOLDER = "a\nb";
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-line-break-"));
  mkdirSync(join(dir, FOLDER));
  const doc = validHost() as { metrics: { timeseries: { unit: string } }[] };
  doc.metrics[0]!.timeseries.unit = "Bogus";
  writeFileSync(join(dir, FOLDER, "plugin.json"), text(doc));
  writeFileSync(join(dir, FOLDER, "broken.json"), "{ not json");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a name with a line break", () => {
  it("is one line, escaped, in an error, in every format", () => {
    for (const format of ["text", "json", "sarif", "github"]) {
      const r = cli(["check", "--format", format, `${FOLDER}/nope.json`], dir);
      expect(r.status, format).toBe(2);
      expect(r.stderr, format).toBe(
        "plugin-review: cannot read 'a\\nb/nope.json': no such file or directory\n",
      );
      expect(r.stdout, format).toBe("");
    }
  });

  it("names its file on one line in the text output, and as the runner reads it in workflow commands", () => {
    const r = cli(["check", `${FOLDER}/plugin.json`], dir);
    expect(r.status).toBe(1);
    expect(r.stdout.split("\n")[0]).toBe("a\\nb/plugin.json");
    const github = cli(["check", "--format", "github", `${FOLDER}/plugin.json`], dir);
    expect(github.stdout).toMatch(/^::error file=a%0Ab\/plugin\.json,line=/m);
  });

  it("is one line, escaped, in migrate's reasons and in its usage error", () => {
    const broken = cli(["migrate", `${FOLDER}/broken.json`], dir);
    expect(broken.status).toBe(2);
    expect(broken.stderr.split("\n").slice(0, 2)).toEqual([
      "plugin-review: a\\nb/broken.json: not converted:",
      expect.stringMatching(/^ {2}line 1: .*JSON/),
    ]);
    const r = cli(["migrate", `${FOLDER}/nope.json`], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("plugin-review: cannot read 'a\\nb/nope.json': no such file or directory\n");
  });

  it("is one line, escaped, in a mistake on the command line (an option's value, pr's target)", () => {
    const format = cli(["check", "--format", "x\n\x1b[31mred", "plugin.json"], dir);
    expect(format.status).toBe(2);
    expect(format.stderr).toBe(
      "plugin-review: --format must be one of text, json, sarif, github, not 'x\\n\\x1b[31mred'\n" +
        "Run 'plugin-review check --help' for the options.\n",
    );
    const pr = cli(["pr", "o/r#1\n::error::forged"], dir, { GITHUB_TOKEN: "" });
    expect(pr.status).toBe(2);
    expect(pr.stderr).toBe(
      "plugin-review: expected <owner>/<repo>#<number>, not 'o/r#1\\n::error::forged'\n",
    );
  });
});

describe("a path quoted in a finding's message", () => {
  // Two descriptors sharing a name, one in a folder named with a line break, one with an escape sequence:
  // each one's duplicate-plugin-name finding quotes the other's path.
  const BREAK = "p\nq";
  const ESCAPE = "r\x1b[31ms";
  let shared: string;
  beforeAll(() => {
    shared = mkdtempSync(join(tmpdir(), "plugin-review-message-path-"));
    for (const folder of [BREAK, ESCAPE]) {
      mkdirSync(join(shared, folder));
      writeFileSync(join(shared, folder, "plugin.json"), text(validHost()));
    }
    writeFileSync(join(shared, BREAK, "fixture.yaml"), "name: x\n");
  });
  afterAll(() => rmSync(shared, { recursive: true, force: true }));
  const args = [`${BREAK}/plugin.json`, `${ESCAPE}/plugin.json`];

  it("is escaped in the text output, as the file's name is, not made a space or taken away", () => {
    const r = cli(["check", ...args], shared);
    expect(r.status).toBe(1);
    const findings = findingLines(r.stdout).split("\n");
    expect(findings).toEqual([
      expect.stringMatching(
        /^p\\nq\/plugin\.json:\d+:\d+ error duplicate-plugin-name .* is also used by `r\\x1b\[31ms\/plugin\.json`;/,
      ),
      expect.stringMatching(
        /^r\\x1b\[31ms\/plugin\.json:\d+:\d+ error duplicate-plugin-name .* is also used by `p\\nq\/plugin\.json`;/,
      ),
    ]);
    // No character of a file's controls reaches the terminal.
    expect(r.stdout).not.toContain("\u001b");
  });

  it("is escaped in github annotations' messages, and the real string in JSON", () => {
    const github = cli(["check", "--format", "github", ...args], shared);
    const annotations = github.stdout.split("\n").filter((l) => l.startsWith("::"));
    expect(annotations).toEqual([
      expect.stringMatching(
        /^::error file=p%0Aq\/plugin\.json,.*::.* is also used by `r\\x1b\[31ms\/plugin\.json`;/,
      ),
      expect.stringMatching(/^::error file=[^,]*,.*::.* is also used by `p\\nq\/plugin\.json`;/),
    ]);
    const json = JSON.parse(cli(["check", "--format", "json", ...args], shared).stdout) as {
      file: string;
      message: string;
    }[];
    expect(json.map((f) => [f.file, f.message])).toEqual([
      [`${BREAK}/plugin.json`, expect.stringContaining(`also used by \`${ESCAPE}/plugin.json\``)],
      [`${ESCAPE}/plugin.json`, expect.stringContaining(`also used by \`${BREAK}/plugin.json\``)],
    ]);
  });

  it("is escaped in the notes below the findings, on stdout (text) and on stderr (json)", () => {
    const note =
      "p\\nq/fixture.yaml was read as a plugin.json: only a file named extension.yaml is an extension";
    const r = cli(["check", `${BREAK}/fixture.yaml`], shared);
    expect(r.stdout).toContain(note);
    const json = cli(["check", "--format", "json", `${BREAK}/fixture.yaml`], shared);
    expect(json.stderr).toContain(`plugin-review: ${note}`);
  });
});
