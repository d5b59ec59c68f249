/**
 * Text read from a file (a message quoting a member name, a path, a configuration value) made safe to print
 * on a terminal or in a workflow log: an escape sequence in a descriptor must not recolour, retitle, clear or
 * link the user's terminal, and a line break in a value must not start a line of its own (a fake "no
 * findings", or a workflow command in GitHub Actions, which reads `::` only at the start of a line).
 */

/**
 * What a terminal acts on: CSI and OSC sequences whole (7-bit and C1 forms, the OSC up to its terminator),
 * then any other C0 or C1 control character and DEL.
 */
const SEQUENCES =
  // eslint-disable-next-line no-control-regex -- control characters are what these find
  /\x1b\[[0-?]*[ -/]*[@-~]?|\x9b[0-?]*[ -/]*[@-~]?|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?/g;
/** Line breaks and tabs (and the C1 and Unicode line breaks): a space keeps the words on either side apart. */
const BREAKS = /[\t\n\v\f\r\x85\u2028\u2029]/g;
/** And the invisible marks that reorder what a terminal or an editor shows ("Trojan Source"), and the BOM. */
// eslint-disable-next-line no-control-regex -- the same
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
/** Whether there is anything to take away or replace (most text has nothing). */
// eslint-disable-next-line no-control-regex -- the same
const ANY = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

/** The marks that reorder what is shown: a right-to-left override makes "evil\u202egnp.json" read "evilnosj.png". */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text without its bidirectional marks, its line breaks kept (a web page shows it as it is, in its order). */
export function withoutBidi(s: string): string {
  return s.replace(BIDI, "");
}

/** Whether `printable` would change `s`. */
export function isPrintable(s: string): boolean {
  return !ANY.test(s);
}

/** One value as one line: no escape sequence, no control character; line breaks and tabs become spaces. */
export function printable(s: string): string {
  if (!ANY.test(s)) return s;
  return s.replace(SEQUENCES, "").replace(BREAKS, " ").replace(CONTROLS, "");
}

/** The escapes `escaped` writes for the commonest controls; any other is `\xNN` or `\uNNNN`. */
const ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * A name given by the user or read from a repository (a path, an option's value) as one line that still says
 * what it holds: each control character, line break and invisible mark written as an escape (`a\nb`,
 * `\x1b[31m`, `\u202e`), as git and ls quote such names. `printable` would make the line break a space, naming
 * another file.
 */
export function escaped(s: string): string {
  if (!ANY.test(s)) return s;
  return s.replace(new RegExp(ANY.source, "g"), (c) => {
    const code = c.charCodeAt(0);
    return (
      ESCAPES[c] ??
      (code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`)
    );
  });
}

/**
 * What `JSON.stringify` leaves as it is inside a string and a terminal may act on or reorder: DEL, the C1
 * controls (`\x9b` is a CSI, as `\x1b[`), the Unicode line breaks, the invisible marks and the BOM.
 */
const JSON_RAW = /[\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * `JSON.stringify` for a report the CLI prints (`--format json`, `sarif`): those characters written as `\uNNNN`
 * escapes too, which a JSON reader takes back as the same string, so that no control of a file's reaches a
 * terminal showing the report (JSON.stringify escapes only U+0000 to U+001F).
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    JSON_RAW,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Text whose line breaks are ours (LF or CRLF), each line made printable. */
export function printableLines(s: string): string {
  return s.split(/\r?\n/).map(printable).join("\n");
}
