/**
 * A real LSP client for the tests, as an editor runs the server: the built CLI spawned as
 * `plugin-review lsp --stdio`, spoken to over its standard input and output with vscode-languageserver-protocol.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShowMessageNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type Diagnostic,
  type InitializeResult,
  type LogMessageParams,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Registration,
  type ShowMessageParams,
  type TextEdit,
} from "vscode-languageserver-protocol/node";
import { BIN, ensureBuilt } from "../cli/run.js";

export const uriOf = (path: string) => pathToFileURL(path).href;

interface Waiter {
  uri: string;
  test: (p: PublishDiagnosticsParams) => boolean;
  resolve: (p: PublishDiagnosticsParams) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

export class LspClient {
  readonly connection: ProtocolConnection;
  readonly process: ChildProcess;
  /** Every publishDiagnostics received, in order. */
  readonly published: PublishDiagnosticsParams[] = [];
  readonly messages: ShowMessageParams[] = [];
  /** What the server wrote to its log (window/logMessage). */
  readonly logs: LogMessageParams[] = [];
  readonly registrations: Registration[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly versions = new Map<string, number>();
  private stderr = "";
  exitCode: Promise<number | null>;

  /** `bin`: the CLI to start (default: this checkout's bin/plugin-review.js, built). */
  constructor(cwd: string, env: NodeJS.ProcessEnv = process.env, bin = BIN) {
    ensureBuilt();
    this.process = spawn(process.execPath, [bin, "lsp", "--stdio"], {
      cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.process.stderr?.on("data", (d: Buffer) => void (this.stderr += d.toString()));
    this.exitCode = new Promise((resolve) => this.process.on("exit", (code) => resolve(code)));
    this.connection = createProtocolConnection(
      new StreamMessageReader(this.process.stdout!),
      new StreamMessageWriter(this.process.stdin!),
    );
    this.connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.published.push(p);
      for (const w of [...this.waiters]) {
        if (w.uri === p.uri && w.test(p)) {
          clearTimeout(w.timer);
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(p);
        }
      }
    });
    this.connection.onNotification(ShowMessageNotification.type, (m) => void this.messages.push(m));
    this.connection.onNotification(LogMessageNotification.type, (m) => void this.logs.push(m));
    this.connection.onRequest(RegistrationRequest.type, (p) => {
      this.registrations.push(...p.registrations);
    });
    this.connection.listen();
  }

  async initialize(
    rootPath: string,
    initializationOptions: unknown = { debounceMs: 0 },
  ): Promise<InitializeResult> {
    const capabilities: ClientCapabilities = {
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
      textDocument: { publishDiagnostics: { versionSupport: true, codeDescriptionSupport: true } },
    };
    const result = await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: uriOf(rootPath),
      workspaceFolders: [{ uri: uriOf(rootPath), name: "workspace" }],
      capabilities,
      initializationOptions,
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
    return result;
  }

  /** The next diagnostics published for `uri` that pass `test` (default: any). */
  diagnostics(
    uri: string,
    test: (p: PublishDiagnosticsParams) => boolean = () => true,
    timeoutMs = 20_000,
  ): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no diagnostics for ${uri} within ${timeoutMs} ms; server stderr:\n${this.stderr}`));
      }, timeoutMs);
      const waiter: Waiter = { uri, test, resolve, reject, timer };
      this.waiters.push(waiter);
    });
  }

  /** Opens a document and returns its first diagnostics. */
  async open(path: string, text: string, languageId = "json"): Promise<Diagnostic[]> {
    const uri = uriOf(path);
    this.versions.set(uri, 1);
    const next = this.diagnostics(uri, (p) => p.version === undefined || p.version === 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text },
    });
    return (await next).diagnostics;
  }

  /** Replaces the whole text (or applies `edits`, in order) and returns the diagnostics of the new version. */
  async change(path: string, change: string | TextEdit[]): Promise<Diagnostic[]> {
    const uri = uriOf(path);
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    const next = this.diagnostics(uri, (p) => p.version === undefined || p.version === version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges:
        typeof change === "string"
          ? [{ text: change }]
          : change.map((e) => ({ range: e.range, text: e.newText })),
    });
    return (await next).diagnostics;
  }

  async save(path: string): Promise<void> {
    await this.connection.sendNotification(DidSaveTextDocumentNotification.type, {
      textDocument: { uri: uriOf(path) },
    });
  }

  async close(path: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, {
      textDocument: { uri: uriOf(path) },
    });
  }

  async watchedFileChanged(path: string): Promise<void> {
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: uriOf(path), type: 2 }],
    });
  }

  /** shutdown, then exit: the server process ends with status 0. */
  async shutdown(): Promise<number | null> {
    await this.connection.sendRequest(ShutdownRequest.type);
    await this.connection.sendNotification(ExitNotification.type);
    const code = await this.exitCode;
    this.connection.dispose();
    return code;
  }

  /** Ends the server whatever state it is in (after a failed test). */
  kill(): void {
    this.connection.dispose();
    if (this.process.exitCode === null) this.process.kill();
  }

  get serverStderr(): string {
    return this.stderr;
  }
}

/** Applies LSP text edits to a text (as an editor does: positions refer to the text before any edit). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const lines = lineOffsets(text);
  const at = (p: { line: number; character: number }) => (lines[p.line] ?? text.length) + p.character;
  const sorted = [...edits].sort((a, b) => at(b.range.start) - at(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, at(e.range.start)) + e.newText + out.slice(at(e.range.end));
  return out;
}

/** Offsets of the lines as LSP counts them ("\r\n", "\r" and "\n" end a line). */
export function lineOffsets(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\r" && text[i + 1] === "\n") i++;
    if (c === "\r" || c === "\n") out.push(i + 1);
  }
  return out;
}
