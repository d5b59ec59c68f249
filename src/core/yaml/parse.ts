/**
 * YAML (an EF2 `extension.yaml`) parsed with the `yaml` package into the tree the rest of the core reads for
 * JSON (json/parse.ts's JsonNode, with source offsets), so that locate.ts places a finding in YAML exactly as in
 * JSON, by the same walk and with the same nearest-ancestor fallback. The outcome has the JSON parser's shape:
 * the value (what `toJS` gives), the tree, the duplicate keys, or the first error with its offsets.
 *
 * Hostile input is bounded before it costs anything, so that parsing costs time and memory linear in the
 * text, whatever its shape (docs/security.md "Bounded work"):
 * - the package's parser makes a syntax tree of some 400 bytes per token (a 5 MB flow sequence `[1, 1, …]`
 *   is 5 million tokens: 18 s and 1.7 GB), so it stops at MAX_YAML_TOKENS tokens, counted as it reads them;
 * - its depth is measured without recursion and refused past MAX_YAML_DEPTH before the package's composer
 *   and `toJS` recurse into it (at some 800 levels they overflow the stack);
 * - YAML 1.2 alone: a `%YAML` directive of another version is refused (YAML 1.1 turns on merge keys, which
 *   copy the map they name at each use: 99 of them over a 1.5 MB map took 25 s and 900 MB), and so is a
 *   merge key `<<`, which YAML 1.2 would read as a member named `<<` where its author meant a merge;
 * - aliases: at most MAX_ALIASES of them (the package looks each one up among every anchor and alias before
 *   it: quadratic), standing for at most MAX_ALIAS_NODES nodes in all (each alias stands for its anchor's
 *   whole node, which rules then walk again), none inside the node it names (a cycle), and only as values:
 *   a key is a name (a collection or alias as a key is stringified against every anchor: quadratic);
 * - duplicate keys are found here with a set per mapping (the package's own check compares every key with
 *   every other, quadratic in a mapping's size);
 * - the file's size is the runner's (`max_extension_size`, within `max_file_size`).
 */
import {
  Composer,
  CST,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  Lexer,
  Parser,
  type Document,
  type Node,
} from "yaml";
import type { Anchored, DuplicateKey, JsonNode, MemberNode, ParseOutcome } from "../json/parse.js";
import { escapeSegment } from "../json/pointer.js";

/**
 * Deeper nesting than this is refused: an extension.yaml is some seven levels deep (`jmx`, groups, subgroups,
 * metrics), and the package's recursion stays far from the stack's end.
 */
export const MAX_YAML_DEPTH = 100;
/** The `yaml` package's alias-bomb guard (its default made explicit): aliases times their expansion, at most. */
export const MAX_ALIAS_COUNT = 100;
/**
 * Tokens (scalars, punctuation, spaces, line breaks) read at most: about 100 MB of the package's syntax tree.
 * The largest extension.yaml Dynatrace publishes has 51,624 (274 KB); 250,000 is some 1.3 MB of such YAML.
 */
export const MAX_YAML_TOKENS = 250_000;
/** Aliases (`*name`) at most; an extension.yaml Dynatrace publishes has none. */
export const MAX_ALIASES = 100;
/** Nodes the aliases stand for, all together, at most (the value then has at most this many more than the text). */
export const MAX_ALIAS_NODES = 100_000;

/** A bound the text passed, where (found before or while the package reads it). */
class Refused extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly end = offset + 1,
  ) {
    super(message);
  }
}

const thousands = (n: number) => n.toLocaleString("en-US");

/**
 * The text's syntax tree, as the package's parser makes it (`Parser.parse`), from its lexer's tokens counted
 * on the way: stopped past MAX_YAML_TOKENS and MAX_ALIASES, and at a `%YAML` directive of another version
 * than 1.2 (YAML 1.1 reads `yes`, `on` and `0777` otherwise, and merges maps at `<<`), before it reads further.
 */
function syntaxTree(text: string): CST.Token[] {
  const parser = new Parser();
  const out: CST.Token[] = [];
  let tokens = 0;
  let aliases = 0;
  let offset = 0;
  // The lexer marks a scalar's text with a token before it (CST.SCALAR): that text is no directive or alias.
  let scalar = false;
  for (const source of new Lexer().lex(text)) {
    const marked = scalar;
    scalar = source === CST.SCALAR;
    // The lexer's marks (a scalar's, a document's, a flow's end) are not in the text, and cost no token.
    const mark = source.length === 1 && source < " " && source !== "\t" && source !== "\n";
    if (!mark) {
      if (++tokens > MAX_YAML_TOKENS)
        throw new Refused(
          `more than ${thousands(MAX_YAML_TOKENS)} YAML tokens (values, punctuation, line breaks), more than plugin-review reads in an extension.yaml (the largest Dynatrace publishes has some 52,000)`,
          offset,
        );
      const first = marked ? undefined : source[0];
      if (first === "*" && ++aliases > MAX_ALIASES)
        throw new Refused(
          `more than ${MAX_ALIASES} aliases (\`*name\`); write the values out`,
          offset,
          offset + source.length,
        );
      const version = first === "%" ? /^%YAML[ \t]+(\S+)/.exec(source)?.[1] : undefined;
      if (version !== undefined && version !== "1.2")
        throw new Refused(
          `\`%YAML ${version}\`: plugin-review reads an extension.yaml as YAML 1.2, the version Dynatrace documents; remove the directive`,
          offset,
          offset + source.length,
        );
      offset += source.length;
    }
    for (const token of parser.next(source)) out.push(token);
  }
  for (const token of parser.end()) out.push(token);
  return out;
}

/** A token of the concrete syntax tree, as far as its depth is concerned. */
interface Token {
  type: string;
  offset?: number;
  value?: unknown;
  items?: { key?: unknown; value?: unknown }[];
}

const isToken = (t: unknown): t is Token =>
  typeof t === "object" && t !== null && typeof (t as Token).type === "string";

/** The first collection nested deeper than MAX_YAML_DEPTH (its offset), walked with a stack, not recursion. */
function tooDeep(tokens: readonly unknown[]): number | undefined {
  const stack: [Token, number][] = [];
  for (const t of tokens) if (isToken(t)) stack.push([t, 0]);
  while (stack.length) {
    const [token, depth] = stack.pop()!;
    const items = token.items;
    const inner = items ? depth + 1 : depth;
    if (inner > MAX_YAML_DEPTH) return token.offset ?? 0;
    if (isToken(token.value)) stack.push([token.value, inner]);
    for (const item of items ?? []) {
      if (isToken(item.key)) stack.push([item.key, inner]);
      if (isToken(item.value)) stack.push([item.value, inner]);
    }
  }
  return undefined;
}

/** The end of a node's text without the line breaks and spaces a block collection's range takes after it. */
function trimmedEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /[\s]/.test(text.charAt(e - 1))) e--;
  return e;
}

interface Converted {
  root: JsonNode;
  duplicates: DuplicateKey[];
  /** Where the first alias is (an alias bomb is reported there). */
  firstAlias?: number;
}

/**
 * The package's nodes as JSON nodes (depth bounded by MAX_YAML_DEPTH already, so recursion is safe). Throws
 * Refused at a merge key, a key that is no scalar, an alias inside the node it names, or the alias that
 * takes the nodes the aliases stand for past MAX_ALIAS_NODES.
 */
function convert(text: string, doc: Document.Parsed): Converted {
  const duplicates: DuplicateKey[] = [];
  const path: string[] = [];
  let firstAlias: number | undefined;
  // The nodes under each anchor as the value holds them (aliases expanded); undefined while it is being read.
  const anchors = new Map<string, number | undefined>();
  // Each anchor's node, and the key it is the value of (what is inside an alias is written there).
  const anchored = new Map<string, Anchored>();
  const anchoredNodes = new Map<JsonNode, Anchored>();
  let nodes = 0;
  let aliasNodes = 0;
  const pointer = () => path.map((s) => "/" + escapeSegment(s)).join("");
  const node = (n: Node | null | undefined, fallback: number): JsonNode => {
    if (!n || !n.range) return { kind: "null", start: fallback, end: fallback };
    const start = n.range[0];
    const end = trimmedEnd(text, start, n.range[1]);
    const before = nodes++;
    const anchor = isAlias(n) ? undefined : n.anchor;
    if (anchor !== undefined) anchors.set(anchor, undefined);
    const out = value(n, start, end);
    if (anchor !== undefined) {
      anchors.set(anchor, nodes - before);
      const a: Anchored = { node: out };
      anchored.set(anchor, a);
      anchoredNodes.set(out, a);
    }
    return out;
  };
  const value = (n: Node, start: number, end: number): JsonNode => {
    if (isMap(n)) {
      const members: MemberNode[] = [];
      const seen = new Map<string, number>();
      for (const pair of n.items) {
        const k = pair.key as Node | null;
        const keyStart = k?.range?.[0] ?? (pair.value as Node | null)?.range?.[0] ?? start;
        const keyEnd = k?.range ? trimmedEnd(text, k.range[0], k.range[1]) : keyStart;
        if (k && !isScalar(k))
          throw new Refused(
            "a key that is a mapping, a sequence or an alias; the keys of an extension.yaml are names",
            keyStart,
            keyEnd,
          );
        if (k && k.value === "<<" && (k.type === "PLAIN" || k.type === undefined))
          throw new Refused(
            "a merge key (`<<`): plugin-review reads YAML 1.2, which has none; write the members out",
            keyStart,
            keyEnd,
          );
        // The member's name as `toJS` names it: a scalar's value as a string (null is "").
        const key = k?.value === null || k?.value === undefined ? "" : String(k.value as string | number);
        const first = seen.get(key);
        if (first !== undefined)
          duplicates.push({ objectPointer: pointer(), key, keyStart, keyEnd, firstKeyStart: first });
        else seen.set(key, keyStart);
        path.push(key);
        const member = node(pair.value as Node | null, keyEnd);
        const a = anchoredNodes.get(member);
        if (a) Object.assign(a, { keyStart, keyEnd });
        members.push({ key, keyStart, keyEnd, value: member });
        path.pop();
      }
      return { kind: "object", start, end, members };
    }
    if (isSeq(n)) {
      const items = n.items.map((item, i) => {
        path.push(String(i));
        const out = node(item as Node | null, start);
        path.pop();
        return out;
      });
      return { kind: "array", start, end, items };
    }
    if (isAlias(n)) {
      firstAlias ??= start;
      const named = anchors.get(n.source);
      if (named === undefined && anchors.has(n.source))
        throw new Refused(
          `the alias \`*${n.source}\` is inside the node it names (a value that holds itself)`,
          start,
          end,
        );
      aliasNodes += named ?? 0;
      nodes += named ?? 0;
      if (aliasNodes > MAX_ALIAS_NODES)
        throw new Refused(
          `the aliases stand for more than ${thousands(MAX_ALIAS_NODES)} values in all; write the values out`,
          start,
          end,
        );
      const alias = anchored.get(n.source);
      return alias ? { kind: "string", start, end, alias } : { kind: "string", start, end };
    }
    const v = isScalar(n) ? n.value : undefined;
    const kind =
      typeof v === "number" || typeof v === "bigint"
        ? "number"
        : typeof v === "boolean"
          ? "boolean"
          : v === null || v === undefined
            ? "null"
            : "string";
    return { kind, start, end };
  };
  const root = node(doc.contents as Node | null, 0);
  return firstAlias === undefined ? { root, duplicates } : { root, duplicates, firstAlias };
}

/** A parse failure at [offset, end), at least one character wide where the text has one (as JSON's are). */
function fail(text: string, message: string, offset: number, end = offset + 1): ParseOutcome {
  const at = Math.min(offset, text.length);
  return { ok: false, error: { message, offset: at, end: Math.min(text.length, Math.max(end, at + 1)) } };
}

/**
 * The text's documents, or why they are not read. The syntax tree is left here, to be collected while the
 * documents are converted (the package's documents keep none of it).
 */
function compose(text: string): Document.Parsed[] | Refused {
  const tokens = syntaxTree(text);
  const deep = tooDeep(tokens);
  if (deep !== undefined) return new Refused(`nested more than ${MAX_YAML_DEPTH} levels deep`, deep);
  // Silent: a hostile file must not write to our process (the yaml package warns on collection keys).
  // YAML 1.2's core schema, never merge keys, whatever a directive says.
  const composer = new Composer({
    uniqueKeys: false,
    logLevel: "silent",
    version: "1.2",
    schema: "core",
    merge: false,
  });
  return [...composer.compose(tokens, true, text.length)];
}

/** Parses one YAML document (YAML 1.2, the core schema). Never throws. */
export function parseYaml(text: string): ParseOutcome {
  try {
    const docs = compose(text);
    if (docs instanceof Refused) return fail(text, docs.message, docs.offset, docs.end);
    const doc = docs[0]!;
    const error = doc.errors[0];
    if (error) return fail(text, error.message, error.pos[0], error.pos[1]);
    const second = docs[1];
    if (second)
      return fail(
        text,
        "a second document begins here; an extension.yaml holds one",
        second.range[0],
        second.range[0] + 3,
      );
    const { root, duplicates, firstAlias } = convert(text, doc);
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (e) {
      return fail(
        text,
        `its aliases could not be expanded: ${e instanceof Error ? e.message : String(e)}`,
        firstAlias ?? 0,
      );
    }
    return { ok: true, value, root, duplicates };
  } catch (e) {
    if (e instanceof Refused) return fail(text, e.message, e.offset, e.end);
    // Nothing is known to throw below the bounds; an unforeseen failure is still a finding, not a crash.
    return fail(text, `the YAML parser failed: ${e instanceof Error ? e.message : String(e)}`, 0);
  }
}
