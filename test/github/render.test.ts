import { describe, expect, it } from "vitest";
import type { FileReview } from "../../src/core/review.js";
import type { Finding } from "../../src/core/types.js";
import { fingerprint, readFingerprint } from "../../src/github/fingerprint.js";
import {
  allAnnotations,
  checkSummary,
  checkTitle,
  commentBody,
  OUTPUT_LIMIT,
  replaceColumns,
  toAnnotation,
} from "../../src/github/render.js";
import { check, text, validHost } from "../helpers.js";

function finding(over: Partial<Finding> = {}): Finding {
  return {
    ruleId: "invalid-value",
    severity: "error",
    message: "m",
    pointer: "/x",
    target: "value",
    line: 3,
    column: 5,
    endLine: 3,
    endColumn: 9,
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
    const body = commentBody("p/plugin.json", f!, head, true);
    expect(body).toContain('```suggestion\n  "version": "1.2.1",\n```');
    expect(readFingerprint(body)).toBe(fingerprint("version-not-bumped", "p/plugin.json", "/version"));
    expect(commentBody("p/plugin.json", f!, head, false)).not.toContain("suggestion");
  });

  it("suggests renaming a misspelt member: only its name changes", () => {
    const head = text({ ...validHost(), metricGroup: undefined, metricGrop: "tech.python.demo" });
    const [f] = check(head).filter((x) => x.ruleId === "unknown-member");
    expect(f!.fix).toMatchObject({ replacement: '"metricGroup"', target: "key" });
    const body = commentBody("p/plugin.json", f!, head, true);
    expect(body).toContain('```suggestion\n  "metricGroup": "tech.python.demo"\n```');
  });

  it("replaces columns by characters, not UTF-16 units", () => {
    expect(replaceColumns('  "x": "😀é", "u": "Percnt"', 19, 27, '"Percent"')).toBe(
      '  "x": "😀é", "u": "Percent"',
    );
  });

  it("keeps the summary under 65,535 characters whatever the number of findings", () => {
    const many: Finding[] = Array.from({ length: 5000 }, (_, i) =>
      finding({ line: i + 1, message: "a long message ".repeat(20) }),
    );
    const reviews: FileReview[] = [
      { path: "big/plugin.json", text: "", findings: many },
      { path: "small/plugin.json", text: "", findings: [finding({ severity: "warning" })] },
    ];
    const { annotations, omitted } = allAnnotations(reviews);
    const s = checkSummary({
      reviews,
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
    expect(checkTitle(reviews)).toBe("5000 errors, 1 warning, 0 notices in 2 descriptors");
  });

  it("says when no descriptor changed", () => {
    expect(checkTitle([])).toBe("No descriptors changed");
    expect(checkSummary({ reviews: [], failed: false, failOn: "error", notes: [] })).toMatch(
      /No descriptors changed/,
    );
  });
});
