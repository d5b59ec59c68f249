import { lineOf, ruleTable, validHost, validRemote, withPattern } from "../../helpers.js";

const host = (pattern: unknown) => withPattern(pattern);
const slow = (pattern: string, message: string | RegExp, extra: object = {}) => {
  const doc = host(pattern);
  return {
    name: JSON.stringify(pattern),
    doc,
    lines: [lineOf(doc, '"activation_name_pattern"')],
    messageId: "risk",
    // The pattern is the offending value: part of the finding's identity.
    data: { pattern },
    message,
    severity: "warning" as const,
    ...extra,
  };
};

ruleTable("slow-regex", {
  valid: [
    { name: "the host example (`^(?P<app>demo)-\\d+$`)", doc: validHost() },
    { name: "the remote example (no pattern)", doc: validRemote() },
    { name: "consecutive quantifiers, not nested", doc: host("a+b+") },
    { name: "a repeated group without an inner loop", doc: host("^(ab)+$") },
    { name: "a repeated alternation with disjoint branches", doc: host("(?:a|b)*") },
    { name: "separated repetitions", doc: host("^[a-z]+(?:-[a-z]+)*$") },
    { name: "a single unbounded loop", doc: host("\\d{2,}") },
    { name: "the fix for `^(\\w+\\s?)+$`: separated by a literal", doc: host("^\\w+(?:\\s\\w+)*$") },
    { name: "a nested loop repeated at most ten times", doc: host("(a+){2,5}") },
    { name: "an invalid pattern is left to invalid-regex", doc: host("((a+)+") },
    {
      name: "a remote plugin's pattern is ignored (ignored-member)",
      doc: withPattern("(a+)+", validRemote()),
    },
    { name: "turned off", doc: host("(a+)+"), options: { config: { rules: { "slow-regex": "off" } } } },
  ],
  invalid: [
    slow("(a+)+", "nested quantifier: `(a+)+` can backtrack exponentially"),
    slow("(a*)*", "nested quantifier"),
    slow("(.*)*", "the inner `.*`"),
    slow("^(\\w+\\s?)+$", "`(\\w+\\s?)+`"),
    slow("([a-z]+\\d*)+", "the inner `[a-z]+`"),
    slow("(a|a)*", "repeated alternation with overlapping branches"),
    slow("(\\w|\\d)+", "`\\w` and `\\d` can start with the same character"),
    slow("(a+){2,20}", "nested quantifier: `(a+){2,20}`"),
    slow("^demo-(?:x|xx)+$", /`xx`/),
    slow("(a+)+", "at position 0", {
      name: '"(a+)+" raised to error',
      messageId: "risk",
      severity: "error",
      options: { config: { rules: { "slow-regex": "error" } } },
    }),
  ],
});
