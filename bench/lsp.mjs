#!/usr/bin/env node
// The language server's diagnostics after a one-character change (`npm run bench`; `node bench/lsp.mjs`
// after `npm run build` and `npm run bundle`). On the real corpus's median descriptor (by size; the shipped
// host example when ../shared is absent), the time from sending `didChange` to receiving the
// `publishDiagnostics` of that version, with the debounce set to 0 (excluded), beside the core's review of
// the same text in this process (what `check` runs for that file), in alternating rounds so that the load
// of a shared machine falls on both alike. The server is the built CLI (`plugin-review lsp --stdio`) spoken
// to over stdio, as an editor does. Twice: outside any repository, and in a git repository where the
// change rules compare with HEAD (beside the core's review with that base). Target: within 3x. Also timed in
// the same rounds: the round trip of a request the server answers at once (an unknown method), which is what
// the JSON-RPC transport between two processes costs whatever the server does; the server's own share is the
// rest. And the core's review timed right after each of those round trips: a process that has just been woken
// from waiting reviews with cold caches, as the server does after every change. The server's own clock
// (bench/lsp-clock.mjs, preloaded into it) splits its share: reading the change to writing the diagnostics,
// and the write.
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { resolveConfig } from "../dist/src/core/config.js";
import { analyseDescriptors } from "../dist/src/core/analyse.js";
import { warmUpSchemas } from "../dist/src/core/schema.js";
import { median, ms, ROOT } from "./lib.mjs";

const ROUNDS = Number(process.argv[2] ?? 10);
const PER_ROUND = 30;
const WARM_UP = 20;
const CLOCK = pathToFileURL(join(ROOT, "bench", "lsp-clock.mjs")).href;

function medianDescriptor() {
  const corpus = join(ROOT, "..", "shared", "corpus", "real");
  if (!existsSync(corpus))
    return { name: "examples/host-valid/plugin.json", file: join(ROOT, "examples/host-valid/plugin.json") };
  const files = readdirSync(corpus)
    .filter((f) => f.endsWith(".json"))
    .map((f) => ({ name: f, file: join(corpus, f), size: statSync(join(corpus, f)).size }))
    .sort((a, b) => a.size - b.size);
  return files[(files.length - 1) >> 1];
}

/** One character typed into, then deleted from, the first string value after `"version"` (or the first string). */
function editPoint(text) {
  const from = Math.max(0, text.indexOf('"version"'));
  const colon = text.indexOf(":", from);
  const quote = text.indexOf('"', colon);
  return quote + 1;
}

function positionAt(text, offset) {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length - 1, character: before[before.length - 1].length };
}

async function startServer(cwd, clock) {
  const server = spawn(
    process.execPath,
    ["--import", CLOCK, join(ROOT, "dist-cli", "plugin-review.mjs"), "lsp", "--stdio"],
    { cwd, stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, PLUGIN_REVIEW_BENCH_CLOCK: clock } },
  );
  const connection = createProtocolConnection(
    new StreamMessageReader(server.stdout),
    new StreamMessageWriter(server.stdin),
  );
  const waiting = new Map();
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    const w = waiting.get(p.version);
    if (w) {
      waiting.delete(p.version);
      w(p);
    }
  });
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(cwd).href,
    capabilities: {},
    initializationOptions: { debounceMs: 0 },
  });
  await connection.sendNotification(InitializedNotification.type, {});
  const published = (version) => new Promise((resolve) => waiting.set(version, resolve));
  const stop = async () => {
    await connection.sendRequest(ShutdownRequest.type);
    await connection.sendNotification(ExitNotification.type);
    await new Promise((resolve) => server.on("exit", resolve));
    connection.dispose();
  };
  return { connection, published, stop };
}

/** Medians over the rounds: the server's didChange → publishDiagnostics, and the core's review. */
async function measure(label, dir, text, reviewCore) {
  const path = join(dir, "plugin.json");
  const uri = pathToFileURL(path).href;
  const clock = join(dir, "..", `clock-${label.split(" ")[0]}.json`);
  const { connection, published, stop } = await startServer(dir, clock);
  let version = 1;
  const opened = published(version);
  await connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "json", version, text },
  });
  const findings = (await opened).diagnostics.length;
  const at = positionAt(text, editPoint(text));
  const insert = { range: { start: at, end: at }, text: "x" };
  const remove = { range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: "" };
  const server = [];
  const core = [];
  const trip = [];
  const woken = [];
  const roundTrip = async () => {
    const t = performance.now();
    await connection.sendRequest("plugin-review/none", {}).catch(() => undefined);
    return performance.now() - t;
  };
  let typed = false;
  const change = async () => {
    version++;
    const done = published(version);
    const t = performance.now();
    await connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [typed ? remove : insert],
    });
    await done;
    typed = !typed;
    return performance.now() - t;
  };
  const textWith = text.slice(0, editPoint(text)) + "x" + text.slice(editPoint(text));
  for (let i = 0; i < WARM_UP; i++) await change(); // warm-up: the server's JIT, the base read
  for (let i = 0; i < WARM_UP; i++) reviewCore(i % 2 ? text : textWith);
  for (let r = 0; r < ROUNDS; r++) {
    const s = [];
    for (let i = 0; i < PER_ROUND; i++) s.push(await change());
    const c = [];
    for (let i = 0; i < PER_ROUND; i++) {
      const input = i % 2 ? text : textWith;
      const t = performance.now();
      reviewCore(input);
      c.push(performance.now() - t);
    }
    const n = [];
    for (let i = 0; i < PER_ROUND; i++) n.push(await roundTrip());
    const w = [];
    for (let i = 0; i < PER_ROUND; i++) {
      await roundTrip();
      const t = performance.now();
      reviewCore(i % 2 ? text : textWith);
      w.push(performance.now() - t);
    }
    server.push(median(s));
    core.push(median(c));
    trip.push(median(n));
    woken.push(median(w));
  }
  await stop();
  // The server's own clock, for the measured changes (not the open or the warm-up).
  const { inside, writing } = JSON.parse(readFileSync(clock, "utf8"));
  const im = median(inside.slice(1 + WARM_UP));
  const wr = median(writing.slice(1 + WARM_UP));
  const sm = median(server);
  const cm = median(core);
  const tm = median(trip);
  const wm = median(woken);
  console.log(
    `  ${label} (${findings} findings): didChange → publishDiagnostics ${ms(sm)}, core review ${ms(cm)}: ${(sm / cm).toFixed(1)}x  [target <= 3x]`,
  );
  console.log(
    `    of which the transport (an empty request's round trip) ${ms(tm)}; the server's share ${ms(sm - tm)} = ${((sm - tm) / cm).toFixed(1)}x the core review`,
  );
  console.log(
    `    inside the server, from reading the change to writing its diagnostics: ${ms(im)} = ${(im / cm).toFixed(1)}x the core review; that write (which wakes the editor) ${ms(wr)}`,
  );
  console.log(
    `    the core review right after such a round trip (woken from waiting, as the server's review is): ${ms(wm)} = ${(wm / cm).toFixed(1)}x the core review`,
  );
  return sm / cm;
}

warmUpSchemas();
const config = resolveConfig();
const { name, file } = medianDescriptor();
const text = readFileSync(file, "utf8");
console.log(
  `language server, one character typed (${name}, ${text.length} bytes; debounce 0; medians of ${ROUNDS} rounds of ${PER_ROUND}):`,
);
const tmp = mkdtempSync(join(tmpdir(), "plugin-review-bench-lsp-"));
try {
  const plain = join(tmp, "plain");
  mkdirSync(plain);
  await measure("no repository", plain, text, (t) =>
    analyseDescriptors([{ path: "plugin.json", content: t }], config),
  );

  const repo = join(tmp, "repo");
  mkdirSync(repo);
  const git = (...args) =>
    execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", ...args], {
      cwd: repo,
      stdio: "ignore",
    });
  git("init", "-q");
  writeFileSync(join(repo, "plugin.json"), text);
  git("add", "plugin.json");
  git("commit", "-q", "-m", "base");
  await measure("git repository (change rules against HEAD)", repo, text, (t) =>
    analyseDescriptors(
      [{ path: "plugin.json", content: t, base: { path: "plugin.json", content: text }, isNew: false }],
      config,
    ),
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
