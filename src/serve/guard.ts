/**
 * What the server does with a request before it trusts it (interfaces.md, "Trust": nothing trusted early).
 * Anyone can reach the webhook URL, so a body is read only when the request is a POST to the webhook path
 * with GitHub's headers, no larger than GitHub sends, while the bodies not verified yet fit in a budget
 * shared by every request, and for no longer than GitHub itself waits; its signature is checked on the bytes
 * read before Probot's webhook middleware sees it. (Probot's middleware reads any body whole first, and logs
 * a forged one whole, several times over.)
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import type { AnswersFirst } from "../github/delivery/concurrency.js";
import { verifySignature } from "../github/delivery/signature.js";
import {
  BODY_TIMEOUT_MS,
  BUSY_RETRY_AFTER_S,
  DRAINING_RETRY_AFTER_S,
  HTTP_HEADERS_TIMEOUT_MS,
  HTTP_IDLE_TIMEOUT_MS,
  HTTP_KEEP_ALIVE_TIMEOUT_MS,
  HTTP_REQUEST_TIMEOUT_MS,
  REFUSED_LINGER_MS,
} from "../github/time-budget.js";
import { MAX_WEBHOOK_MB } from "./settings.js";

export const MAX_WEBHOOK_BYTES = MAX_WEBHOOK_MB * 1024 * 1024;
/**
 * The http.Server's own limits, so that a slow sender cannot hold a connection (Node checks the first two
 * every 30 s; the lengths are the time budget's).
 */
export function applyTimeouts(server: HttpServer): void {
  server.headersTimeout = HTTP_HEADERS_TIMEOUT_MS;
  server.requestTimeout = HTTP_REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = HTTP_KEEP_ALIVE_TIMEOUT_MS;
  server.setTimeout(HTTP_IDLE_TIMEOUT_MS);
}

/** Bytes held at once, across requests; a request that would pass the limit is refused, not queued. */
export class ByteBudget {
  private taken = 0;

  constructor(readonly limit: number) {}

  take(bytes: number): boolean {
    if (this.taken + bytes > this.limit) return false;
    this.taken += bytes;
    return true;
  }

  give(bytes: number): void {
    this.taken -= bytes;
  }
}

export interface GuardOptions {
  /** What deliveries are signed with. */
  secret: string;
  /** The webhook path (WEBHOOK_PATH). */
  path: string;
  /** Shared by every request whose body is being read and not verified yet. */
  budget: ByteBudget;
  /** How long a body may take to arrive (default: GitHub's 10 s). */
  bodyTimeoutMs?: number;
  /** While the server drains for a shutdown, deliveries are refused (503) for the recovery to pick up. */
  draining?: () => boolean;
  /** Counts the deliveries being answered, from their first byte read until the answer (or the connection) ends. */
  answers?: AnswersFirst;
}

type Request = IncomingMessage & { body?: unknown };

const BUSY = "too many webhook bodies being received: GitHub's log keeps this delivery for the recovery";

const withoutTrailingSlashes = (path: string) => path.replace(/\/+$/, "") || "/";

/**
 * A request's path as @octokit/webhooks' middleware reads it (trailing slashes dropped, then resolved as a
 * URL: `/a/../api/github/webhooks` and `//x/api/github/webhooks` are the webhook path to it), so that no
 * spelling of the webhook path reaches it past the guard. Undefined when it is no URL.
 */
function pathOf(url: string): string | undefined {
  try {
    return new URL(withoutTrailingSlashes(url), "http://localhost").pathname;
  } catch {
    return undefined;
  }
}

/**
 * A handler to run before Probot's webhook middleware: true when it answered (refused the request); false
 * when the request is for another route (answered there, its body unread), or a delivery whose signature
 * matches, its body then in `req.body` for Probot's middleware.
 */
export function webhookGuard(opts: GuardOptions): (req: Request, res: ServerResponse) => Promise<boolean> {
  const path = withoutTrailingSlashes(opts.path);
  const maxBytes = MAX_WEBHOOK_BYTES;
  return async (req, res) => {
    const declared = req.headers["content-length"];
    const reading = req.method === "GET" || req.method === "HEAD";
    const requested = pathOf(req.url ?? "");
    if (requested !== path && reading) {
      // Probot's pages, /healthz, /metrics: none reads a body, and one sent anyway ends with the connection
      // rather than being drained.
      if ((declared !== undefined && declared !== "0") || req.headers["transfer-encoding"])
        res.setHeader("connection", "close");
      return false;
    }
    let held = 0;
    const release = () => {
      opts.budget.give(held);
      held = 0;
    };
    res.once("close", release);
    const refuse = (status: number, error: string, headers: Record<string, string> = {}) => {
      release();
      answerAndClose(req, res, status, JSON.stringify({ error }), headers);
      return true;
    };
    // The server takes no other POST, PUT, …: refused here, unread, whatever a later handler would do.
    if (requested === undefined) return refuse(400, "the request's URL cannot be read");
    if (requested !== path) return refuse(404, `no ${req.method} route here`);
    if (req.method !== "POST") return refuse(405, `${req.method} is not a delivery`, { allow: "POST" });
    if (opts.draining?.())
      return refuse(503, "shutting down: this delivery is not taken; the App recovers it after its restart", {
        "retry-after": String(DRAINING_RETRY_AFTER_S),
      });
    if (!req.headers["x-github-event"] || !req.headers["x-github-delivery"])
      return refuse(400, "missing X-GitHub-Event or X-GitHub-Delivery header");
    const signature = req.headers["x-hub-signature-256"];
    if (typeof signature !== "string" || !signature) return refuse(401, "missing X-Hub-Signature-256 header");
    if (!/^\s*application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? ""))
      return refuse(415, "a delivery is application/json");
    const length = declared === undefined ? undefined : Number(declared);
    if (length !== undefined && length > maxBytes) return refuse(413, `webhook body over ${maxBytes} bytes`);
    const hold = (bytes: number) => opts.budget.take(bytes) && ((held += bytes), true);
    const busy = () => refuse(503, BUSY, { "retry-after": String(BUSY_RETRY_AFTER_S) });
    // Declared: all of it at once, before a byte is read. Chunked: as it arrives.
    if (length !== undefined && !hold(length)) return busy();
    if (opts.answers) {
      const answered = opts.answers.enter();
      res.once("finish", answered).once("close", answered);
    }
    const read = await readBody(req, {
      maxBytes,
      timeoutMs: opts.bodyTimeoutMs ?? BODY_TIMEOUT_MS,
      hold: length === undefined ? hold : () => true,
    });
    if (read === "gone") return true;
    if (read === "too large") return refuse(413, `webhook body over ${maxBytes} bytes`);
    if (read === "no room") return busy();
    if (read === "too slow") return refuse(408, "the body did not arrive in time");
    if (!verifySignature(opts.secret, read, signature))
      return refuse(401, "signature does not match (X-Hub-Signature-256)");
    // Probot's middleware takes `req.body` instead of reading the stream (and checks the signature again).
    req.body = read.toString("utf8");
    return false;
  };
}

/**
 * Answers a refused request and closes its connection. Ended at once while its body is still arriving,
 * the answer would make Node read the rest of the body to drop it, or close the connection with the
 * sender's bytes unread: a reset, which can lose the answer on its way (the sender would see no status).
 * So the answer is sent whole, the rest of the body is left unread (the sender's writes wait), and the
 * connection is closed `REFUSED_LINGER_MS` later.
 */
function answerAndClose(
  req: Request,
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string>,
): void {
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    connection: "close",
    ...headers,
  });
  if (req.complete) return void res.end(body);
  res.write(body);
  setTimeout(() => req.socket.destroy(), REFUSED_LINGER_MS);
}

/** A request's body, or why it was not read to its end (its data then no longer read). */
function readBody(
  req: Request,
  opts: { maxBytes: number; timeoutMs: number; hold(bytes: number): boolean },
): Promise<Buffer | "too large" | "no room" | "too slow" | "gone"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    let done = false;
    const finish = (result: Buffer | "too large" | "no room" | "too slow" | "gone") => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off("data", onData);
      if (!Buffer.isBuffer(result)) req.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > opts.maxBytes) return finish("too large");
      if (!opts.hold(chunk.length)) return finish("no room");
      chunks.push(chunk);
    };
    const timer = setTimeout(() => finish("too slow"), opts.timeoutMs);
    req.on("data", onData);
    req.once("end", () => finish(Buffer.concat(chunks, seen)));
    req.once("error", () => finish("gone"));
    req.once("close", () => finish("gone"));
  });
}
