/**
 * A fix's replacement (JSON text: fix.ts, rule-meta.ts) written in YAML as the file writes the value it replaces:
 * a plain scalar stays plain when YAML reads the new text as the same string (`1.2.4`, never `1.10`, which YAML
 * reads as the number 1.1), a single-quoted one stays single-quoted, anything else is written as JSON, which YAML
 * reads as JSON does (a double-quoted string, a number, a flow collection). Pure: text in, text out.
 */
import { parseYamlAsDynatrace } from "./snakeyaml.js";

/** Characters that end or change a plain scalar in some context (flow collections, comments, tags, anchors). */
const NOT_PLAIN = /[\n\r\t,[\]{}#&*!|>'"%@`]|: |:$|^[-?:]( |$)|^\s|\s$/;

/** Does YAML read `text`, written plain, as exactly the string `value`? */
function readsAs(text: string, value: string): boolean {
  if (text === "" || NOT_PLAIN.test(text)) return false;
  const parsed = parseYamlAsDynatrace(text);
  return parsed.ok && parsed.value === value;
}

/**
 * The YAML text for `replacement` (JSON text) where `text` holds `[start, end)`: in that place's style when
 * YAML reads it as the same value, else the JSON text itself. Undefined when `replacement` is not JSON.
 */
export function yamlReplacement(text: string, start: number, replacement: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(replacement) as unknown;
  } catch {
    return undefined;
  }
  if (typeof value !== "string") return replacement;
  const style = text.charAt(start);
  if (style === '"') return replacement;
  if (style === "'") return value.includes("\n") ? replacement : `'${value.replace(/'/g, "''")}'`;
  return readsAs(value, value) ? value : replacement;
}
