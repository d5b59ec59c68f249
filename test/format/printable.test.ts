/**
 * What the CLI prints of a file (printable.ts) and the workflow commands of `--format github`: no escape
 * sequence or control character of the file's reaches a terminal, and no line of the file's starts a
 * command in GitHub Actions.
 */
import { stripVTControlCharacters } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AnalysedFile } from "../../src/core/analyse.js";
import type { Finding } from "../../src/core/types.js";
import { formatGithub } from "../../src/format/github.js";
import { formatJson } from "../../src/format/json.js";
import { jsonText, printable, printableLines } from "../../src/format/printable.js";
import { formatSarif } from "../../src/format/sarif.js";
import { formatText } from "../../src/format/text.js";

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/; // eslint-disable-line no-control-regex
/** The same, but the line breaks between lines. */
const CONTROL_IN_LINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/; // eslint-disable-line no-control-regex
const anything = fc.string({ unit: "binary", maxLength: 60 });
/** What a terminal acts on or shows reordered: controls, Unicode line breaks, invisible marks and the BOM. */
const RAW_IN_JSON =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/; // eslint-disable-line no-control-regex

describe("printable", () => {
  it("leaves no control character, keeps everything else, and takes escape sequences whole", () => {
    fc.assert(
      fc.property(anything, (s) => {
        const p = printable(s);
        expect(p).not.toMatch(CONTROL);
        expect(p.length).toBeLessThanOrEqual(s.length);
      }),
    );
    expect(printable("a\u001b[31mred\u001b[0m b")).toBe("ared b");
    expect(printable("\u001b]8;;https://evil.example\u0007link\u001b]8;;\u001b\\ text")).toBe("link text");
    expect(printable("\u009b2Jcleared")).toBe("cleared");
    expect(printable("one\ntwo\r\nthree\ttab\u2028sep")).toBe("one two  three tab sep");
    expect(printable("é 😀 ✔")).toBe("é 😀 ✔");
    // What reorders the text a terminal or an editor shows ("Trojan Source"), and a BOM: gone too.
    expect(printable("user\u202e\u2066nimda\u2069\u200f\ufeff")).toBe("usernimda");
    expect(printableLines("a\u001b[1m\nb\r\nc")).toBe("a\nb\nc");
  });
});

function finding(message: string): Finding {
  return {
    ruleId: "unknown-member",
    severity: "warning",
    message,
    messageId: "unknown",
    pointer: "/x",
    target: "key",
    line: 2,
    column: 3,
    endLine: 2,
    endColumn: 9,
    fingerprint: "0123456789abcdef0123456789abcdef",
  };
}

describe("the formats that go to a terminal or a workflow log", () => {
  it("github: one command per finding, whatever the message and path hold", () => {
    fc.assert(
      fc.property(anything, anything, (message, path) => {
        const files: AnalysedFile[] = [
          { path, text: "", lines: new Map(), findings: [finding(message), finding(message)] },
        ];
        const out = formatGithub(files, (p) => p);
        const lines = out.trimEnd().split(/\r\n|\r|\n/);
        expect(lines).toHaveLength(3);
        expect(
          lines
            .slice(0, 2)
            .every((l) =>
              /^::warning file=[^:,]*,line=2,endLine=2,col=3,endColumn=9,title=unknown-member::/.test(l),
            ),
        ).toBe(true);
        expect(lines[2]).toMatch(/^plugin-review: 1 descriptor checked/);
        for (const l of lines) expect(l).not.toMatch(CONTROL);
      }),
    );
  });

  it("text: the file's path, messages and notes with their controls escaped; the colours ours", () => {
    const files: AnalysedFile[] = [
      {
        path: "a\u001b[2J/plugin.json",
        text: "",
        lines: new Map(),
        findings: [finding("unknown member `\u001b[31mx\n✔ no findings`")],
      },
    ];
    const plain = formatText(files, (p) => p, {
      colour: false,
      notes: ["note \u001b]0;title\u0007\nmore"],
    });
    expect(plain).not.toMatch(CONTROL_IN_LINE);
    // The file's name escaped, so that it names that file: `a\x1b[2J`, as text, never the sequence.
    expect(plain).toContain("a\\x1b[2J/plugin.json");
    // A message and a note likewise: what they quote from a file is escaped, not taken away or made a space.
    expect(plain).toContain("unknown member `\\x1b[31mx\\n✔ no findings`");
    expect(plain).toContain("note \\x1b]0;title\\x07\\nmore");
    const coloured = formatText(files, (p) => p, { colour: true });
    expect(stripVTControlCharacters(coloured)).not.toMatch(CONTROL_IN_LINE);
  });
});

describe("the JSON reports (--format json, sarif; pr, audit and migrate's JSON)", () => {
  it("jsonText: every control and invisible mark escaped, the value read back the same", () => {
    fc.assert(
      fc.property(fc.jsonValue(), anything, (value, s) => {
        for (const v of [value, { s, [s]: [s] }]) {
          const out = jsonText(v, 2);
          expect(out).not.toMatch(RAW_IN_JSON);
          expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(v)));
        }
      }),
    );
    expect(jsonText({ k: "a\u009b2J\u202eb\u2028c\u007f" })).toBe(
      '{"k":"a\\u009b2J\\u202eb\\u2028c\\u007f"}',
    );
  });

  it("json and sarif: a message quoting a C1 control, a line separator or a bidi mark prints none", () => {
    const message = "unknown member `x\u009b2J\u009d0;t\u009c\u2028y\u202egnp.json\u007f`";
    const files: AnalysedFile[] = [
      { path: "a\u202eb/plugin.json", text: "", lines: new Map(), findings: [finding(message)] },
    ];
    const json = formatJson(files, (p) => p);
    expect(json).not.toMatch(RAW_IN_JSON);
    expect((JSON.parse(json) as { file: string; message: string }[])[0]).toMatchObject({
      file: "a\u202eb/plugin.json",
      message,
    });
    const sarif = formatSarif(files, (p) => p, "0.0.0");
    expect(sarif).not.toMatch(RAW_IN_JSON);
    const run = (JSON.parse(sarif) as { runs: { results: { message: { text: string } }[] }[] }).runs[0]!;
    expect(run.results[0]!.message.text).toContain("x\u009b2J\u009d0;t\u009c\u2028y\u202egnp.json\u007f");
  });
});
