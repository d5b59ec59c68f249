/** Severity of a finding; `off` only appears in configuration. */
export type Severity = "error" | "warning" | "notice";
export type ConfiguredSeverity = Severity | "off";

export const SEVERITY_RANK: Record<ConfiguredSeverity, number> = { off: 0, notice: 1, warning: 2, error: 3 };

/** Which part of a member a finding points at (rules.md "Location"). */
export type Target = "key" | "value";

/** A message's data (ESLint's `data`): the values its `{{placeholders}}` are filled from. */
export type MessageData = Record<string, string | number>;

/** What a rule reports. Locations are resolved later, once, by `locate.ts`. */
export interface RawFinding {
  ruleId: string;
  severity: Severity;
  /** The message as people read it: the rule's template `messageId` filled from `data`. */
  message: string;
  /** Which of the rule's messages (`meta.messages`); with `data`, what the finding says, positions aside (identity.ts). */
  messageId: string;
  data?: MessageData;
  /** RFC 6901 pointer into the head document; may name a missing member (nearest ancestor is used). */
  pointer: string;
  target: Target;
  /** Exact 0-based UTF-16 offsets [start, end) when the pointer alone is ambiguous (duplicate keys, parse errors). */
  range?: { start: number; end: number };
  /** A safe mechanical edit that `--fix` applies (the rule declares `meta.fixable`). */
  fix?: Fix;
  /** Guesses offered to the author, never applied by `--fix` (the rule declares `meta.hasSuggestions`). */
  suggestions?: Suggestion[];
}

/**
 * An edit at the finding's pointer: `replacement` is JSON text that replaces the value there, or
 * (`target: "key"`) the JSON-encoded member name that replaces the member's name.
 */
export interface Edit {
  replacement: string;
  /** What the edit does, for people: "bump the version to `1.0.1`". */
  description: string;
  target?: Target;
}

/** A fix: an edit with no judgement in it (the next version, a restored value), applied by `--fix`. */
export type Fix = Edit;
/** A suggestion: an edit that is a guess (the known member a misspelt one probably means), only offered. */
export type Suggestion = Edit;

export interface Location {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** A located finding: what every output format and the GitHub layer consume. */
export interface Finding extends RawFinding, Location {
  /** The finding's identity (identity.ts), the same wherever other elements move: what every matching reads. */
  fingerprint: string;
  /** Set when a base was compared (rules.md "New and existing findings"): did the base have it already? */
  baseline?: "new" | "existing";
}

export type Variant = "host" | "remote";

/** The kinds of file the core analyses: an EF1 descriptor, or an EF2 extension (ef2/pairing.ts tells them by name). */
export type FileFormat = "plugin.json" | "extension.yaml";
