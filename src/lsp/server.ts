/**
 * `plugin-review lsp`: the CLI's review while typing. Every open document that the configuration reviews (a
 * plugin.json or an extension.yaml: core/ef2/pairing.ts) is reviewed on open and, debounced, on change, by
 * the same core and with the configuration found as `check` finds it (workspace/find-config.ts), compared with
 * the file at the branch's merge base (base.ts) so that change rules run and existing findings are marked. Code actions offer fixes,
 * suggestions and "fix all"; hover explains members from the schemas. Nothing here may throw into the
 * connection: a failing review is shown as a diagnostic, never a crash.
 */
import { readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  DiagnosticSeverity,
  MarkupKind,
  MessageType,
  ShowMessageNotification,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type Connection,
  type Diagnostic,
} from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { CONFIG_PATH, ConfigError, type ResolvedConfig } from "../core/config.js";
import { isExtensionDocument } from "../core/ef2/extension-document.js";
import { formatOf, isReviewedPath } from "../core/ef2/pairing.js";
import type { ParseOutcome } from "../core/json/parse.js";
import { utf8Length } from "../core/utf8.js";
import { analyseDescriptors, type DescriptorInput } from "../core/analyse.js";
import { FORMATS } from "../core/formats.js";
import { plural } from "../format/summary.js";
import { extensionFilesOnDisk } from "../workspace/extension-files.js";
import { isReviewedFile } from "../workspace/files.js";
import { ConfigFinder, type Located } from "../workspace/find-config.js";
import { UsageError } from "../workspace/usage-error.js";
import { findBase, type Base } from "./base.js";
import { configDiagnostics, descriptorConfigDiagnostic } from "./config-problems.js";
import { fixAllAction, findingActions, FIX_ALL_KIND, wanted, type Reviewed } from "./actions.js";
import { SOURCE, toDiagnostic } from "./diagnostics.js";
import { hoverAt } from "./hover.js";
import { intersects, lineStarts } from "./positions.js";

/** Settings a client may pass as `initializationOptions`. */
export interface LspOptions {
  /** Milliseconds to wait after a change before reviewing (default 200; 0 reviews at once). */
  debounceMs?: number;
}

const DEFAULT_DEBOUNCE_MS = 200;
const CONFIG_SUFFIX = `${sep}${CONFIG_PATH.split("/").join(sep)}`;

function filePath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

const isConfigFile = (path: string) => path.endsWith(CONFIG_SUFFIX);

/** An open file's place: where check would say it is, and whether its configuration calls it a descriptor. */
interface Target {
  located: Located;
  descriptor: boolean;
}

/** What the process around the server needs to know of it. */
export interface ServerState {
  /** Has the client asked it to shut down (the status to exit with when the client goes away)? */
  shutDown(): boolean;
}

export function startServer(connection: Connection): ServerState {
  const documents = new TextDocuments(TextDocument);
  let workspaceRoot = process.cwd();
  let debounceMs = DEFAULT_DEBOUNCE_MS;
  let watchRegistration = false;
  let finder = new ConfigFinder({ cwd: workspaceRoot });
  const bases = new Map<string, Promise<Base | undefined>>();
  const reviewed = new Map<string, Reviewed>();
  const timers = new Map<string, NodeJS.Timeout>();
  /** The last hovered document's tree, at its version: a pointer moving over a file asks again and again. */
  let hovered: { doc: TextDocument; version: number; parsed: ParseOutcome } | undefined;
  /**
   * Configuration files whose problems are published: the message shown for them (once each), and the URI
   * they were published on (the client's own, when the file is open).
   */
  const configProblems = new Map<string, { headline: string; uri: string }>();
  /** Open documents whose Python rules could not run, with why, as last said in the log (said again on a change). */
  const unlistedSaid = new Map<string, string>();

  /** Errors already shown (each once until the configuration is read again). */
  const shown = new Set<string>();
  // A notification: nothing to answer, unlike window/showMessageRequest.
  const showError = (message: string) => {
    if (shown.has(message)) return;
    shown.add(message);
    void connection.sendNotification(ShowMessageNotification.type, {
      type: MessageType.Error,
      message: `plugin-review: ${message}`,
    });
  };

  const publish = (uri: string, diagnostics: Diagnostic[], version?: number) =>
    void connection.sendDiagnostics({ uri, diagnostics, ...(version !== undefined ? { version } : {}) });

  /**
   * The open document of a file, however the client spells its URI: VS Code percent-encodes `+`, `@`, `,`,
   * `;`, `=`, `$`, `&` and a drive letter's colon, Neovim `[` and `]`, where pathToFileURL writes them as
   * they are; a file URI is the same file whichever characters it escapes.
   */
  function openDocumentAt(absolute: string): TextDocument | undefined {
    return (
      documents.get(pathToFileURL(absolute).href) ??
      documents.all().find((doc) => filePath(doc.uri) === absolute)
    );
  }

  /**
   * A configuration file's problems (the open document's text, else the file's): on itself, and once as a
   * message, so that an invalid configuration is never silently the defaults. Clears them when there are none.
   */
  function checkConfigFile(absolute: string): void {
    let doc = openDocumentAt(absolute);
    const uri = doc?.uri ?? pathToFileURL(absolute).href;
    if (!doc) {
      try {
        doc = TextDocument.create(uri, "yaml", 0, readFileSync(absolute, "utf8"));
      } catch {
        return clearConfigProblems(absolute); // gone: the descriptors say what the finder found instead
      }
    }
    const shownPath = relative(workspaceRoot, absolute) || absolute;
    const diagnostics = configDiagnostics(doc, shownPath);
    if (!diagnostics.length) return clearConfigProblems(absolute);
    const headline = `invalid configuration ${shownPath}: ${plural(diagnostics.length, "problem")}, shown in the file`;
    const before = configProblems.get(absolute);
    if (before !== undefined && before.headline !== headline) shown.delete(before.headline);
    // Published on another spelling of its URI before (the file was not open then): not left behind there.
    if (before !== undefined && before.uri !== uri) publish(before.uri, []);
    configProblems.set(absolute, { headline, uri });
    publish(uri, diagnostics);
    showError(headline);
  }

  function clearConfigProblems(absolute: string): void {
    const published = configProblems.get(absolute);
    if (published === undefined) return;
    configProblems.delete(absolute);
    shown.delete(published.headline);
    publish(published.uri, []);
  }

  function baseFor(uri: string, absolute: string, maxBytes: number): Promise<Base | undefined> {
    let base = bases.get(uri);
    if (!base) {
      base = findBase(absolute, maxBytes, (old) => isReviewedFile(finder, old)).catch(() => undefined);
      bases.set(uri, base);
    }
    return base;
  }

  /**
   * Where an open descriptor stands (its paths, its configuration, and whether that configuration reviews
   * it), worked out once per document: typing changes none of it. Forgotten when the document is opened or
   * closed and when the configuration is read again.
   */
  const targets = new Map<string, Target>();

  /** The target of a descriptor, or undefined when its configuration cannot be used (shown instead). */
  function targetFor(uri: string, absolute: string, version: number): Target | undefined {
    const known = targets.get(uri);
    if (known) return known;
    let located: Located;
    try {
      // As check names it: its path below the configuration's root for globs, the repository's for identity.
      located = finder.locate(absolute, workspaceRoot);
    } catch (e) {
      reviewed.delete(uri);
      if (e instanceof ConfigError) checkConfigFile(resolve(workspaceRoot, e.source));
      else if (e instanceof UsageError) {
        showError(e.message);
      } else throw e;
      publish(uri, [descriptorConfigDiagnostic((e as Error).message)], version);
      return undefined;
    }
    const { found, configPath } = located;
    // Valid on disk; an open configuration document's own problems (typed, unsaved) stay.
    if (found.path && !openDocumentAt(found.path)) clearConfigProblems(found.path);
    const target = { located, descriptor: isReviewedPath(found.config, configPath) };
    targets.set(uri, target);
    return target;
  }

  async function validate(uri: string): Promise<void> {
    const doc = documents.get(uri);
    if (!doc) return;
    const absolute = filePath(uri);
    if (absolute === undefined) return;
    if (isConfigFile(absolute)) return checkConfigFile(absolute);
    const target = targetFor(uri, absolute, doc.version);
    if (!target) return;
    const { located } = target;
    const { found, configPath } = located;
    if (!target.descriptor) {
      // Not a descriptor (any more): nothing of ours to show (a client keeps each server's diagnostics apart).
      reviewed.delete(uri);
      publish(uri, [], doc.version);
      return;
    }
    const version = doc.version;
    const base = await baseFor(uri, absolute, found.config.maxFileSize);
    const current = documents.get(uri);
    if (!current || current.version !== version) return; // a newer change is on its way
    const input: DescriptorInput = {
      path: base?.path ?? located.path,
      configPath,
      content: current.getText(),
    };
    if (base) {
      if (base.content && base.basePath !== undefined) {
        input.base = { path: `${base.ref.slice(0, 12)}:${base.basePath}`, content: base.content };
        // A renamed file: what the configuration ignores at its old path was never seen there (core/analyse.ts).
        if (base.basePath !== base.path)
          input.base.configPath = finder.locate(join(base.root, base.basePath), workspaceRoot).configPath;
      }
      input.isNew = base.content === undefined;
      if (base.replaces) input.replaces = base.replaces;
    }
    if (formatOf(input.path) === "extension.yaml") {
      // What the extension's rules read beside it (its module, its activation schema), as saved on disk.
      const { files, unlisted, unchecked } = extensionFilesOnDisk(
        located.real,
        input.path,
        input.content,
        found.config.maxFileSize,
      );
      if (files) input.files = files;
      // In the server's log, as check says it in its notes: those rules' silence is not a pass.
      // Once per document and reason, not at every keystroke's review.
      if (unlisted && unlistedSaid.get(uri) !== unlisted)
        connection.console.info(
          `plugin-review: ${input.path}: ${unchecked ?? "its project's files"} were not checked: ${unlisted}`,
        );
      if (unlisted) unlistedSaid.set(uri, unlisted);
      else unlistedSaid.delete(uri);
    }
    const [file] = analyseDescriptors([input], found.config);
    if (file?.notAnExtension) {
      // Another tool's extension.yaml (core/ef2/extension-document.ts): nothing of ours to show.
      reviewed.delete(uri);
      publish(uri, [], version);
      return;
    }
    const findings = file?.findings ?? [];
    const starts = findings.length ? lineStarts(current.getText()) : [];
    const diagnostics = findings.map((f) => toDiagnostic(current, starts, f, found.config));
    reviewed.set(uri, { uri, version, doc: current, input, config: found.config, findings, diagnostics });
    publish(uri, diagnostics, version);
  }

  /** Never a crash: an unforeseen failure is shown on the document. */
  function run(uri: string): void {
    validate(uri).catch((e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      connection.console.error(`plugin-review: reviewing ${uri} failed: ${message}`);
      publish(uri, [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          severity: DiagnosticSeverity.Error,
          source: SOURCE,
          message: `internal error: ${message}; please report it`,
        },
      ]);
    });
  }

  function schedule(uri: string, delay: number): void {
    clearTimeout(timers.get(uri));
    if (delay <= 0) {
      timers.delete(uri);
      run(uri);
      return;
    }
    timers.set(
      uri,
      setTimeout(() => {
        timers.delete(uri);
        run(uri);
      }, delay),
    );
  }

  /** The configuration changed on disk: read it again and review every open document with it. */
  function reloadConfiguration(): void {
    finder = new ConfigFinder({ cwd: workspaceRoot });
    targets.clear();
    shown.clear();
    for (const absolute of [...configProblems.keys()]) {
      if (!openDocumentAt(absolute)) clearConfigProblems(absolute);
    }
    for (const doc of documents.all()) schedule(doc.uri, 0);
  }

  connection.onInitialize((params) => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    const root = folder ? filePath(folder) : undefined;
    if (root) workspaceRoot = root;
    finder = new ConfigFinder({ cwd: workspaceRoot });
    const options = (params.initializationOptions ?? {}) as LspOptions;
    if (typeof options.debounceMs === "number" && options.debounceMs >= 0) debounceMs = options.debounceMs;
    watchRegistration = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return {
      capabilities: {
        textDocumentSync: {
          openClose: true,
          change: TextDocumentSyncKind.Incremental,
          save: { includeText: false },
        },
        codeActionProvider: {
          codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Refactor, FIX_ALL_KIND],
        },
        hoverProvider: true,
      },
      serverInfo: { name: "plugin-review" },
    };
  });

  connection.onInitialized(() => {
    if (watchRegistration) {
      // A client may refuse (an error response): saving the configuration in the editor still reloads it.
      // Unhandled, the refusal would end the process (an unhandled rejection).
      connection.client
        .register(DidChangeWatchedFilesNotification.type, {
          watchers: [{ globPattern: `**/${CONFIG_PATH}` }],
        })
        .catch((e: unknown) =>
          connection.console.warn(
            `plugin-review: the editor does not watch ${CONFIG_PATH}: ${e instanceof Error ? e.message : String(e)}`,
          ),
        );
    }
  });

  /** Opening fires a change too: the open's immediate review stands for it. */
  const justOpened = new Set<string>();
  documents.onDidOpen((e) => {
    bases.delete(e.document.uri);
    targets.delete(e.document.uri);
    justOpened.add(e.document.uri);
    schedule(e.document.uri, 0);
  });
  documents.onDidChangeContent((e) => {
    if (!justOpened.delete(e.document.uri)) schedule(e.document.uri, debounceMs);
  });
  documents.onDidSave((e) => {
    const absolute = filePath(e.document.uri);
    if (absolute !== undefined && isConfigFile(absolute)) return reloadConfiguration();
    bases.delete(e.document.uri); // a commit may have come with the save: compare again
    schedule(e.document.uri, 0);
  });
  documents.onDidClose((e) => {
    clearTimeout(timers.get(e.document.uri));
    timers.delete(e.document.uri);
    bases.delete(e.document.uri);
    targets.delete(e.document.uri);
    reviewed.delete(e.document.uri);
    unlistedSaid.delete(e.document.uri);
    if (hovered?.doc.uri === e.document.uri) hovered = undefined;
    const absolute = filePath(e.document.uri);
    if (absolute !== undefined && isConfigFile(absolute)) {
      // Closed unsaved: what counts is the file on disk again.
      reloadConfiguration();
      return;
    }
    publish(e.document.uri, []);
  });

  connection.onDidChangeWatchedFiles(() => reloadConfiguration());

  connection.onCodeAction((params) => {
    const doc = documents.get(params.textDocument.uri);
    const r = reviewed.get(params.textDocument.uri);
    if (!doc || !r || r.version !== doc.version) return [];
    try {
      const only = params.context.only;
      const indices = r.diagnostics.flatMap((d, i) => (intersects(d.range, params.range) ? [i] : []));
      const actions: CodeAction[] = findingActions(r, indices, only);
      if (only ? wanted(FIX_ALL_KIND, only) : actions.length || r.findings.some((f) => f.fix)) {
        const all = fixAllAction(r);
        if (all) actions.push(all);
      }
      return actions;
    } catch (e) {
      connection.console.error(`plugin-review: code actions failed: ${String(e)}`);
      return [];
    }
  });

  /**
   * What a hover reads of a document: its path and configuration, from its last review, or before its first
   * review lands (the base is read from git first: a client that asks right after opening waits for no diagnostics),
   * where the review will find them. Undefined for a document the review leaves alone.
   */
  function hoverSubject(doc: TextDocument): { path: string; config: ResolvedConfig } | undefined {
    const r = reviewed.get(doc.uri);
    if (r) return { path: r.input.path, config: r.config };
    const absolute = filePath(doc.uri);
    if (absolute === undefined || isConfigFile(absolute)) return undefined;
    const target = targetFor(doc.uri, absolute, doc.version);
    return target?.descriptor
      ? { path: target.located.path, config: target.located.found.config }
      : undefined;
  }

  connection.onHover((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return null;
    // Hover explains members from the schemas: a plugin.json's variant's, or the extension.yaml schema.
    // Read by the review's own parser (core/formats.ts): a file the review reads, SnakeYAML's leniency and
    // all, is explained too.
    try {
      const subject = hoverSubject(doc);
      if (!subject) return null;
      const { config } = subject;
      const format = FORMATS[formatOf(subject.path)];
      const yaml = format.name === "extension.yaml";
      if (hovered?.doc !== doc || hovered.version !== doc.version) {
        const text = doc.getText();
        // Past the size limit the review read nothing of it (file-too-large): neither does a hover.
        const limit = yaml ? Math.min(config.maxFileSize, config.maxExtensionSize) : config.maxFileSize;
        if (utf8Length(text, limit) > limit) return null;
        hovered = { doc, version: doc.version, parsed: format.parse(text) };
      }
      const { parsed } = hovered;
      // Another tool's extension.yaml (core/ef2/extension-document.ts) is not explained by the extension schema.
      if (!parsed.ok || (yaml && !isExtensionDocument(parsed.value))) return null;
      const kind = yaml ? "extension" : format.variant(parsed.value);
      const hover = hoverAt(parsed.root, kind, doc.offsetAt(params.position));
      if (!hover) return null;
      return {
        contents: { kind: MarkupKind.Markdown, value: hover.markdown },
        range: { start: doc.positionAt(hover.start), end: doc.positionAt(hover.end) },
      };
    } catch {
      return null;
    }
  });

  let shutDown = false;
  connection.onShutdown(() => {
    shutDown = true;
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
  });

  documents.listen(connection);
  return { shutDown: () => shutDown };
}
