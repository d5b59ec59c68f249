import { describe, expect, it } from "vitest";
import { check, ruleTable, validHost, validRemote, text, lineOf, edit } from "../../helpers.js";

const host = text(validHost());
const remote = text(validRemote());

/** 1-based column (in code points) of the first occurrence of `needle`, computed from the fixture. */
function columnOf(source: string, needle: string): number {
  const at = source.indexOf(needle);
  if (at === -1) throw new Error(`fixture does not contain ${JSON.stringify(needle)}`);
  const lineStart = source.lastIndexOf("\n", at - 1) + 1;
  return [...source.slice(lineStart, at)].length + 1;
}

/** Line and column just past the last character (where a truncated file ends). */
function endOf(source: string): { line: number; column: number } {
  const lines = source.split("\n");
  return { line: lines.length, column: [...(lines[lines.length - 1] ?? "")].length + 1 };
}

const withBom = "\uFEFF" + host;
const withLineComment = edit(host, '  "version"', '  // bumped for the release\n  "version"');
const withBlockComment = edit(host, '  "type"', '  /* python or JMX */ "type"');
const trailingCommaObject = edit(
  host,
  '"activation_name_pattern": "^(?P<app>demo)-\\\\d+$"',
  '"activation_name_pattern": "^(?P<app>demo)-\\\\d+$",',
);
const trailingCommaArray = edit(
  host,
  '"PYTHON"\n  ],\n  "technologies"',
  '"PYTHON",\n  ],\n  "technologies"',
);
const withNaN = edit(host, '"threshold": 100', '"threshold": NaN');
const withInfinity = edit(host, '"threshold": 100', '"threshold": Infinity');
// Cut right after a complete member: the first offending "character" is the end of the file.
const truncated = host.slice(0, host.indexOf('"source"'));
// Cut inside a string value: the error is on the last line.
const truncatedInString = host.slice(0, host.indexOf("DemoPlugin") + 4);
const singleQuotes = edit(host, '"type": "python"', "'type': 'python'");
const unquotedKey = edit(remote, '"favicon":', "favicon:");
const leadingZero = edit(host, '"samples": 5', '"samples": 05');
const missingComma = edit(host, '"version": "1.2.0",', '"version": "1.2.0"');

ruleTable("invalid-json", {
  valid: [
    { name: "the host example", doc: host },
    { name: "the remote example (its favicon URL holds `//`)", doc: remote },
    { name: "minified on one line", doc: JSON.stringify(validHost()) },
    { name: "CRLF line endings", doc: host.replace(/\n/g, "\r\n") },
    { name: "tabs and blank lines as whitespace", doc: host.replace(/\n {2}"/g, '\n\n\t"') },
    {
      name: "comment-like and NaN-like text inside strings",
      doc: edit(host, '"Demo plugin"', '"Demo // NaN /* plugin */"'),
    },
    {
      name: "a BOM escaped inside a string is ordinary text",
      doc: edit(host, '"Demo plugin"', '"\\ufeffDemo plugin"'),
    },
    {
      name: "duplicate keys are valid JSON syntax (duplicate-key reports them)",
      doc: edit(host, '"version": "1.2.0",', '"version": "1.2.0",\n  "version": "1.2.0",'),
    },
    { name: "numbers with exponent and fraction", doc: edit(host, '"threshold": 100', '"threshold": 1.5e2') },
  ],
  invalid: [
    { name: "byte order mark", doc: withBom, lines: [1], message: /byte order mark/, messageId: "syntax" },
    {
      name: "// comment",
      messageId: "syntax",
      doc: withLineComment,
      lines: [lineOf(withLineComment, "//")],
      message: /comments are not allowed/,
    },
    {
      name: "/* */ comment",
      messageId: "syntax",
      doc: withBlockComment,
      lines: [lineOf(withBlockComment, "/*")],
      message: /comments/,
    },
    {
      name: "trailing comma in an object",
      messageId: "syntax",
      doc: trailingCommaObject,
      lines: [lineOf(trailingCommaObject, '\\\\d+$",')],
      message: /trailing comma before `\}`/,
    },
    {
      name: "trailing comma in an array",
      messageId: "syntax",
      doc: trailingCommaArray,
      lines: [lineOf(trailingCommaArray, '"PYTHON",\n  ]')],
      message: /trailing comma before `\]`/,
    },
    {
      name: "NaN",
      doc: withNaN,
      lines: [lineOf(withNaN, "NaN")],
      message: /NaN is not a JSON value/,
      messageId: "syntax",
    },
    {
      name: "Infinity",
      doc: withInfinity,
      lines: [lineOf(withInfinity, "Infinity")],
      message: /Infinity/,
      messageId: "syntax",
    },
    {
      name: "truncated file",
      doc: truncated,
      lines: [endOf(truncated).line],
      message: /truncated/,
      messageId: "syntax",
    },
    {
      name: "truncated inside a string",
      messageId: "syntax",
      doc: truncatedInString,
      lines: [endOf(truncatedInString).line],
      message: /truncated/,
    },
    {
      name: "single quotes",
      messageId: "syntax",
      doc: singleQuotes,
      lines: [lineOf(singleQuotes, "'type'")],
      message: /double quotes/,
    },
    {
      name: "unquoted member name",
      messageId: "syntax",
      doc: unquotedKey,
      lines: [lineOf(unquotedKey, "favicon:")],
      message: /member name in double quotes/,
    },
    {
      name: "leading zero",
      doc: leadingZero,
      lines: [lineOf(leadingZero, "05")],
      message: /leading zeros/,
      messageId: "syntax",
    },
    {
      name: "missing comma",
      messageId: "syntax",
      doc: missingComma,
      lines: [lineOf(missingComma, '"type"')],
      message: /expected `,` or `\}`/,
    },
    { name: "empty file", doc: "", lines: [1], message: /empty/, messageId: "syntax" },
    {
      name: "severity can be changed",
      messageId: "syntax",
      doc: withNaN,
      lines: [lineOf(withNaN, "NaN")],
      severity: "warning",
      options: { config: { rules: { "invalid-json": "warning" } } },
    },
  ],
});

describe("invalid-json: exact position of the first offending character", () => {
  const cases: { name: string; doc: string; line: number; column: number }[] = [
    { name: "BOM", doc: withBom, line: 1, column: 1 },
    {
      name: "// comment",
      doc: withLineComment,
      line: lineOf(withLineComment, "//"),
      column: columnOf(withLineComment, "//"),
    },
    {
      name: "/* comment",
      doc: withBlockComment,
      line: lineOf(withBlockComment, "/*"),
      column: columnOf(withBlockComment, "/*"),
    },
    {
      name: "trailing comma (the comma itself)",
      doc: trailingCommaObject,
      line: lineOf(trailingCommaObject, '\\\\d+$",'),
      column: columnOf(trailingCommaObject, '\\\\d+$",') + '\\\\d+$"'.length,
    },
    {
      name: "trailing comma in an array",
      doc: trailingCommaArray,
      line: lineOf(trailingCommaArray, '"PYTHON",\n  ]'),
      column: columnOf(trailingCommaArray, '"PYTHON",\n  ]') + '"PYTHON"'.length,
    },
    { name: "NaN", doc: withNaN, line: lineOf(withNaN, "NaN"), column: columnOf(withNaN, "NaN") },
    { name: "truncated file (end of the text)", doc: truncated, ...endOf(truncated) },
    {
      name: "single quotes",
      doc: singleQuotes,
      line: lineOf(singleQuotes, "'type'"),
      column: columnOf(singleQuotes, "'type'"),
    },
    {
      name: "leading zero",
      doc: leadingZero,
      line: lineOf(leadingZero, "05"),
      column: columnOf(leadingZero, "05"),
    },
  ];
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const found = check(c.doc).filter((f) => f.ruleId === "invalid-json");
    expect(found).toHaveLength(1);
    expect({ line: found[0]?.line, column: found[0]?.column }).toEqual({ line: c.line, column: c.column });
  });

  it("counts columns in code points after non-ASCII text on the same line", () => {
    const doc = '{ "name": "é😀", NaN }';
    const [f] = check(doc).filter((x) => x.ruleId === "invalid-json");
    expect(f?.line).toBe(1);
    expect(f?.column).toBe(columnOf(doc, "NaN"));
  });

  it("is the only finding: no other rule runs on a file that does not parse", () => {
    const found = check(withLineComment);
    expect(found.map((f) => f.ruleId)).toEqual(["invalid-json"]);
  });

  it("can be turned off, and then nothing is reported for that file", () => {
    expect(check(withNaN, { config: { rules: { "invalid-json": "off" } } })).toEqual([]);
  });
});
