/**
 * The server's lifecycle as LSP 3.17 sets it, between the transport and the connection: vscode-languageserver
 * answers whatever comes whenever it comes. Before `initialize`, a request gets the error ServerNotInitialized
 * and a notification is dropped (but `exit`, which ends the process with status 1); `initialize` is accepted
 * once; after `shutdown`, a request gets InvalidRequest. The connection itself exits 0 on `exit` after a
 * shutdown, 1 otherwise. A request whose `method` is not a string gets InvalidRequest too (JSON-RPC 2.0):
 * vscode-jsonrpc only logs it, and the client would wait for its answer for ever.
 */
import {
  AbstractMessageReader,
  ErrorCodes,
  Message,
  type DataCallback,
  type Disposable,
  type MessageReader,
  type MessageWriter,
  type RequestMessage,
} from "vscode-languageserver/node";

type Phase = "uninitialized" | "running" | "shut down";

export class LifecycleReader extends AbstractMessageReader implements MessageReader {
  private phase: Phase = "uninitialized";

  /** `reader`: the client's messages; `writer`: where the refusals go (the connection's own writer). */
  constructor(
    private readonly reader: MessageReader,
    private readonly writer: MessageWriter,
  ) {
    super();
    reader.onError((e) => this.fireError(e));
    reader.onClose(() => this.fireClose());
    reader.onPartialMessage((info) => this.firePartialMessage(info));
  }

  listen(callback: DataCallback): Disposable {
    return this.reader.listen((message) => {
      if (this.admits(message)) callback(message);
    });
  }

  /** Whether the connection sees the message; a refused request is answered here. */
  private admits(message: Message): boolean {
    const malformed = malformedRequest(message);
    if (malformed) {
      this.refuse(malformed.id, {
        code: ErrorCodes.InvalidRequest,
        message: `a request's method must be a string, not ${malformed.method.slice(0, 80)}`,
      });
      return false;
    }
    if (Message.isRequest(message)) {
      const refusal = this.refusal(message);
      if (refusal === undefined) return true;
      this.refuse(message.id, refusal);
      return false;
    }
    if (Message.isNotification(message)) return this.phase !== "uninitialized" || message.method === "exit";
    return true; // responses to the server's own requests
  }

  private refuse(id: RequestMessage["id"], error: { code: number; message: string }): void {
    void this.writer.write({ jsonrpc: "2.0", id, error } as Message).catch(() => undefined); // a write failure is reported by the writer itself
  }

  private refusal(request: RequestMessage): { code: number; message: string } | undefined {
    switch (this.phase) {
      case "uninitialized":
        if (request.method === "initialize") {
          this.phase = "running";
          return undefined;
        }
        return {
          code: ErrorCodes.ServerNotInitialized,
          message: `${request.method}: the server is not initialized`,
        };
      case "running":
        if (request.method === "initialize")
          return {
            code: ErrorCodes.InvalidRequest,
            message: "initialize: the server is already initialized",
          };
        if (request.method === "shutdown") this.phase = "shut down";
        return undefined;
      case "shut down":
        return { code: ErrorCodes.InvalidRequest, message: `${request.method}: the server is shutting down` };
    }
  }
}

/** A request (an id, and a `method` member, unlike a response) whose method is not a string: its id and method. */
function malformedRequest(message: Message): { id: number | string; method: string } | undefined {
  if (typeof message !== "object" || message === null || !("method" in message)) return undefined;
  const { id, method } = message as { id?: unknown; method: unknown };
  if ((typeof id !== "number" && typeof id !== "string") || typeof method === "string") return undefined;
  return { id, method: JSON.stringify(method) ?? "undefined" };
}
