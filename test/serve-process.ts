/**
 * `npm start` as operators run it: the built server (`node dist/src/server.js`) in a process of its own,
 * which a test can kill (SIGKILL, as an out-of-memory kill or a dying node does), stop (SIGTERM, as a
 * deploy does) and start again, against the fake GitHub of this process served over real HTTP as a GitHub
 * Enterprise Server (`GHE_HOST`): every request the App makes, token requests included, must reach that
 * host, since the App's process has no other GitHub to talk to.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, onTestFailed } from "vitest";
import { APP_ID, FakeGitHub, type Route } from "./github/fake-github.js";
import { cleanup, disableNetwork } from "./github/github-mock.js";
import { TEST_PRIVATE_KEY } from "./github/harness.js";
import { freePort, ROOT } from "./helpers.js";

export const SECRET = "process-test-secret-not-real";

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/**
 * A real HTTP server on 127.0.0.1 in front of the fake GitHub (nock, in this process): each request it
 * receives is made again in this process, where nock answers it as the fake (a request no route of the fake
 * matches with GitHub's 404). One that comes back to the server anyway (nock lets 127.0.0.1 through: no fake
 * made yet) is answered 501 rather than loop.
 * `url`: the GitHub Enterprise Server the App is told of (`GHE_HOST`); the fake's base is `${url}/api/v3`.
 */
export async function bridge(): Promise<{ host: string; url: string; close(): Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.headers["x-fake-bridge"]) {
        res.writeHead(501, { "content-type": "application/json" }).end('{"message":"no route of the fake"}');
        return;
      }
      const data = await body(req);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers))
        if (v !== undefined && !["host", "connection", "content-length", "transfer-encoding"].includes(k))
          headers.set(k, Array.isArray(v) ? v.join(", ") : v);
      headers.set("x-fake-bridge", "1");
      try {
        const answer = await fetch(url + (req.url ?? "/"), {
          method: req.method ?? "GET",
          headers,
          ...(data.length ? { body: data } : {}),
        });
        const out = Buffer.from(await answer.arrayBuffer());
        const h: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(k))
            h[k] = v;
        });
        res.writeHead(answer.status, h).end(out);
      } catch {
        // A request the fake holds open is ended with its connection (the App's timeout ends it first).
        res.destroy();
      }
    })();
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return {
    host: `127.0.0.1:${port}`,
    url,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export interface AppProcess {
  webhookUrl: string;
  baseUrl: string;
  child: ChildProcess;
  /** The process's log lines (pino JSON), as it wrote them. */
  logs: { msg: string; level: number; [k: string]: unknown }[];
  /** Resolves with the exit code (or the signal) once the process has ended. */
  exited: Promise<number | string>;
}

/**
 * Starts `node dist/src/server.js` (`npm start` after its build) against GitHub at `gheHost`, with the
 * store in `stateDir`; resolves once it answers `/healthz`. `env`: more settings.
 */
export async function startApp(
  gheHost: string,
  stateDir: string,
  env: Record<string, string> = {},
): Promise<AppProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, "dist/src/server.js")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      APP_ID: String(APP_ID),
      PRIVATE_KEY: TEST_PRIVATE_KEY,
      WEBHOOK_SECRET: SECRET,
      PORT: String(port),
      HOST: "127.0.0.1",
      GHE_HOST: gheHost,
      GHE_PROTOCOL: "http",
      LOG_LEVEL: "debug",
      LOG_FORMAT: "json",
      PLUGIN_REVIEW_STATE_DIR: stateDir,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: AppProcess["logs"] = [];
  let buffered = "";
  const read = (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as AppProcess["logs"][number]);
      } catch {
        logs.push({ msg: line, level: 50 });
      }
    }
  };
  child.stdout!.on("data", read);
  child.stderr!.on("data", read);
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = { webhookUrl: `${baseUrl}/api/github/webhooks`, baseUrl, child, logs, exited };
  onTestFailed(() => {
    console.error(`--- the App's log (pid ${child.pid}) ---\n` + logs.map((l) => l.msg).join("\n"));
  });
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the App exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).status === 200) return app;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 90_000) throw new Error("the App did not serve /healthz within 90 s");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A directory for the App's store, removed at the end of the test file. */
export function stateDirectory(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "plugin-review-state-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A process's resident memory now and at its peak (the kernel's high-water mark, which no sampling
 * misses), in MB, from /proc (Linux).
 */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rssMb: Math.round(kb("VmRSS") / 1024), peakMb: Math.round(kb("VmHWM") / 1024) };
}

/**
 * The App's processes of a test file: before each test, a bridge to the fake GitHub and a state directory;
 * after it, every process started is killed and both are removed.
 */
export function appProcesses(): {
  /** Starts the App (`env` beside the test's own), pointed at the bridge, with the test's state directory. */
  start(env?: Record<string, string>): Promise<AppProcess>;
  /** The fake GitHub as the Enterprise Server the App is pointed at, with exactly `routes`. */
  fakeGitHub(routes: readonly Route[]): FakeGitHub;
} {
  let github: Awaited<ReturnType<typeof bridge>>;
  let state: ReturnType<typeof stateDirectory>;
  const apps: AppProcess[] = [];
  beforeEach(async () => {
    disableNetwork();
    github = await bridge();
    state = stateDirectory();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) if (app.child.exitCode === null) app.child.kill("SIGKILL");
    await github.close();
    cleanup();
    state.remove();
  });
  return {
    start: async (env = {}) => {
      const app = await startApp(github.host, state.dir, env);
      apps.push(app);
      return app;
    },
    fakeGitHub: (routes) => new FakeGitHub(routes, `${github.url}/api/v3`),
  };
}
