import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineIndex } from "../../../src/core/locate.js";
import type { FileFindings } from "../../../src/core/analyse.js";
import type { Finding } from "../../../src/core/types.js";
import { readFingerprint, readFingerprints } from "../../../src/github/review/pull-review/fingerprint.js";
import {
  allAnnotations,
  checkSummary,
  earlierAnnotationsNote,
  checkTitle,
  invalidConfigSummary,
  OUTPUT_LIMIT,
  toAnnotation,
} from "../../../src/github/review/check-run/output.js";
import { BudgetedText } from "../../../src/github/review/markdown.js";
import { commentBody, replaceColumns } from "../../../src/github/review/pull-review/comments.js";
import { check, text, validHost } from "../../helpers.js";
import { liveParts, OWN_HTML, tokens } from "../../markdown.js";

function finding(over: Partial<Finding> = {}): Finding {
  return {
    ruleId: "invalid-value",
    severity: "error",
    message: "m",
    messageId: "notAllowed",
    pointer: "/x",
    target: "value",
    line: 3,
    column: 5,
    endLine: 3,
    endColumn: 9,
    fingerprint: "0123456789abcdef0123456789abcdef",
    ...over,
  };
}

describe("render", () => {
  it("makes annotations with title = rule id, GitHub levels, and columns only on one line", () => {
    expect(toAnnotation("a/plugin.json", finding())).toEqual({
      path: "a/plugin.json",
      start_line: 3,
      end_line: 3,
      start_column: 5,
      end_column: 8,
      annotation_level: "failure",
      title: "invalid-value",
      message: "m",
    });
    const multi = toAnnotation("p", finding({ severity: "notice", endLine: 5 }));
    expect(multi).not.toHaveProperty("start_column");
    expect(multi.annotation_level).toBe("notice");
    expect(toAnnotation("p", finding({ severity: "warning" })).annotation_level).toBe("warning");
  });

  it("puts a suggestion replacing exactly the value, and a fingerprint, in a comment", () => {
    const head = text({ ...validHost() });
    const base = text({ ...validHost(), ui: {} });
    const [f] = check(head, { base }).filter((x) => x.ruleId === "version-not-bumped");
    const line = new LineIndex(head).lineText(f!.line);
    const body = commentBody("p/plugin.json", f!, line, true);
    expect(body).toContain('```suggestion\n  "version": "1.2.1",\n```');
    expect(body).toContain("Suggested fix: bump the version to `1.2.1`.");
    expect(readFingerprint(body)).toBe(f!.fingerprint);
    expect(commentBody("p/plugin.json", f!, line, false)).not.toContain("suggestion");
    // Without the line (one over QUOTED_LINE_MAX is not kept), the finding is still said, with no block.
    expect(commentBody("p/plugin.json", f!, undefined, true)).not.toContain("suggestion");
  });

  it("suggests renaming a misspelt member, as a guess: only its name changes", () => {
    const head = text({ ...validHost(), metricGroup: undefined, metricGrop: "tech.python.demo" });
    const [f] = check(head).filter((x) => x.ruleId === "unknown-member");
    expect(f!.fix).toBeUndefined();
    expect(f!.suggestions).toEqual([
      { replacement: '"metricGroup"', description: "rename to `metricGroup`", target: "key" },
    ]);
    const body = commentBody("p/plugin.json", f!, new LineIndex(head).lineText(f!.line), true);
    expect(body).toContain("A guess (check it before committing it): rename to `metricGroup`?");
    expect(body).toContain('```suggestion\n  "metricGroup": "tech.python.demo"\n```');
  });

  it("fences a suggestion longer than any backtick run in its line; offers none for a line holding `<!--`", () => {
    // A minified descriptor: the suggestion repeats the whole line, member names and all.
    const base = JSON.stringify({ ...validHost(), "x```y @acme/admins": 1 });
    const head = JSON.stringify({ ...validHost(), "x```y @acme/admins": 2 });
    const [f] = check(head, { base }).filter((x) => x.ruleId === "version-not-bumped");
    const body = commentBody("p/plugin.json", f!, head, true);
    const fences = tokens(body).filter((t) => t.type === "fence");
    expect(fences.map((t) => [t.info, t.content])).toEqual([
      ["suggestion", `${head.replace('"1.2.0"', '"1.2.1"')}\n`],
    ]);
    expect(body).toContain("````suggestion\n");
    expect(liveParts(body, { href: () => true, html: OWN_HTML })).toEqual([]);

    const marked = JSON.stringify({
      ...validHost(),
      "<!-- plugin-review:id=deadbeefdeadbeefdeadbeefdeadbeef -->": 2,
    });
    const [g] = check(marked, { base }).filter((x) => x.ruleId === "version-not-bumped");
    const without = commentBody("p/plugin.json", g!, marked, true);
    expect(without).not.toContain("suggestion");
    expect(without).toContain("`version-not-bumped`");
    expect(readFingerprints(without)).toEqual([g!.fingerprint]);
  });

  it("replaces columns by characters, not UTF-16 units", () => {
    expect(replaceColumns('  "x": "😀é", "u": "Percnt"', 19, 27, '"Percent"')).toBe(
      '  "x": "😀é", "u": "Percent"',
    );
  });

  it("keeps the summary under GitHub's 65,535 bytes of UTF-8 when its findings quote names in other scripts", () => {
    // GitHub counts a check run's summary in bytes: each icon is 4, each of these letters 3.
    const many: Finding[] = Array.from({ length: 5000 }, (_, i) =>
      finding({ line: i + 1, message: `metric \`指標${"値".repeat(40)}\` is not allowed here` }),
    );
    const files: FileFindings[] = [{ path: "big/plugin.json", lines: new Map(), findings: many }];
    const s = checkSummary({ files, failed: true, failOn: "error", notes: [], annotationsOmitted: 4000 });
    expect(Buffer.byteLength(s, "utf8")).toBeLessThanOrEqual(OUTPUT_LIMIT);
    const shown = s.split("\n").filter((l) => /^\| 🔴/.test(l)).length;
    expect(shown + Number(/…(\d+) more findings not shown here/.exec(s)?.[1])).toBe(5000);
    expect(s).toMatch(/<\/sub>$/);
  });

  it("keeps the summary under 65,535 characters whatever the number of findings", () => {
    const many: Finding[] = Array.from({ length: 5000 }, (_, i) =>
      finding({ line: i + 1, message: "a long message ".repeat(20) }),
    );
    const files: FileFindings[] = [
      { path: "big/plugin.json", lines: new Map(), findings: many },
      { path: "small/plugin.json", lines: new Map(), findings: [finding({ severity: "warning" })] },
    ];
    const { annotations, omitted } = allAnnotations(files);
    const s = checkSummary({
      files,
      failed: true,
      failOn: "error",
      notes: [],
      annotationsOmitted: omitted,
    });
    expect(s.length).toBeLessThanOrEqual(OUTPUT_LIMIT);
    // The per-descriptor table stays whole; the findings rows shown plus those counted as left out are all of them.
    expect(s).toContain("| `big/plugin.json` | 5000 | 0 | 0 |");
    expect(s).toContain("| `small/plugin.json` | 0 | 1 | 0 |");
    const shown = s.split("\n").filter((l) => /^\| 🔴|^\| 🟡/.test(l)).length;
    const left = Number(/…(\d+) more findings not shown here/.exec(s)?.[1]);
    expect(shown).toBeGreaterThan(50);
    expect(shown + left).toBe(5001);
    // At most 1,000 annotations, errors first, and the summary says how many were left out.
    expect(annotations).toHaveLength(1000);
    expect(omitted).toBe(4001);
    expect(annotations.every((a) => a.annotation_level === "failure")).toBe(true);
    expect(s).toMatch(/4001 findings are not annotated: GitHub shows at most 1,000 annotations/);
    expect(checkTitle(files)).toBe("5000 errors, 1 warning, 0 notices in 2 descriptors");
  });

  it('says "is" of one finding left without an annotation, "are" of more', () => {
    const one = checkSummary({
      files: [],
      failed: false,
      failOn: "error",
      notes: [],
      annotationsOmitted: 1,
    });
    expect(one).toContain(
      "> 1 finding is not annotated: GitHub shows at most 1,000 annotations per check run",
    );
    expect(earlierAnnotationsNote(1, 999)).toMatch(
      /^> 1 more finding is not annotated: this check run keeps 999 annotations/,
    );
    expect(earlierAnnotationsNote(2, 1)).toMatch(
      /^> 2 more findings are not annotated: this check run keeps 1 annotation /,
    );
  });

  it("says when no descriptor changed", () => {
    expect(checkTitle([])).toBe("No descriptors changed");
    expect(checkSummary({ files: [], failed: false, failOn: "error", notes: [] })).toMatch(
      /No descriptors changed/,
    );
  });
});

describe("BudgetedText", () => {
  it("fills its budget to the last character and not one more", () => {
    const out = new BudgetedText(10).add("12345", "1234"); // 5 + newline + 4
    expect(out.toString()).toBe("12345\n1234");
    expect(out.remaining).toBe(0);
    // A full budget takes nothing more: not a line, not its newline (a clip to 0 characters used to keep
    // all but the last character of the line).
    expect(out.add("a long line that does not fit", "").toString()).toBe("12345\n1234");
    // A line that does not fit is never cut (a Markdown line cut inside a code span would leave the rest
    // of its text outside it, rendered): an ellipsis stands in its place where that fits.
    expect(new BudgetedText(11).add("12345", "1234", "xyz").toString()).toBe("12345\n1234");
    expect(new BudgetedText(12).add("12345", "1234", "xyz").toString()).toBe("12345\n1234\n…");
    expect(new BudgetedText(13).add("12345", "1234", "xyz").toString()).toBe("12345\n1234\n…");
    expect(new BudgetedText(0).add("x").toString()).toBe("");
  });

  it("never exceeds its limit, and keeps every line that fits unchanged", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 40, unit: "grapheme" }), { maxLength: 20 }),
        fc.nat(400),
        fc.nat(60),
        (lines, limit, reserve) => {
          const out = new BudgetedText(limit).add(...lines.slice(0, 3));
          out.addItems(lines.slice(3), reserve, (n) => `…and ${n} more`);
          const text = out.toString();
          expect(text.length).toBeLessThanOrEqual(limit);
          expect(out.remaining).toBe(limit - text.length);
          const whole = lines.slice(0, 3).join("\n");
          if (whole.length <= limit) expect(text.startsWith(whole)).toBe(true);
          // No emoji cut in half.
          expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(text)).toBe(false);
        },
      ),
    );
  });

  it("renders items only as far as they fit: 100,000 findings cost the rows shown", () => {
    const rendered: number[] = [];
    const out = new BudgetedText(1_000);
    const items = Array.from({ length: 100_000 }, (_, i) => i);
    const omitted = out.addItems(
      items,
      0,
      (n) => `…and ${n} more`,
      (i) => {
        rendered.push(i);
        return `| row ${i} |`;
      },
    );
    const shown = out
      .toString()
      .split("\n")
      .filter((l) => l.startsWith("| row"));
    expect(omitted).toBe(items.length - shown.length);
    // The rows shown, and the one that did not fit: no more.
    expect(rendered).toEqual(Array.from({ length: shown.length + 1 }, (_, i) => i));
    expect(out.toString()).toMatch(new RegExp(`…and ${omitted} more$`));
  });
});

describe("invalidConfigSummary", () => {
  it("keeps what to do after errors too long for GitHub's limit, and counts the lines left out", () => {
    const errors = Array.from({ length: 5000 }, (_, i) => `  - rules: unknown rule id \`not-a-rule-${i}\``);
    const s = invalidConfigSummary(
      ["invalid configuration o/r:.github/plugin-review.yml:", ...errors].join("\n"),
    );
    expect(s.length).toBeLessThanOrEqual(OUTPUT_LIMIT);
    expect(s).toMatch(/```\n\nFix `\.github\/plugin-review\.yml` on the default branch/);
    // In bytes too, as GitHub counts them: errors quoting names written in other scripts.
    const wide = invalidConfigSummary(errors.map((e) => e.replace("not-a-rule", "規則")).join("\n"));
    expect(Buffer.byteLength(wide, "utf8")).toBeLessThanOrEqual(OUTPUT_LIMIT);
    expect(wide).toMatch(/…and \d+ more lines\n```\n\nFix/);
    const shown = s.split("\n").filter((l) => l.includes("unknown rule id")).length;
    expect(shown + Number(/…and (\d+) more lines/.exec(s)?.[1])).toBe(5000);
    expect(invalidConfigSummary("one problem")).toBe(
      "The configuration is invalid, so the pull request was not reviewed:\n\n```\none problem\n```\n\n" +
        "Fix `.github/plugin-review.yml` on the default branch (or the organisation's `.github` repository); plugin-review never falls back to defaults silently.",
    );
  });
});
