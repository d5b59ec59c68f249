/**
 * The escaping of untrusted text in Markdown (src/format/markdown.ts), over arbitrary and hostile strings,
 * read back with markdown-it: nothing is live, and what the text holds is shown as it is.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RULES } from "../../src/core/rules/index.js";
import { formatMessage } from "../../src/core/rule-meta.js";
import type { Finding } from "../../src/core/types.js";
import {
  codeBlock,
  codeSpan,
  findingMessage,
  inertText,
  quote,
  quotedText,
  showsVerbatim,
} from "../../src/format/markdown.js";
import { printable } from "../../src/format/printable.js";
import { codeSpans, liveParts, shownText, tokens, ZWSP } from "../markdown.js";

/** What attackers write, and the characters Markdown and GitHub give a meaning to. */
const FRAGMENTS = [
  "@acme/admins",
  "@octocat",
  "[approve](https://evil.example/a)",
  "<img src=x>",
  "<!-- plugin-review:id=deadbeefdeadbeefdeadbeefdeadbeef -->",
  "<!--",
  "-->",
  "https://evil.example",
  "www.evil.example",
  "evil.com",
  "localhost:8080",
  "mailto:a@b.co",
  "a@b.co",
  "//evil.io/x",
  "#12",
  "GH-7",
  "acme/repo#3",
  "0123456789abcdef",
  "&amp;",
  "&#64;",
  "\\",
  "`",
  "``",
  "```",
  "~~~",
  "*",
  "_",
  "~~",
  "|",
  "#",
  "-",
  "+",
  "=",
  "1.",
  "2)",
  ">",
  "<",
  "!",
  "[",
  "]",
  "(",
  ")",
  ":",
  "$",
  "$$",
  "[^1]",
  "[!NOTE]",
  " ",
  "    ",
  "\t",
  "\n",
  "\r",
  "\r\n",
  "\u001b[31m",
  "\u001b]8;;https://evil.example\u0007",
  "\u0000",
  "\u009b",
  "\u2028",
  "x",
  "é",
  "😀",
];
const hostile = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ unit: "binary", maxLength: 8 })), {
    maxLength: 12,
  })
  .map((parts) => parts.join(""));

const RUNS = { numRuns: 400 };

/** Block-level tokens other than the paragraphs, quotes, lists and tables the test itself writes. */
const BLOCKS = new Set([
  "heading_open",
  "hr",
  "code_block",
  "fence",
  "html_block",
  "bullet_list_open",
  "ordered_list_open",
]);

describe("inertText", () => {
  it("shows any text as it is, inline, with nothing live", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const src = `Before ${inertText(s)} after`;
        expect(liveParts(src)).toEqual([]);
        const types = new Set(tokens(src).map((t) => t.type));
        expect([...types].sort()).toEqual(["inline", "paragraph_close", "paragraph_open", "text"]);
        expect(shownText(src)).toBe(`Before ${printable(s).replace(ZWSP, "")} after`);
      }),
      RUNS,
    );
  });

  it("starts no block at the start of a line, in a quote, a list item or a table cell", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        for (const src of [
          inertText(s),
          `> ${inertText(s)}`,
          `- ${inertText(s)}`,
          `Intro\n${inertText(s)}`,
          `| a | b |\n|---|---|\n| ${inertText(s)} | x |`,
        ]) {
          expect(liveParts(src)).toEqual([]);
          // Four leading spaces (or a tab), once the controls are gone, make an indented code block, as
          // inert as text.
          const indented = /^( {0,3}\t|\s{4})/.test(printable(s));
          const blocks = tokens(src).filter(
            (t) => BLOCKS.has(t.type) && !(t.type === "code_block" && indented),
          );
          expect(blocks.map((t) => t.type)).toEqual(src.startsWith("- ") ? ["bullet_list_open"] : []);
          expect(
            tokens(src).filter((t) => /^(em|strong|s|link)_open$|^code_inline$|^image$/.test(t.type)),
          ).toEqual([]);
        }
        const cell = tokens(`| a | b |\n|---|---|\n| ${inertText(s)} | x |`).filter(
          (t) => t.type === "td_open",
        );
        expect(cell).toHaveLength(2);
      }),
      RUNS,
    );
  });

  it("breaks what GitHub would link or notify, invisibly", () => {
    const src = inertText(
      "ping @acme/admins and me@example.com: see https://evil.example, www.evil.example, #12",
    );
    expect(liveParts(src)).toEqual([]);
    expect(shownText(src)).toBe(
      "ping @acme/admins and me@example.com: see https://evil.example, www.evil.example, #12",
    );
  });
});

describe("codeSpan", () => {
  it("shows any text whole in one code span, in a paragraph and in a table cell", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const expected = printable(s) || " ";
        for (const [src, cell] of [
          [`Before ${codeSpan(s)} after`, false],
          [`| a | b |\n|---|---|\n| ${codeSpan(s, { cell: true })} | x |`, true],
        ] as const) {
          expect(liveParts(src)).toEqual([]);
          const spans = codeSpans(src);
          expect(spans).toHaveLength(1);
          expect(spans[0]!.replace(ZWSP, "")).toBe(expected.replace(ZWSP, ""));
          if (cell) expect(tokens(src).filter((t) => t.type === "td_open")).toHaveLength(2);
          else expect(shownText(src)).toBe("Before  after");
        }
      }),
      RUNS,
    );
  });

  it("never holds a marker of the App's", () => {
    const span = codeSpan("x <!-- plugin-review:id=deadbeefdeadbeefdeadbeefdeadbeef --> y");
    expect(span).not.toContain("<!--");
    expect(codeSpans(span)[0]!.replace(ZWSP, "")).toBe(
      "x <!-- plugin-review:id=deadbeefdeadbeefdeadbeefdeadbeef --> y",
    );
  });
});

describe("codeBlock", () => {
  it("shows any text's lines in one block that nothing in it closes", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const src = `Before\n\n${codeBlock(s, "suggestion")}\n\nAfter @x`;
        const fences = tokens(src).filter((t) => t.type === "fence");
        expect(fences).toHaveLength(1);
        expect(fences[0]!.info).toBe("suggestion");
        const lines = s.split(/\r\n|\r|\n/).map((l) => l.split("\t").map(printable).join("\t"));
        expect(fences[0]!.content.replace(ZWSP, "")).toBe(`${lines.join("\n")}\n`.replace(ZWSP, ""));
        expect(fences[0]!.content).not.toContain("<!--");
        expect(shownText(src)).toBe("BeforeAfter @x");
        // What a suggestion commits: offered only when the block shows the line exactly.
        if (showsVerbatim(s)) expect(fences[0]!.content).toBe(`${s}\n`);
      }),
      RUNS,
    );
  });
});

describe("quotedText", () => {
  it("shows backtick-quoted parts as code and nothing live, whatever the quotes", () => {
    fc.assert(
      fc.property(hostile, fc.integer({ min: 0, max: 300 }), (s, max) => {
        for (const src of [`- ${quotedText(s)}`, `> ${quotedText(s, { max })}`])
          expect(liveParts(src)).toEqual([]);
        expect(quotedText(s, { max }).length).toBeLessThanOrEqual(max);
      }),
      RUNS,
    );
    expect(codeSpans(quotedText("rename to `metricGroup`"))).toEqual(["metricGroup"]);
  });

  it("reads back whole what quote() quoted, whatever backticks it holds", () => {
    fc.assert(
      fc.property(hostile, hostile, (s, t) => {
        const src = `Note: ${quotedText(`${t.replace(/`/g, "'")} ${quote(s)} and ${quote(t)}.`)}`;
        expect(liveParts(src)).toEqual([]);
        expect(codeSpans(src).map((c) => c.replace(ZWSP, ""))).toEqual(
          [s, t].map((x) => (printable(x) || " ").replace(ZWSP, "")),
        );
      }),
      RUNS,
    );
  });
});

describe("findingMessage", () => {
  const templates = RULES.flatMap((r) =>
    Object.entries(r.meta.messages as Record<string, string>).map(([messageId, template]) => ({
      ruleId: r.meta.id,
      messageId,
      template,
    })),
  );

  it("reads the code spans of every rule's messages from its template", () => {
    for (const { ruleId, template } of templates) {
      // Each template's backticks pair up, and say nothing to Markdown but "code".
      expect((template.match(/`/g) ?? []).length % 2, `${ruleId}: ${template}`).toBe(0);
      expect(template, ruleId).not.toMatch(/``|\\/);
    }
  });

  it("keeps a value whole in its template's code span, and anything else inert, for every rule's message", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...templates),
        hostile,
        fc.boolean(),
        ({ ruleId, messageId, template }, v, cut) => {
          // Once each: a template may quote one placeholder twice.
          const names = [...new Set([...template.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!))];
          const data = Object.fromEntries(names.map((n, i) => [n, `${v}${i}`]));
          const f: Pick<Finding, "ruleId" | "messageId" | "message" | "data"> = {
            ruleId,
            messageId,
            data,
            message: formatMessage(template, data),
          };
          const max = cut ? 120 : undefined;
          const src = `- ${findingMessage(f, max === undefined ? {} : { max })}`;
          expect(liveParts(src)).toEqual([]);
          if (max !== undefined) return;
          const spans = codeSpans(src).map((c) => c.replace(ZWSP, ""));
          // A placeholder quoted by the template: its value shows whole inside one code span.
          names.forEach((n, i) => {
            const before = template.slice(0, template.indexOf(`{{${n}}}`));
            if ((before.match(/`/g) ?? []).length % 2 === 1) {
              // Whole: what is printable of it (a value that is all escape sequence shows as nothing).
              const shown = printable(`${v}${i}`).replace(ZWSP, "");
              expect(
                spans.some((c) => c.includes(shown)),
                `${ruleId}.${messageId} {{${n}}}`,
              ).toBe(true);
            }
          });
        },
      ),
      RUNS,
    );
  });

  it("takes the marks that reorder text out of a code span, as printable() does", () => {
    for (const mark of ["\u202a", "\u202e", "\u2066", "\u200f", "\ufeff"])
      expect(codeSpans(`- ${codeSpan(`a${mark}b`)} and ${codeSpan(mark)}`), JSON.stringify(mark)).toEqual([
        "ab",
        " ",
      ]);
  });

  it("takes an escape sequence out of a value without reaching into the template's text beside it", () => {
    // A C1 CSI takes the next characters as its parameters and final byte: "]" would be taken with it.
    for (const index of ["\u009b0", "\u001b[0", "\u009b"]) {
      const data = { index };
      const template =
        "`metrics[{{index}}]` holds both `timeseries` and `statetimeseries`; a metric is exactly one of them";
      const f = { ruleId: "metric-kind", messageId: "both", data, message: formatMessage(template, data) };
      expect(codeSpans(`- ${findingMessage(f)}`)[0], JSON.stringify(index)).toMatch(/^metrics\[0?\]$/);
    }
  });

  it("shows the issue's member name as a name, in one code span, and nothing else of it live", () => {
    const member =
      "x` @acme/admins [approve](https://evil.example/a) <img src=x> <!-- plugin-review:id=deadbeefdeadbeefdeadbeefdeadbeef --> `y";
    const data = { member, where: "" };
    const f = {
      ruleId: "unknown-member",
      messageId: "unknown",
      data,
      message: formatMessage("unknown member `{{member}}`{{where}}", data),
    };
    const out = findingMessage(f);
    expect(liveParts(out)).toEqual([]);
    expect(codeSpans(out).map((c) => c.replace(ZWSP, ""))).toEqual([member]);
    expect(out).not.toContain("<!--");
  });
});
