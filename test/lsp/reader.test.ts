import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import type { Message } from "vscode-languageserver-protocol/node";
import { BoundedMessageReader, MAX_MESSAGE_BYTES } from "../../src/lsp/reader.js";

const frame = (message: object) => {
  const json = JSON.stringify(message);
  return Buffer.from(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`, "utf8");
};

/** What a reader listening on a stream reads from `chunks`, written one by one, and the errors it reports. */
function read(chunks: readonly (Buffer | string)[]) {
  const input = new PassThrough();
  const reader = new BoundedMessageReader(input);
  const messages: Message[] = [];
  const errors: string[] = [];
  reader.onError((e) => void errors.push(e.message));
  reader.listen((m) => void messages.push(m));
  for (const c of chunks) input.write(typeof c === "string" ? Buffer.from(c, "latin1") : c);
  return { messages, errors };
}

const a = { jsonrpc: "2.0", id: 1, method: "a", params: { text: "é😀 in UTF-8" } };
const b = { jsonrpc: "2.0", method: "b" };
const c = { jsonrpc: "2.0", id: "c", result: null };

describe("the language server's message reader", () => {
  it("reads several messages in one chunk", () => {
    expect(read([Buffer.concat([frame(a), frame(b), frame(c)])])).toEqual({
      messages: [a, b, c],
      errors: [],
    });
  });

  it("reads a message split anywhere, a byte at a time (inside the header, a UTF-8 character, the body)", () => {
    const bytes = Buffer.concat([frame(a), frame(b)]);
    const bytewise = [...bytes].map((byte) => Buffer.from([byte]));
    expect(read(bytewise)).toEqual({ messages: [a, b], errors: [] });
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(read([bytes.subarray(0, cut), bytes.subarray(cut)]).messages).toEqual([a, b]);
    }
  });

  it("reads what follows a message's end in the same chunk, and the rest of it from the next", () => {
    const [first, second] = [frame(a), frame(b)];
    const half = Math.floor(second.length / 2);
    const r = read([Buffer.concat([first, second.subarray(0, half)]), second.subarray(half)]);
    expect(r).toEqual({ messages: [a, b], errors: [] });
  });

  it("takes header names in any case and a Content-Type beside the length", () => {
    const json = JSON.stringify(b);
    const header = `content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH: ${json.length}\r\n\r\n`;
    expect(read([header + json])).toEqual({ messages: [b], errors: [] });
  });

  it.each([
    ["a negative length", "Content-Length: -5\r\n\r\n", 'Content-Length "-5"'],
    ["a length that is not a number", "Content-Length: 12abc\r\n\r\n{}", 'Content-Length "12abc"'],
    ["no Content-Length", "Content-Type: application/vscode-jsonrpc\r\n\r\n", "no Content-Length header"],
    ["a length past the bound", `Content-Length: ${MAX_MESSAGE_BYTES + 1}\r\n\r\n{"x":1}`, "more than"],
    ["two lengths", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "two Content-Length headers"],
    ["a line without a colon", "hello\r\n\r\n", "without a colon"],
    ["a header past 8 KiB", "X".repeat(9000), "longer than 8 KiB"],
    ["text run into it", "junk", "no Content-Length header"],
    ["a line without a colon before the length", "junk\r\nContent-Length: -1\r\n\r\n", "without a colon"],
  ])("skips a header with %s, reports it, and reads the next message", (_, bad, problem) => {
    const together = read([Buffer.concat([Buffer.from(bad, "latin1"), frame(a), frame(b)])]);
    expect(together.messages).toEqual([a, b]);
    expect(together.errors).toEqual([expect.stringContaining(problem)]);
    const apart = read([bad, frame(a), frame(b)]);
    expect(apart.messages).toEqual([a, b]);
  });

  it("skips a body that is not JSON and reads the next message", () => {
    const r = read(["Content-Length: 5\r\n\r\n{oops", frame(a)]);
    expect(r.messages).toEqual([a]);
    expect(r.errors).toEqual([expect.stringContaining("not JSON")]);
  });

  it("keeps no more than a header's worth of garbage while it looks for the next Content-Length", () => {
    const r = read([
      "Content-Length: -1\r\n\r\n",
      "x".repeat(100_000),
      "Content-",
      "Length: 2\r\n\r\n{}",
      frame(a),
    ]);
    expect(r.messages).toEqual([{}, a]);
    expect(r.errors).toHaveLength(1);
  });

  it("reads an 8 MB message arriving in pipe-sized chunks, copying its bytes once, not once per chunk", () => {
    // An editor's didOpen of a large file, read as it arrives on a pipe: 64 KiB at a time.
    const size = 8 * 1024 * 1024;
    const big = { jsonrpc: "2.0", method: "textDocument/didOpen", params: { text: "x".repeat(size) } };
    const bytes = frame(big);
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 65_536) chunks.push(bytes.subarray(at, at + 65_536));
    // What joining chunks copies: joined to all that came before at every chunk, some 64 times the message
    // here (a 32 MB message took half a minute), the server blocked meanwhile.
    const concat = vi.spyOn(Buffer, "concat");
    let r: ReturnType<typeof read>;
    let copied = 0;
    try {
      r = read([...chunks, frame(a)]);
      for (const [list] of concat.mock.calls) for (const b of list) copied += b.length;
    } finally {
      concat.mockRestore();
    }
    expect(r.messages).toHaveLength(2);
    expect((r.messages[0] as typeof big).params.text).toHaveLength(size);
    expect(r.messages[1]).toEqual(a);
    expect(copied).toBeLessThanOrEqual(2 * bytes.length);
  });

  it("says when the stream ends", async () => {
    const input = new PassThrough();
    const reader = new BoundedMessageReader(input);
    const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
    reader.listen(() => {});
    input.end();
    input.resume();
    await expect(closed).resolves.toBeUndefined();
  });
});
