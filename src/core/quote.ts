/**
 * A value quoted as code in the core's plain text, where backticks quote code: the fence is longer than any
 * backtick run inside, padded where the value starts or ends with one (CommonMark's rule), so that a reader
 * of that convention (src/format/markdown.ts `quotedText`) takes it back whole, whatever backticks it holds.
 * A path, a dimension or a name from a descriptor is quoted so: with a bare pair of backticks its own
 * backticks would end the quote, and its words after them would read as the message's (the App's).
 */
export function quote(s: string): string {
  if (s === "") return "` `";
  // Most values hold no backtick and do not start with a space: one backtick each side (what the rule below gives).
  if (s.charCodeAt(0) !== 32 && !s.includes("`")) return "`" + s + "`";
  const fence = "`".repeat(longestRun(s) + 1);
  return /^`|`$/.test(s) || /^ [^]*[^ ][^]* $/.test(s) ? `${fence} ${s} ${fence}` : `${fence}${s}${fence}`;
}

/** The longest run of backticks in `s` (a loop: a value may hold more runs than a call takes arguments). */
export function longestRun(s: string): number {
  let longest = 0;
  for (const run of s.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return longest;
}
