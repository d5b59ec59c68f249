import { lineOf, ruleTable, validHost, validRemote, withPattern } from "../../helpers.js";

const host = (pattern: unknown) => withPattern(pattern);
const bad = (pattern: string, message: string | RegExp, extra: object = {}) => {
  const doc = host(pattern);
  return {
    name: JSON.stringify(pattern),
    doc,
    lines: [lineOf(doc, '"activation_name_pattern"')],
    messageId: "invalid",
    // The pattern is the offending value: part of the finding's identity.
    data: { pattern },
    message,
    ...extra,
  };
};

ruleTable("invalid-regex", {
  valid: [
    { name: "the host example (`^(?P<app>demo)-\\d+$`)", doc: validHost() },
    { name: "the remote example (no pattern)", doc: validRemote() },
    { name: "Python named group (?P<name>x)", doc: host("(?P<name>x)") },
    { name: "named back-reference (?P=name)", doc: host("(?P<n>a)-(?P=n)") },
    { name: "inline flag at the start", doc: host("(?i)tomcat") },
    { name: "fixed-width look-behind", doc: host("(?<=ab)c") },
    { name: "negative look-ahead", doc: host("^(?!test-).*$") },
    { name: "a slow pattern is still valid (slow-regex warns)", doc: host("(a+)+") },
    { name: "empty pattern", doc: host("") },
    {
      name: "a remote plugin's pattern is ignored, not compiled (ignored-member)",
      doc: withPattern("(?<name>x)", validRemote()),
    },
    { name: "a pattern that is not a string is a type problem", doc: host(42) },
  ],
  invalid: [
    bad("(?<name>x)", "not a valid Python regular expression: unknown extension ?<n at position 1"),
    bad("(", "missing ), unterminated subpattern at position 0"),
    bad("a)", "unbalanced parenthesis at position 1"),
    bad("[a-", "unterminated character set"),
    bad("*a", "nothing to repeat"),
    bad("x{2,1}", "min repeat greater than max repeat"),
    bad("\\p{L}", "bad escape \\p"),
    bad("(?<=a+)c", "look-behind requires fixed-width pattern"),
    bad("(?P<a>x)(?P<a>y)", "redefinition of group name 'a'"),
    bad("(?i", "at position 3"),
    bad("(?>a)", /atomic groups .*Python 3\.11/),
    bad("a++", /possessive quantifier/),
    bad("(", "unterminated", {
      name: '"(" raised to warning',
      messageId: "invalid",
      severity: "warning",
      options: { config: { rules: { "invalid-regex": "warning" } } },
    }),
  ],
});

ruleTable("invalid-regex", {
  valid: [{ name: "turned off", doc: host("("), options: { config: { rules: { "invalid-regex": "off" } } } }],
  invalid: [],
});
