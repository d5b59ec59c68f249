/**
 * "Nothing trusted early" (interfaces.md, "Trust: what a pull request cannot do"), tried as anyone who can
 * reach the webhook URL would: `npm start`'s built server in a process of its own, as a GitHub Enterprise
 * Server App against the fake GitHub over real HTTP (test/serve-process.ts).
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { APP_ID } from "./github/fake-github.js";
import { pullRequestPayload, TEST_PRIVATE_KEY } from "./github/harness.js";
import { completed, openPullRequest, SCENARIO_ROUTES, within } from "./github/scenarios.js";
import { freePort, ROOT } from "./helpers.js";
import { appProcesses, memoryOf, SECRET } from "./serve-process.js";

const MB = 1024 * 1024;

const { start, fakeGitHub } = appProcesses();

/**
 * POSTs `size` bytes with GitHub's headers and a forged signature, declared in Content-Length or chunked,
 * 1 MB at a time every `paceMs`; its status, or the error when the server closed the connection first.
 */
function forgedPost(
  url: string,
  size: number,
  opts: { chunked?: boolean; paceMs?: number } = {},
): Promise<number | string> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = {
      "content-type": "application/json",
      "x-github-event": "pull_request",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": "sha256=" + "0".repeat(64),
    };
    if (!opts.chunked) headers["content-length"] = size;
    const req = request(url, { method: "POST", headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    const chunk = Buffer.alloc(MB, 0x20);
    let sent = 0;
    const pump = () => {
      if (req.destroyed) return;
      if (sent >= size) return void req.end();
      sent += chunk.length;
      const next = () => setTimeout(pump, opts.paceMs ?? 0);
      if (req.write(chunk)) next();
      else req.once("drain", next);
    };
    pump();
  });
}

describe("npm start trusts nothing early", () => {
  it("a sender that stops halfway through its headers is disconnected, not waited for", async () => {
    const gh = fakeGitHub(["listDeliveries"]);
    const app = await start();
    const { hostname, port } = new URL(app.baseUrl);
    const socket = connect(Number(port), hostname);
    socket.on("error", () => undefined);
    socket.write("POST /api/github/webhooks HTTP/1.1\r\nHost: x\r\nX-GitHub-Event: pull_request\r\n");
    let closed = false;
    socket.once("close", () => (closed = true));
    // Closed by the server once it has had no byte for 15 s (Node's own limits, unset, take 60 to 90 s).
    await within(45_000, () => closed);
    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(0);
    gh.assertClean();
  }, 120_000);

  it("thirty 20 MB posts with a forged signature at once: all refused, the server's memory bounded, a genuine delivery among them recovered", async () => {
    const gh = fakeGitHub([...SCENARIO_ROUTES, "listCheckRuns", "listDeliveries", "getDelivery"]);
    openPullRequest(gh);
    // 60 MB for unverified bodies: three of the forged posts at a time. A sweep of GitHub's log every 3 s.
    const app = await start({
      PLUGIN_REVIEW_UNVERIFIED_MB: "60",
      PLUGIN_REVIEW_RECOVERY_INTERVAL_MINUTES: "0.05",
    });
    const before = memoryOf(app.child.pid!);
    // Each sends its 20 MB within 5 s, as a sender on a slow link would (GitHub's own limit is 10 s).
    const answers: (number | string)[] = [];
    const flood = Array.from({ length: 30 }, () =>
      forgedPost(app.webhookUrl, 20 * MB, { paceMs: 200 }).then((a) => void answers.push(a)),
    );
    // The budget is full while three are being read: the 27 others are refused at once, and so is GitHub.
    await within(60_000, () => answers.length >= 27).catch((e: unknown) => {
      throw new Error(`${(e as Error).message}; peak resident memory ${memoryOf(app.child.pid!).peakMb} MB`);
    });
    const genuine = await gh.deliver(app.webhookUrl, SECRET, "pull_request", pullRequestPayload("opened"));
    await Promise.all(flood);
    const after = memoryOf(app.child.pid!);
    console.log(
      `30 forged 20 MB posts: answers ${JSON.stringify(count(answers))}; the server's resident memory ` +
        `${before.rssMb} MB before, peak ${after.peakMb} MB; the genuine delivery answered ${genuine}`,
    );
    // Three read and refused for their signature; the others refused unread: 503, or, when the sender was
    // too busy writing to read the answer within 2 s, the connection closed on it.
    expect(answers.filter((a) => a === 401)).toHaveLength(3);
    for (const a of answers) expect([401, 503, "EPIPE", "ECONNRESET"]).toContain(a);
    // Three bodies held at once: about 200 MB in all, measured (a server that read every one whole took
    // 2.5 GB).
    expect(after.peakMb).toBeLessThan(600);
    // GitHub records the 503 as a failed delivery: the next sweep of its log has it reviewed.
    expect(genuine).toBe(503);
    await within(120_000, () => completed(gh));
    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(0);
    gh.assertClean();
  }, 180_000);
});

/**
 * `npm start`'s built server in a fresh directory holding what a clone has for the setup page (app.yml,
 * package.json) and `dotEnv` as its `.env`, with `env` alone (and PATH) for environment. Resolves once it
 * has exited, or once it serves its port (`served`), whichever comes first.
 */
async function launch(env: Record<string, string>, dotEnv?: string) {
  const cwd = mkdtempSync(join(tmpdir(), "plugin-review-start-"));
  dirs.push(cwd);
  for (const f of ["app.yml", "package.json"]) copyFileSync(join(ROOT, f), join(cwd, f));
  if (dotEnv !== undefined) writeFileSync(join(cwd, ".env"), dotEnv);
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, "dist/src/server.js")], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      NO_SMEE_SETUP: "true",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (output += c.toString("utf8")));
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const base = `http://127.0.0.1:${port}`;
  const outcome = await Promise.race([
    exited.then((code) => ({ exited: code })),
    (async () => {
      for (;;) {
        if (child.exitCode !== null) return new Promise<never>(() => {});
        const served = await fetch(`${base}/`, { redirect: "manual" }).catch(() => undefined);
        if (served) return { served: true as const };
        await new Promise((r) => setTimeout(r, 100));
      }
    })(),
  ]);
  return { ...outcome, cwd, base, output: () => output };
}

const dirs: string[] = [];
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("npm start: credentials", () => {
  it.each([
    ["in the environment", { APP_ID: String(APP_ID), PRIVATE_KEY: TEST_PRIVATE_KEY }, undefined],
    ["in .env", {}, `APP_ID=${APP_ID}\nPRIVATE_KEY="${TEST_PRIVATE_KEY}"\n`],
  ])(
    "an APP_ID and a key %s, no WEBHOOK_SECRET: it does not start, and says WEBHOOK_SECRET",
    async (_, env, dotEnv) => {
      const started = await launch(env, dotEnv);
      // Serving, it would take deliveries signed with Probot's default secret 'development'.
      expect(started).toMatchObject({ exited: 1 });
      expect(started.output()).toMatch(/^plugin-review: WEBHOOK_SECRET is not set, while APP_ID is/m);
    },
    60_000,
  );

  it("no APP_ID: Probot's setup page (the README's first command), /healthz saying so, no store", async () => {
    const started = await launch({});
    expect(started).toMatchObject({ served: true });
    const root = await fetch(`${started.base}/`, { redirect: "manual" });
    expect([root.status, root.headers.get("location")]).toEqual([302, "/probot"]);
    const page = await fetch(`${started.base}/probot`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Register GitHub App");
    for (const path of ["/healthz", "/metrics"]) {
      const res = await fetch(`${started.base}${path}`);
      expect(res.status).toBe(503);
      expect(await res.text()).toMatch(/^setup mode: no App credentials \(APP_ID, /);
    }
    // Nothing to keep before there is an App.
    expect(existsSync(join(started.cwd, ".plugin-review-state"))).toBe(false);
    // The intended 503s are logged as requests are, one line each: no error, no stack trace.
    await within(10_000, () => /GET \/metrics 503/.test(started.output()));
    const output = started.output();
    expect(output.match(/^.*GET \/healthz.*$/gm)).toEqual([
      expect.stringMatching(/^INFO \(http\): GET \/healthz 503 - \d+ms$/),
    ]);
    expect(output).not.toMatch(/stack|ERROR|failed with status code|\n\s+at /);
  }, 60_000);

  it("no APP_ID and no network: the setup page all the same, one warning after Probot's welcome saying what a missing webhook proxy means", async () => {
    // smee.io unreachable, as without a network: its client goes through a proxy that refuses connections.
    const started = await launch({ NO_SMEE_SETUP: "", HTTPS_PROXY: `http://127.0.0.1:${await freePort()}` });
    expect(started).toMatchObject({ served: true });
    expect((await fetch(`${started.base}/probot`)).status).toBe(200);
    await within(10_000, () => /Listening on/.test(started.output()));
    const lines = started.output().split("\n");
    const warnings = lines.filter((l) => /^WARN/.test(l));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^WARN \(setup\): no webhook proxy: smee\.io cannot be reached \(ECONNREFUSED\), so an App registered from this page now gets no deliveries on this machine\. .*WEBHOOK_PROXY_URL=/,
      ),
    ]);
    // After the welcome, not before anything else; and not Probot's "try restarting your server".
    expect(lines.findIndex((l) => /Welcome to Probot/.test(l))).toBeLessThan(lines.indexOf(warnings[0]!));
    expect(started.output()).not.toMatch(/Unable to connect to smee\.io/);
    // Nothing written for it: .env stays as it was (none).
    expect(existsSync(join(started.cwd, ".env"))).toBe(false);
  }, 60_000);
});

function count(answers: (number | string)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) out[a] = (out[a] ?? 0) + 1;
  return out;
}
