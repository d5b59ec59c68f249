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
  return pointer.slice(1).split("/").map(unescapeSegment);
}

const INDEX = /^(0|[1-9]\d*)$/;

/** A segment that names an array element: a non-negative integer without leading zeros (RFC 6901). */
export function isIndex(segment: string): boolean {
  return INDEX.test(segment);
}

export function childPointer(parent: string, segment: string | number): string {
  return parent + "/" + escapeSegment(String(segment));
}

/** A path a person reads: `metrics[3].timeseries.unit`; the root is `(root)`. */
export function displayPath(pointer: string): string {
  const segs = splitPointer(pointer);
  if (segs.length === 0) return "(root)";
  let out = "";
  for (const s of segs) {
    if (isIndex(s)) out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(s)) out += (out ? "." : "") + s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}
