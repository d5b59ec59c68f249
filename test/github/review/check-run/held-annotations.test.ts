import { describe, expect, it } from "vitest";
import type { Annotation, HeldAnnotation } from "../../../../src/github/api/port.js";
import { annotationsToAdd } from "../../../../src/github/review/check-run/held-annotations.js";

const sent = (line: number, more: Partial<Annotation> = {}): Annotation => ({
  path: "p/plugin.json",
  start_line: line,
  end_line: line + 1,
  annotation_level: "failure",
  title: "version-format",
  message: "not a version",
  ...more,
});

/** What GitHub lists for an annotation the App sent: columns null where none were sent, and its extra fields. */
const listed = (a: Annotation): HeldAnnotation & { blob_href: string; raw_details: null } => ({
  ...a,
  start_column: a.start_column ?? null,
  end_column: a.end_column ?? null,
  blob_href: "https://github.com/o/r/blob/c/p/plugin.json",
  raw_details: null,
});

describe("annotationsToAdd: what a run holding other annotations still lacks", () => {
  it("matches on every field GitHub lists back, columns null where none were sent", () => {
    const one = sent(3, { start_line: 3, end_line: 3, start_column: 5, end_column: 9 });
    const two = sent(7);
    const plan = annotationsToAdd([one, two], [listed(two), listed(one)]);
    expect(plan).toEqual({ send: [], omitted: 0, earlier: 0 });
  });

  it("an annotation that differs in its level, message or place is not held", () => {
    const wanted = [sent(1), sent(2), sent(3)];
    const held = [
      listed(sent(1, { annotation_level: "notice" })),
      listed(sent(2, { message: "Existing finding: not a version" })),
      listed(sent(3, { start_column: 1, end_column: 2 })),
    ];
    expect(annotationsToAdd(wanted, held)).toEqual({ send: wanted, omitted: 0, earlier: 3 });
  });

  it("each held annotation stands for one wanted: an annotation wanted twice and held once is sent once", () => {
    const twice = sent(4);
    expect(annotationsToAdd([twice, sent(5), twice], [listed(twice)])).toEqual({
      send: [sent(5), twice],
      omitted: 0,
      earlier: 0,
    });
  });

  it("what the run holds counts towards the cap; the first missing (in the result's order) are sent", () => {
    const wanted = [1, 2, 3, 4, 5].map((l) => sent(l));
    const held = [listed(wanted[1]!), listed(sent(90)), listed(sent(91))];
    expect(annotationsToAdd(wanted, held, 5)).toEqual({
      send: [wanted[0], wanted[2]],
      omitted: 2,
      earlier: 2,
    });
    expect(annotationsToAdd(wanted, [...held, listed(sent(92)), listed(sent(93))], 5)).toEqual({
      send: [],
      omitted: 4,
      earlier: 4,
    });
  });
});
