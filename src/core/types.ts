/** Severity of a finding; `off` only appears in configuration. */
export type Severity = "error" | "warning" | "notice";
export type ConfiguredSeverity = Severity | "off";

export const SEVERITY_RANK: Record<ConfiguredSeverity, number> = { off: 0, notice: 1, warning: 2, error: 3 };

/** Which part of a member a finding points at (rules.md "Location"). */
export type Target = "key" | "value";

/** What a rule reports. Locations are resolved later, once, by `locate.ts`. */
export interface RawFinding {
  ruleId: string;
  severity: Severity;
  message: string;
  /** RFC 6901 pointer into the head document; may name a missing member (nearest ancestor is used). */
  pointer: string;
  target: Target;
  /** Exact 0-based UTF-16 offsets [start, end) when the pointer alone is ambiguous (duplicate keys, parse errors). */
  range?: { start: number; end: number };
  /** A mechanical fix, when there is one. */
  fix?: Fix;
}

/**
 * A mechanical fix: `replacement` is JSON text that replaces the value at the pointer, or (`target: "key"`)
 * the JSON-encoded member name that replaces the member's name.
 */
export interface Fix {
  replacement: string;
  description: string;
  target?: Target;
}

export interface Location {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** A located finding: what every output format and the GitHub layer consume. */
export interface Finding extends RawFinding, Location {
  /** Set when a base was compared (rules.md "New and existing findings"): did the base have it already? */
  baseline?: "new" | "existing";
}

export type Variant = "host" | "remote";
