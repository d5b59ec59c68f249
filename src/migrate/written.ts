/**
 * Where something is in a file the migration writes, read from the written text itself, so that MIGRATION.md
 * sends a person to `extension/extension.yaml:5` as the file has it, whatever wrote the file and however its
 * layout changes. A member of a YAML or JSON file is named by its JSON pointer; any other text (a Python module,
 * setup.py) by a piece of text on the line.
 */
import { parseJson } from "../core/json/parse.js";
import { LineIndex, resolvePointer } from "../core/locate.js";
import { parseYaml } from "../core/yaml/parse.js";

/** The extension's file in the written project, where most to-dos are done. */
export const EXTENSION_FILE = "extension/extension.yaml";

/** A file of the migration, by its path relative to the migration's folder (`extension/extension.yaml`). */
export interface OutputFile {
  path: string;
  content: string;
}

/** A place in a written file: a member (JSON pointer) of YAML or JSON, or the first line holding a text. */
export type WrittenPlace = { file: string; pointer: string } | { file: string; text: string };

/** The 1-based line of a place in the written files; undefined when the file or the place is not there. */
export function writtenLine(files: readonly OutputFile[], place: WrittenPlace): number | undefined {
  const file = files.find((f) => f.path === place.file);
  if (!file) return undefined;
  const index = new LineIndex(file.content);
  if ("text" in place) {
    const at = file.content.indexOf(place.text);
    return at < 0 ? undefined : index.position(at).line;
  }
  const parsed = /\.ya?ml$/i.test(file.path)
    ? parseYaml(file.content)
    : /\.json$/i.test(file.path)
      ? parseJson(file.content)
      : undefined;
  if (!parsed?.ok) return undefined;
  const found = resolvePointer(parsed.root, place.pointer);
  // A member that is not there is no place to send anyone to (its parent would mislead).
  return found.fallback ? undefined : index.position(found.keyStart ?? found.node.start).line;
}
