import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commentableLines } from "../../../../src/github/review/pull-review/commentable-lines.js";

/** A real unified diff, as GitHub's `patch` field carries it: git's output without the file header. */
function gitPatch(before: string, after: string): string {
  const dir = mkdtempSync(join(tmpdir(), "patch-"));
  try {
    writeFileSync(join(dir, "a"), before);
    writeFileSync(join(dir, "b"), after);
    let out = "";
    try {
      execFileSync("git", ["diff", "--no-index", "--no-color", "-U3", "a", "b"], { cwd: dir });
    } catch (e) {
      out = String((e as { stdout: Buffer }).stdout); // exit 1: the files differ
    }
    return out.slice(out.indexOf("@@"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const lines = (n: number, f = (i: number) => `line ${i}`) =>
  Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";

describe("commentableLines", () => {
  it("counts added and context lines on the right side, not removed ones", () => {
    const patch = gitPatch(
      lines(10),
      lines(10, (i) => (i === 5 ? "changed 5" : `line ${i}`)),
    );
    expect(patch).toMatch(/^@@ -2,7 \+2,7 @@/);
    expect([...commentableLines(patch)]).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });

  it("follows several hunks and shifted numbering", () => {
    const before = lines(40);
    const after = lines(40, (i) => (i === 3 ? "x\ny\nline 3" : i === 30 ? "changed 30" : `line ${i}`));
    const patch = gitPatch(before, after);
    expect(patch.match(/^@@/gm)).toHaveLength(2);
    const c = commentableLines(patch);
    // First hunk: two lines added before line 3; second hunk: line 30 is now line 32.
    expect([3, 4, 32].every((l) => c.has(l))).toBe(true);
    expect(c.has(1) && c.has(6) && c.has(29) && c.has(35)).toBe(true);
    expect(c.has(10) || c.has(25)).toBe(false);
  });

  it("handles a file that is entirely new, and a removed line at the end", () => {
    const patch = gitPatch("", lines(3));
    expect([...commentableLines(patch)]).toEqual([1, 2, 3]);
    const shrink = gitPatch(lines(5), lines(4));
    expect([...commentableLines(shrink)]).toEqual([2, 3, 4]);
  });

  it("ignores the `\\ No newline at end of file` marker", () => {
    const patch = gitPatch("a\nb\nc", "a\nb\nc\nd");
    expect(patch).toContain("\\ No newline at end of file");
    expect([...commentableLines(patch)]).toEqual([1, 2, 3, 4]);
  });

  it("returns nothing without a patch (binary or too large a diff)", () => {
    expect(commentableLines(undefined).size).toBe(0);
    expect(commentableLines("").size).toBe(0);
  });

  it("tolerates CRLF files", () => {
    const patch = gitPatch("a\r\nb\r\n", "a\r\nB\r\n");
    expect([...commentableLines(patch)]).toEqual([1, 2]);
  });
});
