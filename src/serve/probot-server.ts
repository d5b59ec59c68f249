/**
 * Probot's `run()` makes its http.Server and its list of handlers itself and hands out neither, and in its
 * setup mode (no credentials) it loads no app at all. Its Server's `start()` is the one place where both can
 * be reached, in either mode: `aroundProbotStart` wraps it for this process (`npm start`), so that the
 * server gets more handlers (after Probot's and the app's, before its not-found answer) and, once it
 * listens, whatever else its http.Server needs.
 */
import type { Server as HttpServer } from "node:http";
import { Server } from "probot";

type Handler = Parameters<Server["addHandler"]>[0];

export function aroundProbotStart(hooks: { handlers(): Handler[]; started(http: HttpServer): void }): void {
  const start = Server.prototype.start;
  Server.prototype.start = async function (this: Server) {
    for (const handler of hooks.handlers()) this.addHandler(handler);
    const http = await start.call(this);
    hooks.started(http);
    return http;
  };
}
