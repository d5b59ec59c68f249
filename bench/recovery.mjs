#!/usr/bin/env node
// Recovery (part of `npm run bench`, not of `npm test`): what the App's recovery of missed deliveries costs,
// measured on the built server (`node dist/src/server.js`) in a process of its own, as a GitHub Enterprise
// Server App against the stateful fake GitHub (test/github/fake-github.ts, on nock in this process, served
// over real HTTP on 127.0.0.1), with Probot's write throttling as deployed. In one run:
//   - live: 10 pull requests opened and delivered to the running App: from the first delivery to the last
//     completed check run;
//   - recovered: the same 10 missed while the App was down (GitHub's log says it could not connect): from the
//     App's start to the last recovered check run, and the App's start alone (to /healthz);
//   - an empty sweep: the API calls of the sweeps that follow, when nothing is missing.
//
//   node bench/recovery.mjs
/* global setTimeout, performance, fetch, Headers, Buffer */
import { spawn } from "node:child_process";
import { createHmac, generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundleFakeGitHub, ROOT } from "./lib.mjs";

const HEADS = 10;
const SECRET = "bench-secret-not-real";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  const s = createNetServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

/** The fake (nock, in this process) served over real HTTP, as test/serve-process.ts serves it. */
async function bridge() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = createServer(async (req, res) => {
    if (req.headers["x-fake-bridge"]) return void res.writeHead(501).end();
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const data = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined && !["host", "connection", "content-length", "transfer-encoding"].includes(k))
        headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    headers.set("x-fake-bridge", "1");
    try {
      const r = await fetch(url + req.url, {
        method: req.method,
        headers,
        ...(data.length ? { body: data } : {}),
      });
      const h = {};
      r.headers.forEach((v, k) => {
        if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(k)) h[k] = v;
      });
      res.writeHead(r.status, h).end(Buffer.from(await r.arrayBuffer()));
    } catch {
      res.destroy();
    }
  });
  await new Promise((r) => server.listen(port, "127.0.0.1", r));
  return {
    host: `127.0.0.1:${port}`,
    url,
    close: () => (server.closeAllConnections(), new Promise((r) => server.close(r))),
  };
}

const PRIVATE_KEY = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs1", format: "pem" })
  .toString();

async function startApp(gheHost, stateDir, env = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, "dist/src/server.js")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      APP_ID: "4242",
      PRIVATE_KEY,
      WEBHOOK_SECRET: SECRET,
      PORT: String(port),
      HOST: "127.0.0.1",
      GHE_HOST: gheHost,
      GHE_PROTOCOL: "http",
      LOG_LEVEL: "warn",
      PLUGIN_REVIEW_STATE_DIR: stateDir,
      ...env,
    },
    stdio: "ignore",
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 60_000) throw new Error("the App did not start");
    await sleep(20);
  }
  return { child, webhookUrl: `${baseUrl}/api/github/webhooks`, started, ready: performance.now() };
}

/** A pull request opened at `sha`, as the App reads the event (the fields it uses). */
function opened(number, sha) {
  const repo = {
    id: 1,
    name: "plugins",
    full_name: "acme/plugins",
    owner: { login: "acme", type: "Organization", id: 2 },
  };
  return {
    action: "opened",
    number,
    installation: { id: 77 },
    repository: repo,
    pull_request: {
      number,
      head: { sha, ref: `b${number}`, repo },
      base: { sha: "b".repeat(40), ref: "main", repo },
    },
  };
}

async function until(done, ms = 300_000) {
  const t = performance.now();
  while (!done()) {
    if (performance.now() - t > ms) throw new Error(`not done within ${ms} ms`);
    await sleep(20);
  }
  return performance.now();
}

async function scenario(FakeGitHub, mode) {
  const github = await bridge();
  const state = mkdtempSync(join(tmpdir(), "plugin-review-bench-state-"));
  const routes = ["token", "graphql", "files", "createCheckRun", "createReview", "listDeliveries"];
  if (mode === "recovered") routes.push("getDelivery", "listCheckRuns");
  const gh = new FakeGitHub(routes, `${github.url}/api/v3`, { checkResponses: false });
  gh.prFiles = [{ filename: "p/plugin.json", status: "added", patch: "@@ -0,0 +1,1 @@\n+{" }];
  const shas = Array.from({ length: HEADS }, (_, i) => String(i + 1).padStart(40, "0"));
  const descriptor = JSON.stringify({
    name: "custom.python.demo",
    version: "1",
    metricGroup: "tech.python.demo",
  });
  shas.forEach((sha, i) => {
    gh.file("acme/plugins", sha, "p/plugin.json", descriptor);
    gh.push(10 + i, sha);
  });
  const completed = () => shas.every((sha) => gh.runsFor(sha).some((r) => r.status === "completed"));
  let app;
  const out = {};
  try {
    if (mode === "recovered") {
      const down = `http://127.0.0.1:${await freePort()}/api/github/webhooks`;
      for (const [i, sha] of shas.entries())
        await gh.deliver(down, SECRET, "pull_request", opened(10 + i, sha));
      // Sweeps every 3 s after the first, to count what an empty one costs.
      app = await startApp(github.host, state, { PLUGIN_REVIEW_RECOVERY_INTERVAL_MINUTES: "0.05" });
      const last = await until(completed);
      out.startMs = app.ready - app.started;
      out.lastMs = last - app.started;
      // Reviews posted too; then two sweeps with nothing missing.
      await until(() => gh.reviews.length === HEADS);
      await sleep(1_000);
      const before = gh.requests.length;
      await sleep(6_500);
      const calls = gh.requests.slice(before).filter((r) => !/\/access_tokens$/.test(r.path));
      const sweeps = calls.filter((r) => r.path === "/app/hook/deliveries").length;
      out.emptySweeps = sweeps;
      out.emptySweepCalls = sweeps ? calls.length / sweeps : NaN;
      out.emptySweepRoutes = [...new Set(calls.map((r) => `${r.method} ${r.path}`))];
    } else {
      app = await startApp(github.host, state);
      const first = performance.now();
      for (const [i, sha] of shas.entries()) {
        const body = JSON.stringify(opened(10 + i, sha));
        await fetch(app.webhookUrl, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-github-event": "pull_request",
            "x-github-delivery": randomUUID(),
            "x-hub-signature-256": "sha256=" + createHmac("sha256", SECRET).update(body).digest("hex"),
          },
          body,
        });
      }
      out.lastMs = (await until(completed)) - first;
    }
    return out;
  } finally {
    app?.child.kill("SIGKILL");
    await github.close();
    rmSync(state, { recursive: true, force: true });
  }
}

const fake = await bundleFakeGitHub();
const { FakeGitHub } = await import(pathToFileURL(fake).href);
const nock = (await import("nock")).default;
nock.disableNetConnect();
nock.enableNetConnect((host) => host.startsWith("127.0.0.1"));
const live = await scenario(FakeGitHub, "live");
nock.cleanAll();
const recovered = await scenario(FakeGitHub, "recovered");
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `Recovery (${HEADS} head commits of one installation; Probot's write spacing as deployed; the built server in its own process):`,
);
console.log(
  `  live: ${HEADS} pull requests delivered to the running App, last check run completed ${s(live.lastMs)} after the first delivery`,
);
console.log(
  `  recovered: the same ${HEADS} missed while it was down, last check run completed ${s(recovered.lastMs)} after the App's start (start to /healthz ${s(recovered.startMs)})  [guarantee: 2 minutes]`,
);
console.log(
  `  recovered / live (start excluded): ${((recovered.lastMs - recovered.startMs) / live.lastMs).toFixed(2)}`,
);
console.log(
  `  a sweep with nothing missing: ${recovered.emptySweepCalls} API call(s) each over ${recovered.emptySweeps} sweeps (${recovered.emptySweepRoutes.join(", ")})`,
);
process.exit(0);
