/**
 * What the server does with a request before it trusts it (interfaces.md, "Trust": nothing trusted early).
 * Anyone can reach the webhook URL, so a body is read only when the request is a POST to the webhook path
 * with GitHub's headers, no larger than GitHub sends, while the bodies not verified yet fit in a budget
 * shared by every request, and for no longer than GitHub itself waits; its signature is checked on the bytes
 * read before Probot's webhook middleware sees it. (Probot's middleware reads any body whole first, and logs
 * a forged one whole, several times over.) The budget is charged with the bytes that arrived, never with a
 * length a sender declares (headers alone would close the door: three posts declaring 25, 25 and 14 MB that
 * then sent nothing once held all 64 MB). Slow senders hold what they sent, for at most the body's timeout,
 * and an address past its share of the budget is cut off when another address needs the room (ByteBudget).
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

/** One request's hold on the budget: its sender, the bytes it brought, and how to cut it off. */
export interface Hold {
  readonly address: string;
  bytes: number;
  /** Ends the request (503, connection closed), giving its bytes back through `close`. */
  readonly evict: () => void;
  closed: boolean;
}

/**
 * Bytes of unverified bodies held at once, across requests, charged as they arrive, never by a declared
 * length; a chunk that does not fit is refused, not queued. An address's share (`perAddress`: half the
 * budget, or one of GitHub's largest deliveries when that is more) is what it keeps when
 * another address needs room: a chunk from an address within its share, that does not fit, cuts off the
 * requests of addresses holding more than theirs (the largest holder's largest request first) until it
 * fits. No request is refused for its address alone: behind a proxy every sender has the proxy's address,
 * and the budget then works as one budget, as it would without shares (GitHub does not retry a delivery
 * refused, only the recovery's sweep does).
 */
export class ByteBudget {
  private taken = 0;
  private readonly holds = new Map<string, Set<Hold>>();
  readonly perAddress: number;

  constructor(readonly limit: number) {
    this.perAddress = Math.min(limit, Math.max(MAX_WEBHOOK_BYTES, Math.floor(limit / 2)));
  }

  /** A request from `address` starts to be read; it holds nothing until its bytes arrive. */
  open(address: string, evict: () => void): Hold {
    const hold: Hold = { address, bytes: 0, evict, closed: false };
    const set = this.holds.get(address) ?? new Set<Hold>();
    set.add(hold);
    this.holds.set(address, set);
    return hold;
  }

  /** Bytes that arrived for `hold`: false when they fit neither the budget nor, by cutting others off, its share. */
  take(hold: Hold, bytes: number): boolean {
    if (hold.closed) return false;
    if (this.taken + bytes > this.limit && this.held(hold.address) + bytes <= this.perAddress)
      this.makeRoom(hold.address, this.taken + bytes - this.limit);
    if (this.taken + bytes > this.limit) return false;
    this.taken += bytes;
    hold.bytes += bytes;
    return true;
  }

  /** A request ends: its bytes go back. */
  close(hold: Hold): void {
    if (hold.closed) return;
    hold.closed = true;
    this.taken -= hold.bytes;
    const set = this.holds.get(hold.address);
    set?.delete(hold);
    if (set?.size === 0) this.holds.delete(hold.address);
  }

  /** Bytes held now, in all, or by one address. */
  held(address?: string): number {
    if (address === undefined) return this.taken;
    let bytes = 0;
    for (const hold of this.holds.get(address) ?? []) bytes += hold.bytes;
    return bytes;
  }

  /** Cuts off requests of addresses (not `from`) over their share, the largest first, until `needed` is free. */
  private makeRoom(from: string, needed: number): void {
    let freed = 0;
    while (freed < needed) {
      let largest: string | undefined;
      let most = this.perAddress;
      for (const address of this.holds.keys()) {
        const bytes = address === from ? 0 : this.held(address);
        if (bytes > most) [largest, most] = [address, bytes];
      }
      if (largest === undefined) return;
      const victim = [...this.holds.get(largest)!].reduce((a, b) => (b.bytes > a.bytes ? b : a));
      freed += victim.bytes;
      victim.evict();
      // The request's end gives its bytes back; a hold its eviction did not close is closed here.
      this.close(victim);
    }
  }
}

/**
 * Who sent a request, as far as its share of the budget goes: the socket's address (an IPv4 address as
 * such, also when mapped into IPv6; an IPv6 address by its /64, what one host is given), or, behind
 * `proxyHops` proxies the operator trusts, the address the farthest of them saw (X-Forwarded-For, counted
 * from its end, so that what the sender wrote there is never taken).
 */
export function senderOf(req: IncomingMessage, proxyHops = 0): string {
  let address = req.socket.remoteAddress ?? "unknown";
  if (proxyHops > 0) {
    const forwarded = String(req.headers["x-forwarded-for"] ?? "")
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean);
    address = forwarded[forwarded.length - proxyHops] ?? forwarded[0] ?? address;
  }
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4) return v4[1]!;
  if (!address.includes(":")) return address;
  // The first four groups of the full form: `::` expanded to the groups it stands for.
  const [left = "", right] = address.toLowerCase().split("%")[0]!.split("::");
  const head = left ? left.split(":") : [];
  const tail = right === undefined ? [] : right ? right.split(":") : [];
  const groups = [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill("0"), ...tail];
  return `${groups.slice(0, 4).join(":")}::/64`;
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
  /** Proxies in front of the server that the operator trusts to append X-Forwarded-For (senderOf). */
  proxyHops?: number;
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
    // What this request holds of the budget, once its body is being read.
    let hold: Hold | undefined;
    const release = () => {
      if (hold) opts.budget.close(hold);
      hold = undefined;
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
    const busy = () => refuse(503, BUSY, { "retry-after": String(BUSY_RETRY_AFTER_S) });
    // Charged as the bytes arrive, whatever the length declared (a sender may declare 25 MB and send nothing);
    // cut off (503) when an address within its share needs the room this one holds past its own.
    const cutOff = new AbortController();
    hold = opts.budget.open(senderOf(req, opts.proxyHops), () => cutOff.abort());
    const current = hold;
    if (opts.answers) {
      const answered = opts.answers.enter();
      res.once("finish", answered).once("close", answered);
    }
    const read = await readBody(req, {
      maxBytes,
      timeoutMs: opts.bodyTimeoutMs ?? BODY_TIMEOUT_MS,
      hold: (bytes) => opts.budget.take(current, bytes),
      cut: cutOff.signal,
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
  opts: { maxBytes: number; timeoutMs: number; hold(bytes: number): boolean; cut: AbortSignal },
): Promise<Buffer | "too large" | "no room" | "too slow" | "gone"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    let done = false;
    const finish = (result: Buffer | "too large" | "no room" | "too slow" | "gone") => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.cut.removeEventListener("abort", onCut);
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
    const onCut = () => finish("no room");
    opts.cut.addEventListener("abort", onCut);
    req.on("data", onData);
    req.once("end", () => finish(Buffer.concat(chunks, seen)));
    req.once("error", () => finish("gone"));
    req.once("close", () => finish("gone"));
  });
}
