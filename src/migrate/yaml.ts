/**
 * extension.yaml written as Dynatrace's examples write it (block style, two-space indents), with every string
 * that is not plainly safe double-quoted and escaped: text from a descriptor reads back as exactly that text,
 * under YAML 1.2 and under the YAML 1.1 readers (SnakeYAML) that take `yes` or `on` for booleans, and holds no
 * raw control or line-breaking character. The output is checked by parsing it back (schema.ts).
 */

export type YamlValue = string | number | boolean | YamlValue[] | { [key: string]: YamlValue };

/** A plain scalar that no YAML reader takes for anything but this string. */
const PLAIN = /^[A-Za-z_/][A-Za-z0-9_ .:/*=,+()-]*$/;
/** Words YAML 1.1 reads as booleans or null. */
const SPECIAL = /^(y|n|yes|no|on|off|true|false|null)$/i;
/** What JSON leaves raw but a YAML reader may take for a line break or hide: C1 controls, DEL, separators, bidi. */
const ESCAPE = /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Half a surrogate pair on its own: not a character, so no YAML reader takes its escape. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function scalar(s: string): string {
  if (PLAIN.test(s) && !SPECIAL.test(s) && !/: | #|[: ]$/.test(s)) return s;
  // A JSON string is a YAML double-quoted scalar; its escapes (\n, \uXXXX, …) are YAML's too.
  return JSON.stringify(s.replace(LONE_SURROGATE, "\ufffd")).replace(
    ESCAPE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A mapping key: ours are identifiers; a descriptor's (the migration map's plugin names) quoted when needed. */
function key(k: string): string {
  return scalar(k);
}

function isScalar(v: YamlValue): v is string | number | boolean {
  return typeof v !== "object";
}

function inline(v: string | number | boolean): string {
  return typeof v === "string" ? scalar(v) : String(v);
}

function lines(value: YamlValue, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isScalar(item)) out.push(`${indent}- ${inline(item)}`);
      else if (Array.isArray(item) ? item.length === 0 : Object.keys(item).length === 0)
        out.push(`${indent}- ${Array.isArray(item) ? "[]" : "{}"}`);
      else {
        const inner: string[] = [];
        lines(item, indent + "  ", inner);
        out.push(`${indent}- ${inner[0]!.slice(indent.length + 2)}`, ...inner.slice(1));
      }
    }
    return;
  }
  if (isScalar(value)) throw new Error("a YAML document is a mapping or a sequence");
  for (const [k, v] of Object.entries(value)) {
    const shown = key(k);
    if (isScalar(v)) out.push(`${indent}${shown}: ${inline(v)}`);
    else if (Array.isArray(v) && v.length === 0) out.push(`${indent}${shown}: []`);
    else if (!Array.isArray(v) && Object.keys(v).length === 0) out.push(`${indent}${shown}: {}`);
    else {
      out.push(`${indent}${shown}:`);
      lines(v, indent + "  ", out);
    }
  }
}

/** A YAML document of a mapping whose keys and values may come from a descriptor (quoted where they need it). */
export function toYaml(value: { [key: string]: YamlValue }): string {
  const out: string[] = [];
  lines(value, "", out);
  return out.join("\n") + "\n";
}
