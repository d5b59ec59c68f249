/**
 * The kinds of file the core analyses, each with its parser into the same located tree (json/parse.ts's
 * JsonNode): a descriptor's strict JSON (json/parse.ts) and an extension's YAML as Dynatrace reads it
 * (yaml/snakeyaml.ts). The one path of analyse.ts asks a format for its text read (size, UTF-8, parse), its
 * base's value, and its variant; nothing else differs between the kinds but the rules that apply
 * (`meta.files`). Pure.
 */
import {
  parseEdited,
  parseJsonFast,
  type DuplicateKey,
  type JsonNode,
  type JsonSyntaxError,
  type ParseOutcome,
} from "./json/parse.js";
import { get, str } from "./guards.js";
import type { FileFormat, Variant } from "./types.js";
import { decodeUtf8, utf8Length } from "./utf8.js";
import { parseYamlAsDynatrace, type DynatraceParseOutcome } from "./yaml/snakeyaml.js";

/** Remote when the name starts with `custom.remote.` or the entity with `CUSTOM_DEVICE` (rules.md "Variant"). */
export function detectVariant(doc: unknown): Variant {
  const name = str(get(doc, "name"));
  const entity = str(get(doc, "entity"));
  return name?.startsWith("custom.remote.") || entity?.startsWith("CUSTOM_DEVICE") ? "remote" : "host";
}

/** A base read for comparing: its value and duplicate keys, and (YAML) its tree; or why it could not be. */
export type BaseRead =
  | {
      ok: true;
      value: unknown;
      text: string;
      duplicates: DuplicateKey[];
      root?: JsonNode;
      lenient?: JsonSyntaxError;
    }
  | { ok: false; why: string };

export interface DocumentFormat {
  readonly name: FileFormat;
  /** The head's parse: its value, tree of offsets and duplicate keys, or its first error. */
  parse(text: string): DynatraceParseOutcome;
  /** The base's parse, when it differs from head's text: `head` (unless undefined) may lend it its unchanged parts. */
  parseBase(text: string, head: ParseOutcome | undefined): BaseRead;
  /** What a text that is not UTF-8 is told. */
  readonly notUtf8: string;
  /** How findings are placed: JSON may be scanned without a tree; YAML reads its parse's tree. */
  readonly locate: "json" | "yaml";
  /** A descriptor's variant (rules.md "Variant"); an extension has none (host: no variant rule applies). */
  variant(value: unknown): Variant;
  /** The tree and lenient read of a head parse that rules read (an extension's `source`, invalid-yaml's warning). */
  readonly keepsTree: boolean;
}

const JSON_FORMAT: DocumentFormat = {
  name: "plugin.json",
  parse: parseJsonFast,
  /**
   * The base needs its value and duplicate keys, never positions: when it differs from head inside one
   * top-level member, only that member is parsed (parseEdited) and the others are head's own values.
   */
  parseBase(text, head) {
    const edited = head && parseEdited(head, text);
    if (edited) return { ok: true, value: edited.value, text, duplicates: edited.duplicates };
    const parsed = parseJsonFast(text);
    if (parsed.ok) return { ok: true, value: parsed.value, text, duplicates: parsed.duplicates };
    try {
      // Strict JSON beyond the nesting limit: still comparable, without findings of its own.
      return { ok: true, value: JSON.parse(text) as unknown, text, duplicates: [] };
    } catch {
      return { ok: false, why: "is not valid JSON" };
    }
  },
  notUtf8: "the file is not valid UTF-8 text (JSON must be UTF-8)",
  locate: "json",
  variant: detectVariant,
  keepsTree: false,
};

const YAML_FORMAT: DocumentFormat = {
  name: "extension.yaml",
  parse: parseYamlAsDynatrace,
  parseBase(text) {
    const parsed = parseYamlAsDynatrace(text);
    if (!parsed.ok) return { ok: false, why: "is not valid YAML" };
    const read: BaseRead = {
      ok: true,
      value: parsed.value,
      text,
      duplicates: parsed.duplicates,
      root: parsed.root,
    };
    if (parsed.lenient) read.lenient = parsed.lenient;
    return read;
  },
  notUtf8: "the file is not valid UTF-8 text (an extension.yaml must be UTF-8)",
  locate: "yaml",
  variant: () => "host",
  keepsTree: true,
};

export const FORMATS: Readonly<Record<FileFormat, DocumentFormat>> = {
  "plugin.json": JSON_FORMAT,
  "extension.yaml": YAML_FORMAT,
};

/** A text as read: decoded, parsed, or why not (over the size limit, not UTF-8). */
export interface Loaded {
  text: string;
  parsed?: DynatraceParseOutcome;
  size: number;
  encodingError?: number;
}

/** Reads `content` within `maxSize` bytes and parses it with `parse` (a format's). */
export function load(
  content: string | Uint8Array,
  maxSize: number,
  knownSize: number | undefined,
  parse: (text: string) => DynatraceParseOutcome,
): Loaded {
  const size = knownSize ?? (typeof content === "string" ? utf8Length(content, maxSize) : content.length);
  if (size > maxSize) return { text: "", size };
  if (typeof content === "string") return { text: content, size, parsed: parse(content) };
  const { text, badOffset } = decodeUtf8(content);
  if (badOffset !== undefined) return { text, size, encodingError: badOffset };
  return { text, size, parsed: parse(text) };
}

/** A base read as its format reads one, after the same size and UTF-8 checks as head. */
export function loadBase(
  format: DocumentFormat,
  content: string | Uint8Array,
  maxSize: number,
  knownSize: number | undefined,
  head: ParseOutcome | undefined,
): BaseRead {
  const size = knownSize ?? (typeof content === "string" ? utf8Length(content, maxSize) : content.length);
  if (size > maxSize) return { ok: false, why: `is larger than max_file_size (${maxSize} bytes)` };
  let text: string;
  if (typeof content === "string") text = content;
  else {
    const d = decodeUtf8(content);
    if (d.badOffset !== undefined) return { ok: false, why: "is not UTF-8 text" };
    text = d.text;
  }
  return format.parseBase(text, head);
}

/** The base's bytes or text equal head's decoded text (a file the change leaves as it is). */
export function sameText(base: string | Uint8Array, head: string): boolean {
  if (typeof base === "string") return base === head;
  // Equal texts have between 1 and 3 UTF-8 bytes per UTF-16 unit: decode only then.
  if (base.length < head.length || base.length > 3 * head.length) return false;
  const d = decodeUtf8(base);
  return d.badOffset === undefined && d.text === head;
}

/** Why a file could not be read as text of at most `maxSize` bytes. */
export function unread(loaded: Loaded, maxSize: number): string | undefined {
  if (loaded.parsed) return undefined;
  return loaded.encodingError !== undefined
    ? "is not UTF-8 text"
    : `is larger than max_file_size (${maxSize} bytes)`;
}
