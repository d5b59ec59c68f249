import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  StreamMessageReader,
  type Message,
  type NotificationMessage,
} from "vscode-languageserver-protocol/node";
import { OneWriteMessageWriter } from "../../src/lsp/writer.js";

describe("the language server's message writer", () => {
  it("writes each message whole, in one write, framed as a JSON-RPC reader reads it (lengths in UTF-8 bytes)", async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (c: Buffer) => chunks.push(c));
    const writer = new OneWriteMessageWriter(out);
    const sent: NotificationMessage[] = [
      { jsonrpc: "2.0", method: "a", params: { message: 'unknown member "x😀": é' } },
      { jsonrpc: "2.0", method: "b", params: [1, 2] },
    ];
    for (const m of sent) await writer.write(m);
    expect(chunks).toHaveLength(2);
    const json = JSON.stringify(sent[0]);
    expect(chunks[0]!.toString("utf8")).toBe(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);

    const read: Message[] = [];
    const reader = new StreamMessageReader(PassThrough.from(chunks));
    await new Promise<void>((resolve) => {
      reader.listen((m) => {
        read.push(m);
        if (read.length === sent.length) resolve();
      });
    });
    expect(read).toEqual(sent);
  });

  it("reports a failed write to the connection and rejects", async () => {
    const out = new PassThrough();
    out.destroy();
    const writer = new OneWriteMessageWriter(out);
    const errors: unknown[] = [];
    writer.onError(([e]) => void errors.push(e));
    await expect(writer.write({ jsonrpc: "2.0" })).rejects.toThrow();
    expect(errors.length).toBeGreaterThan(0);
  });
});
