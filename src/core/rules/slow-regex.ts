import { findCatastrophicBacktracking } from "../python-regex/backtracking.js";
import { parsePythonRegex } from "../python-regex/parse.js";
import { finding, get, str, type Rule } from "../rule.js";

/** Catastrophic-backtracking shapes in activation_name_pattern, found by analysing the parsed pattern. */
export const rule: Rule = {
  meta: {
    id: "slow-regex",
    kind: "document",
    defaultSeverity: "warning",
    description:
      "source.activation_name_pattern can backtrack catastrophically (nested quantifiers and the like).",
  },
  check(ctx) {
    if (ctx.variant !== "host") return [];
    const pattern = str(get(get(ctx.value, "source"), "activation_name_pattern"));
    if (pattern === undefined) return [];
    const r = parsePythonRegex(pattern);
    if (!r.ok) return []; // invalid-regex reports it
    const risk = findCatastrophicBacktracking(r.ast);
    if (!risk) return [];
    return [
      finding(this.meta, "/source/activation_name_pattern", `${risk.message} (at position ${risk.index})`),
    ];
  },
};
