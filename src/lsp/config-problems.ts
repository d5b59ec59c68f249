/**
 * An invalid configuration is shown, never replaced by the defaults: each problem that `readConfig` finds
 * becomes a diagnostic of the configuration file on the line and column it names (else on the first line),
 * and each descriptor it governs says why it was not reviewed.
 */
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver";
import { readConfig } from "../core/config.js";
import { SOURCE } from "./diagnostics.js";
import { lineStarts, type OffsetText } from "./positions.js";

/** The problems of a configuration text (none when it is valid), as diagnostics of its document. */
export function configDiagnostics(doc: OffsetText, source: string): Diagnostic[] {
  const text = doc.getText();
  const starts = lineStarts(text);
  return readConfig(text, source).problems.map((p) => {
    let start = 0;
    let end = 0;
    if (p.line !== undefined) {
      const lineStart = starts[Math.min(p.line, starts.length) - 1] as number;
      const next = starts[p.line];
      const lineEnd = next === undefined ? text.length : next - 1;
      // The yaml library counts columns in UTF-16 units, as LSP does; the problem runs to the line's end.
      start = Math.min(lineStart + (p.column ?? 1) - 1, lineEnd);
      end = Math.max(start, text.slice(0, lineEnd).trimEnd().length);
    }
    return {
      range: { start: doc.positionAt(start), end: doc.positionAt(end) },
      severity: DiagnosticSeverity.Error,
      source: SOURCE,
      message: `invalid configuration: ${p.message}`,
    };
  });
}

/** What a descriptor shows instead of findings while its configuration is invalid or unreadable. */
export function descriptorConfigDiagnostic(message: string): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Error,
    source: SOURCE,
    message: `not reviewed: ${message.split("\n")[0]} (see the configuration file's problems)`,
  };
}
