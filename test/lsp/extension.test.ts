/**
 * The language server and Extensions 2.0 extensions (the built CLI spawned as `plugin-review lsp --stdio`, driven
 * by a real LSP client): an open extension.yaml is reviewed as a plugin.json is, with its findings' exact ranges,
 * its edits offered as code actions and written in YAML (the version as the file writes it), the base's mistakes
 * as existing findings and the plugin.json it replaces compared with it in a git repository; another tool's
 * extension.yaml gets nothing.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CodeActionKind,
  CodeActionRequest,
  DiagnosticSeverity,
  HoverRequest,
  type CodeAction,
  type Diagnostic,
  type MarkupContent,
  type TextEdit,
} from "vscode-languageserver-protocol/node";
import type { JsonFinding } from "../../src/format/json.js";
import { cli } from "../cli/run.js";
import { edit, lineOf, MIGRATION, withoutIdle } from "../helpers.js";
import { applyEdits, LspClient, uriOf } from "./client.js";

let dir: string;
let client: LspClient | undefined;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "plugin-review-lsp-ef2-")));
});
afterEach(() => {
  client?.kill();
  client = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function start(root = dir): Promise<LspClient> {
  client = new LspClient(root);
  await client.initialize(root);
  return client;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function write(path: string, content: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  return path;
}

async function actions(c: LspClient, path: string, d: Diagnostic, only?: string[]): Promise<CodeAction[]> {
  const result = await c.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: uriOf(path) },
    range: d.range,
    context: { diagnostics: [d], ...(only ? { only } : {}) },
  });
  return (result ?? []) as CodeAction[];
}

const editsOf = (a: CodeAction, path: string): TextEdit[] => a.edit?.changes?.[uriOf(path)] ?? [];
const ids = (ds: Diagnostic[]) => ds.map((d) => d.code);
const EXTENSION = MIGRATION.extension;

describe("plugin-review lsp: an extension.yaml", () => {
  it("is reviewed on open: rule, severity, the version's exact range; its suggestion is written in YAML", async () => {
    const c = await start();
    const path = join(dir, "pool", "extension", "extension.yaml");
    const source = edit(EXTENSION, 'version: "1.7.0"', "version: 1.8");
    const diagnostics = await c.open(path, source, "yaml");
    expect(ids(diagnostics)).toEqual(["ef2-version-format"]);
    const d = diagnostics[0]!;
    expect(d.severity).toBe(DiagnosticSeverity.Error);
    expect(d.range).toEqual({ start: { line: 1, character: 9 }, end: { line: 1, character: 12 } });
    // `1.8` is YAML's number: the likely version is a guess (a refactor), written plain as the file writes
    // it, since YAML reads `1.8.0` as text.
    const [guess, ...others] = await actions(c, path, d);
    expect(others).toEqual([]);
    expect(guess!.kind).toBe(CodeActionKind.Refactor);
    const fixed = applyEdits(source, editsOf(guess!, path));
    expect(fixed).toBe(edit(EXTENSION, 'version: "1.7.0"', "version: 1.8.0"));
    expect(await c.change(path, fixed)).toEqual([]);
  });

  it("hover explains a member from the extension schema, also after non-ASCII text on its line", async () => {
    const c = await start();
    const path = join(dir, "pool", "extension", "extension.yaml");
    const source = edit(
      edit(EXTENSION, 'version: "1.7.0"', 'version: "1.7.0" # ünïcödé 😀'),
      "        - key: pool\n          displayName: pool\n",
      '        - {displayName: "😀 pööl", key: pool}\n',
    );
    await c.open(path, source, "yaml");
    const lines = source.split("\n");
    const hoverOn = async (needle: string, nth = 0) => {
      const line = lines.findIndex((l) => l.includes(needle));
      const character = lines[line]!.indexOf(needle) + nth;
      const hover = await c.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: uriOf(path) },
        position: { line, character },
      });
      return { hover, line, character };
    };
    const version = await hoverOn("version:", 2);
    expect((version.hover?.contents as MarkupContent).value).toMatch(/^`version`\n\n`major\.minor\.patch`/);
    expect(version.hover?.range).toEqual({
      start: { line: version.line, character: 0 },
      end: { line: version.line, character: "version".length },
    });
    const name = await hoverOn("name: custom:", 1);
    expect((name.hover?.contents as MarkupContent).value).toMatch(/`custom:`/);
    expect((name.hover?.contents as MarkupContent).value).toContain("Type: `string`");
    // After an emoji (two UTF-16 code units) on its line: a dimension's key, at its UTF-16 columns.
    const key = await hoverOn("key: pool}", 1);
    expect((key.hover?.contents as MarkupContent).value).toMatch(/^`key`\n\nMetric ingestion protocol/);
    expect(key.hover?.range).toEqual({
      start: { line: key.line, character: key.character - 1 },
      end: { line: key.line, character: key.character + 2 },
    });
    // A member the schema does not describe, and a comment, have none.
    expect((await hoverOn("# ünïcödé", 3)).hover).toBeNull();
  });

  it("hover reads the file as the review does: also one with a quoted selector only Dynatrace's parser takes", async () => {
    const c = await start();
    const path = join(dir, "pool", "extension", "extension.yaml");
    // A calculated metric's selector over several lines indented as deep as its key, as published extensions
    // write them (Dynatrace's kubernetes-control-plane): SnakeYAML reads it, YAML 1.2 refuses it.
    const source = `${EXTENSION.trimEnd()}
  - key: func:example.pool.used
    query:
      metricSelector: '
      (example.pool.active)
      +(example.pool.created.count)'
    metadata:
      displayName: Connections used
      unit: Count
`;
    const diagnostics = await c.open(path, source, "yaml");
    // The review read it: its warning, and no error that it could not.
    expect(ids(diagnostics)).toEqual(["invalid-yaml"]);
    expect(diagnostics[0]!.severity).toBe(DiagnosticSeverity.Warning);
    const lines = source.split("\n");
    const hoverOn = async (needle: string) => {
      const line = lines.findLastIndex((l) => l.includes(needle));
      const hover = await c.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: uriOf(path) },
        position: { line, character: lines[line]!.indexOf(needle) + 1 },
      });
      return (hover?.contents as MarkupContent | undefined)?.value;
    };
    expect(await hoverOn("version:")).toMatch(/^`version`\n\n/);
    // The calculated metric's own member, after the selector: at its place in the text.
    expect(await hoverOn("metadata:")).toMatch(/^`metadata`\n\nCustom metric metadata/);
  });

  it("a Python extension is judged with its project's files on disk: the module's folder, the activation schema", async () => {
    const path = join(dir, "queue", "extension", "extension.yaml");
    const python = [
      "name: custom:acme.queue",
      'version: "1.0.0"',
      'minDynatraceVersion: "1.285"',
      "author:",
      "  name: Acme",
      "python:",
      "  runtime:",
      "    module: acme_queue",
      "    version:",
      '      min: "3.10"',
      "  activation:",
      "    remote:",
      "      path: activationSchema.json",
      "",
    ].join("\n");
    write(path, python);
    const c = await start();
    const missing = await c.open(path, python, "yaml");
    expect(missing.map((d) => [d.code, d.range.start.line])).toEqual([
      ["python-module-missing", 7],
      ["activation-schema-invalid", 12],
    ]);
    write(join(dir, "queue", "acme_queue", "__main__.py"), "print('queue')\n");
    write(
      join(dir, "queue", "extension", "activationSchema.json"),
      readFileSync("examples/extension-python/extension/activationSchema.json", "utf8"),
    );
    expect(await c.change(path, python + "# saved\n")).toEqual([]);
  });

  it("the metric events of its alert files on disk: the findings `check` reports, at the alerts' paths", async () => {
    const folder = join(dir, "router", "extension");
    const path = join(folder, "extension.yaml");
    const source = `${readFileSync("examples/extension-valid/extension/extension.yaml", "utf8")}alerts:\n  - path: alerts/errors.json\n  - path: alerts/uptime.json\n`;
    write(path, source);
    write(
      join(folder, "dashboards", "overview.json"),
      readFileSync("examples/extension-valid/extension/dashboards/overview.json", "utf8"),
    );
    const strategy = { type: "STATIC_THRESHOLD", samples: 3, violatingSamples: 5, dealertingSamples: 5 };
    write(
      join(folder, "alerts", "errors.json"),
      JSON.stringify({ name: "Errors", description: "{entityname}", monitoringStrategy: strategy }),
    );
    write(
      join(folder, "alerts", "uptime.json"),
      JSON.stringify({
        name: "Down",
        description: "{entityname} down on {dimensions}",
        monitoringStrategy: { ...strategy, samples: 5, violatingSamples: 3 },
      }),
    );
    const c = await start();
    const diagnostics = await c.open(path, source, "yaml");
    const shown = diagnostics.map((d) => [d.code, d.range.start.line + 1, d.message]);
    expect(shown).toEqual([
      [
        "alert-samples",
        lineOf(source, "  - path: alerts/errors.json"),
        expect.stringContaining("`monitoringStrategy.violatingSamples` (5) exceeds"),
      ],
      [
        "alert-placeholder",
        lineOf(source, "  - path: alerts/uptime.json"),
        expect.stringContaining("`{dimensions}`"),
      ],
    ]);
    // `check` in the workspace the editor opened, as its user runs it.
    const run = cli(["check", "--format", "json", "--no-config", "router"], dir);
    const findings = JSON.parse(run.stdout) as JsonFinding[];
    expect(findings.map((f) => [f.ruleId, f.line, f.message])).toEqual(
      diagnostics.map((d) => [d.code, d.range.start.line + 1, d.message]),
    );
  });

  it("a dashboard file on disk that is not JSON: asset-missing at its path, as `check` reports it", async () => {
    const folder = join(dir, "boards", "extension");
    const path = join(folder, "extension.yaml");
    const source = readFileSync("examples/extension-valid/extension/extension.yaml", "utf8");
    write(path, source);
    write(join(folder, "dashboards", "overview.json"), '{\n  "tiles": [],\n}');
    const c = await start();
    const diagnostics = await c.open(path, source, "yaml");
    expect(diagnostics.map((d) => [d.code, d.range.start.line + 1, d.message])).toEqual([
      [
        "asset-missing",
        lineOf(source, "  - path: dashboards/overview.json"),
        expect.stringContaining("dashboard `dashboards/overview.json` is not valid JSON (line 3, column 1)"),
      ],
    ]);
    const run = cli(["check", "--format", "json", "--no-config", "boards"], dir);
    expect((JSON.parse(run.stdout) as JsonFinding[]).map((f) => [f.ruleId, f.line, f.message])).toEqual(
      diagnostics.map((d) => [d.code, d.range.start.line + 1, d.message]),
    );
  });

  it("opened with its own extension folder as the workspace, outside a repository: its alert files are read", async () => {
    const folder = join(dir, "alone-router", "extension");
    const path = join(folder, "extension.yaml");
    const source = `${readFileSync("examples/extension-valid/extension/extension.yaml", "utf8")}alerts:\n  - path: alerts/errors.json\n`;
    write(path, source);
    const strategy = { type: "STATIC_THRESHOLD", samples: 3, violatingSamples: 5, dealertingSamples: 5 };
    write(
      join(folder, "alerts", "errors.json"),
      JSON.stringify({ name: "Errors", description: "{entityname}", monitoringStrategy: strategy }),
    );
    const c = await start(folder);
    const diagnostics = await c.open(path, source, "yaml");
    // Its dashboard is missing: asset-missing, as for any workspace.
    expect(diagnostics.map((d) => [d.code, d.range.start.line + 1])).toEqual([
      ["asset-missing", lineOf(source, "  - path: dashboards/overview.json")],
      ["alert-samples", lineOf(source, "  - path: alerts/errors.json")],
    ]);
  });

  it("another tool's extension.yaml (Firebase Extensions'): nothing, whatever it holds", async () => {
    const c = await start();
    const path = join(dir, "functions", "extension.yaml");
    const firebase = "name: storage-resize-images\nversion: 0.1\nversion: 0.2\nspecVersion: v1beta\n";
    expect(await c.open(path, firebase, "yaml")).toEqual([]);
    // Typing it into an extension (a `custom:` name) makes it one: reviewed from then on, as an incomplete one
    // (no minDynatraceVersion, no author, a member Dynatrace does not know).
    const typed = await c.change(path, firebase.replace("storage-resize-images", "custom:resize"));
    expect(ids(typed).sort()).toEqual([
      "duplicate-key",
      "ef2-version-format",
      "required-member",
      "required-member",
      "unknown-member",
    ]);
  });
});

describe("plugin-review lsp: an extension.yaml in a git repository", () => {
  it("the base's mistake is an existing finding, shown as information; a new one is an error", async () => {
    const repo = join(dir, "repo");
    mkdirSync(repo);
    git(repo, "init", "-q", "-b", "main");
    const twice = edit(EXTENSION, "  name: Example team\n", "  name: Example team\n  name: Example team\n");
    const path = write(join(repo, "pool", "extension.yaml"), twice);
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "base");
    const c = await start(repo);
    const diagnostics = await c.open(path, edit(twice, 'version: "1.7.0"', "version: 1.8"), "yaml");
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ["ef2-version-format", DiagnosticSeverity.Error],
      ["duplicate-key", DiagnosticSeverity.Information],
    ]);
  });

  it("beside the plugin.json it replaces at the merge base: the migration rules, naming its line", async () => {
    const repo = join(dir, "repo");
    mkdirSync(repo);
    git(repo, "init", "-q", "-b", "main");
    write(join(repo, "pool", "plugin.json"), MIGRATION.plugin);
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "base");
    git(repo, "rm", "-q", "pool/plugin.json");
    const lost = withoutIdle(EXTENSION);
    const path = write(join(repo, "pool", "extension", "extension.yaml"), lost);
    const c = await start(repo);
    const diagnostics = await c.open(path, lost, "yaml");
    expect(ids(diagnostics)).toEqual(["migration-metric-missing"]);
    expect(diagnostics[0]!.message).toMatch(
      /^EF1 metric `idle` \(`[0-9a-f]{12}:pool\/plugin\.json` line \d+, a file this change deletes\)/,
    );
  });

  // The change rule that bumps an extension's version (issue 41), as a quick fix and in "fix all", the version
  // written as the file writes it.
  it("a change without a higher version: the quick fix bumps the patch", async () => {
    const repo = join(dir, "repo");
    mkdirSync(repo);
    git(repo, "init", "-q", "-b", "main");
    const path = write(join(repo, "pool", "extension", "extension.yaml"), EXTENSION);
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "base");
    const c = await start(repo);
    const changed = edit(EXTENSION, "displayName: Active connections", "displayName: Connections in use");
    const diagnostics = await c.open(path, changed, "yaml");
    const d = diagnostics.find((x) => x.code === "version-not-bumped")!;
    const fix = (await actions(c, path, d)).find((a) => a.kind === CodeActionKind.QuickFix)!;
    expect(fix.isPreferred).toBe(true);
    const bumped = applyEdits(changed, editsOf(fix, path));
    expect(bumped).toBe(edit(changed, 'version: "1.7.0"', 'version: "1.7.1"'));
    const [all] = await actions(c, path, d, ["source.fixAll"]);
    expect(applyEdits(changed, editsOf(all!, path))).toBe(bumped);
    expect(ids(await c.change(path, bumped))).not.toContain("version-not-bumped");
  });
});

describe("language server: a Python extension whose project cannot be found", () => {
  const PYTHON = `name: custom:acme.queue
version: 1.0.0
minDynatraceVersion: "1.285"
author:
  name: Acme
python:
  runtime:
    module: acme_queue
    version:
      min: "3.10"
  activation:
    remote:
      path: activationSchema.json
`;

  it("says in its log once, not at every change, that its module and activation schema were not checked", async () => {
    // Opened from its own folder as the workspace: the project folder above it is not there to list.
    const path = write(join(dir, "extension", "extension.yaml"), PYTHON);
    const c = await start(join(dir, "extension"));
    await c.open(path, PYTHON, "yaml");
    await c.change(path, PYTHON.replace("1.0.0", "1.0.1"));
    await c.change(path, PYTHON.replace("1.0.0", "1.0.2"));
    const said = c.logs.filter((l) => /were not checked/.test(l.message));
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toContain(
      "extension.yaml: its Python module and activation schema were not checked",
    );
  });
});
