/**
 * Hover on a member of a descriptor: what it means, its type and its allowed values, read from the JSON
 * Schemas (`schemas/`, the single source of structure and of each member's title and description) for
 * the descriptor's variant, or an extension.yaml's schema. Pure: text and offset in, Markdown out.
 */
import extension from "../../schemas/extension.schema.json" with { type: "json" };
import common from "../../schemas/plugin-common.schema.json" with { type: "json" };
import host from "../../schemas/plugin-host.schema.json" with { type: "json" };
import remote from "../../schemas/plugin-remote.schema.json" with { type: "json" };
import type { JsonNode } from "../core/json/parse.js";
import { codeSpan } from "../format/markdown.js";
import type { Variant } from "../core/types.js";

type Schema = Record<string, unknown>;

const FILES: Record<string, Schema> = {
  "plugin-common.schema.json": common as Schema,
  "plugin-host.schema.json": host as Schema,
  "plugin-remote.schema.json": remote as Schema,
  "extension.schema.json": extension as Schema,
};

/** Which schema describes the document: a plugin.json's variant, or an extension.yaml. */
export type SchemaKind = Variant | "extension";
const SCHEMA_FILES: Record<SchemaKind, string> = {
  host: "plugin-host.schema.json",
  remote: "plugin-remote.schema.json",
  extension: "extension.schema.json",
};

interface Located {
  node: Schema;
  /** The file the node is in, for its local `#/definitions/…` references. */
  file: string;
}

const isSchema = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

function resolveRef(ref: string, file: string): Located | undefined {
  const [target = "", fragment = ""] = ref.split("#");
  const name = target || file;
  let node: unknown = FILES[name];
  for (const seg of fragment.split("/").filter(Boolean)) node = isSchema(node) ? node[seg] : undefined;
  return isSchema(node) ? { node, file: name } : undefined;
}

/** A schema node and what it refers to (`$ref`, `allOf`): they all describe the same value, outermost first. */
function expand(at: Located, depth = 0): Located[] {
  if (depth > 20) return [at];
  const out = [at];
  const { node, file } = at;
  if (typeof node.$ref === "string") {
    const target = resolveRef(node.$ref, file);
    if (target) out.push(...expand(target, depth + 1));
  }
  for (const sub of Array.isArray(node.allOf) ? node.allOf : []) {
    if (isSchema(sub)) out.push(...expand({ node: sub, file }, depth + 1));
  }
  return out;
}

function child(nodes: Located[], segment: string | number): Located[] {
  const out: Located[] = [];
  for (const { node, file } of nodes) {
    const next =
      typeof segment === "number"
        ? node.items
        : isSchema(node.properties)
          ? (node.properties as Schema)[segment]
          : undefined;
    if (isSchema(next)) out.push(...expand({ node: next, file }));
  }
  return out;
}

/** The schema nodes of the value at `path` (member names and array indices) in a document of that kind. */
export function schemaAt(kind: SchemaKind, path: readonly (string | number)[]): Located[] {
  const file = SCHEMA_FILES[kind];
  let nodes = expand({ node: FILES[file] as Schema, file });
  for (const seg of path) {
    nodes = child(nodes, seg);
    if (!nodes.length) break;
  }
  return nodes;
}

const first = <T>(nodes: Located[], key: string, is: (v: unknown) => v is T): T | undefined => {
  for (const { node } of nodes) if (is(node[key])) return node[key] as T;
  return undefined;
};
const isString = (v: unknown): v is string => typeof v === "string";
const isArray = (v: unknown): v is unknown[] => Array.isArray(v);
const code = (v: unknown) => `\`${typeof v === "string" ? v : JSON.stringify(v)}\``;

/** Markdown for a member: title, description, type, allowed values or format. */
export function describeSchema(nodes: Located[], name: string | number): string | undefined {
  if (!nodes.length) return undefined;
  const title = first(nodes, "title", isString);
  const description = first(nodes, "description", isString);
  if (title === undefined && description === undefined) return undefined;
  const lines: string[] = [];
  // The member's name is the descriptor's: shown as code, whatever it holds.
  const label = typeof name === "number" ? `item ${name}` : codeSpan(name);
  lines.push(title ? `**${title}** (${label})` : label);
  if (description) lines.push("", description);
  const facts: string[] = [];
  const type = nodes.map((n) => n.node.type).find((t) => t !== undefined);
  if (type !== undefined) facts.push(`Type: ${(Array.isArray(type) ? type : [type]).map(code).join(" or ")}`);
  const exact = first(nodes, "enum", isArray);
  const anyCase = first(nodes, "x-enumIgnoreCase", isArray);
  if (exact) facts.push(`Allowed values: ${exact.map(code).join(", ")}`);
  else if (anyCase) facts.push(`Allowed values (any letter case): ${anyCase.map(code).join(", ")}`);
  const format = first(nodes, "x-message", isString);
  if (format) facts.push(`Format: ${format}`);
  else {
    const pattern = first(nodes, "pattern", isString);
    if (pattern) facts.push(`Pattern: \`${pattern}\``);
  }
  const examples = !exact && !anyCase ? first(nodes, "examples", isArray) : undefined;
  if (examples) facts.push(`Examples: ${examples.map(code).join(", ")}`);
  if (facts.length) lines.push("", ...facts.map((f) => `- ${f}`));
  return lines.join("\n");
}

export interface MemberAt {
  path: (string | number)[];
  /** The offsets hovered: the member's name, or the value (an array item's value). */
  start: number;
  end: number;
}

/**
 * The member whose name or scalar value holds `offset` (a value inside an array is its item). Undefined on
 * punctuation, whitespace and the root.
 */
export function memberAt(root: JsonNode, offset: number): MemberAt | undefined {
  const path: (string | number)[] = [];
  let node = root;
  for (;;) {
    if (node.kind === "object") {
      const m = node.members.find(
        (m) =>
          (offset >= m.keyStart && offset <= m.keyEnd) || (offset >= m.value.start && offset <= m.value.end),
      );
      if (!m) return undefined;
      path.push(m.key);
      if (offset >= m.keyStart && offset <= m.keyEnd) return { path, start: m.keyStart, end: m.keyEnd };
      if (m.value.kind !== "object" && m.value.kind !== "array")
        return { path, start: m.value.start, end: m.value.end };
      node = m.value;
    } else if (node.kind === "array") {
      const i = node.items.findIndex((item) => offset >= item.start && offset <= item.end);
      const item = node.items[i];
      if (!item) return undefined;
      path.push(i);
      if (item.kind !== "object" && item.kind !== "array") return { path, start: item.start, end: item.end };
      node = item;
    } else return undefined;
  }
}

/** Hover text for the member at `offset`, with the offsets it covers. */
export function hoverAt(
  root: JsonNode,
  kind: SchemaKind,
  offset: number,
): { markdown: string; start: number; end: number } | undefined {
  const at = memberAt(root, offset);
  if (!at) return undefined;
  const markdown = describeSchema(schemaAt(kind, at.path), at.path[at.path.length - 1] as string | number);
  return markdown ? { markdown, start: at.start, end: at.end } : undefined;
}
