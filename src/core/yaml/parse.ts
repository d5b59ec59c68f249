/**
 * YAML (an EF2 `extension.yaml`) parsed with the `yaml` package into the tree the rest of the core reads for
 * JSON (json/parse.ts's JsonNode, with source offsets), so that locate.ts places a finding in YAML exactly as in
 * JSON, by the same walk and with the same nearest-ancestor fallback. The outcome has the JSON parser's shape:
 * the value (what `toJS` gives), the tree, the duplicate keys, or the first error with its offsets.
 *
 * Hostile input is bounded before it costs anything: the package's parser (iterative) makes the syntax tree,
 * its depth is measured without recursion and refused past MAX_YAML_DEPTH before the package's composer and
 * `toJS` recurse into it (at some 800 levels they overflow the stack, and a flow sequence of 100,000 `[` takes
 * seconds and then the heap); aliases expand only within `maxAliasCount` (an alias bomb is refused);
 * duplicate keys are found here with a set per mapping (the package's own check compares every key with every
 * other, quadratic in a mapping's size); the file's size is the runner's `max_file_size`.
 */
import { Composer, isAlias, isMap, isScalar, isSeq, Parser, type Document, type Node } from "yaml";
import type { DuplicateKey, JsonNode, MemberNode, ParseOutcome } from "../json/parse.js";
import { escapeSegment } from "../json/pointer.js";

/**
 * Deeper nesting than this is refused: an extension.yaml is some seven levels deep (`jmx`, groups, subgroups,
 * metrics), and the package's recursion stays far from the stack's end.
 */
export const MAX_YAML_DEPTH = 100;
/** The `yaml` package's alias-bomb guard (its default made explicit): aliases times their expansion, at most. */
export const MAX_ALIAS_COUNT = 100;

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

/** The package's nodes as JSON nodes (depth bounded by MAX_YAML_DEPTH already, so recursion is safe). */
function convert(text: string, doc: Document.Parsed): Converted {
  const duplicates: DuplicateKey[] = [];
  const path: string[] = [];
  let firstAlias: number | undefined;
  const pointer = () => path.map((s) => "/" + escapeSegment(s)).join("");
  const node = (n: Node | null | undefined, fallback: number): JsonNode => {
    if (!n || !n.range) return { kind: "null", start: fallback, end: fallback };
    const start = n.range[0];
    const end = trimmedEnd(text, start, n.range[1]);
    if (isMap(n)) {
      const members: MemberNode[] = [];
      const seen = new Map<string, number>();
      for (const pair of n.items) {
        const k = pair.key as Node | null;
        const keyStart = k?.range?.[0] ?? (pair.value as Node | null)?.range?.[0] ?? start;
        const keyEnd = k?.range ? trimmedEnd(text, k.range[0], k.range[1]) : keyStart;
        // The member's name as `toJS` names it: a scalar's value as a string (null is ""), else its text.
        const key = isScalar(k)
          ? k.value === null || k.value === undefined
            ? ""
            : String(k.value as string | number | boolean)
          : text.slice(keyStart, keyEnd);
        const first = seen.get(key);
        if (first !== undefined)
          duplicates.push({ objectPointer: pointer(), key, keyStart, keyEnd, firstKeyStart: first });
        else seen.set(key, keyStart);
        path.push(key);
        members.push({ key, keyStart, keyEnd, value: node(pair.value as Node | null, keyEnd) });
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
      return { kind: "string", start, end };
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

/** Parses one YAML document (YAML 1.2, the core schema). Never throws. */
export function parseYaml(text: string): ParseOutcome {
  try {
    const tokens = [...new Parser().parse(text)];
    const deep = tooDeep(tokens);
    if (deep !== undefined) return fail(text, `nested more than ${MAX_YAML_DEPTH} levels deep`, deep);
    // Silent: a hostile file must not write to our process (the yaml package warns on collection keys).
    const docs = [
      ...new Composer({ uniqueKeys: false, logLevel: "silent" }).compose(tokens, true, text.length),
    ];
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
    // Nothing is known to throw below the depth limit; an unforeseen failure is still a finding, not a crash.
    return fail(text, `the YAML parser failed: ${e instanceof Error ? e.message : String(e)}`, 0);
  }
}
