/**
 * Which lines of a file's new version a pull request review can comment on: GitHub accepts a line
 * comment (side RIGHT) only on a line that appears in the diff, i.e. an added or a context line of one
 * of the patch's hunks. Anything else answers 422, so other findings go to the review body.
 */

/** RIGHT-side line numbers present in a unified diff patch (added and context lines). */
export function commentableLines(patch: string | undefined): Set<number> {
  const lines = new Set<number>();
  if (!patch) return lines;
  let right = 0;
  let inHunk = false;
  for (const raw of patch.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      right = Number(header[1]);
      inHunk = true;
      continue;
    }
    if (!inHunk) continue;
    // Added and context lines are on the RIGHT side; removed lines ("-") and "\ No newline at end of
    // file" are not, nor is the empty string after a final newline.
    if (line[0] === "+" || line[0] === " ") lines.add(right++);
  }
  return lines;
}
