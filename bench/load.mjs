#!/usr/bin/env node
// Load test of `npm start` (part of `npm run bench`, not of `npm test`): 100 pull requests opened at once
// over 3 installations, then 50 pushes (each a `pull_request.synchronize` and a `check_suite.requested`
// at the same moment), against the stateful fake GitHub (test/github/fake-github.ts, on nock, in process;
// the server listens on 127.0.0.1 only). The same load runs on this commit and on a previous one (a git
// worktree, built), each in its own process, in the same run.
//
// Time is scaled down 10x uniformly: Probot's write throttling (its own plugin, 1 s between writes and 3 s
// between notification-triggering writes per installation) runs with 100 ms and 300 ms, and the fake
// answers every call after 25 ms (250 ms of GitHub). Probot's 9 s webhook cut-off is not scaled.
//
//   node bench/load.mjs [previous-ref] [rounds]   (default ref: 08fac37, main before the background reviews;
//                                                   rounds: 1; with more, medians over rounds of alternating order)
/* global setTimeout, clearTimeout, setInterval, clearInterval, structuredClone, performance */
import { spawn } from "node:child_process";
import { createHmac, generateKeyPairSync, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleFakeGitHub, median, withBuiltCommit } from "./lib.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SCALE = 10;
const LATENCY_MS = 25;
const PRS = 100;
const PUSHES = 50;
const INSTALLATIONS = 3;
const SECRET = "load-test-secret-not-real";

async function parent(ref, rounds) {
  // The fake GitHub is TypeScript: bundled for the child processes.
  const fake = await bundleFakeGitHub();
  await withBuiltCommit(ref, async (prev) => {
    const builds = [
      [`previous (${ref})`, prev],
      ["this commit", ROOT],
    ];
    for (const [, root] of builds)
      if (!existsSync(join(root, "dist/src/server.js"))) throw new Error(`${root}: not built`);
    // Each round runs both, in alternating order, so that a shared machine's load falls on both alike.
    const results = builds.map(() => []);
    for (let r = 0; r < rounds; r++)
      for (const i of r % 2 ? [1, 0] : [0, 1]) results[i].push(await runChild(builds[i][1], fake));
    print(
      builds.map(([name], i) => ({ name, ...medians(results[i]) })),
      rounds,
    );
  });
}

/** Each figure's median over the rounds. */
function medians(rs) {
  return Object.fromEntries(Object.keys(rs[0]).map((k) => [k, median(rs.map((r) => r[k]))]));
}

function runChild(root, fake) {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      ["--expose-gc", fileURLToPath(import.meta.url), "--child", root, fake],
      {
        cwd: root,
        stdio: ["ignore", "pipe", "inherit"],
        timeout: 300_000,
      },
    );
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.on("exit", (code) => {
      const line = out.trim().split("\n").pop() ?? "";
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`load child for ${root} failed (${code}): ${out.slice(-500)}`));
      }
    });
  });
}

function print(rows, rounds) {
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `Load test: ${PRS} pull requests opened at once over ${INSTALLATIONS} installations, then ${PUSHES} pushes ` +
      `(synchronize + check_suite.requested each); time scaled 10x (write spacing 100 ms, GitHub latency 25 ms)`,
  );
  if (rounds > 1) console.log(`  medians of ${rounds} rounds, the two builds in alternating order`);
  for (const r of rows) {
    console.log(`  ${r.name}:`);
    console.log(`    acknowledgement p95 ${s(r.ackP95)} (max ${s(r.ackMax)})  [target < 1 s]`);
    console.log(`    burst: delivery to completed check p50 ${s(r.burstP50)}, p95 ${s(r.burstP95)}`);
    console.log(`    pushes: delivery to completed check p50 ${s(r.pushP50)}, p95 ${s(r.pushP95)}`);
    console.log(
      `    writes per review ${r.writesPerReview.toFixed(2)}; API calls per review ${r.callsPerReview.toFixed(2)}`,
    );
    console.log(
      `    check runs per head commit: min ${r.runsMin}, max ${r.runsMax} over ${r.heads} commits  [target 1]`,
    );
    console.log(`    peak RSS ${(r.peakRssKb / 1024).toFixed(0)} MB`);
  }
  if (rows.length === 2) {
    const [a, b] = rows;
    console.log(
      `  burst median delivery-to-completed: ${((1 - b.burstP50 / a.burstP50) * 100).toFixed(0)}% below the previous commit  [target >= 30%]`,
    );
    const ratio = (k) => (b[k] / a[k]).toFixed(2);
    console.log(
      `  this commit / previous: acknowledgement p95 ${ratio("ackP95")}, burst p50 ${ratio("burstP50")} p95 ${ratio("burstP95")}, ` +
        `pushes p50 ${ratio("pushP50")} p95 ${ratio("pushP95")}, API calls ${ratio("callsPerReview")}, writes ${ratio("writesPerReview")}, peak RSS ${ratio("peakRssKb")}`,
    );
  }
}

async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function child(root, fakePath) {
  const hardStop = setTimeout(() => process.exit(3), 240_000);
  // Probot's throttling plugin, with its own limits divided by SCALE (it builds its groups on first use).
  const { createRequire } = await import("node:module");
  const require = createRequire(join(root, "node_modules/@octokit/plugin-throttling/package.json"));
  const Bottleneck = require("bottleneck/light.js");
  const Group = Bottleneck.Group;
  Bottleneck.Group = class extends Group {
    constructor(o = {}) {
      super(o.minTime ? { ...o, minTime: o.minTime / SCALE } : o);
    }
  };
  const { FakeGitHub } = await import(pathToFileURL(fakePath).href);
  const nock = (await import("nock")).default;
  nock.disableNetConnect();
  nock.enableNetConnect((host) => host.startsWith("127.0.0.1"));
  const gh = new FakeGitHub(
    [
      "token",
      "graphql",
      "files",
      "contents",
      "listCheckRuns",
      "createCheckRun",
      "updateCheckRun",
      "listComments",
      "listReviews",
      "createReview",
      "reply",
      "getPull",
    ],
    undefined,
    { latencyMs: LATENCY_MS, checkResponses: false },
  );
  const examples = (
    await import("@octokit/webhooks-examples/api.github.com/index.json", { with: { type: "json" } })
  ).default;
  const example = (name, action) =>
    structuredClone(examples.find((e) => e.name === name).examples.find((x) => x.action === action));
  const host = JSON.parse(
    (await import("node:fs")).readFileSync(join(ROOT, "examples/host-valid/plugin.json"), "utf8"),
  );
  const base = JSON.stringify(host, null, 2) + "\n";
  // The head changes the metric group on line 7 (in the diff: a line comment) and keeps the version (a
  // finding outside the diff: the review body): a review with something to say, as most are.
  const head = (i) => base.replace('"tech.python.demo"', `"tech.python.demo${i}"`);
  const BASE = "b".repeat(40);
  gh.prFiles = [{ filename: "p/plugin.json", status: "modified", patch: "@@ -7,1 +7,1 @@\n-x\n+x" }];
  const repoOf = (n) => ({
    owner: `acme${n % INSTALLATIONS}`,
    repo: "plugins",
    installation: 100 + (n % INSTALLATIONS),
  });
  for (let k = 0; k < INSTALLATIONS; k++) gh.file(`acme${k}/plugins`, BASE, "p/plugin.json", base);
  const sha = (n, push) => `${push ? "e" : "c"}${String(n).padStart(39, "0")}`;

  const port = await freePort();
  Object.assign(process.env, {
    APP_ID: "4242",
    PRIVATE_KEY: generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs1", format: "pem" })
      .toString(),
    WEBHOOK_SECRET: SECRET,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "fatal",
    NODE_ENV: "production",
  });
  await import(pathToFileURL(join(root, "dist/src/server.js")).href);
  const url = `http://127.0.0.1:${port}/api/github/webhooks`;

  // The deliveries are sent from a worker thread, as GitHub sends them from elsewhere: the sender's own work
  // (fetch, streams) stays off the event loop of the server under test. Times are absolute (time origin +
  // now) so that the worker's and this thread's clocks compare.
  const now = () => performance.timeOrigin + performance.now();
  const acks = [];
  const sentAt = new Map();
  const { Worker } = await import("node:worker_threads");
  const sender = new Worker(
    `const { parentPort } = require("node:worker_threads");
    parentPort.on("message", async ({ url, deliveries }) => {
      const now = () => performance.timeOrigin + performance.now();
      const answered = await Promise.all(deliveries.map(async ({ headers, body, headSha }) => {
        const t = now();
        const res = await fetch(url, { method: "POST", headers, body });
        await res.text();
        return { headSha, sentAt: t, ackMs: now() - t, status: res.status };
      }));
      parentPort.postMessage(answered);
    });`,
    { eval: true },
  );
  /** Sends the deliveries at once (signed beforehand), and resolves once every one is answered. */
  const send = async (deliveries) => {
    const signed = deliveries.map(([name, payload, headSha]) => {
      const body = JSON.stringify(payload);
      return {
        headSha,
        body,
        headers: {
          "content-type": "application/json",
          "x-github-event": name,
          "x-github-delivery": randomUUID(),
          "x-hub-signature-256": "sha256=" + createHmac("sha256", SECRET).update(body).digest("hex"),
        },
      };
    });
    const answered = await new Promise((resolve) => {
      sender.once("message", resolve);
      sender.postMessage({ url, deliveries: signed });
    });
    for (const a of answered) {
      if (a.status !== 202 && a.status !== 200) throw new Error(`delivery answered ${a.status}`);
      acks.push(a.ackMs);
      if (!sentAt.has(a.headSha) || sentAt.get(a.headSha) > a.sentAt) sentAt.set(a.headSha, a.sentAt);
    }
  };
  const prPayload = (n, action, headSha) => {
    const p = example("pull_request", "opened");
    p.action = action;
    const { owner, repo, installation } = repoOf(n);
    p.installation = { id: installation, node_id: "I" };
    Object.assign(p.repository, { name: repo, full_name: `${owner}/${repo}` });
    p.repository.owner.login = owner;
    p.repository.owner.type = "Organization";
    const pr = p.pull_request;
    pr.number = p.number = n;
    pr.base.sha = BASE;
    pr.base.repo = structuredClone(p.repository);
    pr.head.sha = headSha;
    pr.head.repo = structuredClone(p.repository);
    return p;
  };
  const suitePayload = (n, headSha) => {
    const s = example("check_suite", "requested");
    const pr = prPayload(n, "synchronize", headSha);
    s.installation = pr.installation;
    s.repository = pr.repository;
    s.check_suite.head_sha = headSha;
    s.check_suite.app.id = 4242; // GitHub sends the suite of the app's own check runs
    s.check_suite.pull_requests = [
      {
        number: n,
        id: n,
        url: "",
        head: { sha: headSha, ref: "x", repo: { id: 1, name: "plugins", url: "" } },
        base: { sha: BASE, ref: "main", repo: { id: 1, name: "plugins", url: "" } },
      },
    ];
    return s;
  };
  const completedAt = new Map();
  const watch = setInterval(() => {
    for (const r of gh.checkRuns)
      if (r.status === "completed" && !completedAt.has(r.head_sha)) completedAt.set(r.head_sha, now());
  }, 10);
  const until = async (heads) => {
    while (!heads.every((h) => completedAt.has(h))) await sleep(50);
  };
  const settle = async () => {
    let n = -1;
    while (n !== gh.requests.length) {
      n = gh.requests.length;
      await sleep(1500);
    }
  };

  // Burst: 100 pull requests opened at once.
  const burst = [];
  for (let n = 1; n <= PRS; n++) {
    const { owner, repo } = repoOf(n);
    gh.file(`${owner}/${repo}`, sha(n, false), "p/plugin.json", head(n));
    burst.push(sha(n, false));
  }
  await send(
    Array.from({ length: PRS }, (_, i) => [
      "pull_request",
      prPayload(i + 1, "opened", sha(i + 1, false)),
      sha(i + 1, false),
    ]),
  );
  await until(burst);
  await settle();
  // Pushes: 50 of them get a new head commit; GitHub sends both events of a push at once.
  const pushes = [];
  for (let n = 1; n <= PUSHES; n++) {
    const { owner, repo } = repoOf(n);
    gh.file(`${owner}/${repo}`, sha(n, true), "p/plugin.json", head(n).replace('"1.2.0"', '"1.2.1"'));
    gh.pulls.set(n, prPayload(n, "synchronize", sha(n, true)).pull_request);
    pushes.push(sha(n, true));
  }
  await send(
    Array.from({ length: PUSHES }, (_, i) => [
      ["pull_request", prPayload(i + 1, "synchronize", sha(i + 1, true)), sha(i + 1, true)],
      ["check_suite", suitePayload(i + 1, sha(i + 1, true)), sha(i + 1, true)],
    ]).flat(),
  );
  await until(pushes);
  await settle();
  clearInterval(watch);

  const d2c = (heads) => heads.map((h) => completedAt.get(h) - sentAt.get(h));
  const runs = [...burst, ...pushes].map((h) => gh.runsFor(h).length);
  const api = gh.requests.filter((r) => !/access_tokens$/.test(r.path));
  const reviews = PRS + PUSHES;
  console.log(
    JSON.stringify({
      ackP95: pct(acks, 95),
      ackMax: Math.max(...acks),
      burstP50: pct(d2c(burst), 50),
      burstP95: pct(d2c(burst), 95),
      pushP50: pct(d2c(pushes), 50),
      pushP95: pct(d2c(pushes), 95),
      // A write: a REST request other than GET, or a GraphQL mutation (a GraphQL query is a read).
      writesPerReview:
        api.filter(
          (r) =>
            r.method !== "GET" && !(r.path === "/graphql" && !/^\s*mutation\b/.test(String(r.body?.query))),
        ).length / reviews,
      callsPerReview: api.length / reviews,
      runsMin: Math.min(...runs),
      runsMax: Math.max(...runs),
      heads: runs.length,
      peakRssKb: process.resourceUsage().maxRSS,
    }),
  );
  clearTimeout(hardStop);
  process.exit(0);
}

if (process.argv[2] === "--child") await child(process.argv[3], process.argv[4]);
else await parent(process.argv[2] ?? "08fac37", Number(process.argv[3] ?? 1));
