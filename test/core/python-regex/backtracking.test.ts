import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findCatastrophicBacktracking } from "../../../src/core/python-regex/backtracking.js";
import { parsePythonRegex } from "../../../src/core/python-regex/parse.js";

function risk(pattern: string) {
  const r = parsePythonRegex(pattern);
  if (!r.ok) throw new Error(`${pattern}: ${r.error.message}`);
  return findCatastrophicBacktracking(r.ast);
}

/** [pattern, message fragment, index of the outer quantified construct] */
const RISKY: [string, string, number][] = [
  ["(a+)+", "nested quantifier: `(a+)+` can backtrack exponentially on a near-miss input", 0],
  ["(a*)*", "nested quantifier: `(a*)*`", 0],
  ["^(\\w+\\s?)*$", "nested quantifier: `(\\w+\\s?)*`", 1],
  ["(?:a|b+)*", "nested quantifier: `(?:a|b+)*`", 0],
  ["x(?:(?:a+)b?)*", "inner `a+`", 1],
  ["(\\s*\\w+)*", "nested quantifier", 0],
  ["(.*,)*", "nested quantifier", 0],
  ["(a+){11}", "nested quantifier", 0],
  ["(a{1,20})*", "nested quantifier", 0],
  ["(?P<x>[a-z]+\\d*)+!", "nested quantifier", 0],
  ["(?=(a+)+)", "nested quantifier", 3],
  ["(a|a)*", "repeated alternation with overlapping branches: `(a|a)*`", 0],
  ["(a|ab)*", "`a` and `ab` can start with the same character", 0],
  ["(\\w|\\d)+", "`\\w` and `\\d` can start", 0],
  ["^(?:foo|bar|baz)+$", "`bar` and `baz`", 1],
  ["(?s)(?:.|\\n)*", "repeated alternation", 4],
  ["([a-f]|[e-z])*", "repeated alternation", 0],
  ["(?i)(a|A)*", "repeated alternation", 4],
  ["(?i:é|É)+", "repeated alternation", 0],
  ["(x|\\d|[^a])+", "repeated alternation", 0],
];

const SAFE = [
  "^java.*$",
  "^(tomcat|jboss)-\\d+$",
  "[a-z]+\\.log",
  "(abc)+",
  "\\d+\\.\\d+",
  "(a|b)*",
  ".*foo.*",
  "(ab+c)+",
  "(x+y+)+",
  "^(\\d+\\.)*\\d+$",
  "([a-z]+\\.)+com",
  "(a+){2}",
  "(a{20})*",
  "(a|A)*",
  "(é|É)+",
  "(\\d|[^\\d])*",
  "(\\d|\\s)+",
  "((a)\\2)*",
  "(?:(?=a+)a)*",
  "(?:(?!a*)b)+",
  "^/opt/app/bin/(server|worker)(\\.exe)?$",
  "(?i)^(?:[a-z0-9_-]+/)*python[23]?$",
  "^(\\w+)=(\\w+)(,\\w+=\\w+)*$",
  "(a*b)*",
  "(?:.|\\n)*", // `.` does not match a newline without (?s)
  "(?a)(\\w|é)*",
];

describe("findCatastrophicBacktracking", () => {
  it.each(RISKY)("flags %j", (pattern, fragment, index) => {
    const r = risk(pattern);
    expect(r?.message).toContain(fragment);
    expect(r?.index).toBe(index);
  });

  it.each(SAFE)("does not flag %j", (pattern) => {
    expect(risk(pattern)).toBeNull();
  });

  it("reports the outermost construct", () => {
    expect(risk("x((a+)+)+")).toMatchObject({ index: 1 });
  });

  it("shortens long constructs in the message", () => {
    const r = risk(`(a+${"b?".repeat(50)})+`);
    expect(r?.message).toContain("...");
    expect(r?.message.length).toBeLessThan(300);
  });

  it("never throws on any parsed pattern", () => {
    const tokens = [
      "a",
      "b",
      "é",
      "(",
      ")",
      "(?:",
      "(?=",
      "(?<=a)",
      "|",
      "*",
      "+",
      "?",
      "{2,}",
      "{0}",
      "[a-z]",
      "\\d",
      "\\w",
      "\\1",
      ".",
      "(?i)",
      "(?(1)a|b)",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...tokens), { maxLength: 20 }), (parts) => {
        const r = parsePythonRegex(parts.join(""));
        if (r.ok) findCatastrophicBacktracking(r.ast);
      }),
      { numRuns: 500 },
    );
  });

  it("copes with large patterns", () => {
    const patterns = [
      "(?:" + Array.from({ length: 5000 }, (_, i) => `w${i}`).join("|") + ")",
      "(".repeat(150) + "a+" + ")+".repeat(150),
      "[a-z]+\\d*".repeat(50_000),
    ];
    for (const p of patterns) {
      const r = parsePythonRegex(p);
      if (!r.ok) throw new Error(r.error.message);
      const start = performance.now();
      findCatastrophicBacktracking(r.ast);
      expect(performance.now() - start).toBeLessThan(5000);
    }
  });
});
