/**
 * Where something is in a file the migration writes, read from the written text itself, so that MIGRATION.md
 * sends a person to `extension/extension.yaml:5` as the file has it, whatever wrote the file and however its
 * layout changes. A member of a YAML or JSON file is named by its JSON pointer; any other text (a Python module,
 * setup.py) by a piece of text on the line.
 */
import { FORMATS } from "../core/formats.js";
import { parseJson } from "../core/json/parse.js";
import { splitPointer } from "../core/json/pointer.js";
import { LineIndex, resolvePointer } from "../core/locate.js";

/** The extension's file in the written project, where most to-dos are done. */
export const EXTENSION_FILE = "extension/extension.yaml";

/** A file of the migration, by its path relative to the migration's folder (`extension/extension.yaml`). */
export interface OutputFile {
  path: string;
  content: string;
  /** `base64`: content is a binary file (of a Python plugin's folder) in base64. */
  encoding?: "base64";
  /** A starting point the user fills in (a local run's settings, its passwords): once edited, theirs, never overwritten. */
  yours?: true;
}

/** A place in a written file: a member (JSON pointer) of YAML or JSON, or the first line holding a text. */
export type WrittenPlace = { file: string; pointer: string } | { file: string; text: string };

/** The 1-based line of a place in the written files; undefined when the file or the place is not there. */
export function writtenLine(files: readonly OutputFile[], place: WrittenPlace): number | undefined {
  const file = files.find((f) => f.path === place.file);
  if (!file) return undefined;
  if ("text" in place) {
    const at = file.content.indexOf(place.text);
    return at < 0 ? undefined : new LineIndex(file.content).position(at).line;
  }
  if (/\.ya?ml$/i.test(file.path))
    return blockYamlLine(file.content, splitPointer(place.pointer)) ?? parsedLine(file, place.pointer);
  return /\.json$/i.test(file.path) ? parsedLine(file, place.pointer) : undefined;
}

/**
 * The line of a member found by parsing the file (a fallback: the parse costs as much as a migration), YAML as
 * the review reads an extension.yaml, so that MIGRATION.md and the review's findings name the same lines.
 */
function parsedLine(file: OutputFile, pointer: string): number | undefined {
  const parsed = /\.json$/i.test(file.path)
    ? parseJson(file.content)
    : FORMATS["extension.yaml"].parse(file.content);
  if (!parsed.ok) return undefined;
  const found = resolvePointer(parsed.root, pointer);
  // A member that is not there is no place to send anyone to (its parent would mislead).
  return found.fallback
    ? undefined
    : new LineIndex(file.content).position(found.keyStart ?? found.node.start).line;
}

/**
 * A member's line in block-style YAML as `migrate` writes it (yaml.ts: two-space indents, plain keys, every
 * scalar on its key's line, a sequence item's first key on its `- ` line), read line by line: a key at the
 * column its mapping's keys start in, an item at its sequence's `- `, each member's block the lines indented
 * past it. Undefined where the text is not of that form or the member is not there.
 */
function blockYamlLine(text: string, segments: readonly string[]): number | undefined {
  const lines = text.split("\n");
  const spaces = (i: number) => /^ */.exec(lines[i]!)![0].length;
  // The container's lines [from, to), and the column its keys (or its items' dashes) start in.
  let from = 0;
  let to = lines.length;
  let column = 0;
  let found = -1;
  for (const segment of segments) {
    found = -1;
    const item = /^(0|[1-9]\d*)$/.test(segment);
    let n = item ? Number(segment) : 0;
    for (let i = from; i < to && found < 0; i++) {
      const l = lines[i]!;
      if (item) {
        if (spaces(i) === column && l.startsWith("- ", column) && n-- === 0) found = i;
        continue;
      }
      // A key of its own line, or an item's first key, on the item's `- ` line (the container's first line).
      const at =
        spaces(i) === column
          ? column
          : i === from && column >= 2 && spaces(i) === column - 2 && l.startsWith("- ", column - 2)
            ? column
            : -1;
      if (at >= 0 && l.startsWith(`${segment}:`, at) && /^(?: |$)/.test(l.slice(at + segment.length + 1)))
        found = i;
    }
    if (found < 0) return undefined;
    // An item's block starts on its dash line (its first key); a key's on the line below it. Either ends where
    // a line is indented no further than the member's own column (a next item, a sibling key).
    from = item ? found : found + 1;
    for (to = found + 1; to < lines.length && (lines[to] === "" || spaces(to) > column);) to++;
    column += 2;
  }
  return found < 0 ? undefined : found + 1;
}
