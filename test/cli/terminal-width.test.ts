/**
 * What the CLI prints for people fits the terminal, as a user sees it: every command's help, migrate's
 * summaries and check's lines below its findings are broken between words at `COLUMNS` (80 when nothing says
 * the width: a pipe, a file), and say the same words at any width.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, type Run } from "./run.js";

beforeAll(() => ensureBuilt());

const HELPS: string[][] = [
  ["--help"],
  ["help"],
  ...["check", "pr", "audit", "migrate", "lsp"].flatMap((c) => [
    [c, "--help"],
    ["help", c],
  ]),
];

/** The lines of a run's output longer than `width` characters. */
function tooWide(r: Run, width: number): string[] {
  return (r.stdout + r.stderr).split("\n").filter((l) => [...l].length > width);
}

/** The words of a text, whatever its line breaks. */
const words = (s: string) => s.split(/\s+/).filter(Boolean);

describe("--help", () => {
  it.each(HELPS.map((args): [string, string[]] => [args.join(" "), args]))(
    "%s: within 80 columns at COLUMNS=80, and at 80 when COLUMNS is unset",
    (_, args) => {
      for (const env of [{ COLUMNS: "80" }, {}]) {
        const r = cli(args, undefined, env);
        expect(r.status).toBe(0);
        expect(r.stdout).toMatch(/^Usage: plugin-review /);
        expect(tooWide(r, 80)).toEqual([]);
      }
    },
  );

  it("fits a narrower terminal, and says the same words at any width, its rows still aligned", () => {
    for (const args of HELPS) {
      const narrow = cli(args, undefined, { COLUMNS: "60" });
      const wide = cli(args, undefined, { COLUMNS: "200" });
      expect(tooWide(narrow, 60), args.join(" ")).toEqual([]);
      expect(tooWide(wide, 100), args.join(" ")).toEqual([]);
      expect(words(narrow.stdout), args.join(" ")).toEqual(words(wide.stdout));
    }
    // An option's description starts in one column, and continues in it.
    const check = cli(["check", "--help"], undefined, { COLUMNS: "80" }).stdout.split("\n");
    const at = check.findIndex((l) => l.startsWith("  --base-ref <git-ref>"));
    expect(check[at]).toMatch(/^ {2}--base-ref <git-ref> {3}in a git work tree: /);
    expect(check[at + 1]).toMatch(/^ {25}\S/);
  });

  it("the overview printed on a mistake fits too", () => {
    for (const args of [[], ["frobnicate"]]) {
      const r = cli(args, undefined, { COLUMNS: "80" });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/Usage: plugin-review <command>/);
      expect(tooWide(r, 80)).toEqual([]);
    }
  });
});

describe("summaries", () => {
  it("migrate's one-line summary breaks at COLUMNS (80 unset), and is one line on a wide terminal", () => {
    const dir = mkdtempSync(join(tmpdir(), "plugin-review-width-"));
    try {
      for (const env of [{ COLUMNS: "80" }, {}]) {
        const r = cli(["migrate", "examples/jmx-valid/plugin.json", "--out", dir], undefined, env);
        expect(r.status).toBe(0);
        // A line that names one written (or, the second time, `unchanged`) file: a path no width breaks.
        expect(tooWide(r, 80).filter((l) => !/^ {2}(wrote|unchanged) \S+$/.test(l))).toEqual([]);
        expect(r.stdout).toMatch(
          /^examples\/jmx-valid\/plugin\.json: custom:tech\.demo\.pool 1\.7\.0 \(JMX\): 4 metrics in\n {4}2 subgroups/,
        );
      }
      const wide = cli(["migrate", "examples/jmx-valid/plugin.json", "--out", dir], undefined, {
        // The summary with its dashboard is some 210 characters.
        COLUMNS: "240",
      });
      expect(wide.stdout).toMatch(
        /^examples\/jmx-valid\/plugin\.json: custom:.*, 2 to do by hand\n {2}(wrote|unchanged) /,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("check's lines below its findings (the configuration it used) fit COLUMNS=80", () => {
    const r = cli(["check", "examples/mistakes/remote-mistakes"], undefined, { COLUMNS: "80" });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      /^configuration: none \(no \.github\/plugin-review\.yml found walking up from the\n {2}files: built-in defaults\)$/m,
    );
    expect(tooWide(r, 80)).toEqual([]);
  });
});
