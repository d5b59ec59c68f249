/** Pure helpers for the change rules: structural equality and version arithmetic. */

/** Deep equality of parsed JSON: member order does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && jsonEqual(ao[k], bo[k]));
}

/** Any dot-separated digits (`2`, `1.2.3.4`): versions the server could hold, comparable segment by segment. */
export const NUMERIC_VERSION = /^\d+(\.\d+)*$/;

/**
 * Compares versions as numbers segment by segment, missing segments being 0 (`1.9` < `1.10`,
 * `2.1` = `2.1.0`). Digits are compared as strings without leading zeros so that no length overflows.
 */
export function compareVersions(a: string, b: string): number {
  if (a === b) return 0;
  const as = a.split(".");
  const bs = b.split(".");
  for (let i = 0; i < Math.max(as.length, bs.length); i++) {
    const x = withoutLeadingZeros(as[i] ?? "0");
    const y = withoutLeadingZeros(bs[i] ?? "0");
    if (x.length !== y.length) return x.length < y.length ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * `s` without the leading zeros that a digit follows (`007` → `7`, `000` → `0`), as `s.replace(/^0+(?=\d)/, "")`
 * without a regular expression (the version rules compare on every review with a base).
 */
function withoutLeadingZeros(s: string): string {
  let zeros = 0;
  while (zeros < s.length && s.charCodeAt(zeros) === 48) zeros++;
  if (zeros === 0) return s;
  const next = s.charCodeAt(zeros);
  return s.slice(next >= 48 && next <= 57 ? zeros : zeros - 1);
}

/** The next version after `v`: its last segment plus one, keeping zero padding (`1.025` → `1.026`, `1.9` → `1.10`). */
export function nextVersion(v: string): string {
  const segs = v.split(".");
  const last = segs[segs.length - 1] ?? "0";
  let digits = last.split("").map(Number);
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === 9) {
    digits[i] = 0;
    i--;
  }
  if (i < 0) digits = [1, ...digits];
  else digits[i] = (digits[i] as number) + 1;
  segs[segs.length - 1] = digits.join("");
  return segs.join(".");
}
