/** `--format json`: the contract's finding objects, exactly these members, in this order. */
import { fixableFindings } from "../core/fix.js";
import type { AnalysedFile } from "../core/analyse.js";
import type { Edit, Finding } from "../core/types.js";
import { jsonText } from "./printable.js";

/**
 * An edit at the finding's pointer: `replacement` is the JSON text that replaces the value there, or (with
 * `target: "key"`) the JSON-encoded name that replaces the member's name.
 */
export interface JsonEdit {
  description: string;
  replacement: string;
  target: "key" | "value";
}

function jsonEdit(e: Edit): JsonEdit {
  return { description: e.description, replacement: e.replacement, target: e.target ?? "value" };
}

/** A finding's own fields, as every report gives them (`check`'s JSON and SARIF, the audit's report). */
export type FindingFields = Pick<
  Finding,
  | "ruleId"
  | "severity"
  | "message"
  | "messageId"
  | "pointer"
  | "line"
  | "column"
  | "endLine"
  | "endColumn"
  | "fingerprint"
>;

export interface JsonFinding extends FindingFields {
  file: string;
  /** Only when a base was compared (rules.md "New and existing findings"). */
  baseline?: "new" | "existing";
  /** The fix `--fix` would apply (safe, mechanical). */
  fix?: JsonEdit;
  /** Guesses offered to the author, never applied by `--fix`. */
  suggestions?: JsonEdit[];
}

/** A finding's own fields as the JSON output gives them (the file, the baseline, edits aside), in order. */
export function findingFields(f: Finding): FindingFields {
  return {
    ruleId: f.ruleId,
    severity: f.severity,
    message: f.message,
    messageId: f.messageId,
    pointer: f.pointer,
    line: f.line,
    column: f.column,
    endLine: f.endLine,
    endColumn: f.endColumn,
    fingerprint: f.fingerprint,
  };
}

export function toJsonFindings(
  files: readonly AnalysedFile[],
  display: (path: string) => string,
): JsonFinding[] {
  const fixable = fixableFindings(files);
  return files.flatMap((r) =>
    r.findings.map((f) => ({
      file: display(r.path),
      ...findingFields(f),
      ...(f.baseline ? { baseline: f.baseline } : {}),
      ...(f.fix && fixable.has(f) ? { fix: jsonEdit(f.fix) } : {}),
      ...(f.suggestions?.length ? { suggestions: f.suggestions.map(jsonEdit) } : {}),
    })),
  );
}

export function formatJson(files: readonly AnalysedFile[], display: (path: string) => string): string {
  return jsonText(toJsonFindings(files, display), 2) + "\n";
}
