/** Shared test helpers: valid descriptors to mutate, a one-call review, and rule tables. */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resolveConfig, type RawConfig, type ResolvedConfig } from "../src/core/config.js";
import type { ExtensionFiles } from "../src/core/ef2/package.js";
import { formatOf } from "../src/core/ef2/pairing.js";
import { applyFixes, fixDescriptors } from "../src/core/fix.js";
import { LineIndex } from "../src/core/locate.js";
import { analyseDescriptors, type DescriptorInput } from "../src/core/analyse.js";
import { RULE_IDS } from "../src/core/rules/index.js";
import type { Finding, MessageData } from "../src/core/types.js";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Where docs/development.md says how to get what a skipped test needs. */
export const MORE_THAN_NPM_CI = "docs/development.md#tests-that-need-more-than-npm-ci";

/**
 * Why a test that reads `../shared/<path>` (the real corpus or the specification, kept beside the clone and not
 * in it) cannot run here, named relative to the clone; undefined when it is there.
 */
export function withoutShared(path: string): string | undefined {
  if (existsSync(join(ROOT, "..", "shared", path))) return undefined;
  return `../shared/${path} is absent: the real corpus and the specification go beside the clone (${MORE_THAN_NPM_CI})`;
}

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

/** The shipped migration example: an EF1 JMX plugin.json and its complete EF2 extension (examples/migration). */
export const MIGRATION = {
  plugin: readFileSync(new URL("../examples/migration/plugin.json", import.meta.url), "utf8"),
  extension: readFileSync(new URL("../examples/migration/extension/extension.yaml", import.meta.url), "utf8"),
};

/**
 * The example's extension without its `idle` metric, as an author removes one: its data source's line and its
 * metadata both gone (the migration rules then miss EF1's `idle`, and no metadata is left describing nothing).
 */
export function withoutIdle(extension: string = MIGRATION.extension): string {
  const metadata = extension.slice(
    extension.indexOf("\n  - key: example.pool.idle\n") + 1,
    extension.indexOf("\n  - key: example.pool.created.count\n") + 1,
  );
  return edit(
    edit(
      extension,
      "            - key: example.pool.idle\n              value: attribute:NumIdle\n              type: gauge\n",
      "",
    ),
    metadata,
    "",
  );
}

/**
 * The options that review an extension.yaml (in the layout `migrate` writes) as the migration of `plugin`
 * (default: the example's plugin.json), which the change deletes unless `status` says otherwise.
 */
export function migrating(
  plugin: string | Json = MIGRATION.plugin,
  status: "kept" | "changed" | "deleted" = "deleted",
): CheckOptions {
  return { path: "extension/extension.yaml", isNew: true, replaces: { content: plugin, status } };
}

/** The shipped valid Extensions 2.0 extension (an SNMP extension with no findings at all). */
export const EXTENSION = readFileSync(
  new URL("../examples/extension-valid/extension/extension.yaml", import.meta.url),
  "utf8",
);

/** The options that review a text as an extension.yaml (in the layout Dynatrace's tools write). */
export const EF2: CheckOptions = { path: "extension/extension.yaml" };

const PYTHON_PROJECT = "examples/extension-python";

/**
 * The shipped Python extension's project (Dynatrace's SDK layout: `extension/extension.yaml`, its
 * activationSchema.json, the module's folder beside `extension/`): its extension.yaml, and the options that
 * review it with its files listed and its activation schema read, as a caller passes them. `files` replaces
 * files' contents (`undefined`: the file is gone).
 */
export function pythonExtension(files: Record<string, string | undefined> = {}): {
  extension: string;
  schema: string;
  options: CheckOptions;
} {
  const root = new URL(`../${PYTHON_PROJECT}/`, import.meta.url);
  const all = (readdirSync(root, { recursive: true }) as string[])
    .map((p) => p.split(sep).join("/"))
    .filter((p) => statSync(new URL(p, root)).isFile());
  const contents = new Map<string, string>();
  for (const p of all) contents.set(p, readFileSync(new URL(p, root), "utf8"));
  for (const [p, text] of Object.entries(files)) {
    if (text === undefined) contents.delete(p);
    else contents.set(p, text);
  }
  const schema = contents.get("extension/activationSchema.json") ?? "";
  return {
    extension: contents.get("extension/extension.yaml") ?? "",
    schema,
    options: {
      path: "extension/extension.yaml",
      files: {
        paths: [...contents.keys()].sort(),
        contents: new Map([...contents].filter(([p]) => p.endsWith(".json"))),
      },
    },
  };
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
  /**
   * For an extension.yaml (`path`): the EF1 plugin.json it replaces, as the base holds it (a descriptor object
   * or its text), with its path (default: `plugin.json` beside the extension's folder) and what the change
   * does with it.
   */
  replaces?: { content: string | Json; path?: string; status?: "kept" | "changed" | "deleted" };
  /** For an extension.yaml: the files of its extension, as a caller lists and reads them. */
  files?: ExtensionFiles;
  /** Run only this rule (the rule tester): every other rule is turned off, and rules that are off never run. */
  only?: string;
}

/** The configuration of a check (`only`: every other rule off, and rules that are off never run). */
function configFor(opts: CheckOptions): ResolvedConfig {
  const config = resolveConfig({
    ...(opts.org ? { org: opts.org } : {}),
    ...(opts.config ? { repo: opts.config } : {}),
  });
  if (opts.only !== undefined) {
    if (!RULE_IDS.includes(opts.only)) throw new Error(`no rule \`${opts.only}\``);
    for (const id of RULE_IDS) if (id !== opts.only) config.rules[id] = "off";
  }
  return config;
}

function inputFor(doc: string | Json, opts: CheckOptions): DescriptorInput {
  const content = typeof doc === "string" ? doc : text(doc);
  const path = opts.path ?? "plugin.json";
  return {
    path,
    content,
    ...(opts.base !== undefined
      ? { base: { path, content: typeof opts.base === "string" ? opts.base : text(opts.base) } }
      : {}),
    ...(opts.isNew !== undefined ? { isNew: opts.isNew } : {}),
    ...(opts.files ? { files: opts.files } : {}),
    ...(opts.replaces
      ? {
          replaces: {
            path: opts.replaces.path ?? "plugin.json",
            content:
              typeof opts.replaces.content === "string" ? opts.replaces.content : text(opts.replaces.content),
            ...(opts.replaces.status ? { status: opts.replaces.status } : {}),
          },
        }
      : {}),
  };
}

/** Reviews one descriptor (text or object) the way the CLI and the App do. */
export function check(doc: string | Json, opts: CheckOptions = {}): Finding[] {
  const [review] = analyseDescriptors([inputFor(doc, opts)], configFor(opts));
  return review!.findings;
}

/** The text after `--fix` (every fix applied, until none applies), as the CLI writes it. */
export function fixed(doc: string | Json, opts: CheckOptions = {}): string {
  const input = inputFor(doc, opts);
  const before = input.content as string;
  return fixDescriptors([input], configFor(opts)).get(input)?.after ?? before;
}

/**
 * The text with one suggestion of a finding applied (what accepting it in the review gives). In YAML (an
 * extension.yaml: `yaml`), the edit replaces the finding's range, as the review's suggestion block does.
 */
export function withSuggestion(source: string, f: Finding, index: number, yaml = false): string {
  const edit = f.suggestions?.[index];
  if (!edit) throw new Error(`${f.ruleId} at line ${f.line} has no suggestion ${index}`);
  if (yaml) {
    const lines = new LineIndex(source);
    // The UTF-16 offset of a 1-based line and code-point column.
    const offset = (line: number, column: number) =>
      source.split("\n", line - 1).reduce((n, l) => n + l.length + 1, 0) +
      Array.from(lines.lineText(line))
        .slice(0, column - 1)
        .join("").length;
    return (
      source.slice(0, offset(f.line, f.column)) +
      edit.replacement +
      source.slice(offset(f.endLine, f.endColumn))
    );
  }
  const { text: out, applied } = applyFixes(source, [{ ...f, fix: edit }]);
  if (!applied.length) throw new Error(`suggestion ${JSON.stringify(edit)} does not apply`);
  return out;
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
  /** The message id of each finding (one for all, or one per finding in order), as ESLint's `errors[].messageId`. */
  messageId: string | string[];
  /** Each finding's data (one for all, or one per finding): the members given must be there, as given. */
  data?: MessageData | MessageData[];
  /** Optional fragment every message of this rule must contain. */
  message?: string | RegExp;
  severity?: "error" | "warning" | "notice";
  options?: CheckOptions;
  /**
   * The text after `--fix` (ESLint's `output`): required when the case's findings carry a fix, refused when
   * they carry none.
   */
  output?: string;
  /**
   * Each finding's suggestions, in order (ESLint's `suggestions`): what each says and the text after
   * applying it alone. Required when any finding has suggestions, refused when none has.
   */
  suggestions?: { desc: string; output: string }[][];
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
    // Maps (an extension's files' contents) by their entries: JSON.stringify writes every Map as `{}`.
    const input = JSON.stringify(
      [typeof c.doc === "string" ? c.doc : text(c.doc), c.options ?? {}],
      (_k, v) => (v instanceof Map ? [...(v as Map<unknown, unknown>)] : (v as unknown)),
    );
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
      assertInvalidCase(ruleId, c);
    });
  });
}

/**
 * One invalid case of a rule table, checked as ESLint's RuleTester checks one: the rule fires on the expected
 * lines with the expected message ids and data; the text after `--fix` is the case's `output` (required when
 * there is a fix, refused when there is none); each finding's suggestions have the expected descriptions
 * and outputs (required when there are any, refused when there are none).
 */
export function assertInvalidCase(ruleId: string, c: InvalidCase): void {
  const found = check(c.doc, { ...c.options, only: ruleId });
  expect(found.map((f) => f.ruleId)).toEqual(found.map(() => ruleId));
  expect(found.map((f) => f.line)).toEqual(c.lines);
  const each = <T>(v: T | T[] | undefined, i: number): T | undefined => (Array.isArray(v) ? v[i] : v);
  expect(found.map((f) => f.messageId)).toEqual(found.map((_, i) => each(c.messageId, i)));
  found.forEach((f, i) => {
    const data = each(c.data, i);
    if (data !== undefined) expect(f.data).toMatchObject(data);
    if (c.message !== undefined) expect(f.message).toMatch(c.message);
    if (c.severity !== undefined) expect(f.severity).toBe(c.severity);
  });
  const source = typeof c.doc === "string" ? c.doc : text(c.doc);
  if (found.some((f) => f.fix)) {
    expect(c.output, "the case's findings carry a fix: give the `output`").toBeDefined();
    expect(fixed(c.doc, { ...c.options, only: ruleId })).toBe(c.output);
  } else {
    expect(c.output, "no finding carries a fix: no `output`").toBeUndefined();
  }
  if (found.some((f) => f.suggestions?.length)) {
    expect(c.suggestions, "the case's findings carry suggestions: give them").toBeDefined();
    expect(
      found.map((f) =>
        (f.suggestions ?? []).map((s, k) => ({
          desc: s.description,
          output: withSuggestion(
            source,
            f,
            k,
            formatOf(c.options?.path ?? "plugin.json") === "extension.yaml",
          ),
        })),
      ),
    ).toEqual(c.suggestions);
  } else {
    expect(c.suggestions, "no finding carries suggestions: no `suggestions`").toBeUndefined();
  }
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

/** Adds why it skipped to the name of a group or test given to `skip`, for test/skip-reporter.ts. */
function skipping<F>(skip: F, reason: string): F {
  const f = skip as unknown as (name: string, ...rest: unknown[]) => unknown;
  return ((name: string, ...rest: unknown[]) => f(`${name} (skipped: ${reason})`, ...rest)) as unknown as F;
}

/**
 * `describe`, or, when `reason` says why the group cannot run here, `describe.skip` with the reason in its
 * name, which test/skip-reporter.ts prints after the run.
 */
export function describeUnless(reason: string | false | undefined): typeof describe.skip {
  return reason ? skipping(describe.skip, reason) : describe;
}

/** `it`, or, when `reason` says why the test cannot run here, `it.skip` with the reason in its name. */
export function itUnless(reason: string | false | undefined): typeof it.skip {
  return reason ? skipping(it.skip, reason) : it;
}

/** A TCP port free on 127.0.0.1 right now (for a server a test starts). */
export async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}
