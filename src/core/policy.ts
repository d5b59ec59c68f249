/**
 * The policy part of the configuration (`policy:` in `.github/plugin-review.yml`), as the rules read it
 * (`context.policy`). Below config.ts, which resolves it: the rules' context needs the type, and config.ts
 * needs the rules' registry.
 */
import { RE2JS } from "re2js";

/** A compiled `policy.name_pattern` (linear-time: see compileNamePattern). */
export interface NamePattern {
  source: string;
  test(s: string): boolean;
}

/** The policy part of the configuration that rules read. */
export interface Policy {
  namePattern?: NamePattern;
  technologies?: readonly string[];
  processTypes?: readonly (string | number)[];
}

/**
 * `policy.name_pattern` comes from a configuration file anyone with write access to a repository may
 * edit, and runs in a process shared by every installation: it runs on RE2 (re2js, pure JavaScript),
 * whose matching time is linear in the input, so no pattern can backtrack catastrophically.
 */
export function compileNamePattern(pattern: string): NamePattern {
  const re = RE2JS.compile(pattern);
  return { source: pattern, test: (s) => re.test(s) };
}
