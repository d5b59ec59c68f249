import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/core/types.js";
import { problemOf, reviewEntries } from "../../src/github/repeated.js";

const f = (ruleId: string, message: string, line: number): Finding => ({
  ruleId,
  severity: "warning",
  message,
  pointer: `/x/${line}`,
  target: "key",
  line,
  column: 1,
  endLine: line,
  endColumn: 2,
});

describe("repeated findings", () => {
  it("one problem: same rule and message once positions, indices and quoted names are set aside", () => {
    const a = f(
      "unknown-member",
      "unknown member `displayName` in `ui.charts[3].series[0]`: did you mean `displayname`?",
      3,
    );
    const b = f(
      "unknown-member",
      "unknown member `displayName` in `ui.charts[7].series[1]`: did you mean `displayname`?",
      9,
    );
    const c = f("unknown-member", "unknown member `colour` in `ui.charts[7]` (known members: …)", 9);
    expect(problemOf(a)).toBe(problemOf(b));
    expect(problemOf(a)).not.toBe(problemOf(c));
    expect(problemOf(a)).not.toBe(problemOf({ ...b, ruleId: "invalid-format" }));
  });

  it("more than three of one problem become one entry at the first; three or fewer stay apart", () => {
    const four = [1, 2, 3, 4].map((n) =>
      f("invalid-format", `\`metrics[${n}].timeseries.key\` is "a.${n}"`, n * 10),
    );
    const three = [5, 6, 7].map((n) => f("required-member", `\`metrics[${n}]\` is missing \`unit\``, n * 10));
    const entries = reviewEntries([four[0]!, three[0]!, ...four.slice(1), ...three.slice(1)]);
    expect(entries.map((e) => (e.kind === "one" ? e.finding.line : e.findings.map((x) => x.line)))).toEqual([
      [10, 20, 30, 40],
      50,
      60,
      70,
    ]);
  });
});
