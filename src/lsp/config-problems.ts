/**
 * An invalid configuration is shown, never replaced by the defaults: each problem becomes a diagnostic of
 * the configuration file, on the line it names (a YAML error's "line N, column M") or at the key it names
 * (`rules.name-format: …`), else on the first line.
 */
import { DiagnosticSeverity, type Diagnostic, type Range } from "vscode-languageserver";
import { isScalar, parseDocument, type Node } from "yaml";
import { SOURCE } from "./diagnostics.js";
import { lineStarts, offsetOf, type OffsetText } from "./positions.js";

const TOP: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

function rangeOf(doc: OffsetText | undefined, problem: string): Range {
  if (!doc) return TOP;
  const text = doc.getText();
  const at = /^line (\d+), column (\d+): /.exec(problem);
  if (at) {
    const offset = offsetOf(text, lineStarts(text), Number(at[1]), Number(at[2]));
    return { start: doc.positionAt(offset), end: doc.positionAt(offset + 1) };
  }
  const where = /^([\w.-]+): /.exec(problem)?.[1];
  if (!where) return TOP;
  try {
    const yaml = parseDocument(text);
    const path = where.split(".").map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    // The key names the place better than its value (a whole `rules:` block); a scalar item is itself.
    const parentPath = path.slice(0, -1);
    const parent = parentPath.length ? yaml.getIn(parentPath, true) : yaml.contents;
    const last = path[path.length - 1];
    let node: Node | undefined;
    if (parent && typeof parent === "object" && "items" in parent) {
      for (const item of (parent as { items: unknown[] }).items) {
        const key = (item as { key?: unknown }).key;
        if (isScalar(key) && key.value === last) node = key;
      }
      if (!node && typeof last === "number") node = (parent as { items: Node[] }).items[last];
    }
    node ??= yaml.getIn(path, true) as Node | undefined;
    if (!node?.range) return TOP;
    return { start: doc.positionAt(node.range[0]), end: doc.positionAt(node.range[1]) };
  } catch {
    return TOP;
  }
}

/** The configuration's problems as diagnostics of its own file (`doc` when it is open, else line 1). */
export function configDiagnostics(doc: OffsetText | undefined, problems: readonly string[]): Diagnostic[] {
  return problems.map((p) => ({
    range: rangeOf(doc, p),
    severity: DiagnosticSeverity.Error,
    source: SOURCE,
    message: `invalid configuration: ${p}`,
  }));
}

/** What a descriptor shows instead of findings while its configuration is invalid. */
export function descriptorConfigDiagnostic(message: string): Diagnostic {
  return {
    range: TOP,
    severity: DiagnosticSeverity.Error,
    source: SOURCE,
    message: `not reviewed: ${message.split("\n")[0]} (see the configuration file's problems)`,
  };
}
