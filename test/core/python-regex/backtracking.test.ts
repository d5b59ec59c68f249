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
  ["(\\w|\\d)+", "`\\w` and `\\d` can start with the same character and both match `0`", 0],
  ["(a|aa)*", "(it can match `aa` as `a` + `a` or as `aa`)", 0],
  ["(a|ab|b)*c", "repeated alternation with overlapping branches: `(a|ab|b)*` can backtrack", 0],
  ["(a|ab|b)*c", "as `a` + `b` or as `ab`", 0],
  ["(?:\\d|\\d\\d)+$", "`(?:\\d|\\d\\d)+` can backtrack exponentially", 0],
  ["(x+|y)*", "nested quantifier: `(x+|y)*`", 0],
  ["(a|ab|bc|c)*", "as `a` + `bc` or as `ab` + `c`", 0],
  ["(a?a)*", "ambiguous repetition: `(a?a)*`", 0],
  [
    "((a|a)b)*",
    "ambiguous repetition: `((a|a)b)*` can backtrack exponentially on a near-miss input (it can match `ab` in more than one way)",
    0,
  ],
  ["(?:a{3}|a{5})+", "repeated alternation", 0],
  ["(?m)(^a|a)*", "`^a` and `a`", 4],
  ["(?:\\w|[^a-z])+", "`\\w` and `[^a-z]` can start with the same character and both match `0`", 0],
  ["(?:tab|\\t)+x|(\\t|\\s)*", "both match `\\t`", 13],
  ["(?s)(?:.|\\n)*", "repeated alternation", 4],
  ["([a-f]|[e-z])*", "repeated alternation", 0],
  ["(?i)(a|A)*", "`a` and `A` can start with the same character and both match `a`", 4],
  ["(?i:é|É)+", "repeated alternation", 0],
  ["(x|\\d|[^a])+", "repeated alternation", 0],
];

const SAFE = [
  // Branches that start alike, but every string splits into iterations one way only.
  "(?:foo|bar|baz)+",
  "^(?:foo|bar|baz)+$",
  "(tomcat|tomee)+",
  "(abc|abd)*",
  "^(java|python)\\d*$",
  "(x|y|z)+end",
  "(GET|POST|PUT)+",
  "(a|ab)*",
  "(ab|a)*b?",
  "^demo-(?:x|xy)+$",
  "^(?:java|javaw)(?:\\.exe)?$",
  "(?:(java|javaw)(\\.exe)?;)+",
  "(?:\\d|\\d[a-z])+$",
  // An inner loop followed by what it matches, yet no string splits two ways: only polynomial.
  "(a+ab)+",
  "(?:\\w+\\w\\.)+",
  // `^`, `\A`, `$` and `\Z` hold at most twice in a string, so their branch cannot repeat.
  "(^a|a)*",
  "(?:a|a\\Z)*",
  "(?:a$|a)+",
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

  it("gives up past its search budget, reporting no repeated alternation", () => {
    // 3000 identical branches: 4.5 million pairs of first steps, more than one search may try.
    const many = Array.from({ length: 3000 }, () => "ab").join("|");
    expect(risk(`(?:${many})+`)).toBeNull();
    // More than MAX_POSITIONS character positions once `b{3000}` is unrolled.
    expect(risk("(?:a|a|b{3000})*")).toBeNull();
    // A nested quantifier is then judged by the first-character test alone.
    expect(risk(`(?:${many}|a+)+`)?.message).toContain("nested quantifier");
  });

  // Each search stops at its step budget (MAX_CHECK_WORK, MAX_TOTAL_WORK): large patterns come to an answer
  // rather than a hang (the test's timeout is the guard; how long they take is measured by `npm run bench`).
  it("copes with large patterns", () => {
    const patterns: [string, RegExp | null][] = [
      ["(?:" + Array.from({ length: 5000 }, (_, i) => `w${i}`).join("|") + ")", null],
      ["(?:" + Array.from({ length: 5000 }, (_, i) => `w${i}`).join("|") + ")+", null],
      ["(?:" + Array.from({ length: 300 }, (_, i) => `k${i.toString(36)}x`).join("|") + ")+$", null],
      ["((((((((((a|b)+c)+d)+e)+f)+g)+h)+i)+j)+k)+".repeat(200), null],
      ["(".repeat(150) + "a+" + ")+".repeat(150), /^nested quantifier: /],
      ["[a-z]+\\d*".repeat(50_000), null],
    ];
    for (const [p, expected] of patterns) {
      const r = parsePythonRegex(p);
      if (!r.ok) throw new Error(r.error.message);
      const risk = findCatastrophicBacktracking(r.ast);
      if (expected) expect(risk?.message).toMatch(expected);
      else expect(risk).toBeNull();
    }
  });
});

/** Number of ways `atoms` (characters, `[ab]`, optional `x?`) match all of `s`. */
function matchWays(atoms: readonly string[], s: string): number {
  const go = (a: number, c: number): number => {
    const atom = atoms[a];
    if (atom === undefined) return c === s.length ? 1 : 0;
    const optional = atom.endsWith("?");
    const set = optional ? atom.slice(0, -1) : atom;
    const ch = s[c];
    const here = ch !== undefined && (set === "[ab]" || set === ch) ? go(a + 1, c + 1) : 0;
    return here + (optional ? go(a + 1, c) : 0);
  };
  return go(0, 0);
}

/** Number of ways `(?:B1|B2|...)*` matches all of `w`, in non-empty iterations (paths, not strings). */
function parses(branches: readonly (readonly string[])[], w: string): number {
  const ways: number[] = Array.from({ length: w.length + 1 }, () => 0);
  ways[w.length] = 1;
  for (let i = w.length - 1; i >= 0; i--) {
    for (let j = i + 1; j <= w.length; j++) {
      for (const b of branches) ways[i]! += matchWays(b, w.slice(i, j)) * ways[j]!;
    }
  }
  return ways[0]!;
}

/** Every string over {a, b} of length 1 to n. */
function* words(n: number): Generator<string> {
  for (let len = 1; len <= n; len++) {
    for (let k = 0; k < 2 ** len; k++)
      yield k.toString(2).padStart(len, "0").replace(/0/g, "a").replace(/1/g, "b");
  }
}

/** Sardinas–Patterson: whether every concatenation of `code`'s words splits back one way only. */
function uniquelyDecodable(code: readonly string[]): boolean {
  const set = new Set(code);
  if (set.size < code.length) return false;
  const dangling = new Set<string>();
  const queue: string[] = [];
  const add = (d: string): void => {
    if (!d || dangling.has(d)) return;
    dangling.add(d);
    queue.push(d);
  };
  for (const u of set) for (const v of set) if (u !== v && v.startsWith(u)) add(v.slice(u.length));
  for (let d = queue.shift(); d !== undefined; d = queue.shift()) {
    if (set.has(d)) return false;
    for (const c of set) {
      if (c.startsWith(d)) add(c.slice(d.length));
      if (d.startsWith(c)) add(d.slice(c.length));
    }
  }
  return true;
}

/** The string a message says the repetition matches more than one way. */
const witnessOf = (message: string): string | undefined => /match `([^`]*)`/.exec(message)?.[1];

describe("repeated alternations against brute force", () => {
  const atom = fc.constantFrom("a", "b", "[ab]", "a?", "b?");
  const branches = fc.array(fc.array(atom, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 });

  it("flags exactly the alternations some string matches two ways, with such a string as witness", () => {
    fc.assert(
      fc.property(branches, (bs) => {
        const r = risk(`(?:${bs.map((b) => b.join("")).join("|")})*`);
        if (r) {
          const w = witnessOf(r.message);
          expect(w).toBeDefined();
          expect(parses(bs, w ?? "")).toBeGreaterThanOrEqual(2);
        } else {
          for (const w of words(7)) expect(parses(bs, w)).toBeLessThan(2);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("flags a repeated alternation of words exactly when the words are no code (Sardinas–Patterson)", () => {
    const word = fc.array(fc.constantFrom("a", "b"), { minLength: 1, maxLength: 4 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 5 }), (ws) => {
        const r = risk(`(${ws.join("|")})+`);
        expect(r !== null).toBe(!uniquelyDecodable(ws));
        if (r)
          expect(
            parses(
              ws.map((w) => [...w]),
              witnessOf(r.message) ?? "",
            ),
          ).toBeGreaterThanOrEqual(2);
      }),
      { numRuns: 500 },
    );
  });
});
