/**
 * Findings as LSP diagnostics: the rule id as `code` with its page as `codeDescription`, the severity, the
 * exact range. Existing findings (already in the compared base) look as they do in the App and in
 * `check --format github`: with `existing: report` they are notices that say they predate the change;
 * with `existing: fail` they keep their severity and say that they are existing.
 */
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver";
import type { ResolvedConfig } from "../core/config.js";
import { ruleDocsUrl } from "../core/rule.js";
import type { Finding, Severity } from "../core/types.js";
import { isQuietExisting } from "../core/verdict.js";
import { toRange, type OffsetText } from "./positions.js";

export const SOURCE = "plugin-review";

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  notice: DiagnosticSeverity.Information,
};

export function toDiagnostic(
  doc: OffsetText,
  starts: readonly number[],
  f: Finding,
  config: Pick<ResolvedConfig, "existing">,
): Diagnostic {
  const quiet = isQuietExisting(f, config);
  const note = quiet ? " (existing: predates this change)" : f.baseline === "existing" ? " (existing)" : "";
  return {
    range: toRange(doc, starts, f),
    severity: SEVERITY[quiet ? "notice" : f.severity],
    code: f.ruleId,
    codeDescription: { href: ruleDocsUrl(f.ruleId) },
    source: SOURCE,
    message: f.message + note,
    data: { fingerprint: f.fingerprint, ...(f.baseline ? { baseline: f.baseline } : {}) },
  };
}
