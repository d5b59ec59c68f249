/**
 * extension.yaml written as Dynatrace's examples write it (block style, two-space indents), with every string
 * that is not plainly safe double-quoted and escaped: text from a descriptor reads back as exactly that text,
 * under YAML 1.2 and under the YAML 1.1 readers (SnakeYAML) that take `yes` or `on` for booleans, and holds no
 * raw control or line-breaking character. The output is checked by reading it back (readYaml, check.ts).
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

/** Text no YAML reader takes for anything else, written plain (the `yaml` package's YAML 1.1 reads `E0` as NaN). */
function plainlySafe(s: string): boolean {
  return PLAIN.test(s) && !SPECIAL.test(s) && !/: | #|[: ]$/.test(s) && !/^[eE][0-9_]/.test(s);
}

function scalar(s: string): string {
  if (plainlySafe(s)) return s;
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
  if (typeof v === "string") return scalar(v);
  // YAML 1.1 reads an exponent as a number only after a `.`: 1e+21 is text there, 1.0e+21 a number in both.
  return typeof v === "number" ? String(v).replace(/^(-?[0-9]+)e/, "$1.0e") : String(v);
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
        out.push(`${indent}- ${inner[0]!.slice(indent.length + 2)}`);
        // One by one, not spread: an item (a subgroup of many metrics) may have more lines than a call's arguments.
        for (let i = 1; i < inner.length; i++) out.push(inner[i]!);
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

/**
 * extension.yaml read back as the YAML readers Dynatrace's tools use would read what toYaml writes: the block
 * mappings and sequences it writes, double-quoted scalars (JSON's escapes, which are YAML's), and plain scalars
 * resolved as YAML 1.2 and YAML 1.1 resolve them (`yes`, `on`, `null`, `~` are not text; a number is one only where
 * both versions read it so). Anything else is not read: undefined. The check of a migration (check.ts) compares
 * the value read with the value written, in linear time; the tests read every extension.yaml they make with a full
 * YAML parser, under both versions.
 */
/** A mapping's row: an identifier key, or one toYaml quoted (a JSON string), then its value or nothing. */
const KEY_ROW = /^("(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$/;

export function readYaml(text: string): YamlValue | undefined {
  if (!text.endsWith("\n")) return undefined;
  const rows = text.slice(0, -1).split("\n");
  let at = 0;
  const indentOf = (row: string) => row.length - row.trimStart().length;

  function plain(s: string): YamlValue | undefined {
    if (s === "true" || s === "false") return s === "true";
    if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(s) || /^-?[0-9]\.[0-9]+e[-+][0-9]+$/.test(s)) return Number(s);
    if (SPECIAL.test(s) || /^(~|null|Null|NULL)$/.test(s)) return undefined;
    // Only what toYaml writes plainly: text no reader takes for anything else.
    return plainlySafe(s) ? s : undefined;
  }
  function value(s: string): YamlValue | undefined {
    if (s === "[]") return [];
    if (s === "{}") return {};
    if (s.startsWith('"')) {
      try {
        const v = JSON.parse(s) as unknown;
        return typeof v === "string" ? v : undefined;
      } catch {
        return undefined;
      }
    }
    return plain(s);
  }
  /** The entry `key: …` of a row, into `out`; the block under it when it has none on its row. */
  function entry(row: string, indent: number, out: Record<string, YamlValue>): boolean {
    const m = KEY_ROW.exec(row.slice(indent));
    // a key YAML 1.1 takes for a boolean or null (`on`, `y`) is not the text written; toYaml quotes those
    const k = m?.[1]!.startsWith('"') ? value(m[1]!) : m?.[1];
    if (!m || typeof k !== "string" || Object.hasOwn(out, k) || (!m[1]!.startsWith('"') && SPECIAL.test(k)))
      return false;
    const v = m[2] === undefined ? block(indent + 2) : value(m[2]);
    if (v === undefined) return false;
    out[k] = v;
    return true;
  }
  function mapping(indent: number): Record<string, YamlValue> | undefined {
    const out: Record<string, YamlValue> = {};
    while (at < rows.length && indentOf(rows[at]!) === indent && !rows[at]!.startsWith("- ", indent))
      if (!entry(rows[at++]!, indent, out)) return undefined;
    return out;
  }
  function sequence(indent: number): YamlValue[] | undefined {
    const out: YamlValue[] = [];
    while (at < rows.length && indentOf(rows[at]!) === indent && rows[at]!.startsWith("- ", indent)) {
      const rest = rows[at]!.slice(indent + 2);
      let item: YamlValue | undefined;
      if (rest.startsWith("- ") || KEY_ROW.test(rest)) {
        // A mapping or a sequence begun on the item's row: read as if that row were indented to it.
        rows[at] = " ".repeat(indent + 2) + rest;
        item = block(indent + 2);
      } else {
        at++;
        item = value(rest);
      }
      if (item === undefined) return undefined;
      out.push(item);
    }
    return out;
  }
  function block(indent: number): YamlValue | undefined {
    const row = rows[at];
    if (row === undefined || indentOf(row) !== indent) return undefined;
    return row.startsWith("- ", indent) ? sequence(indent) : mapping(indent);
  }
  const doc = block(0);
  return at === rows.length ? doc : undefined;
}
