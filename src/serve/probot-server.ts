/**
 * Probot's `run()` makes its http.Server and its list of handlers itself and hands out neither, and in its
 * setup mode (no credentials) it loads no app at all. Its Server's `start()` is the one place where both can
 * be reached, in either mode: `aroundProbotStart` wraps it for this process (`npm start`), so that the
 * server gets more handlers (after Probot's and the app's, before its not-found answer) and, once it
 * listens, whatever else its http.Server needs. Its `loadHandlerFactory`, which `run()` calls only for the
 * setup page, tells when that page is loaded, with Probot's log.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import { Server, type Logger } from "probot";

type Handler = Parameters<Server["addHandler"]>[0];

export interface ProbotServerHooks {
  /** Handlers after Probot's and the app's, before its not-found answer. */
  handlers(): Handler[];
  /**
   * Handlers that answer before Probot's request listener and its request log (which logs any 5xx at error
   * level with a stack trace, an intended 503 too): each request they answer is logged here in one line.
   */
  first?(): Handler[];
  /** Probot's setup page is loaded (no credentials: no app), with Probot's log. */
  setup?(log: Logger): void;
  /** The log the `first` handlers' requests go to (Probot's, once there is one). */
  log?(): Logger | undefined;
  started(http: HttpServer): void;
}

export function aroundProbotStart(hooks: ProbotServerHooks): void {
  const loadHandlerFactory = Server.prototype.loadHandlerFactory;
  Server.prototype.loadHandlerFactory = async function (this: Server, factory) {
    await loadHandlerFactory.call(this, async (probot, options) => {
      const handler = await factory(probot, options);
      hooks.setup?.(probot.log);
      return handler;
    });
  };
  const start = Server.prototype.start;
  Server.prototype.start = async function (this: Server) {
    for (const handler of hooks.handlers()) this.addHandler(handler);
    const http = await start.call(this);
    const first = hooks.first?.() ?? [];
    // Placed as the listen resolves, before the event loop takes a connection: no request is answered before.
    if (first.length) answerFirst(http, first, () => hooks.log?.());
    hooks.started(http);
    return http;
  };
}

/** Puts `handlers` before the server's own request listeners; what they answer is logged in one line. */
function answerFirst(http: HttpServer, handlers: Handler[], log: () => Logger | undefined): void {
  const listeners = http.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  http.removeAllListeners("request");
  http.on("request", (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const started = Date.now();
      try {
        for (const handler of handlers)
          if (await handler(req, res)) {
            const path = (req.url ?? "").split("?")[0];
            log()
              ?.child({ name: "http" })
              .info(`${req.method} ${path} ${res.statusCode} - ${Date.now() - started}ms`);
            return;
          }
      } catch (e) {
        log()?.error({ err: e }, `${req.method} ${(req.url ?? "").split("?")[0]} failed`);
        if (!res.headersSent) res.writeHead(500);
        res.end();
        return;
      }
      for (const listener of listeners) listener.call(http, req, res);
    })();
  });
}
