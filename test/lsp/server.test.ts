/**
 * The language server as an editor uses it: the built CLI spawned as `plugin-review lsp --stdio`, driven over
 * its standard input and output by a real LSP client (vscode-languageserver-protocol). Each test works in a
 * temporary folder of its own: outside any repository, or a git repository made for it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CodeActionKind,
  CodeActionRequest,
  DiagnosticSeverity,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  RegistrationRequest,
  ResponseError,
  ShutdownRequest,
  type CodeAction,
  type Diagnostic,
  type MarkupContent,
  type TextEdit,
} from "vscode-languageserver-protocol/node";
import { edit, text, validHost } from "../helpers.js";
import { liveParts } from "../markdown.js";
import { applyEdits, LspClient, uriOf } from "./client.js";

let dir: string;
let client: LspClient | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "plugin-review-lsp-"));
});
afterEach(() => {
  client?.kill();
  client = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function start(root = dir, options?: unknown, env?: NodeJS.ProcessEnv): Promise<LspClient> {
  client = new LspClient(root, env);
  await client.initialize(root, options);
  return client;
}

const VALID = text(validHost());
const ids = (ds: Diagnostic[]) => ds.map((d) => d.code);

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
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

describe("plugin-review lsp --stdio", () => {
  it("initialises with incremental sync, code actions (quick fix, refactor, fix all) and hover", async () => {
    client = new LspClient(dir);
    const result = await client.initialize(dir);
    expect(result.capabilities.hoverProvider).toBe(true);
    expect(result.capabilities.textDocumentSync).toMatchObject({ openClose: true, change: 2 });
    expect(result.capabilities.codeActionProvider).toEqual({
      codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Refactor, "source.fixAll.plugin-review"],
    });
    expect(result.serverInfo?.name).toBe("plugin-review");
  });

  it("reviews on open: rule id, severity, exact range, the rule's page, source", async () => {
    const c = await start();
    const path = join(dir, "plugin.json");
    const source = edit(VALID, '"unit": "PerSecond"', '"unit": "PerSecnd"');
    const diagnostics = await c.open(path, source);
    expect(ids(diagnostics)).toEqual(["invalid-value"]);
    const d = diagnostics[0]!;
    expect(d.severity).toBe(DiagnosticSeverity.Error);
    expect(d.source).toBe("plugin-review");
    expect(d.codeDescription?.href).toBe(
      "https://github.com/plugin-review/plugin-review/blob/main/docs/rules/invalid-value.md",
    );
    // The value `"PerSecnd"`, quotes included, on its line.
    const lines = source.split("\n");
    const line = lines.findIndex((l) => l.includes('"PerSecnd"'));
    const character = lines[line]!.indexOf('"PerSecnd"');
    expect(d.range).toEqual({ start: { line, character }, end: { line, character: character + 10 } });
    expect(d.message).toMatch(/did you mean `PerSecond`/i);
  });

  it("reviews again on change (incremental edits), debounced", async () => {
    const c = await start(dir, { debounceMs: 50 });
    const path = join(dir, "plugin.json");
    expect(await c.open(path, VALID)).toEqual([]);
    // One character typed into the version: `1.2.0` becomes `1.2.0x`.
    const lines = VALID.split("\n");
    const line = lines.findIndex((l) => l.includes('"version"'));
    const character = lines[line]!.indexOf('1.2.0"') + 5;
    const at = { line, character };
    const before = c.published.length;
    const diagnostics = await c.change(path, [{ range: { start: at, end: at }, newText: "x" }]);
    expect(ids(diagnostics)).toEqual(["version-format"]);
    expect(c.published.length).toBe(before + 1);
  });

  it("applies a quick fix: the result is valid JSON and the finding is gone", async () => {
    const c = await start();
    const path = join(dir, "plugin.json");
    // Only the letter case differs from an allowed value: a fix, no guess.
    const source = edit(VALID, '"unit": "PerSecond"', '"unit": "persecond"');
    const [d] = await c.open(path, source);
    expect(d?.code).toBe("invalid-value");
    const found = await actions(c, path, d!);
    const fix = found.find((a) => a.kind === CodeActionKind.QuickFix);
    expect(fix?.isPreferred).toBe(true);
    expect(fix?.diagnostics).toEqual([d]);
    const fixed = applyEdits(source, editsOf(fix!, path));
    expect(() => JSON.parse(fixed) as unknown).not.toThrow();
    expect(fixed).toBe(VALID);
    expect(await c.change(path, editsOf(fix!, path))).toEqual([]);
  });

  it("offers each suggestion as a refactor, never as a quick fix; fix all applies the fixes only", async () => {
    const c = await start();
    const path = join(dir, "plugin.json");
    const source = edit(
      edit(VALID, '"aggregation": "avg"', '"aggeragation": "avg"'),
      '"unit": "PerSecond"',
      '"unit": "persecond"',
    );
    const diagnostics = await c.open(path, source);
    expect(ids(diagnostics).sort()).toEqual(["invalid-value", "unknown-member"]);
    const unknown = diagnostics.find((d) => d.code === "unknown-member")!;
    const guesses = await actions(c, path, unknown);
    const refactor = guesses.filter((a) => a.kind === CodeActionKind.Refactor);
    expect(refactor).toHaveLength(1);
    expect(refactor[0]!.title).toMatch(/aggregation/);
    expect(guesses.filter((a) => a.kind === CodeActionKind.QuickFix)).toEqual([]);
    const renamed = applyEdits(source, editsOf(refactor[0]!, path));
    expect(renamed).toBe(edit(VALID, '"unit": "PerSecond"', '"unit": "persecond"'));

    const [all] = await actions(c, path, unknown, ["source.fixAll"]);
    expect(all?.kind).toBe("source.fixAll.plugin-review");
    const fixedAll = applyEdits(source, editsOf(all!, path));
    expect(fixedAll).toBe(edit(VALID, '"aggregation": "avg"', '"aggeragation": "avg"'));
    expect(ids(await c.change(path, fixedAll))).toEqual(["unknown-member"]);
  });

  it("half-typed JSON gives the parse finding and nothing else, and never stops the server", async () => {
    const c = await start();
    const path = join(dir, "plugin.json");
    const half = VALID.slice(0, VALID.indexOf('"metrics"') + 12);
    const diagnostics = await c.open(path, half);
    expect(ids(diagnostics)).toEqual(["invalid-json"]);
    for (const garbage of [
      "",
      "{",
      '{"name": "custom.python.x", "version": ',
      "\u0000\ud800]",
      "[".repeat(5000),
    ]) {
      const ds = await c.change(path, garbage);
      expect(ids(ds).every((id) => id === "invalid-json")).toBe(true);
      expect(ds.length).toBeLessThanOrEqual(1);
    }
    expect(await c.change(path, VALID)).toEqual([]);
  });

  it("counts characters in UTF-16 as LSP does: a finding after an emoji lands on it", async () => {
    const c = await start();
    const path = join(dir, "plugin.json");
    const source = VALID.replace('"version": "1.2.0"', '"version": "1.2.0", "x😀": 1, "y": "é😀", "zz": 1');
    const diagnostics = await c.open(path, source);
    const line = source.split("\n").findIndex((l) => l.includes('"zz"'));
    const zz = diagnostics.find((d) => JSON.stringify(d.message).includes("`zz`"))!;
    const character = source.split("\n")[line]!.indexOf('"zz"');
    expect(zz.range).toEqual({ start: { line, character }, end: { line, character: character + 4 } });
  });

  it("hover explains a member: meaning, type and allowed values from the schemas", async () => {
    const c = await start();
    const path = join(dir, "plugin.json");
    await c.open(path, VALID);
    const lines = VALID.split("\n");
    const line = lines.findIndex((l) => l.includes('"unit"'));
    const hover = await c.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: uriOf(path) },
      position: { line, character: lines[line]!.indexOf('"unit"') + 2 },
    });
    const value = (hover?.contents as MarkupContent).value;
    expect(value).toMatch(/^\*\*Unit\*\* \(`unit`\)/);
    expect(value).toContain("Type: `string`");
    expect(value).toMatch(/Allowed values: .*`Percent`/);
    const onValue = await c.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: uriOf(path) },
      position: { line: lines.findIndex((l) => l.includes('"aggregation"')), character: 25 },
    });
    expect((onValue?.contents as MarkupContent).value).toMatch(/any letter case/);
  });

  it("hover answers right after the document opens, before its first review lands (its base is read from git)", async () => {
    git(dir, "init", "-q");
    const c = await start();
    const path = join(dir, "plugin.json");
    await c.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: uriOf(path), languageId: "json", version: 1, text: VALID },
    });
    const lines = VALID.split("\n");
    const line = lines.findIndex((l) => l.includes('"unit"'));
    const hover = await c.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: uriOf(path) },
      position: { line, character: lines[line]!.indexOf('"unit"') + 2 },
    });
    expect((hover?.contents as MarkupContent | undefined)?.value).toMatch(/^\*\*Unit\*\* \(`unit`\)/);
  });

  it("hover shows nothing of the document's own text: a hostile member name gets none, a known member's is inert", async () => {
    const hostileName = "x` @acme/admins [approve](https://evil.example) <img src=x> `y";
    const doc = validHost();
    doc[hostileName] = { unit: "`` <b>hi</b> @acme/admins" };
    const source = text(doc);
    const c = await start();
    const path = join(dir, "plugin.json");
    await c.open(path, source);
    const lines = source.split("\n");
    const at = async (needle: string) => {
      const line = lines.findIndex((l) => l.includes(needle));
      const hover = await c.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: uriOf(path) },
        position: { line, character: lines[line]!.indexOf(needle) + 2 },
      });
      return (hover?.contents as MarkupContent | undefined)?.value;
    };
    // Hover explains the schemas' members: a name the schemas do not know, or one below it, has no hover.
    expect(await at(JSON.stringify(hostileName).slice(0, 10))).toBeUndefined();
    expect(await at('"``')).toBeUndefined();
    const name = await at('"name"');
    expect(name).toMatch(/\(`name`\)/);
    expect(liveParts(name!)).toEqual([]);
  });

  it("hover reads no document past max_file_size, as the review reads none (file-too-large)", async () => {
    writeFileSync(join(dir, ".git"), ""); // the repository root, as far as finding the configuration goes
    mkdirSync(join(dir, ".github"));
    writeFileSync(join(dir, ".github", "plugin-review.yml"), `max_file_size: ${VALID.length - 1}\n`);
    const c = await start();
    const path = join(dir, "plugin.json");
    expect(ids(await c.open(path, VALID))).toEqual(["file-too-large"]);
    const lines = VALID.split("\n");
    const line = lines.findIndex((l) => l.includes('"unit"'));
    const hover = await c.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: uriOf(path) },
      position: { line, character: lines[line]!.indexOf('"unit"') + 2 },
    });
    expect(hover).toBeNull();
  });

  it("follows the configuration as check does: paths, off rules, ignore; reloads it when it changes", async () => {
    writeFileSync(join(dir, ".git"), ""); // the repository root, as far as finding the configuration goes
    mkdirSync(join(dir, ".github"));
    mkdirSync(join(dir, "legacy"));
    const config = join(dir, ".github", "plugin-review.yml");
    writeFileSync(config, "rules:\n  invalid-value: off\nignore:\n  - paths: ['legacy/**']\n");
    const c = await start();
    const source = edit(
      edit(VALID, '"unit": "PerSecond"', '"unit": "PerSecnd"'),
      '"version": "1.2.0"',
      '"version": "1.2"',
    );
    const path = join(dir, "plugin.json");
    const legacy = join(dir, "legacy", "plugin.json");
    const other = join(dir, "notes.json");
    expect(await c.open(path, edit(source, '"1.2"', '"one"'))).toHaveLength(1);
    expect(await c.open(legacy, edit(source, '"1.2"', '"one"'))).toEqual([]);
    expect(await c.open(other, edit(source, '"1.2"', '"one"'))).toEqual([]);
    // Sent before those diagnostics (on `initialized`): the client watches the configuration files.
    expect(c.registrations.map((r) => r.method)).toContain("workspace/didChangeWatchedFiles");

    // The rule is turned back on: every open descriptor is reviewed again.
    writeFileSync(config, "rules:\n  version-format: off\n");
    const next = c.diagnostics(uriOf(path));
    const nextLegacy = c.diagnostics(uriOf(legacy));
    await c.watchedFileChanged(config);
    expect(ids((await next).diagnostics)).toEqual(["invalid-value"]);
    expect(ids((await nextLegacy).diagnostics)).toEqual(["invalid-value"]);

    // An invalid configuration is shown, never replaced by the defaults.
    writeFileSync(config, "# misspelt:\nrules:\n  invalid-valeu: off\n");
    const broken = c.diagnostics(uriOf(path));
    const onConfig = c.diagnostics(uriOf(config));
    await c.watchedFileChanged(config);
    const shown = (await broken).diagnostics;
    expect(shown).toHaveLength(1);
    expect(shown[0]!.message).toMatch(/not reviewed: invalid configuration/);
    const problems = (await onConfig).diagnostics;
    expect(problems).toHaveLength(1);
    expect(problems[0]!.range.start).toEqual({ line: 2, character: 2 }); // at `invalid-valeu`
    expect(problems[0]!.message).toMatch(/unknown rule id `invalid-valeu`.*invalid-value/);
    expect(c.messages.some((m) => m.type === 1 && /invalid configuration/.test(m.message))).toBe(true);

    // Fixed in the editor and saved: read again, the problems cleared.
    await c.open(config, "rules:\n  invalid-valeu: off\n", "yaml");
    writeFileSync(config, "rules: {}\n");
    const cleared = c.diagnostics(uriOf(config), (p) => p.diagnostics.length === 0);
    const again = c.diagnostics(uriOf(path));
    await c.change(config, "rules: {}\n").catch(() => undefined);
    await c.save(config);
    await cleared;
    expect(ids((await again).diagnostics).sort()).toEqual(["invalid-value", "version-format"]);
  });

  it("marks the problems of an open configuration however the client escapes its URI (VS Code: `+`, `@`)", async () => {
    const root = join(dir, "team+plugins@2");
    mkdirSync(join(root, ".github"), { recursive: true });
    const config = join(root, ".github", "plugin-review.yml");
    writeFileSync(config, "rules: {}\n"); // valid on disk: the problem is only in the editor
    const c = await start(root);
    // As VS Code's URI.toString() writes it; pathToFileURL leaves `+` and `@` as they are.
    const uri = "file://" + config.split("/").map(encodeURIComponent).join("/");
    expect(uri).not.toBe(uriOf(config));
    const problems = c.diagnostics(uri);
    await c.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "yaml", version: 1, text: "rules:\n  invalid-valeu: off\n" },
    });
    const shown = (await problems).diagnostics;
    expect(shown).toHaveLength(1);
    expect(shown[0]!.message).toMatch(/unknown rule id `invalid-valeu`/);
    expect(shown[0]!.range.start).toEqual({ line: 1, character: 2 });
    // Closed unsaved: the file on disk is valid again, and the client's URI is cleared.
    const cleared = c.diagnostics(uri, (p) => p.diagnostics.length === 0);
    await c.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    await cleared;
  });

  it("runs on when the client refuses to watch the configuration file (an error to registerCapability)", async () => {
    const c = (client = new LspClient(dir));
    c.connection.onRequest(RegistrationRequest.type, () => new ResponseError(-32601, "not supported here"));
    await c.initialize(dir);
    const path = join(dir, "plugin.json");
    expect(ids(await c.open(path, edit(VALID, '"version": "1.2.0"', '"version": "one"')))).toEqual([
      "version-format",
    ]);
    await expect.poll(() => c.logs.map((l) => l.message).join("\n")).toMatch(/does not watch/);
    expect(await c.shutdown()).toBe(0);
  });

  it("compares with the file at HEAD in a git repository: change rules, existing findings marked", async () => {
    git(dir, "init", "-q", "-b", "main");
    const base = edit(VALID, '"aggregation": "avg"', '"aggeragation": "avg"');
    writeFileSync(join(dir, "plugin.json"), base);
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "base");
    const c = await start();
    const path = join(dir, "plugin.json");
    // Unchanged: the old mistake is existing, a notice that says so.
    const [old] = await c.open(path, base);
    expect(old?.code).toBe("unknown-member");
    expect(old?.severity).toBe(DiagnosticSeverity.Information);
    expect(old?.message).toMatch(/\(existing: predates this change\)$/);
    expect(old?.data).toMatchObject({ baseline: "existing" });
    // Changed without a version bump: a new finding, whose fix names the next version.
    const changed = edit(base, '"Requests per second"', '"Requests each second"');
    const diagnostics = await c.change(path, changed);
    expect(ids(diagnostics).sort()).toEqual(["unknown-member", "version-not-bumped"]);
    const bump = diagnostics.find((d) => d.code === "version-not-bumped")!;
    expect(bump.severity).toBe(DiagnosticSeverity.Error);
    expect(bump.data).toMatchObject({ baseline: "new" });
    const fix = (await actions(c, path, bump)).find((a) => a.kind === CodeActionKind.QuickFix)!;
    const bumped = applyEdits(changed, editsOf(fix, path));
    expect(JSON.parse(bumped)).toMatchObject({ version: "1.2.1" });
    expect(ids(await c.change(path, bumped))).toEqual(["unknown-member"]);
  });

  it("compares with the merge base of the branch and its upstream, and follows renames", async () => {
    const origin = join(dir, "origin");
    const work = join(dir, "work");
    mkdirSync(origin);
    git(origin, "init", "-q", "-b", "main");
    writeFileSync(join(origin, "plugin.json"), VALID);
    git(origin, "add", ".");
    git(origin, "commit", "-q", "-m", "base");
    git(dir, "clone", "-q", origin, work);
    git(work, "checkout", "-q", "-b", "topic", "--track", "origin/main");
    // A commit on the branch: HEAD has version 1.3.0, the merge base 1.2.0.
    const head = edit(VALID, '"1.2.0"', '"1.3.0"');
    writeFileSync(join(work, "plugin.json"), head);
    git(work, "commit", "-q", "-am", "bump");
    mkdirSync(join(work, "moved"));
    git(work, "mv", "plugin.json", "moved/plugin.json");
    const c = await start(work);
    const path = join(work, "moved", "plugin.json");
    // Against the merge base (1.2.0): lowering the version to 1.1.0 is reported; against HEAD it would also be.
    expect(ids(await c.open(path, edit(head, '"1.3.0"', '"1.1.0"')))).toEqual(["version-decreased"]);
    // 1.2.0 is the merge base's version: not bumped (HEAD's 1.3.0 would call it decreased).
    expect(ids(await c.change(path, edit(VALID, '"Requests per second"', '"Requests each second"')))).toEqual(
      ["version-not-bumped"],
    );
  });

  it("outside any repository: no change rules, no error", async () => {
    const c = await start();
    const path = join(dir, "plugin.json");
    expect(await c.open(path, VALID)).toEqual([]);
    expect(c.messages).toEqual([]);
  });

  it("without git on the PATH: no change rules, no error, even inside a repository", async () => {
    git(dir, "init", "-q");
    const source = edit(VALID, '"aggregation": "avg"', '"aggeragation": "avg"');
    writeFileSync(join(dir, "plugin.json"), source);
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "base");
    const empty = join(dir, "no-tools");
    mkdirSync(empty);
    const c = await start(dir, { debounceMs: 0 }, { ...process.env, PATH: empty });
    const [finding] = await c.open(
      join(dir, "plugin.json"),
      edit(source, '"Requests per second"', '"Requests"'),
    );
    // Reviewed alone: the finding is not marked existing, and version-not-bumped cannot be known.
    expect(finding?.code).toBe("unknown-member");
    expect(finding?.severity).toBe(DiagnosticSeverity.Warning);
    expect(finding?.data).not.toHaveProperty("baseline");
    expect(c.messages).toEqual([]);
  });

  it("shuts down and exits with status 0 when asked", async () => {
    const c = await start();
    await c.open(join(dir, "plugin.json"), VALID);
    expect(await c.shutdown()).toBe(0);
    client = undefined;
  });

  it("ends when the editor goes away (standard input closed): status 0 after a shutdown request, else 1", async () => {
    const gone = await start();
    await gone.open(join(dir, "plugin.json"), VALID);
    gone.process.stdin!.end();
    expect(await gone.exitCode).toBe(1);
    gone.kill();

    const done = await start();
    await done.open(join(dir, "plugin.json"), VALID);
    await done.connection.sendRequest(ShutdownRequest.type);
    done.process.stdin!.end();
    expect(await done.exitCode).toBe(0);
  });

  it("refuses to start without --stdio", async () => {
    const { cli } = await import("../cli/run.js");
    const r = cli(["lsp"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/lsp --stdio/);
  });
});
