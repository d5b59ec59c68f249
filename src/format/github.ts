/**
 * `--format github`: workflow commands, which GitHub Actions turns into annotations.
 * Escaping follows the runner's toolkit (`%`, CR, LF in data; also `:` and `,` in properties), after the
 * control characters of what comes from a file are escaped in messages, gone in the file's name (printable.ts):
 * no line of the output but ours starts a command, and no escape sequence reaches the log.
 */
import type { ExistingMode } from "../core/config.js";
import type { AnalysedFile } from "../core/analyse.js";
import { isQuietExisting } from "../core/verdict.js";
import { escaped, printable } from "./printable.js";
import { countBySeverity, describeCounts, plural } from "./summary.js";

function escapeData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export function formatGithub(
  files: readonly AnalysedFile[],
  display: (path: string) => string,
  /** Per file when descriptors were reviewed under different configurations (the CLI's nested files). */
  existing: ExistingMode | ((file: AnalysedFile) => ExistingMode) = "report",
): string {
  const lines: string[] = [];
  for (const r of files) {
    const mode = typeof existing === "function" ? existing(r) : existing;
    for (const f of r.findings) {
      const props = [
        // The path itself, its line breaks escaped as the runner reads them (`%0A`), so that the annotation is
        // on that file; then the other control characters go.
        `file=${printable(escapeProperty(display(r.path)))}`,
        `line=${f.line}`,
        `endLine=${f.endLine}`,
      ];
      // Columns only make sense on a one-line range (GitHub ignores them otherwise).
      if (f.line === f.endLine) props.push(`col=${f.column}`, `endColumn=${f.endColumn}`);
      props.push(`title=${escapeProperty(f.ruleId)}`);
      // As the App does: an existing finding that does not count is a notice that says it predates the change.
      const quiet = isQuietExisting(f, { existing: mode });
      const note = quiet ? " (existing: predates this change)" : "";
      lines.push(
        `::${quiet ? "notice" : f.severity} ${props.join(",")}::${escapeData(`${escaped(f.message)} [${f.ruleId}]${note}`)}`,
      );
    }
  }
  lines.push(
    `plugin-review: ${plural(files.length, "descriptor")} checked, ${describeCounts(countBySeverity(files))}`,
  );
  return lines.join("\n") + "\n";
}
