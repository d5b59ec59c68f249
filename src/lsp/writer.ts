/**
 * JSON-RPC messages onto standard output, each in one write. vscode-jsonrpc's stream writer queues each
 * message behind a semaphore that waits for the next turn of the event loop, then writes the header and the
 * body separately, the body only once the header's write has called back: two system calls, and two
 * wake-ups of the editor, per message. Encoded the same way (UTF-8 JSON after a Content-Length header), in
 * the order sent.
 */
import { AbstractMessageWriter, type Message, type MessageWriter } from "vscode-languageserver/node";

export class OneWriteMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errors = 0;

  constructor(private readonly out: NodeJS.WritableStream) {
    super();
    out.on("error", (e: Error) => this.fireError(e));
    out.on("close", () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    let framed: string;
    try {
      const json = JSON.stringify(msg);
      framed = `Content-Length: ${Buffer.byteLength(json, "utf8")}\r\n\r\n${json}`;
    } catch (e) {
      this.fireError(e, msg, ++this.errors);
      return Promise.reject(e as Error);
    }
    return new Promise((resolve, reject) => {
      this.out.write(framed, "utf8", (e?: Error | null) => {
        if (!e) return resolve();
        this.fireError(e, msg, ++this.errors);
        reject(e);
      });
    });
  }

  end(): void {
    this.out.end();
  }
}
