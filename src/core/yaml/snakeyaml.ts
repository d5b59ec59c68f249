/**
 * An extension.yaml read as Dynatrace reads it, into the tree the rest of the core reads for JSON (json/parse.ts's
 * JsonNode, with source offsets), so that locate.ts places a finding in YAML as in JSON. The outcome has the JSON
 * parser's shape: the value, the tree, the duplicate keys, or the first error with its offsets.
 *
 * Read by js-yaml (YAML 1.2's core schema), whose parse events give every node's place as it reads it: one pass
 * over the text, the value and its tree together, some 20 times faster than the `yaml` package's syntax tree
 * (bench/extensions.mjs). Like Dynatrace's parser (SnakeYAML), js-yaml takes a quoted value whose lines are
 * indented no deeper than its key, which YAML 1.2 refuses (editors do too): the outcome says where
 * (`lenient`), so that the review warns rather than failing a file Dynatrace reads.
 *
 * Hostile input is bounded as it is read (docs/security.md "Bounded work"): more than MAX_YAML_NODES nodes,
 * nesting past MAX_YAML_DEPTH, more than MAX_ALIASES aliases or aliases standing for more than MAX_ALIAS_NODES nodes in all (js-yaml shares an
 * anchor's value among its aliases, but rules walk each again), a key that is a collection or an alias, a merge
 * key (`<<`, which YAML 1.2 does not have: its author meant a merge), a `%YAML` directive of another version, and
 * a second document are refused; duplicate keys are found here, in one set per mapping. Never throws.
 */
import jsYaml from "js-yaml";
import type { Anchored, DuplicateKey, JsonNode, MemberNode, ParseOutcome } from "../json/parse.js";
import { escapeSegment } from "../json/pointer.js";
import { quote } from "../quote.js";

/** Deeper nesting than this is refused: an extension.yaml is some seven levels deep. */
export const MAX_YAML_DEPTH = 100;
/**
 * Nodes (values, collections, keys) read at most: js-yaml's value and the tree of offsets cost some 100 bytes a
 * node, so a 4.5 MB flow sequence `[1,1,…]` (2.4 million nodes) took 5 s and 510 MB before rules walked it. The
 * largest extension.yaml Dynatrace publishes has some 17,000; 250,000 is over a megabyte of such YAML.
 */
export const MAX_YAML_NODES = 250_000;
/** Aliases (`*name`) at most; an extension.yaml Dynatrace publishes has none. */
export const MAX_ALIASES = 100;
/** Nodes the aliases stand for, all together, at most. */
export const MAX_ALIAS_NODES = 100_000;

/** A quoted value read as SnakeYAML reads it: where it starts and what YAML 1.2 says of it. */
export interface LenientRead {
  message: string;
  offset: number;
  end: number;
}

export type DynatraceParseOutcome = ParseOutcome & { lenient?: LenientRead };

/** js-yaml's parser state, as far as the events read it (its typings leave these out). */
interface ReadState {
  position: number;
  kind: string | null;
  result: unknown;
  anchor: string | null;
}

/** A bound the text passed, or a construct refused, where. */
class Refused extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly end = offset + 1,
  ) {
    super(message);
  }
}

/** A node being read: where its event opened, and the nodes read inside it. */
interface Frame {
  open: number;
  children: Read[];
}

/** A node read: its tree node, its value as a key names it, whether it is a key, how many nodes it holds. */
interface Read {
  node: JsonNode;
  key: string;
  isKey: boolean;
  size: number;
}

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const HASH = 35;

const isBlank = (c: number) => c === SPACE || c === TAB || c === LF || c === CR;

/** The first offset from `i` that is no space, line break or comment. */
function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (isBlank(c)) i++;
    else if (c === HASH) {
      while (i < text.length && text.charCodeAt(i) !== LF) i++;
    } else return i;
  }
}

/** The offset after the last character before `end` that is no space or line break. */
function trimEnd(text: string, start: number, end: number): number {
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
  return end;
}

const thousands = (n: number) => n.toLocaleString("en-US");

/** The name a mapping's key gives its member, as js-yaml's object holds it. */
function keyName(value: unknown): string {
  return String(value);
}

/** A node's anchor and tag (`&pool !!map `), read where the node starts. */
const PROPERTIES = /(?:[&!]\S*\s+)*/y;

/** The tree's kind of a collection js-yaml read. */
function kindOf(kind: string | null): JsonNode["kind"] | undefined {
  return kind === "mapping" ? "object" : kind === "sequence" ? "array" : undefined;
}

class TreeReader {
  private readonly stack: Frame[] = [{ open: 0, children: [] }];
  private nodes = 0;
  private aliases = 0;
  private readonly aliasesRead = new Set<number>();
  private aliasNodes = 0;
  /** Each anchor's node count (undefined while it is read: an alias to it then is inside it). */
  private readonly anchors = new Map<string, number | undefined>();
  /** Each anchor's node, and the key it is the value of (set when its mapping is read). */
  private readonly anchored = new Map<string, Anchored>();
  private readonly anchoredNodes = new Map<JsonNode, Anchored>();
  readonly duplicates: DuplicateKey[] = [];
  /** Quoted values and flow collections over several lines, in the order read (inner before outer). */
  private readonly multiLine: { start: number; end: number; flow: boolean }[] = [];

  constructor(private readonly text: string) {}

  get root(): Read | undefined {
    return this.stack[0]!.children[0];
  }

  open(state: ReadState): void {
    if (++this.nodes > MAX_YAML_NODES)
      throw new Refused(
        `more than ${thousands(MAX_YAML_NODES)} YAML values (keys, values, collections), more than plugin-review reads in an extension.yaml (the largest Dynatrace publishes has some 17,000)`,
        state.position,
      );
    const parent = this.stack[this.stack.length - 1]!;
    // js-yaml reads some constructs twice (a property before a block mapping): what it read from here is undone.
    while (
      parent.children.length &&
      parent.children[parent.children.length - 1]!.node.start >= state.position
    )
      parent.children.pop();
    this.stack.push({ open: state.position, children: [] });
  }

  close(state: ReadState): void {
    const frame = this.stack.pop()!;
    const read = this.read(frame, state);
    this.stack[this.stack.length - 1]!.children.push(read);
  }

  private read(frame: Frame, state: ReadState): Read {
    const text = this.text;
    // A node starts at its content, past its anchor and tag (`&pool !!map {…}`), as the yaml package places it:
    // a fix then edits the value and keeps the anchor its aliases name.
    PROPERTIES.lastIndex = skipSpace(text, frame.open);
    PROPERTIES.exec(text);
    const start = PROPERTIES.lastIndex;
    const first = text.charCodeAt(start);
    const anchor = state.anchor;
    let node: JsonNode;
    let size = 1;
    const only = frame.children.length === 1 ? frame.children[0]! : undefined;
    if (only && !only.isKey && only.node.start === start && only.node.kind === kindOf(state.kind)) {
      // A flow collection on a line of its own (`- {key: a}`, `- [a, b]`): js-yaml first reads it as the key of
      // a block mapping, finds no `:`, and keeps that read as this node's value. That read is this node.
      node = only.node;
      size = only.size;
    } else if (first === 42 /* * */ && state.kind !== "mapping" && state.kind !== "sequence") {
      // An alias stands for its anchor's whole node (itself counted with the aliases it holds).
      const alias = this.alias(start, state.position);
      node = alias.node;
      size = alias.size;
    } else if (state.kind === "mapping") {
      const members = this.members(frame.children, start);
      const end = this.collectionEnd(start, state.position, members.at(-1)?.value);
      node = { kind: "object", start, end, members };
      for (const c of frame.children) size += c.size;
    } else if (state.kind === "sequence") {
      const items = frame.children.map((c) => c.node);
      node = { kind: "array", start, end: this.collectionEnd(start, state.position, items.at(-1)), items };
      for (const c of frame.children) size += c.size;
    } else if (state.kind === null && state.result === null) {
      // An empty value: where it would be.
      node = { kind: "null", start: frame.open, end: frame.open };
    } else {
      const v = state.result;
      const end = trimEnd(text, start, state.position);
      const kind =
        typeof v === "number"
          ? "number"
          : typeof v === "boolean"
            ? "boolean"
            : v === null
              ? "null"
              : "string";
      node = { kind, start, end };
      if (first === 39 /* ' */ || first === 34 /* " */) this.spans(start, end, false);
    }
    if ((first === 91 /* [ */ || first === 123) /* { */ && node.kind !== "string")
      this.spans(start, node.end, true);
    if (anchor !== null && anchor !== undefined && first !== 42) {
      this.anchors.set(anchor, size);
      const anchored: Anchored = { node };
      this.anchored.set(anchor, anchored);
      this.anchoredNodes.set(node, anchored);
    }
    const next = skipSpace(text, node.end);
    // A key: `:` after it (a block or flow mapping), or `?` before it (an explicit key).
    const isKey = text.charCodeAt(next) === 58 /* : */ || this.explicitKey(start);
    return { node, key: isKey ? keyName(state.result) : "", isKey, size };
  }

  private explicitKey(start: number): boolean {
    let i = start - 1;
    while (i >= 0 && (this.text.charCodeAt(i) === SPACE || this.text.charCodeAt(i) === TAB)) i--;
    return this.text.charCodeAt(i) === 63; /* ? */
  }

  /** A block collection ends with its last element; a flow one with its bracket. */
  private collectionEnd(start: number, position: number, last: JsonNode | undefined): number {
    const first = this.text.charCodeAt(start);
    if (first === 91 /* [ */ || first === 123 /* { */ || !last) return trimEnd(this.text, start, position);
    return Math.max(last.end, start);
  }

  private members(children: readonly Read[], start: number): MemberNode[] {
    const members: MemberNode[] = [];
    const seen = new Map<string, number>();
    for (let i = 0; i < children.length; i++) {
      const k = children[i]!;
      if (!k.isKey) continue;
      if (k.node.kind === "object" || k.node.kind === "array")
        throw new Refused(
          "a key that is a mapping or a sequence; the keys of an extension.yaml are names",
          k.node.start,
          k.node.end,
        );
      const keyText = this.text.slice(k.node.start, k.node.end);
      if (keyText === "<<")
        throw new Refused(
          "a merge key (`<<`): plugin-review reads YAML 1.2, which has none; write the members out",
          k.node.start,
          k.node.end,
        );
      if (this.text.charCodeAt(k.node.start) === 42 /* * */)
        throw new Refused(
          "an alias as a key; the keys of an extension.yaml are names",
          k.node.start,
          k.node.end,
        );
      const next = children[i + 1];
      const value =
        next && !next.isKey
          ? (i++, next.node)
          : { kind: "null" as const, start: k.node.end, end: k.node.end };
      const first = seen.get(k.key);
      if (first !== undefined)
        this.duplicates.push({
          objectPointer: "",
          key: k.key,
          keyStart: k.node.start,
          keyEnd: k.node.end,
          firstKeyStart: first,
        });
      else seen.set(k.key, k.node.start);
      const anchored = this.anchoredNodes.get(value);
      if (anchored) Object.assign(anchored, { keyStart: k.node.start, keyEnd: k.node.end });
      members.push({ key: k.key, keyStart: k.node.start, keyEnd: k.node.end, value });
    }
    void start;
    return members;
  }

  private alias(start: number, position: number): { node: JsonNode; size: number } {
    const end = trimEnd(this.text, start, position);
    const name = /^\*([^\s,\]}]+)/.exec(this.text.slice(start, end))?.[1] ?? "";
    // js-yaml names only anchors it has read (else "unidentified alias"): one not closed yet is around this alias,
    // whose value would hold itself (a cycle that rules walking it would follow forever).
    const size = this.anchors.get(name);
    if (size === undefined)
      throw new Refused(
        `the alias \`*${name}\` is inside the node it names (a value that holds itself)`,
        start,
        end,
      );
    // What is inside an alias is written at its anchor (locate.ts places it there).
    const alias = this.anchored.get(name)!;
    // js-yaml reads some constructs twice (open): an alias is counted once, by its place.
    if (this.aliasesRead.has(start)) return { node: { kind: "string", start, end, alias }, size };
    this.aliasesRead.add(start);
    if (++this.aliases > MAX_ALIASES)
      throw new Refused(`more than ${MAX_ALIASES} aliases (\`*name\`); write the values out`, start, end);
    this.aliasNodes += size;
    if (this.aliasNodes > MAX_ALIAS_NODES)
      throw new Refused(
        `the aliases stand for more than ${thousands(MAX_ALIAS_NODES)} values in all; write the values out`,
        start,
        end,
      );
    return { node: { kind: "string", start, end, alias }, size };
  }

  /** Keeps a quoted value or flow collection that continues on another line, for firstLenient. */
  private spans(start: number, end: number, flow: boolean): void {
    const lf = this.text.indexOf("\n", start);
    if (lf >= 0 && lf < end) this.multiLine.push({ start, end, flow });
  }

  /**
   * The first quoted value or flow collection (`[…]`, `{…}`) of the block structure whose continuation lines are
   * indented no deeper than its line's content: what SnakeYAML and js-yaml read and YAML 1.2 refuses. One inside
   * a flow collection over several lines is judged with it, by its first line (YAML 1.2 asks the lines of a flow
   * collection to be indented past the block it is in, wherever its items start); a line that closes a flow
   * collection (`]`, `}`) and a comment may be anywhere.
   */
  firstLenient(): LenientRead | undefined {
    let outer: { start: number; end: number } | undefined;
    // In the text's order: an inner one lies within the last flow collection judged, and the first found is said.
    const spans = [...this.multiLine].sort((a, b) => a.start - b.start);
    for (const s of spans) {
      if (outer && s.start < outer.end) continue;
      if (s.flow) outer = s;
      const found = this.underIndented(s.start, s.end, s.flow);
      if (found) return found;
    }
    return undefined;
  }

  private underIndented(start: number, end: number, flow: boolean): LenientRead | undefined {
    const text = this.text;
    const lineStart = text.lastIndexOf("\n", start - 1) + 1;
    let content = lineStart;
    let dash = -1; // the column of the line's last `- `
    for (;;) {
      while (text.charCodeAt(content) === SPACE) content++;
      if (text.charCodeAt(content) === 45 /* - */ && text.charCodeAt(content + 1) === SPACE) {
        dash = content - lineStart;
        content += 2;
      } else break;
    }
    // A key's value: its lines past the key. A sequence item itself (`- "a…`, past an anchor or tag), or the
    // document's root: past the `- `'s column (a root: anywhere), as YAML 1.2 indents a block sequence's items.
    const keyed = /:(\s|$)/.test(text.slice(content, start));
    const need = keyed ? content - lineStart + 1 : dash + 1;
    for (let i = text.indexOf("\n", start); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) {
      let indent = 0;
      while (text.charCodeAt(i + 1 + indent) === SPACE) indent++;
      const c = text.charCodeAt(i + 1 + indent);
      if (c === LF || c === CR) continue;
      if (flow && (c === 93 /* ] */ || c === 125 /* } */ || c === 35) /* # */) continue;
      if (indent < need) {
        const lineEnd = text.indexOf("\n", lineStart);
        return {
          message: flow
            ? "a flow collection's (`[…]`, `{…}`) continuation lines are not indented more than its key"
            : "a quoted value's continuation lines are not indented more than its key",
          offset: lineStart,
          end: lineEnd < 0 ? text.length : lineEnd,
        };
      }
    }
    return undefined;
  }
}

/** A parse failure at [offset, end), at least one character wide where the text has one (as JSON's are). */
function fail(text: string, message: string, offset: number, end = offset + 1): ParseOutcome {
  const at = Math.min(Math.max(0, offset), text.length);
  return { ok: false, error: { message, offset: at, end: Math.min(text.length, Math.max(end, at + 1)) } };
}

/** The pointers of the duplicate keys, filled in once the tree is whole (the events do not know them). */
function placeDuplicates(root: JsonNode, duplicates: DuplicateKey[]): void {
  if (!duplicates.length) return;
  const at = new Map(duplicates.map((d) => [d.keyStart, d]));
  const stack: [JsonNode, string][] = [[root, ""]];
  while (stack.length) {
    const [n, pointer] = stack.pop()!;
    if (n.kind === "object")
      for (const m of n.members) {
        const d = at.get(m.keyStart);
        if (d) d.objectPointer = pointer;
        stack.push([m.value, `${pointer}/${escapeSegment(m.key)}`]);
      }
    else if (n.kind === "array") n.items.forEach((item, i) => stack.push([item, `${pointer}/${i}`]));
  }
}

const DIRECTIVE = /^%YAML[ \t]+(\S+)/m;

/** Where a text's second document begins (js-yaml says only that there is one): its `---`, or what follows a `...`. */
function secondDocument(text: string): number {
  let content = false;
  let ended = false;
  for (const m of text.matchAll(/^(---|\.\.\.)(?=[ \t\r\n]|$)|^[ \t]*[^ \t\r\n#%]/gm)) {
    const marker = m[1];
    if (marker === "...") ended = content;
    else if (marker === "---") {
      if (content || ended) return m.index;
    } else if (ended) return m.index;
    else content = true;
  }
  return 0;
}

/**
 * A tag as the text writes it (`!!binary`, `!Ref`, `!<…>`) for the tag js-yaml resolved it to, and where: the
 * last place it is written before the tagged node's end. Undefined when it is written otherwise (a `%TAG` handle).
 */
function tagWritten(text: string, resolved: string, end: number): { tag: string; at: number } | undefined {
  const core = "tag:yaml.org,2002:";
  const forms = [`!<${resolved}>`];
  if (resolved.startsWith(core)) forms.push(`!!${resolved.slice(core.length)}`);
  if (resolved.startsWith("!")) forms.push(resolved);
  let found: { tag: string; at: number } | undefined;
  for (const tag of forms) {
    const at = text.lastIndexOf(tag, end);
    if (at >= 0 && (!found || at > found.at)) found = { tag, at };
  }
  return found;
}

/** Parses an extension.yaml as Dynatrace reads it (one YAML 1.2 document, the core schema). Never throws. */
export function parseYamlAsDynatrace(text: string): DynatraceParseOutcome {
  if (text.charCodeAt(0) !== BOM) return parseText(text);
  // SnakeYAML and js-yaml skip a byte order mark (Windows editors write one), and js-yaml's positions then
  // count from after it: the text is read without it, and every offset moved past it.
  return shifted(parseText(text.slice(1)), 1);
}

const BOM = 0xfeff;

/** An outcome's offsets moved by `by` (the tree's, the duplicate keys', the lenient read's, the error's). */
function shifted(out: DynatraceParseOutcome, by: number): DynatraceParseOutcome {
  if (!out.ok)
    return { ...out, error: { ...out.error, offset: out.error.offset + by, end: out.error.end + by } };
  const stack: JsonNode[] = [out.root];
  const moved = new Set<JsonNode>(); // a node is moved once, however the tree reaches it
  while (stack.length) {
    const n = stack.pop()!;
    if (moved.has(n)) continue;
    moved.add(n);
    n.start += by;
    n.end += by;
    if (n.kind === "object")
      for (const m of n.members) {
        m.keyStart += by;
        m.keyEnd += by;
        stack.push(m.value);
      }
    // One at a time: a sequence may hold more items than a call takes arguments.
    else if (n.kind === "array") for (const item of n.items) stack.push(item);
  }
  for (const d of out.duplicates) {
    d.keyStart += by;
    d.keyEnd += by;
    d.firstKeyStart += by;
  }
  if (out.lenient)
    out.lenient = { ...out.lenient, offset: out.lenient.offset + by, end: out.lenient.end + by };
  return out;
}

function parseText(text: string): DynatraceParseOutcome {
  const directive = DIRECTIVE.exec(text);
  if (directive && directive[1] !== "1.2")
    return fail(
      text,
      `\`%YAML ${directive[1]}\`: plugin-review reads an extension.yaml as YAML 1.2, the version Dynatrace documents; remove the directive`,
      directive.index,
      directive.index + directive[0].length,
    );
  const reader = new TreeReader(text);
  let value: unknown;
  try {
    value = jsYaml.load(text, {
      schema: jsYaml.CORE_SCHEMA,
      json: true,
      // js-yaml's own bound (its default made explicit): a nesting error, before its recursion goes deeper.
      ...({ maxDepth: MAX_YAML_DEPTH } as object),
      listener(event, state) {
        if (event === "open") reader.open(state as unknown as ReadState);
        else reader.close(state as unknown as ReadState);
      },
    });
  } catch (e) {
    if (e instanceof Refused) return fail(text, e.message, e.offset, e.end);
    if (e instanceof jsYaml.YAMLException) {
      const position = (e.mark as { position?: number } | undefined)?.position ?? 0;
      const reason = /nesting exceeded maxDepth/.test(e.reason)
        ? `nested more than ${MAX_YAML_DEPTH} levels deep`
        : /expected a single document/.test(e.reason)
          ? "a second document begins here; an extension.yaml holds one"
          : e.reason;
      if (/expected a single document/.test(e.reason)) {
        const at = secondDocument(text);
        return fail(text, reason, at, at + 3);
      }
      const tag = /^unknown tag !<([^]*)>$/.exec(e.reason);
      if (tag) {
        // js-yaml says where the tagged node ends (a mapping's: lines below), and the tag as it resolved it.
        const written = tagWritten(text, tag[1]!, position);
        if (written)
          return fail(
            text,
            `the tag ${quote(written.tag)} names a type an extension.yaml cannot hold (it holds text, numbers, booleans, lists and mappings): remove the tag`,
            written.at,
            written.at + written.tag.length,
          );
      }
      return fail(text, reason, position);
    }
    // A stack overflow or anything else unforeseen is still a finding, not a crash.
    return fail(text, `the YAML parser failed: ${e instanceof Error ? e.message : String(e)}`, 0);
  }
  const root = reader.root?.node ?? { kind: "null" as const, start: 0, end: 0 };
  placeDuplicates(root, reader.duplicates);
  const out: DynatraceParseOutcome = { ok: true, value: value ?? null, root, duplicates: reader.duplicates };
  const lenient = reader.firstLenient();
  if (lenient) out.lenient = lenient;
  return out;
}
