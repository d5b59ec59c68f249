/**
 * Guards for reading untrusted values: a descriptor is whatever JSON the author wrote, so rules read it as
 * `unknown` through these and never throw on a value of the wrong shape.
 */

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function obj(v: unknown): Obj | undefined {
  return isObj(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export function has(o: Obj | undefined, key: string): boolean {
  return o !== undefined && Object.prototype.hasOwnProperty.call(o, key);
}

/** Own member of an object (never an inherited one such as `constructor`). */
export function get(o: unknown, key: string): unknown {
  return isObj(o) && Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** The strings of a list (a metric's `dimensions`, say), skipping anything else. */
export function strings(v: unknown): string[] {
  return arr(v).filter((d): d is string => typeof d === "string");
}
