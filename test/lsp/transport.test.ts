/**
 * The language server against a client that sends malformed frames: each is skipped, and the server
 * answers what follows (it never stalls), then shuts down and exits with status 0.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { uriOf } from "./client.js";
import { frame, RawClient } from "./raw-client.js";

describe("the language server's transport, against malformed frames", () => {
  let dir: string;
  let client: RawClient | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "plugin-review-lsp-transport-"));
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
      params: { processId: null, rootUri: uriOf(dir), capabilities: {} },
    });
  const hover = (id: number) =>
    frame({
      id,
      method: "textDocument/hover",
      params: { textDocument: { uri: uriOf(join(dir, "plugin.json")) }, position: { line: 0, character: 0 } },
    });

  /** shutdown answered, then exit: status 0. */
  async function shutDown(c: RawClient, id: number) {
    c.write(frame({ id, method: "shutdown" }));
    expect(await c.response(id)).toMatchObject({ id, result: null });
    c.write(frame({ method: "exit" }));
    expect(await c.exitCode).toBe(0);
  }

  it("skips a header with a negative Content-Length and answers what follows", async () => {
    const c = (client = new RawClient(dir));
    c.write("Content-Length: -5\r\n\r\n");
    c.write(initialize(1));
    expect((await c.response(1)).result).toHaveProperty("capabilities");
    c.write(hover(2));
    expect(await c.response(2)).toMatchObject({ id: 2 });
    await shutDown(c, 3);
    expect(c.stderr).toContain('Content-Length "-5"');
  });

  it("answers a request at once that follows a header without Content-Length in the same write", async () => {
    const c = (client = new RawClient(dir));
    c.write(initialize(1));
    expect((await c.response(1)).result).toHaveProperty("capabilities");
    c.write("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + hover(2));
    expect(await c.response(2)).toMatchObject({ id: 2 });
    await shutDown(c, 3);
    expect(c.stderr).toContain("no Content-Length header");
  });

  it("skips garbage, a length past the bound and a body that is not JSON, and answers what follows", async () => {
    const c = (client = new RawClient(dir));
    c.write(initialize(1));
    expect((await c.response(1)).result).toHaveProperty("capabilities");
    c.write("garbage\r\n\r\n" + hover(2));
    expect(await c.response(2)).toMatchObject({ id: 2 });
    c.write("Content-Length: 1000000000\r\n\r\n{}");
    c.write("Content-Length: 10\r\n\r\n{not json}" + hover(3));
    expect(await c.response(3)).toMatchObject({ id: 3 });
    await shutDown(c, 4);
    expect(c.stderr).toContain("a header line without a colon");
    expect(c.stderr).toContain("Content-Length 1000000000, more than");
    expect(c.stderr).toContain("not JSON");
  });
});
