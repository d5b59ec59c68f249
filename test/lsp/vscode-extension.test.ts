/**
 * The VS Code extension as packaged (`editors/vscode/plugin-review.vsix`, built by `.ci/run`): its manifest
 * names a main file that the package holds, and that file starts the server with `lsp --stdio`, which is
 * checked by starting it: the command and arguments it gives, spawned, answer `initialize` as
 * plugin-review. Skipped outside CI when the extension has not been packaged (`npm run package` in
 * editors/vscode after `npm ci` there). Its manifest keeps an untrusted workspace from choosing what runs:
 * checked in the package, and in the manifest it is packed from (always).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  createProtocolConnection,
  ExitNotification,
  InitializeRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { BIN, ensureBuilt } from "../cli/run.js";
import { describeUnless, MORE_THAN_NPM_CI, ROOT } from "../helpers.js";

const VSIX = join(ROOT, "editors", "vscode", "plugin-review.vsix");
const built = existsSync(VSIX);
if (!built && process.env.CI)
  throw new Error(`${VSIX} is missing: .ci/run packages the extension before the tests`);

/** The files of a zip archive (a .vsix is one), by name: stored or deflated entries, from the central directory. */
function unzip(zip: Buffer): Map<string, Buffer> {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error("not a zip archive");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error("bad central directory");
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    files.set(name, method === 0 ? Buffer.from(data) : inflateRawSync(data));
    at += 46 + nameLength + extra + comment;
  }
  return files;
}

interface Manifest {
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  capabilities?: { untrustedWorkspaces?: { supported: boolean | "limited"; description?: string } };
  contributes: { configuration: { properties: Record<string, { default: unknown; scope?: string }> } };
}

/**
 * What a folder the user has not trusted cannot do: run the extension, which starts the workspace's own
 * `node_modules/.bin/plugin-review` and runs git there (VS Code's Restricted Mode keeps it off), or choose the
 * executable through its `.vscode/settings.json` (`pluginReview.path` is a machine setting, which only the
 * user's settings set; `machine-overridable` would let a workspace override it).
 */
function expectTrustRequired(manifest: Manifest): void {
  expect(manifest.capabilities?.untrustedWorkspaces?.supported).toBe(false);
  expect(manifest.capabilities?.untrustedWorkspaces?.description).toMatch(/node_modules\/\.bin/);
  expect(manifest.contributes.configuration.properties["pluginReview.path"]?.scope).toBe("machine");
}

describe("the VS Code extension's manifest (editors/vscode/package.json)", () => {
  it("runs only in a trusted workspace, and no workspace setting names the executable", () => {
    const source = JSON.parse(
      readFileSync(join(ROOT, "editors", "vscode", "package.json"), "utf8"),
    ) as Manifest;
    expectTrustRequired(source);
  });
});

interface Extension {
  SERVER_ARGS: readonly string[];
  serverOptions(command: string, cwd?: string): { command: string; args: string[]; options: object };
  resolveCommand(
    configured: string,
    folders: string[],
    exists: (p: string) => boolean,
    platform: string,
  ): string;
}

describeUnless(
  !built &&
    `editors/vscode/plugin-review.vsix is not built (cd editors/vscode && npm ci && npm run package: ${MORE_THAN_NPM_CI})`,
)("the VS Code extension (.vsix)", () => {
  const files = built ? unzip(readFileSync(VSIX)) : new Map<string, Buffer>();
  const manifest = JSON.parse(files.get("extension/package.json")?.toString() ?? "{}") as Manifest;

  /** The packaged main file, loaded as VS Code loads it (CommonJS), with no `vscode` API needed to read it. */
  function loadMain(): Extension {
    const main = join("extension", manifest.main);
    const code = files.get(main.split("\\").join("/"))?.toString();
    if (code === undefined) throw new Error(`${manifest.main} is not in the package`);
    const module = { exports: {} as Extension };
    const require = createRequire(join(ROOT, "editors", "vscode", "dist", "extension.js"));
    const load = (id: string): unknown => (id === "vscode" ? {} : require(id));
    new Function("module", "exports", "require", code)(module, module.exports, load);
    return module.exports;
  }

  it("is a VS Code extension activated by descriptors, extensions and the configuration file", () => {
    expect(manifest.engines.vscode).toMatch(/^\^1\.\d+\.\d+$/);
    expect(manifest.activationEvents).toEqual(
      expect.arrayContaining([
        "workspaceContains:**/plugin.json",
        "workspaceContains:**/extension.yaml",
        "workspaceContains:**/.github/plugin-review.yml",
      ]),
    );
    expect(manifest.contributes.configuration.properties["pluginReview.path"]?.default).toBe("");
    expectTrustRequired(manifest);
    // Bundled: no node_modules travel in the package.
    expect([...files.keys()].filter((f) => f.includes("node_modules"))).toEqual([]);
  });

  it("starts the server as `<plugin-review> lsp --stdio`, and that server answers", async () => {
    const extension = loadMain();
    const options = extension.serverOptions(BIN);
    expect(options.command).toBe(BIN);
    expect(options.args).toEqual(["lsp", "--stdio"]);
    ensureBuilt();
    const server = spawn(options.command, options.args, { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
    const connection = createProtocolConnection(
      new StreamMessageReader(server.stdout!),
      new StreamMessageWriter(server.stdin!),
    );
    connection.listen();
    try {
      const result = await connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: null,
        capabilities: {},
      });
      expect(result.serverInfo?.name).toBe("plugin-review");
      await connection.sendRequest(ShutdownRequest.type);
      const exited = new Promise((resolve) => server.on("exit", resolve));
      await connection.sendNotification(ExitNotification.type);
      expect(await exited).toBe(0);
    } finally {
      connection.dispose();
      if (server.exitCode === null) server.kill();
    }
  });

  it("finds the CLI: the setting, else the workspace's install, else the PATH", () => {
    const { resolveCommand } = loadMain();
    const installed = join("/w", "node_modules", ".bin", "plugin-review");
    expect(resolveCommand(" /opt/plugin-review ", ["/w"], () => true, "linux")).toBe("/opt/plugin-review");
    expect(resolveCommand("", ["/w"], (p) => p === installed, "linux")).toBe(installed);
    expect(resolveCommand("", ["/w"], () => false, "linux")).toBe("plugin-review");
    expect(resolveCommand("", [], () => false, "win32")).toBe("plugin-review.cmd");
  });
});
