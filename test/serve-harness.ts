/**
 * `npm start`'s server (src/serve.ts on Probot's own Server and webhook middleware) on a loopback port, for
 * the tests that deliver webhooks to it over HTTP (serve.test.ts, serve-guarantee.test.ts).
 */
import { createHmac, randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { Probot, Server } from "probot";
import type { PluginReviewOctokit } from "../src/github/api/octokit/app-octokit.js";
import type { Clock } from "../src/github/api/clock.js";
import type { SchedulerLog } from "../src/github/delivery/scheduler.js";
import { AnswersFirst } from "../src/github/delivery/concurrency.js";
import { serverApp, serverScheduler, type ServerAppOptions } from "../src/serve/server.js";
import { APP_ID } from "./github/fake-github.js";
import { TEST_PRIVATE_KEY } from "./github/harness.js";
import { freePort } from "./helpers.js";

/** The webhook secret the server is started with and deliveries are signed with. */
export const SECRET = "serve-test-secret-not-real";

export interface ServeOptions {
  /** The Octokit class of the App (the production one, or the tests' fast one). */
  Octokit: typeof PluginReviewOctokit;
  log: Logger;
  /** Where the scheduler says what it does with failed reviews. */
  schedulerLog: SchedulerLog;
  /** Deliveries being answered, which reviews wait for (none: the body guard does not report them). */
  answers?: AnswersFirst;
  /** How the App's waits run (real time by default). */
  clock?: Clock;
  /** The guard's limits (the server's by default). */
  guard?: Pick<ServerAppOptions, "unverifiedBytes" | "bodyTimeoutMs">;
}

/** Starts the server with a scheduler of 4 reviews at a time; its webhook URL. */
export async function startServe(opts: ServeOptions) {
  const scheduler = serverScheduler(opts.answers ?? new AnswersFirst(), opts.schedulerLog, 4, opts.clock);
  const port = await freePort();
  const server = new Server({
    Probot: Probot.defaults({
      appId: APP_ID,
      privateKey: TEST_PRIVATE_KEY,
      secret: SECRET,
      Octokit: opts.Octokit,
      log: opts.log,
    }),
    port,
    host: "127.0.0.1",
    log: opts.log,
  });
  await server.load(
    serverApp(scheduler, {
      secret: SECRET,
      ...opts.guard,
      ...(opts.answers ? { answers: opts.answers } : {}),
      ...(opts.clock ? { clock: opts.clock } : {}),
    }),
  );
  await server.start();
  return { server, scheduler, url: `http://127.0.0.1:${port}/api/github/webhooks` };
}

/** Delivers a signed webhook as GitHub does; its answer and how long it took. */
export async function postDelivery(url: string, name: string, payload: unknown) {
  const body = JSON.stringify(payload);
  const signature = "sha256=" + createHmac("sha256", SECRET).update(body).digest("hex");
  const t = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": name,
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": signature,
    },
    body,
  });
  return { status: res.status, text: await res.text(), ms: performance.now() - t };
}
