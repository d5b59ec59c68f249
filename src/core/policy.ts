/**
 * The policy part of the configuration (`policy:` in `.github/plugin-review.yml`), as the rules read it
 * (`context.policy`). Below config.ts, which resolves it: the rules' context needs the type, and config.ts
 * needs the rules' registry.
 */
import { RE2JS } from "re2js";
import { KNOWN_PROCESS_TYPES } from "./reference/known-process-types.js";
import { KNOWN_TECHNOLOGIES } from "./reference/known-technologies.js";

/** A compiled `policy.name_pattern` or `policy.extension_name_pattern` (linear-time: see compileNamePattern). */
export interface NamePattern {
  source: string;
  test(s: string): boolean;
}

/** The policy part of the configuration that rules read. */
export interface Policy {
  /** What a plugin.json's `name` must match (`policy.name_pattern`). */
  namePattern?: NamePattern;
  /** What an extension.yaml's `name` must match (`policy.extension_name_pattern`): EF2 names are `custom:…`. */
  extensionNamePattern?: NamePattern;
  technologies?: readonly string[];
  processTypes?: readonly (string | number)[];
}

/**
 * `policy.name_pattern` (and `extension_name_pattern`) comes from a configuration file anyone with write access to a repository may
 * edit, and runs in a process shared by every installation: it runs on RE2 (re2js, pure JavaScript),
 * whose matching time is linear in the input, so no pattern can backtrack catastrophically.
 */
export function compileNamePattern(pattern: string): NamePattern {
  const re = RE2JS.compile(pattern);
  return { source: pattern, test: (s) => re.test(s) };
}

/** The lower-cased names of a technology list (the agent matches them case-insensitively), once per list. */
const lowered = new WeakMap<readonly string[], ReadonlySet<string>>();
export function technologySet(list: readonly string[]): ReadonlySet<string> {
  let set = lowered.get(list);
  if (!set) lowered.set(list, (set = new Set(list.map((t) => t.toLowerCase()))));
  return set;
}

/** The names and ids a process type list allows (an id is a name's 0-based position in the table), once per list. */
const allowedOf = new WeakMap<readonly (string | number)[], { names: Set<string>; ids: Set<number> }>();
export function processTypeSet(list: readonly (string | number)[]): {
  names: ReadonlySet<string>;
  ids: ReadonlySet<number>;
} {
  const known = allowedOf.get(list);
  if (known) return known;
  const names = new Set<string>();
  const ids = new Set<number>();
  for (const p of list) {
    if (typeof p === "number") {
      ids.add(p);
      const n = KNOWN_PROCESS_TYPES[p];
      if (n !== undefined) names.add(n);
    } else {
      names.add(p);
      const id = KNOWN_PROCESS_TYPES.indexOf(p);
      if (id >= 0) ids.add(id);
    }
  }
  allowedOf.set(list, { names, ids });
  return { names, ids };
}

/**
 * The entries of a policy list that the list it would replace does not allow (the organisation's, else the
 * built-in table): empty when the new list only narrows, so that it can only make its rule stricter.
 */
export function widening(
  key: "technologies" | "process_types",
  list: readonly (string | number)[],
  replaced: readonly (string | number)[] | undefined,
): (string | number)[] {
  if (key === "technologies") {
    const allowed = technologySet((replaced as readonly string[] | undefined) ?? KNOWN_TECHNOLOGIES);
    return list.filter((t) => typeof t !== "string" || !allowed.has(t.toLowerCase()));
  }
  const { names, ids } = processTypeSet(replaced ?? KNOWN_PROCESS_TYPES);
  return list.filter((p) => (typeof p === "number" ? !ids.has(p) : !names.has(p)));
}
