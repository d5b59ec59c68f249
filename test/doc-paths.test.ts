/**
 * Every path of this repository that a Markdown file names exists, so that a reader who follows one finds it:
 * a code span naming a path below one of the repository's folders (`test/examples.test.ts`,
 * `examples/jmx-valid/plugin.json`), and a relative link in any Markdown file (test/docs.test.ts checks the
 * README's and docs/'s links with their headings). A path that git ignores is a build's output, named as such
 * (`editors/vscode/plugin-review.vsix`); `.github/` paths are the user's (`.github/plugin-review.yml`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
  .split("\0")
  .filter(Boolean);
const known = new Set([
  ...tracked,
  ...tracked.flatMap((f) =>
    f
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
]);
/** The repository's own top-level folders, but `.github` (whose paths in the docs are mostly the user's). */
const FOLDERS = new Set(
  tracked.filter((f) => f.includes("/") && !f.startsWith(".github/")).map((f) => f.split("/")[0]!),
);
const PAGES = tracked.filter((f) => f.endsWith(".md"));

const ignored = (path: string) =>
  spawnSync("git", ["check-ignore", "-q", "--no-index", path], { cwd: ROOT }).status === 0;

/** The repository paths a page names in code spans: below a folder of ours, no placeholder in them. */
function named(text: string): string[] {
  const paths = new Set<string>();
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const path = m[1]!.replace(/:\d+(?:-\d+)?$/, "").replace(/\/$/, "");
    if (/[<>*{}$?[\]]/.test(path) || !path.includes("/")) continue;
    if (FOLDERS.has(path.split("/")[0]!)) paths.add(path);
  }
  return [...paths];
}

describe("paths named in Markdown", () => {
  it("reads the repository's own Markdown files", () => {
    expect(PAGES).toEqual(expect.arrayContaining(["README.md", "examples/mistakes/README.md"]));
  });

  it.each(PAGES)("%s names only paths that exist (or that a build writes)", (page) => {
    const missing = named(readFileSync(join(ROOT, page), "utf8")).filter(
      (path) => !known.has(path) && !ignored(path),
    );
    expect(missing).toEqual([]);
  });

  it.each(PAGES)("%s links only to files that exist", (page) => {
    const text = readFileSync(join(ROOT, page), "utf8").replace(/```[\s\S]*?```/g, "");
    const missing: string[] = [];
    for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?|mailto):|^#/.test(link!)) continue;
      const target = normalize(join(dirname(page), link!.split("#")[0]!));
      if (!existsSync(join(ROOT, target))) missing.push(link!);
    }
    expect(missing).toEqual([]);
  });
});
