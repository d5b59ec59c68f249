/**
 * The editor shows what the CLI reports: for every shipped example and every descriptor of the real corpus
 * (../shared/corpus/real/, skipped when absent), the server's diagnostics are `check --format json`'s
 * findings, with the same rule ids, ranges and severities. Ranges are converted here on their own, from
 * the CLI's 1-based lines and code-point columns to LSP's 0-based lines and UTF-16 characters. Examples
 * with a base (`plugin.base.json`) are compared in a git repository whose HEAD holds the base, against
 * `check --base`: the change rules and the existing findings must agree too.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver-protocol/node";
import type { JsonFinding } from "../../src/format/json.js";
import { mainRun } from "../cli/run.js";
import { describeUnless, ROOT, withoutShared } from "../helpers.js";
import { lineOffsets, LspClient } from "./client.js";

const CORPUS = join(ROOT, "..", "shared", "corpus", "real");
const hasCorpus = existsSync(CORPUS);

function examples(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? examples(join(dir, e.name)) : e.name === "plugin.json" ? [join(dir, e.name)] : [],
  );
}

const SEVERITY: Record<string, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  notice: DiagnosticSeverity.Information,
};

/** A CLI position (1-based line split at "\n", 1-based code-point column) as an LSP position in `text`. */
function lspPosition(text: string, line: number, column: number): { line: number; character: number } {
  const lines = text.split("\n");
  const before = lines.slice(0, line - 1).join("\n").length + (line > 1 ? 1 : 0);
  const offset = before + [...(lines[line - 1] ?? "")].slice(0, column - 1).join("").length;
  const starts = lineOffsets(text);
  let l = 0;
  while (l + 1 < starts.length && (starts[l + 1] as number) <= offset) l++;
  return { line: l, character: offset - (starts[l] as number) };
}

/** What the server should publish for the CLI's findings (existing ones are notices, as in the App). */
function expected(text: string, findings: JsonFinding[]) {
  return findings
    .map((f) => ({
      code: f.ruleId,
      severity: f.baseline === "existing" ? DiagnosticSeverity.Information : SEVERITY[f.severity],
      range: { start: lspPosition(text, f.line, f.column), end: lspPosition(text, f.endLine, f.endColumn) },
    }))
    .sort(order);
}

const order = (a: { code?: unknown; range: Diagnostic["range"] }, b: typeof a) =>
  a.range.start.line - b.range.start.line ||
  a.range.start.character - b.range.start.character ||
  a.range.end.line - b.range.end.line ||
  a.range.end.character - b.range.end.character ||
  String(a.code).localeCompare(String(b.code));

const shape = (ds: Diagnostic[]) =>
  ds.map((d) => ({ code: d.code, severity: d.severity, range: d.range })).sort(order);

async function cliFindings(args: string[]): Promise<JsonFinding[]> {
  const run = await mainRun(["check", "--format", "json", "--no-config", ...args]);
  expect(run.status, run.stderr).not.toBe(2);
  return JSON.parse(run.stdout) as JsonFinding[];
}

let dir: string;
let client: LspClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plugin-review-lsp-parity-"));
  client = new LspClient(dir);
  await client.initialize(dir);
});
afterAll(async () => {
  await client.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

const shipped = examples(join(ROOT, "examples")).sort();

describe("diagnostics equal check --format json", () => {
  it.each(shipped.map((f) => [relative(ROOT, f)]))("%s", async (rel) => {
    const file = join(ROOT, rel);
    const text = readFileSync(file, "utf8");
    const baseFile = join(file, "..", "plugin.base.json");
    const target = join(dir, "examples", rel);
    mkdirSync(join(target, ".."), { recursive: true });
    let findings: JsonFinding[];
    if (existsSync(baseFile)) {
      // The base committed at HEAD of a repository of its own; the head text open in the editor.
      const repo = join(target, "..");
      const git = (...args: string[]) =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
          cwd: repo,
          stdio: "ignore",
        });
      git("init", "-q");
      writeFileSync(target, readFileSync(baseFile));
      git("add", "plugin.json");
      git("commit", "-q", "-m", "base");
      findings = await cliFindings(["--base", baseFile, file]);
      expect(findings.every((f) => f.baseline !== undefined)).toBe(true);
    } else {
      findings = await cliFindings([file]);
    }
    const diagnostics = await client.open(target, text);
    expect(shape(diagnostics)).toEqual(expected(text, findings));
  });
});

const corpus = hasCorpus
  ? readdirSync(CORPUS)
      .filter((f) => f.endsWith(".json"))
      .sort()
  : [];

describeUnless(withoutShared("corpus/real/"))(
  "diagnostics equal check --format json on the real corpus",
  () => {
    it.each(corpus.map((f) => [f]))("%s", async (name) => {
      const file = join(CORPUS, name);
      const text = readFileSync(file, "utf8");
      const findings = await cliFindings([file]);
      const diagnostics = await client.open(
        join(dir, "corpus", name.replace(/\.json$/, ""), "plugin.json"),
        text,
      );
      expect(shape(diagnostics)).toEqual(expected(text, findings));
    });
  },
);
