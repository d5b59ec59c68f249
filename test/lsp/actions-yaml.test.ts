/**
 * The language server's code actions on an extension.yaml (src/lsp/actions.ts): a finding's fix is a preferred
 * quick fix whose edit is planned on the YAML tree and written as the file writes the value (src/core/yaml/edit.ts).
 * Until a rule of the core fixes an extension.yaml (issue 41's version-not-bumped; test/lsp/extension.test.ts runs
 * it through the server then), the finding is the core's own kind, made here.
 */
import { describe, expect, it } from "vitest";
import { CodeActionKind } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { resolveConfig } from "../../src/core/config.js";
import type { Finding } from "../../src/core/types.js";
import { findingActions } from "../../src/lsp/actions.js";
import { lineStarts } from "../../src/lsp/positions.js";
import { toDiagnostic } from "../../src/lsp/diagnostics.js";
import { applyEdits } from "./client.js";

const TEXT = 'name: custom:a.b\nversion: 1.7.0 # released\nminDynatraceVersion: "1.285"\n';
const uri = "file:///w/extension/extension.yaml";

function reviewed(finding: Finding) {
  const doc = TextDocument.create(uri, "yaml", 1, TEXT);
  const config = resolveConfig();
  const diagnostics = [toDiagnostic(doc, lineStarts(TEXT), finding, config)];
  const input = { path: "extension/extension.yaml", content: TEXT };
  return { uri, version: 1, doc, input, config, findings: [finding], diagnostics };
}

const bump: Finding = {
  ruleId: "version-not-bumped",
  severity: "error",
  message: "m",
  messageId: "notBumped",
  pointer: "/version",
  target: "value",
  fix: { replacement: '"1.7.1"', description: "bump the version to `1.7.1`" },
  line: 2,
  column: 10,
  endLine: 2,
  endColumn: 15,
  fingerprint: "0123456789abcdef",
};

describe("code actions on an extension.yaml", () => {
  it("a fix is a preferred quick fix, written plain as the file writes the version, the comment kept", () => {
    const r = reviewed(bump);
    const [action, ...others] = findingActions(r, [0]);
    expect(others).toEqual([]);
    expect(action).toMatchObject({ kind: CodeActionKind.QuickFix, isPreferred: true });
    const edits = action!.edit!.changes![uri]!;
    expect(applyEdits(TEXT, edits)).toBe(TEXT.replace("1.7.0 #", "1.7.1 #"));
  });

  it("a value YAML would read otherwise written plain is quoted", () => {
    const r = reviewed({ ...bump, fix: { replacement: '"1.10"', description: "d" } });
    const edits = findingActions(r, [0])[0]!.edit!.changes![uri]!;
    expect(applyEdits(TEXT, edits)).toBe(TEXT.replace("1.7.0 #", '"1.10" #'));
  });
});
