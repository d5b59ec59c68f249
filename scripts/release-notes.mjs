#!/usr/bin/env node
/**
 * Prints the CHANGELOG.md section of a release, for its GitHub release's notes:
 *
 *   node scripts/release-notes.mjs v0.1.0
 *
 * The section is the one headed `## [0.1.0]` (Keep a Changelog), up to the next `## ` heading. Exit status 1
 * when CHANGELOG.md has no such section or it is empty: a release is not made without its notes.
 */
import { readFileSync } from "node:fs";

const tag = process.argv[2];
if (!tag || process.argv.length > 3) {
  process.stderr.write("usage: node scripts/release-notes.mjs v<version>\n");
  process.exit(2);
}
const version = tag.replace(/^v/, "");
const changelog = readFileSync(new URL("../CHANGELOG.md", import.meta.url), "utf8");
const lines = changelog.split("\n");
const start = lines.findIndex((l) => l.startsWith(`## [${version}]`));
const end = start < 0 ? -1 : lines.findIndex((l, i) => i > start && l.startsWith("## "));
const body =
  start < 0
    ? ""
    : lines
        .slice(start + 1, end < 0 ? undefined : end)
        .join("\n")
        .trim();
if (!body) {
  process.stderr.write(`CHANGELOG.md has no section "## [${version}]" with notes for ${tag}\n`);
  process.exit(1);
}
process.stdout.write(body + "\n");
