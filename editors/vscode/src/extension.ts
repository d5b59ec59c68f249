/**
 * The VS Code side of plugin-review: starts the installed CLI's language server (`plugin-review lsp --stdio`)
 * and hands it the JSON documents and the configuration file. Everything else (diagnostics, quick fixes,
 * hover) is the server's.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Executable, LanguageClient, LanguageClientOptions } from "vscode-languageclient/node";

/** The arguments that start the server: what every editor set-up runs. */
export const SERVER_ARGS = ["lsp", "--stdio"] as const;

/**
 * The executable: the `pluginReview.path` setting, else the workspace's own install
 * (`node_modules/.bin/plugin-review`), else `plugin-review` on the PATH.
 */
export function resolveCommand(
  configured: string,
  folders: readonly string[],
  exists: (path: string) => boolean = existsSync,
  platform: string = process.platform,
): string {
  if (configured.trim()) return configured.trim();
  const name = platform === "win32" ? "plugin-review.cmd" : "plugin-review";
  for (const folder of folders) {
    const local = join(folder, "node_modules", ".bin", name);
    if (exists(local)) return local;
  }
  return name;
}

/** How the client starts the server: the command with `lsp --stdio`, talking over its standard streams. */
export function serverOptions(command: string, cwd?: string): Executable {
  return {
    command,
    args: [...SERVER_ARGS],
    // npm's `.cmd` shims only start through a shell on Windows.
    options: { ...(cwd ? { cwd } : {}), shell: command.endsWith(".cmd") },
  };
}

let client: LanguageClient | undefined;

async function startClient(): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const configured = vscode.workspace.getConfiguration("pluginReview").get<string>("path", "");
  const server = serverOptions(resolveCommand(configured, folders), folders[0]);
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "json" },
      // Extensions 2.0 extensions; the server says nothing of another tool's extension.yaml.
      { scheme: "file", pattern: "**/extension.yaml" },
      { scheme: "file", pattern: "**/.github/plugin-review.yml" },
    ],
  };
  // Loaded when the extension starts a client, so that reading this module needs nothing but Node.js.
  const { LanguageClient } = await import("vscode-languageclient/node");
  client = new LanguageClient("pluginReview", "plugin-review", server, clientOptions);
  await client.start();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration("pluginReview.path")) return;
      await client?.stop();
      await startClient();
    }),
  );
  await startClient();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
