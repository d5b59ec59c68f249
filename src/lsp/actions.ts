/**
 * Code actions: each finding's fix as a preferred quick fix, each suggestion (a guess) as a refactor, and
 * "fix all" (`source.fixAll.plugin-review`: what `check --fix` does to the file). The edits are the ones
 * `--fix` plans (fix.ts): exact offsets of the position tree, nothing else of the text touched.
 */
import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit } from "vscode-languageserver";
import type { ResolvedConfig } from "../core/config.js";
import { formatOf } from "../core/ef2/pairing.js";
import { fixDescriptors, parserOf, planEdits } from "../core/fix.js";
import type { JsonNode } from "../core/json/parse.js";
import type { DescriptorInput } from "../core/analyse.js";
import type { Edit, FileFormat, Finding } from "../core/types.js";
import type { OffsetText } from "./positions.js";

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.plugin-review`;

/** What the last review of a document left for its code actions. */
export interface Reviewed {
  uri: string;
  version: number;
  doc: OffsetText;
  input: DescriptorInput;
  config: ResolvedConfig;
  findings: Finding[];
  diagnostics: Diagnostic[];
}

/** `only` as LSP reads it: a kind is asked for when it is, or is below, one of the kinds listed. */
export function wanted(kind: string, only: readonly string[] | undefined): boolean {
  return !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

function edits(
  doc: OffsetText,
  root: JsonNode,
  format: FileFormat,
  finding: Finding,
  edit: Edit,
): TextEdit[] {
  return planEdits(doc.getText(), root, [{ ...finding, fix: edit }], format).map((e) => ({
    range: { start: doc.positionAt(e.start), end: doc.positionAt(e.end) },
    newText: e.text,
  }));
}

/** The actions for the diagnostics at `indices` of the last review (those under the cursor or selection). */
export function findingActions(r: Reviewed, indices: number[], only?: readonly string[]): CodeAction[] {
  const out: CodeAction[] = [];
  const format = formatOf(r.input.path);
  let root: JsonNode | undefined;
  const tree = () => {
    if (!root) {
      const parsed = parserOf(format)(r.doc.getText());
      root = parsed.ok ? parsed.root : undefined;
    }
    return root;
  };
  for (const i of indices) {
    const f = r.findings[i];
    const diagnostic = r.diagnostics[i];
    if (!f || !diagnostic) continue;
    if (f.fix && wanted(CodeActionKind.QuickFix, only) && tree()) {
      const changes = edits(r.doc, tree() as JsonNode, format, f, f.fix);
      if (changes.length)
        out.push({
          title: `${capitalise(f.fix.description)} (${f.ruleId})`,
          kind: CodeActionKind.QuickFix,
          isPreferred: true,
          diagnostics: [diagnostic],
          edit: { changes: { [r.uri]: changes } },
        });
    }
    for (const s of f.suggestions ?? []) {
      if (!wanted(CodeActionKind.Refactor, only) || !tree()) continue;
      const changes = edits(r.doc, tree() as JsonNode, format, f, s);
      if (changes.length)
        out.push({
          title: `${capitalise(s.description)}? (suggestion for ${f.ruleId})`,
          kind: CodeActionKind.Refactor,
          diagnostics: [diagnostic],
          edit: { changes: { [r.uri]: changes } },
        });
    }
  }
  return out;
}

/** "Fix all": every fix `--fix` would apply to this text, as one edit of the part that changes. */
export function fixAllAction(r: Reviewed): CodeAction | undefined {
  if (!r.findings.some((f) => f.fix)) return undefined;
  const text = r.doc.getText();
  const input: DescriptorInput = { ...r.input, content: text };
  delete input.size;
  const fixed = fixDescriptors([input], r.config).get(input);
  if (!fixed || fixed.after === text) return undefined;
  const after = fixed.after;
  let start = 0;
  while (start < text.length && start < after.length && text[start] === after[start]) start++;
  let end = 0;
  while (
    end < text.length - start &&
    end < after.length - start &&
    text[text.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  // Never cut a surrogate pair in two: editors place positions between characters.
  if (start > 0 && isHigh(text.charCodeAt(start - 1))) start--;
  if (end > 0 && isHigh(text.charCodeAt(text.length - end - 1))) end--;
  return {
    title: `Fix all plugin-review problems (${fixed.applied})`,
    kind: FIX_ALL_KIND,
    edit: {
      changes: {
        [r.uri]: [
          {
            range: { start: r.doc.positionAt(start), end: r.doc.positionAt(text.length - end) },
            newText: after.slice(start, after.length - end),
          },
        ],
      },
    },
  };
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
