/**
 * The README's `npm start`, as a newcomer runs it: in a fresh clone (of this checkout's HEAD: commit what is to be
 * tested), without credentials, so that it builds and serves Probot's setup page. The page registers the App with
 * the permissions and events of app.yml, and when the server has stopped the clone holds nothing git would show
 * (`git add -A` commits nothing it left behind). The clone reuses this checkout's node_modules through a link in
 * the folder above it, where Node.js, tsc and npm find it, so that nothing is installed and nothing appears in
 * the clone itself.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse } from "yaml";
import { describeUnless, freePort, ROOT } from "./helpers.js";

/** What the test needs from outside the project, or why it cannot run. */
function missing(): string | undefined {
  for (const [tool, args] of [
    ["git", ["--version"]],
    ["npm", ["--version"]],
  ] as const)
    if (spawnSync(tool, args, { encoding: "utf8" }).status !== 0) return `${tool} is not on PATH`;
  return undefined;
}

/** Guards against a hang only: `npm start` builds first (tsc), which takes minutes on a busy 2-core machine. */
const PATIENCE_MS = 420_000;

let dir = "";
let clone = "";
let server: ChildProcess | undefined;
let output = "";
let setupPage = "";

/** Stops `npm start` and everything it started (its own process group), and waits for it to end. */
async function stop(): Promise<void> {
  const child = server;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((r) => child.once("exit", r));
  process.kill(-child.pid, "SIGTERM");
  const killed = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 30_000);
  await ended;
  clearTimeout(killed);
}

const reason = missing();

describeUnless(reason)("npm start in a fresh clone, without credentials", { timeout: PATIENCE_MS }, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "plugin-review-start-"));
    clone = join(dir, "plugin-review");
    const cloned = spawnSync("git", ["clone", "--quiet", ROOT, clone], { encoding: "utf8" });
    expect(cloned.status, cloned.stderr).toBe(0);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), NO_SMEE_SETUP: "true" };
    // Setup mode: no App credentials, whatever the environment running the tests holds.
    for (const name of ["APP_ID", "PRIVATE_KEY", "PRIVATE_KEY_PATH", "WEBHOOK_SECRET", "WEBHOOK_PROXY_URL"])
      delete env[name];
    server = spawn("npm", ["start"], { cwd: clone, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    server.stdout!.on("data", (b: Buffer) => void (output += b.toString()));
    server.stderr!.on("data", (b: Buffer) => void (output += b.toString()));
    const until = Date.now() + PATIENCE_MS - 30_000;
    while (!setupPage) {
      if (server.exitCode !== null) throw new Error(`npm start exited (${server.exitCode}):\n${output}`);
      if (Date.now() > until) throw new Error(`npm start did not serve its setup page:\n${output}`);
      setupPage = await fetch(`http://127.0.0.1:${port}/probot`)
        .then((r) => (r.ok ? r.text() : ""))
        .catch(() => "");
      if (!setupPage) await new Promise((r) => setTimeout(r, 1000));
    }
  }, PATIENCE_MS);

  afterAll(async () => {
    await stop();
    if (dir) {
      unlinkSync(join(dir, "node_modules"));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("serves the setup page, which registers the App with app.yml's permissions and events", () => {
    const manifest = JSON.parse(/name="manifest"[^>]*value='([^']*)'/.exec(setupPage)?.[1] ?? "null") as {
      default_permissions?: unknown;
      default_events?: unknown;
    } | null;
    const app = parse(readFileSync(join(ROOT, "app.yml"), "utf8")) as Record<string, unknown>;
    expect(manifest?.default_permissions).toEqual(app.default_permissions);
    expect(manifest?.default_events).toEqual(app.default_events);
  });

  it("leaves nothing in the clone that git would show, once stopped", async () => {
    await stop();
    const status = spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], {
      cwd: clone,
      encoding: "utf8",
    });
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toBe("");
  });
});
