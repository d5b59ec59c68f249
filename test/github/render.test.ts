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

  it("replaces columns by characters, not UTF-16 units", () => {
    expect(replaceColumns('  "x": "😀é", "u": "Percnt"', 19, 27, '"Percent"')).toBe(
      '  "x": "😀é", "u": "Percent"',
    );
  });

  it("keeps the summary under 65,535 characters whatever the number of findings", () => {
    const many: Finding[] = Array.from({ length: 5000 }, (_, i) =>
      finding({ line: i + 1, message: "a long message ".repeat(20) }),
    );
    const reviews: FileReview[] = [{ path: "big/plugin.json", text: "", findings: many }];
    const s = checkSummary({ reviews, failed: true, failOn: "error", notes: [] });
    expect(s.length).toBeLessThanOrEqual(OUTPUT_LIMIT);
    expect(s).toMatch(/more rows are not shown here/);
    expect(allAnnotations(reviews)).toHaveLength(5000);
    expect(checkTitle(reviews)).toBe("5000 errors, 0 warnings, 0 notices in 1 descriptor");
  });

  it("says when no descriptor changed", () => {
    expect(checkTitle([])).toBe("No descriptors changed");
    expect(checkSummary({ reviews: [], failed: false, failOn: "error", notes: [] })).toMatch(
      /No descriptors changed/,
    );
  });
});
