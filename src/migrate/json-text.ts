/**
 * A JSON file as `migrate` writes it: two-space indents, a final line feed, and every character a terminal or
 * an editor could be fooled by (DEL, C1 controls, line separators, bidirectional overrides) as a `\u` escape,
 * which JSON.stringify leaves raw; the file then prints as it is.
 */
const ESCAPE = /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

export function jsonText(value: unknown): string {
  return (
    JSON.stringify(value, null, 2).replace(
      ESCAPE,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ) + "\n"
  );
}
