/** Shared test helpers: valid descriptors to mutate, a one-call review, and rule tables. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resolveConfig, type RawConfig } from "../src/core/config.js";
import { reviewDescriptors } from "../src/core/review.js";
import { RULE_IDS } from "../src/core/rules/index.js";
import type { Finding } from "../src/core/types.js";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

type Json = Record<string, unknown>;

function load(path: string): Json {
  return JSON.parse(readFileSync(new URL(`../${path}`, import.meta.url), "utf8")) as Json;
}

/** A fresh copy of the shipped valid host example (no findings at all). */
export function validHost(): Json {
  return load("examples/host-valid/plugin.json");
}

/** A fresh copy of the shipped valid remote example (no findings at all). */
export function validRemote(): Json {
  return load("examples/remote-valid/plugin.json");
}

/** Pretty-prints a descriptor the way people write them, so that line numbers are meaningful. */
export function text(doc: unknown): string {
  return JSON.stringify(doc, null, 2) + "\n";
}

export interface CheckOptions {
  base?: string | Json;
  isNew?: boolean;
  config?: RawConfig;
  org?: RawConfig;
  path?: string;
  /** Run only this rule (the rule tester): every other rule is turned off, and rules that are off never run. */
  only?: string;
}

/** Reviews one descriptor (text or object) the way the CLI and the App do. */
export function check(doc: string | Json, opts: CheckOptions = {}): Finding[] {
  const content = typeof doc === "string" ? doc : text(doc);
  const config = resolveConfig({
    ...(opts.org ? { org: opts.org } : {}),
    ...(opts.config ? { repo: opts.config } : {}),
  });
  if (opts.only !== undefined) {
    if (!RULE_IDS.includes(opts.only)) throw new Error(`no rule \`${opts.only}\``);
    for (const id of RULE_IDS) if (id !== opts.only) config.rules[id] = "off";
  }
  const path = opts.path ?? "plugin.json";
  const [review] = reviewDescriptors(
    [
      {
        path,
        content,
        ...(opts.base !== undefined
          ? { base: { path, content: typeof opts.base === "string" ? opts.base : text(opts.base) } }
          : {}),
        ...(opts.isNew !== undefined ? { isNew: opts.isNew } : {}),
      },
    ],
    config,
  );
  return review!.findings;
}

/** 1-based line of the n-th occurrence of `needle` in `text` (computed from the fixture, not the tool). */
export function lineOf(source: string, needle: string, occurrence = 1): number {
  let at = -1;
  for (let i = 0; i < occurrence; i++) {
    at = source.indexOf(needle, at + 1);
    if (at === -1) throw new Error(`fixture does not contain ${JSON.stringify(needle)} (${occurrence})`);
  }
  return source.slice(0, at).split("\n").length;
}

export interface InvalidCase {
  name: string;
  doc: string | Json;
  /** Expected line of each finding of this rule, in order. */
  lines: number[];
  /** Optional fragment every message of this rule must contain. */
  message?: string | RegExp;
  severity?: "error" | "warning" | "notice";
  options?: CheckOptions;
}

export interface ValidCase {
  name: string;
  doc: string | Json;
  options?: CheckOptions;
}

/**
 * Refuses a table that holds a case twice (after ESLint's RuleTester): the same name, or the same
 * document with the same options, says nothing new and usually hides a copy-paste slip.
 */
export function refuseDuplicateCases(
  ruleId: string,
  table: { valid: ValidCase[]; invalid: InvalidCase[] },
): void {
  const names = new Set<string>();
  const inputs = new Set<string>();
  for (const c of [...table.valid, ...table.invalid]) {
    if (names.has(c.name)) throw new Error(`${ruleId}: duplicate case name ${JSON.stringify(c.name)}`);
    names.add(c.name);
    const input = JSON.stringify([typeof c.doc === "string" ? c.doc : text(c.doc), c.options ?? {}]);
    if (inputs.has(input)) throw new Error(`${ruleId}: case ${JSON.stringify(c.name)} repeats another case`);
    inputs.add(input);
  }
}

/**
 * A rule's table (the rule tester): the rule fires where expected in every invalid case and stays silent
 * in every valid one. Only the rule under test runs, so no other rule can make a case pass or fail.
 */
export function ruleTable(ruleId: string, table: { valid: ValidCase[]; invalid: InvalidCase[] }): void {
  refuseDuplicateCases(ruleId, table);
  const run = (c: ValidCase | InvalidCase) => check(c.doc, { ...c.options, only: ruleId });
  describe(ruleId, () => {
    it.each(table.valid.map((c) => [c.name, c] as const))("stays silent: %s", (_name, c) => {
      expect(run(c)).toEqual([]);
    });
    it.each(table.invalid.map((c) => [c.name, c] as const))("fires: %s", (_name, c) => {
      const found = run(c);
      expect(found.map((f) => f.ruleId)).toEqual(found.map(() => ruleId));
      expect(found.map((f) => f.line)).toEqual(c.lines);
      for (const f of found) {
        if (c.message !== undefined) expect(f.message).toMatch(c.message);
        if (c.severity !== undefined) expect(f.severity).toBe(c.severity);
      }
    });
  });
}

type Obj = Record<string, unknown>;

/** The object or array at `path` in a fixture; throws on a wrong path, so that no case passes vacuously. */
export function at<T = Obj>(doc: unknown, ...path: (string | number)[]): T {
  let cur: unknown = doc;
  for (const k of path) {
    if (typeof cur !== "object" || cur === null) throw new Error(`fixture has no ${path.join("/")}`);
    cur = (cur as Record<string | number, unknown>)[k];
  }
  if (typeof cur !== "object" || cur === null) throw new Error(`fixture has no ${path.join("/")}`);
  return cur as T;
}

/** A fixture changed by `change`, serialised. */
export function make(doc: Obj, change: (d: Obj) => void): string {
  change(doc);
  return text(doc);
}

/** A fixture with one member (at `path`) set to `value`, serialised. */
export function set(doc: Obj, path: (string | number)[], member: string, value: unknown): string {
  at<Obj>(doc, ...path)[member] = value;
  return text(doc);
}

/** `source` with the first `from` replaced; throws when the fixture lacks it, so that no case passes vacuously. */
export function edit(source: string, from: string, to: string): string {
  if (!source.includes(from)) throw new Error(`fixture does not contain ${JSON.stringify(from)}`);
  return source.replace(from, to);
}

/** A descriptor (host by default) whose `source.activation_name_pattern` is `pattern`, serialised. */
export function withPattern(pattern: unknown, doc: Obj = validHost()): string {
  at<Obj>(doc, "source").activation_name_pattern = pattern;
  return text(doc);
}
