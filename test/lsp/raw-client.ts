/** A client that speaks raw JSON-RPC to the built server: bytes written as they are, responses by id. */
import { spawn, type ChildProcess } from "node:child_process";
import {
  Message,
  StreamMessageReader,
  type NotificationMessage,
  type ResponseMessage,
} from "vscode-languageserver-protocol/node";
import { BIN, ensureBuilt } from "../cli/run.js";

export const frame = (message: object) => {
  const json = JSON.stringify({ jsonrpc: "2.0", ...message });
  return `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
};

/** A client that writes raw bytes and collects the server's responses by id and its notifications. */
export class RawClient {
  readonly process: ChildProcess;
  readonly exitCode: Promise<number | null>;
  /** Every notification the server sent, in order. */
  readonly notifications: NotificationMessage[] = [];
  private readonly responses = new Map<number, ResponseMessage>();
  private readonly waiting = new Map<number, () => void>();
  stderr = "";

  constructor(cwd: string) {
    ensureBuilt();
    this.process = spawn(process.execPath, [BIN, "lsp", "--stdio"], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    this.process.stderr!.on("data", (d: Buffer) => void (this.stderr += d.toString()));
    this.exitCode = new Promise((resolve) => this.process.on("exit", (code) => resolve(code)));
    new StreamMessageReader(this.process.stdout!).listen((m) => {
      if (Message.isNotification(m)) return void this.notifications.push(m);
      const response = m as ResponseMessage;
      if (typeof response.id !== "number") return;
      this.responses.set(response.id, response);
      this.waiting.get(response.id)?.();
    });
  }

  write(bytes: string): void {
    this.process.stdin!.write(bytes);
  }

  /** The response to request `id`, or a failure naming it once 10 s have passed without one. */
  response(id: number): Promise<ResponseMessage> {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        resolve(this.responses.get(id)!);
      };
      const timer = setTimeout(
        () => reject(new Error(`no response to request ${id}; server stderr:\n${this.stderr}`)),
        10_000,
      );
      if (this.responses.has(id)) done();
      else this.waiting.set(id, done);
    });
  }

  kill(): void {
    if (this.process.exitCode === null) this.process.kill();
  }
}
