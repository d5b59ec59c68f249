/**
 * The server's lifecycle as LSP 3.17 sets it, spoken in raw JSON-RPC: a request before `initialize` gets
 * ServerNotInitialized (-32002) and a notification is dropped; `initialize` is accepted once; a request after
 * `shutdown` gets InvalidRequest (-32600); `exit` ends the process with 0 after a shutdown, 1 without.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";
import { uriOf } from "./client.js";
import { frame, RawClient } from "./raw-client.js";

describe("the language server's lifecycle", () => {
  let dir: string;
  let client: RawClient | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "plugin-review-lsp-lifecycle-"));
  });
  afterEach(() => {
    client?.kill();
    client = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const initialize = (id: number) =>
    frame({
      id,
      method: "initialize",
      params: {
        processId: null,
        rootUri: uriOf(dir),
        capabilities: {},
        initializationOptions: { debounceMs: 0 },
      },
    });
  const hover = (id: number) =>
    frame({
      id,
      method: "textDocument/hover",
      params: { textDocument: { uri: uriOf(join(dir, "plugin.json")) }, position: { line: 0, character: 0 } },
    });
  const didOpen = (name: string) =>
    frame({
      method: "textDocument/didOpen",
      params: { textDocument: { uri: uriOf(join(dir, name)), languageId: "json", version: 1, text: "{" } },
    });
  const published = (c: RawClient) =>
    c.notifications
      .filter((n) => n.method === "textDocument/publishDiagnostics")
      .map((n) => (n.params as PublishDiagnosticsParams).uri);

  it("refuses requests and drops notifications before initialize", async () => {
    const c = (client = new RawClient(dir));
    c.write(hover(1));
    expect(await c.response(1)).toMatchObject({ id: 1, error: { code: -32002 } });
    c.write(didOpen("before/plugin.json"));
    c.write(initialize(2));
    expect((await c.response(2)).result).toHaveProperty("capabilities");
    c.write(frame({ method: "initialized", params: {} }));
    c.write(didOpen("after/plugin.json"));
    // Reviewed in the order opened: once the later one is published, the earlier one would have been too.
    await expect
      .poll(() => published(c), { timeout: 15_000 })
      .toContain(uriOf(join(dir, "after/plugin.json")));
    expect(published(c)).not.toContain(uriOf(join(dir, "before/plugin.json")));
    c.write(initialize(3));
    expect(await c.response(3)).toMatchObject({ id: 3, error: { code: -32600 } });
    c.write(hover(4));
    expect(await c.response(4)).toMatchObject({ id: 4, result: null });
  });

  it("refuses requests after shutdown and exits with status 0", async () => {
    const c = (client = new RawClient(dir));
    c.write(initialize(1));
    await c.response(1);
    c.write(frame({ id: 2, method: "shutdown" }));
    expect(await c.response(2)).toMatchObject({ id: 2, result: null });
    c.write(hover(3));
    expect(await c.response(3)).toMatchObject({ id: 3, error: { code: -32600 } });
    c.write(frame({ method: "exit" }));
    expect(await c.exitCode).toBe(0);
  });

  it("refuses a request whose method is not a string with InvalidRequest, and answers what follows", async () => {
    const c = (client = new RawClient(dir));
    c.write(initialize(1));
    await c.response(1);
    c.write(frame({ id: 2, method: 5, params: {} }));
    c.write(frame({ id: 3, method: null }));
    c.write(hover(4));
    expect(await c.response(2)).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(await c.response(3)).toMatchObject({ id: 3, error: { code: -32600 } });
    expect(await c.response(4)).toMatchObject({ id: 4, result: null });
  });

  it("exits with status 1 on exit without shutdown, initialised or not", async () => {
    const initialised = (client = new RawClient(dir));
    initialised.write(initialize(1));
    await initialised.response(1);
    initialised.write(frame({ method: "exit" }));
    expect(await initialised.exitCode).toBe(1);
    const fresh = (client = new RawClient(dir));
    fresh.write(frame({ method: "exit" }));
    expect(await fresh.exitCode).toBe(1);
  });
});
