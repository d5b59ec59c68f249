import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePythonRegex, type RegexNode } from "../../../src/core/python-regex/parse.js";
import { describeUnless, MORE_THAN_NPM_CI } from "../../helpers.js";

/** [pattern, groupCount] that CPython 3.11 compiles. */
const VALID: [string, number][] = [
  ["", 0],
  ["^java.*$", 0],
  ["^(tomcat|jboss)-\\d+$", 1],
  ["[a-z]+\\.log", 0],
  ["(?i)^nginx(: master)?", 1],
  ["^/usr/(s)?bin/httpd$", 1],
  ["python[23]?(\\.\\d+)?", 1],
  ["(?P<name>\\w+)=(?P=name)", 1],
  ["(a)(b)\\2\\1", 2],
  ["(a)".repeat(10) + "\\10", 10],
  ["(?:a|b)+", 0],
  ["a{,}", 0],
  ["x{}", 0],
  ["x{1,2", 0],
  ["{", 0],
  ["a{1}}", 0],
  ["a{0}", 0],
  ["a{,3}?", 0],
  ["[]]", 0],
  ["[a-]", 0],
  ["[-a]", 0],
  ["[^]]", 0],
  ["[\\]]", 0],
  ["[\\b]", 0],
  ["[.*+?(){}|$^]", 0],
  ["(?#comment)a", 0],
  ["a(?#c)*", 0],
  ["(?#a\\)b)", 0],
  ["(?=a)*", 0],
  ["(?:^)*", 0],
  ["(?x) a b # c\n", 0],
  ["(?x)a{1, 2}", 0],
  ["(?x)[ ]", 0],
  ["(?i)(?x) a", 0],
  ["(?#c)(?i)a", 0],
  ["(?x) (?i)a", 0],
  ["(?x:a b)c d", 0],
  ["(?s:.)(?-s:.)", 0],
  ["(?i-m:a)", 0],
  ["(?a:\\w)", 0],
  ["(?u)\\w", 0],
  ["(?aimsx)", 0],
  ["(?(1)a|b)(x)", 1],
  ["(?P<a>x)(?(a)y|z)", 1],
  ["(x)(?<=(?(1)a|b))", 1],
  ["(?<=a|b)", 0],
  ["(?<=ab|cd)", 0],
  ["(?<=(a))\\1", 1],
  ["(a)(?<=\\1)", 1],
  ["(?<!\\d{3})x", 0],
  ["\\0777", 0],
  ["\\07", 0],
  ["\\377", 0],
  ["[\\0-\\7]", 0],
  ["\\x41\\u00e9\\U0001F600", 0],
  ["\\N{EM DASH}", 0],
  ["\\N{latin small letter a}", 0],
  ["[\\N{EM DASH}]", 0],
  ["é+", 0],
  ["😀+", 0],
  ["[😀-😂]", 0],
  ["(?P<é>a)", 1],
  ["(?P<𝐀>x)", 1],
  ["\\é\\😀", 0],
  ["(?( 1 )a)()", 1],
  ["(?(+1)a)()", 1],
  ["(?(\u0661)a)()", 1],
  ["\\A\\Z\\b\\B", 0],
  ["$^", 0],
  ["(?t)a", 0],
  ["\\\\", 0],
  ["a|", 0],
  ["|", 0],
  ["()", 1],
  ["(?:)", 0],
  ["(?=)", 0],
  ["\ud800*\udc00", 0],
  ["\0+", 0],
  ["(".repeat(200) + ")".repeat(200), 200],
];

/** [pattern, message, index] as CPython 3.11 reports them (index in UTF-16 units). */
const INVALID: [string, string, number][] = [
  ["a**", "multiple repeat", 2],
  ["*a", "nothing to repeat", 0],
  ["a|*", "nothing to repeat", 2],
  ["\\b*", "nothing to repeat", 2],
  ["^*", "nothing to repeat", 1],
  ["(?i)*", "nothing to repeat", 4],
  ["a{2}{3}", "multiple repeat", 4],
  ["a*?*", "multiple repeat", 3],
  ["(", "missing ), unterminated subpattern", 0],
  ["(a", "missing ), unterminated subpattern", 0],
  ["(?:a", "missing ), unterminated subpattern", 0],
  ["(?<=a", "missing ), unterminated subpattern", 0],
  ["(?(1)b", "missing ), unterminated subpattern", 0],
  [")", "unbalanced parenthesis", 0],
  ["a)", "unbalanced parenthesis", 1],
  ["a))", "unbalanced parenthesis", 1],
  ["😀)", "unbalanced parenthesis", 2],
  ["[a", "unterminated character set", 0],
  ["[]", "unterminated character set", 0],
  ["[^]", "unterminated character set", 0],
  ["[a-", "unterminated character set", 0],
  ["[z-a]", "bad character range z-a", 1],
  ["😀[😂-😀]", "bad character range 😂-😀", 3],
  ["[\\w-a]", "bad character range \\w-a", 1],
  ["[a-\\d]", "bad character range a-\\d", 1],
  ["a{3,2}", "min repeat greater than max repeat", 2],
  ["\\q", "bad escape \\q", 0],
  ["\\A\\Q", "bad escape \\Q", 2],
  ["[\\A]", "bad escape \\A", 1],
  ["[\\8]", "bad escape \\8", 1],
  ["\\x4", "incomplete escape \\x4", 0],
  ["\\u12", "incomplete escape \\u12", 0],
  ["\\U1234567", "incomplete escape \\U1234567", 0],
  ["\\U00110000", "bad escape \\U00110000", 0],
  ["\\N", "missing {", 2],
  ["\\N{", "missing character name", 3],
  ["\\N{}", "missing character name", 3],
  ["\\N{EM DASH", "missing }, unterminated name", 3],
  ["\\N{EM  DASH}", "undefined character name 'EM  DASH'", 0],
  ["\\N{\ud800}", "bad escape \\N", 3],
  ["\\400", "octal escape value \\400 outside of range 0-0o377", 0],
  ["[\\400]", "octal escape value \\400 outside of range 0-0o377", 1],
  ["\\", "bad escape (end of pattern)", 0],
  ["a\\", "bad escape (end of pattern)", 1],
  ["\\8", "invalid group reference 8", 1],
  ["(a)\\18", "invalid group reference 18", 4],
  ["\\2(a)(b)", "invalid group reference 2", 1],
  ["(a\\1)", "cannot refer to an open group", 2],
  ["(?P<a>(?P=a))", "cannot refer to an open group", 10],
  ["(?P=a)", "unknown group name 'a'", 4],
  ["(?P<a>x)(?P=b)", "unknown group name 'b'", 12],
  ["(?P<a>)(?P<a>)", "redefinition of group name 'a' as group 2; was group 1", 11],
  ["(?P<>a)", "missing group name", 4],
  ["(?P<a", "missing >, unterminated name", 4],
  ["(?P<1a>a)", "bad character in group name '1a'", 4],
  ["(?P<a-b>x)", "bad character in group name 'a-b'", 4],
  ["(?P<\ud800>x)", "bad character in group name '\\ud800'", 4],
  ["(?P<it's>x)", `bad character in group name "it's"`, 4],
  ["(?P=)", "missing group name", 4],
  ["(?P=a", "missing ), unterminated name", 4],
  ["(?P", "unexpected end of pattern", 3],
  ["(?Px", "unknown extension ?Px", 1],
  ["(?", "unexpected end of pattern", 2],
  ["(?z)", "unknown extension ?z", 1],
  ["(?<n>a)", "unknown extension ?<n", 1],
  ["(?<", "unexpected end of pattern", 3],
  ["(?#abc", "missing ), unterminated comment", 0],
  ["(?(a)b)", "unknown group name 'a'", 3],
  ["(?()b)", "missing group name", 3],
  ["(?(0)b)", "bad group number", 3],
  ["(?(1b)c)", "bad character in group name '1b'", 3],
  ["(?(-1)c)", "bad character in group name '-1'", 3],
  ["(?(2)a)(b)", "invalid group reference 2", 3],
  ["(?(1)a|b|c)()", "conditional backref with more than two branches", 8],
  ["(?(99999999999999999999)a)", "invalid group reference 99999999999999999999", 3],
  ["a(?i)", "global flags not at the start of the expression", 1],
  ["^(?i)", "global flags not at the start of the expression", 1],
  ["a|(?i)", "global flags not at the start of the expression", 2],
  ["(?i", "missing -, : or )", 3],
  ["(?i-", "missing flag", 4],
  ["(?i-:a)", "missing flag", 4],
  ["(?-i)", "missing :", 4],
  ["(?-)", "missing flag", 3],
  ["(?i-m)", "missing :", 5],
  ["(?t:a)", "bad inline flags: cannot turn on global flag", 3],
  ["(?L)", "bad inline flags: cannot use 'L' flag with a str pattern", 3],
  ["(?-a:x)", "bad inline flags: cannot turn off flags 'a', 'u' and 'L'", 4],
  ["(?i-i:x)", "bad inline flags: flag turned on and off", 5],
  ["(?au)", "bad inline flags: flags 'a', 'u' and 'L' are incompatible", 4],
  ["(?ié)", "unknown flag", 3],
  ["(?<=(?(1)a|b))(x)", "cannot refer to an open group", 9],
  ["(?<=(a)\\1)", "cannot refer to group defined in the same lookbehind subpattern", 9],
  // Python gives no position for these (ValueError, OverflowError, compiler errors); we point at the construct.
  ["(?a)(?u)", "ASCII and UNICODE flags are incompatible", 4],
  ["(?<=a|bc)", "look-behind requires fixed-width pattern", 0],
  ["(?<=a*)", "look-behind requires fixed-width pattern", 0],
  ["(?<!a+b)", "look-behind requires fixed-width pattern", 0],
  ["(x)(?<=(?(1)a))", "look-behind requires fixed-width pattern", 3],
  ["(?<=a{4294967294}a{10})", "looks too much behind", 0],
  ["a{99999999999}", "the repetition number is too large", 1],
  ["(?t)a*", "internal: unsupported template operator MAX_REPEAT", 4],
];

/** Accepted by Python 3.11, rejected by us on purpose: older Python rejects them. */
const NEEDS_311: [string, string, number][] = [
  ["(?>a+)b", "atomic groups (?>...) need Python 3.11+", 0],
  ["x(?>a)", "atomic groups (?>...) need Python 3.11+", 1],
  ["a*+", "possessive quantifier `*+` needs Python 3.11+", 2],
  ["a++", "possessive quantifier `++` needs Python 3.11+", 2],
  ["a?+", "possessive quantifier `?+` needs Python 3.11+", 2],
  ["(ab){1,2}+", "possessive quantifier `{1,2}+` needs Python 3.11+", 9],
];

const errorOf = (pattern: string) => {
  const r = parsePythonRegex(pattern);
  return r.ok ? null : r.error;
};

describe("parsePythonRegex", () => {
  it.each(VALID)("accepts %j with %i groups", (pattern, groups) => {
    const r = parsePythonRegex(pattern);
    expect(r).toMatchObject({ ok: true, groupCount: groups });
  });

  it.each(INVALID)("rejects %j: %s at %i", (pattern, message, index) => {
    expect(errorOf(pattern)).toEqual({ message, index });
  });

  it.each(NEEDS_311)("rejects %j, which needs Python 3.11", (pattern, fragment, index) => {
    const error = errorOf(pattern);
    expect(error?.message).toContain(fragment);
    expect(error?.message).toContain("older Python rejects");
    expect(error?.index).toBe(index);
  });

  it("reports real syntax errors before 3.11-only syntax", () => {
    expect(errorOf("(?>a)[")).toEqual({ message: "unterminated character set", index: 5 });
    expect(errorOf("a*+(?<=a*)")?.message).toBe("look-behind requires fixed-width pattern");
  });

  it("caps nesting at 200 levels", () => {
    expect(parsePythonRegex("(".repeat(200) + ")".repeat(200)).ok).toBe(true);
    expect(errorOf("x" + "(?:".repeat(201) + ")".repeat(201))).toEqual({
      message: "nested too deeply (more than 200 levels)",
      index: 601,
    });
    expect(errorOf("(".repeat(100_000))?.message).toBe("nested too deeply (more than 200 levels)");
    expect(errorOf("(?=".repeat(300))?.message).toBe("nested too deeply (more than 200 levels)");
  });

  it("builds an AST with UTF-16 spans", () => {
    const r = parsePythonRegex("😀(?P<n>a+?)[^a-c\\d]|(?<=x){2,}(?i:.)");
    if (!r.ok) throw new Error(r.error.message);
    expect(r.groupCount).toBe(1);
    const ast = r.ast as Extract<RegexNode, { type: "alternation" }>;
    expect(ast.type).toBe("alternation");
    const [first, second] = ast.branches as [
      Extract<RegexNode, { type: "sequence" }>,
      Extract<RegexNode, { type: "sequence" }>,
    ];
    expect(first.items.map((n) => n.type)).toEqual(["literal", "group", "charClass"]);
    expect(first.items[0]).toMatchObject({ codePoint: 0x1f600, index: 0, end: 2 });
    expect(first.items[1]).toMatchObject({
      kind: "capturing",
      number: 1,
      name: "n",
      index: 2,
      end: 12,
      body: { type: "sequence", items: [{ type: "quantifier", min: 1, max: null, lazy: true, raw: "a+?" }] },
    });
    expect(first.items[2]).toMatchObject({
      negated: true,
      items: [
        { type: "range", from: 0x61, to: 0x63 },
        { type: "category", name: "d" },
      ],
    });
    expect(second.items[0]).toMatchObject({
      type: "quantifier",
      min: 2,
      max: null,
      body: { type: "group", kind: "lookbehind" },
      raw: "(?<=x){2,}",
    });
    expect(second.items[1]).toMatchObject({
      type: "group",
      kind: "nonCapturing",
      flags: { on: "i", off: "" },
    });
  });

  it("never throws, and its work stays linear in the length, on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 2000 }), (s) => {
        let r: ReturnType<typeof parsePythonRegex> | undefined;
        // Under 7 steps a character on every input tried; a re-scan of the pattern would multiply that.
        expect(work(() => (r = parsePythonRegex(s)))).toBeLessThanOrEqual(16 * (s.length + 1));
        if (!r!.ok) {
          expect(r!.error.message).not.toMatch(/^internal error/);
          expect(r!.error.index).toBeGreaterThanOrEqual(0);
          expect(r!.error.index).toBeLessThanOrEqual(s.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  // Linear time, counted rather than timed: a timing depends on the machine and what else runs on it.
  const LONG: [string, (n: number) => string][] = [
    ["literals", (n) => "a".repeat(n)],
    ["escapes", (n) => "\\".repeat(n)],
    ["NULs", (n) => "\0".repeat(n)],
    ["lone surrogates", (n) => "\ud800".repeat(n)],
    ["an unterminated comment", (n) => "(?#" + "x".repeat(n)],
  ];

  it.each(LONG)("does work linear in the length on long runs of %s", (_name, make) => {
    const small = work(() => parsePythonRegex(make(1 << 12)));
    const large = work(() => parsePythonRegex(make(1 << 16)));
    expect(small).toBeGreaterThan(1 << 12);
    expect(large).toBeLessThanOrEqual(16 * small + 64); // 16 times the length: 16 times the work, not 256
  });

  // Long enough for a spread over its characters or one stack frame a character to overflow (beyond what
  // the counted runs reach); with the work linear, a megabyte takes four times as long.
  it.each(LONG)("parses 256 KiB of %s (no stack overflow, no internal error)", (_name, make) => {
    const pattern = make(1 << 18);
    const r = parsePythonRegex(pattern);
    if (r.ok) expect(r.ast.type).toBeDefined();
    else {
      expect(r.error.message).not.toMatch(/^internal error/);
      expect(r.error.index).toBeLessThanOrEqual(pattern.length);
    }
  });
});

/**
 * The parser's work: how many times `f` calls the string and array built-ins the parser reads the pattern
 * and builds its tree with (every character it reads goes through String.fromCodePoint, every node through
 * push). Replaced for the call only, and restored even when `f` throws.
 */
function work(f: () => void): number {
  type Methods = Record<string, (...args: unknown[]) => unknown>;
  const methods: [Methods, string][] = [
    [String as unknown as Methods, "fromCodePoint"],
    ...["codePointAt", "charCodeAt", "slice", "indexOf", "startsWith"].map((m): [Methods, string] => [
      String.prototype as unknown as Methods,
      m,
    ]),
    ...["push", "slice", "indexOf", "includes"].map((m): [Methods, string] => [
      Array.prototype as unknown as Methods,
      m,
    ]),
  ];
  const saved = methods.map(([o, m]) => o[m]!);
  let calls = 0;
  methods.forEach(([o, m], i) => {
    const original = saved[i]!;
    o[m] = function (this: unknown, ...args: unknown[]) {
      calls++;
      return original.apply(this, args);
    };
  });
  try {
    f();
  } finally {
    methods.forEach(([o, m], i) => (o[m] = saved[i]!));
  }
  return calls;
}

// --- Differential test against the CPython on this machine -------------------

const PYTHON_SCRIPT = String.raw`
import json, re, sys, warnings
warnings.simplefilter("ignore")
def utf16(p, pos):
    return len(p[:pos].encode("utf-16-le", "surrogatepass")) // 2
out = []
for p in json.load(sys.stdin):
    try:
        out.append({"ok": True, "groups": re.compile(p).groups})
    except re.error as e:
        out.append({"ok": False, "msg": e.msg, "pos": None if e.pos is None else utf16(p, e.pos)})
    except Exception as e:  # OverflowError, ValueError, RecursionError
        out.append({"ok": False, "msg": str(e), "pos": None})
print(json.dumps(out))
`;

function python311(): boolean {
  try {
    const r = spawnSync("python3", ["-c", "import sys; print(sys.version_info[:2] == (3, 11))"], {
      encoding: "utf8",
    });
    return r.status === 0 && r.stdout.trim() === "True";
  } catch {
    return false;
  }
}

type PyResult = { ok: true; groups: number } | { ok: false; msg: string; pos: number | null };

// Building blocks for generated patterns. `\N{...}` is left out: we only check that a name is spelled like
// one, since the Unicode name table is not available to us.
const TOKENS = [
  "a", "b", "0", "1", "2", "8", "_", "-", ",", " ", "#", "\n", "é", "😀", "\ud800",
  "(", ")", "[", "]", "[^", "{", "}", "{2}", "{1,3}", "{,2}", "{3,1}", "*", "+", "?", "|", "^", "$", ".",
  "\\", "\\1", "\\2", "\\0", "\\d", "\\w", "\\b", "\\A", "\\x4", "\\x41", "\\u00e9", "\\q", "\\-", "\\]",
  "(?:", "(?P<a>", "(?P<b>", "(?P=a)", "(?P<1>", "(?<n>", "(?=", "(?!", "(?<=", "(?<!", "(?#", "(?>",
  "(?(1)", "(?(a)", "(?i)", "(?x)", "(?a)", "(?u)", "(?L)", "(?i:", "(?-i:", "(?s-i:", "(?i-i:", "(?t)", "(?",
  "P", "<", ">", "=", "!", ":", "i", "x",
]; // prettier-ignore

describeUnless(
  !python311() &&
    `python3 is not CPython 3.11, whose re module this test compares with (${MORE_THAN_NPM_CI})`,
)("differential test against CPython 3.11", () => {
  it("accepts exactly what re.compile accepts, with the same messages", () => {
    const generated = fc.sample(
      fc.array(fc.constantFrom(...TOKENS), { maxLength: 14 }).map((t) => t.join("")),
      { numRuns: 300, seed: 20_240_611 },
    );
    const deep = "(".repeat(250) + ")".repeat(250);
    const fixed = [...VALID.map(([p]) => p), ...INVALID.map(([p]) => p), ...NEEDS_311.map(([p]) => p), deep];
    const patterns = [...fixed, ...generated];

    const run = spawnSync("python3", ["-c", PYTHON_SCRIPT], {
      input: JSON.stringify(patterns),
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    expect(run.status, run.stderr).toBe(0);
    const python = JSON.parse(run.stdout) as PyResult[];
    expect(python).toHaveLength(patterns.length);

    const disagreements: unknown[] = [];
    let intended = 0;
    patterns.forEach((pattern, i) => {
      const py = python[i]!;
      const ours = parsePythonRegex(pattern);
      if (py.ok && ours.ok && py.groups === ours.groupCount) return;
      if (
        !py.ok &&
        !ours.ok &&
        py.msg === ours.error.message &&
        (py.pos ?? ours.error.index) === ours.error.index
      ) {
        return;
      }
      // Deliberate: 3.11-only syntax, and the nesting cap.
      if (
        !ours.ok &&
        (/Python 3\.11\+/.test(ours.error.message) || /nested too deeply/.test(ours.error.message))
      ) {
        if (py.ok) {
          intended++;
          return;
        }
      }
      disagreements.push({
        pattern,
        python: py,
        ours: ours.ok ? { groupCount: ours.groupCount } : ours.error,
      });
    });
    expect(disagreements).toEqual([]);
    // The deliberate rejections: NEEDS_311 and the deep pattern, plus whatever the generator produced.
    expect(intended).toBeGreaterThanOrEqual(NEEDS_311.length + 1);
    expect(patterns.length).toBeGreaterThanOrEqual(450);
  });
});
