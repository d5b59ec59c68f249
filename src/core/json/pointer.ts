/** RFC 6901 JSON pointers. */

// Fast paths: almost no segment holds `~` or `/`, and these run for every finding's pointer.
export function escapeSegment(s: string): string {
  if (!s.includes("~") && !s.includes("/")) return s;
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function unescapeSegment(s: string): string {
  if (!s.includes("~")) return s;
  return s.replace(/~1/g, "/").replace(/~0/g, "~");
}

export function splitPointer(pointer: string): string[] {
  if (pointer === "") return [];
  const segments = pointer.slice(1).split("/");
  if (pointer.includes("~"))
    for (let i = 0; i < segments.length; i++) segments[i] = unescapeSegment(segments[i] as string);
  return segments;
}

const INDEX = /^(0|[1-9]\d*)$/;

/** A segment that names an array element: a non-negative integer without leading zeros (RFC 6901). */
export function isIndex(segment: string): boolean {
  return INDEX.test(segment);
}

/**
 * The value `pointer` names in `value`: own members only, array elements by index; undefined when it names
 * nothing. (A located tree's node: locate.ts `resolvePointer`.)
 */
export function valueAt(value: unknown, pointer: string): unknown {
  let cur = value;
  for (const seg of splitPointer(pointer)) {
    if (Array.isArray(cur)) cur = isIndex(seg) ? (cur[Number(seg)] as unknown) : undefined;
    else if (cur !== null && typeof cur === "object" && Object.hasOwn(cur, seg))
      cur = (cur as Record<string, unknown>)[seg];
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

export function childPointer(parent: string, segment: string | number): string {
  return parent + "/" + escapeSegment(String(segment));
}

/** A segment a path writes after a dot. */
const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** A path a person reads: `metrics[3].timeseries.unit`; the root is `(root)`. */
export function displayPath(pointer: string): string {
  const segs = splitPointer(pointer);
  if (segs.length === 0) return "(root)";
  let out = "";
  for (const s of segs) {
    if (isIndex(s)) out += `[${s}]`;
    else if (IDENTIFIER.test(s)) out += (out ? "." : "") + s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}
