/**
 * JSON-RPC messages from standard input, framed as LSP frames them: header lines (`Content-Length: <bytes>`,
 * optionally `Content-Type`), an empty line, then that many bytes of UTF-8 JSON. vscode-jsonrpc's stream
 * reader trusts the client: it keeps a negative Content-Length and fails on every later chunk, and after a
 * header without one it waits for more data before reading what already came. Here a malformed header is
 * reported (onError) and skipped, and reading resumes at the next `Content-Length:` header, so that a bad
 * message never stalls the server; a length past MAX_MESSAGE_BYTES is malformed too, so that the client's
 * word never decides how much we buffer.
 */
import {
  AbstractMessageReader,
  Disposable,
  type DataCallback,
  type Message,
  type MessageReader,
} from "vscode-languageserver/node";

/** A message's body: far above any descriptor an editor opens, far below what would exhaust memory. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** A header block: an editor sends two short lines. */
export const MAX_HEADER_BYTES = 8 * 1024;

const HEADER_END = Buffer.from("\r\n\r\n", "latin1");
const LENGTH_FIELD = "content-length:";

export class BoundedMessageReader extends AbstractMessageReader implements MessageReader {
  private buffer: Buffer = Buffer.alloc(0);
  /**
   * Chunks of a body still arriving, joined once it is whole: joined to the buffer one by one, a body of `n`
   * bytes in pipe-sized chunks would be copied `n / chunk` times (seconds of a blocked server for megabytes).
   */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The body length the last header announced, while its body is still arriving. */
  private bodyLength: number | undefined;
  /** After a malformed header: everything up to the next `Content-Length:` is dropped. */
  private resynchronising = false;
  /** False from a malformed header until the next well-formed one. */
  private reporting = true;
  private callback: DataCallback | undefined;

  constructor(private readonly input: NodeJS.ReadableStream) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const onData = (chunk: Buffer | string) =>
      this.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    const onError = (e: Error) => this.fireError(e);
    const onClose = () => this.fireClose();
    this.input.on("data", onData);
    this.input.on("error", onError);
    this.input.on("end", onClose);
    this.input.on("close", onClose);
    return Disposable.create(() => {
      this.callback = undefined;
      this.input.off("data", onData);
      this.input.off("error", onError);
      this.input.off("end", onClose);
      this.input.off("close", onClose);
    });
  }

  /** Reads every whole message in what has arrived; keeps the rest for the next chunk. */
  push(chunk: Buffer): void {
    if (
      this.bodyLength !== undefined &&
      this.buffer.length + this.pendingBytes + chunk.length < this.bodyLength
    ) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      return;
    }
    this.buffer =
      this.buffer.length === 0 && !this.pending.length
        ? chunk
        : Buffer.concat([this.buffer, ...this.pending, chunk]);
    this.pending = [];
    this.pendingBytes = 0;
    for (;;) {
      if (this.resynchronising && !this.resynchronise()) return;
      if (this.bodyLength === undefined) {
        const end = this.buffer.indexOf(HEADER_END);
        if (end > MAX_HEADER_BYTES || (end < 0 && this.buffer.length > MAX_HEADER_BYTES)) {
          this.malformed("a header longer than 8 KiB", 1);
          continue;
        }
        if (end < 0) return;
        const header = this.buffer.subarray(0, end).toString("latin1");
        const length = contentLength(header);
        if (typeof length === "string") {
          // Text run into a header (`junkContent-Length: 2`): read again from the Content-Length in it.
          const next = header.split("\r\n")[0]!.toLowerCase().indexOf(LENGTH_FIELD, 1);
          this.malformed(length, next > 0 ? next : end + HEADER_END.length, next < 0);
          continue;
        }
        this.reporting = true;
        this.buffer = this.buffer.subarray(end + HEADER_END.length);
        this.bodyLength = length;
      }
      if (this.buffer.length < this.bodyLength) return;
      const body = this.buffer.subarray(0, this.bodyLength).toString("utf8");
      this.buffer = this.buffer.subarray(this.bodyLength);
      this.bodyLength = undefined;
      let message: Message;
      try {
        message = JSON.parse(body) as Message;
      } catch {
        this.fireError(new Error(`a message whose body is not JSON was skipped: ${printable(body)}`));
        continue;
      }
      this.callback?.(message);
    }
  }

  /** Reports the header and drops `skip` bytes; what follows is read from the next `Content-Length:`. */
  private malformed(problem: string, skip: number, resynchronise = true): void {
    if (this.reporting) this.fireError(new Error(`a message with ${problem} was skipped`));
    // Once per run of garbage: the skipped text's every line would say the same.
    this.reporting = false;
    this.buffer = this.buffer.subarray(skip);
    this.resynchronising = resynchronise;
  }

  /** Drops what precedes the next `Content-Length:`; false while none has arrived (a partial one is kept). */
  private resynchronise(): boolean {
    const at = this.buffer.toString("latin1").toLowerCase().indexOf(LENGTH_FIELD);
    if (at < 0) {
      this.buffer = this.buffer.subarray(Math.max(0, this.buffer.length - (LENGTH_FIELD.length - 1)));
      return false;
    }
    this.buffer = this.buffer.subarray(at);
    this.resynchronising = false;
    return true;
  }
}

/** The body length a header block announces, or what is wrong with it. */
function contentLength(header: string): number | string {
  let length: number | undefined;
  for (const line of header.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) return `a header line without a colon (${printable(line)})`;
    if (line.slice(0, colon).trim().toLowerCase() !== "content-length") continue;
    const value = line.slice(colon + 1).trim();
    if (length !== undefined) return "two Content-Length headers";
    if (!/^\d{1,10}$/.test(value)) return `Content-Length ${printable(value)}, not a number of bytes`;
    length = Number(value);
    if (length > MAX_MESSAGE_BYTES) return `Content-Length ${length}, more than ${MAX_MESSAGE_BYTES} bytes`;
  }
  return length ?? "no Content-Length header";
}

/** The client's text, short and on one line, for the server's log. */
function printable(text: string): string {
  return JSON.stringify(text.length > 80 ? text.slice(0, 80) + "…" : text);
}
