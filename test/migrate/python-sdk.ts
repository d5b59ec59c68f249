/**
 * What the tests of migrated Python projects share: a project written as the CLI writes it (src/cli/migrate.ts,
 * with the plugin's folder read), run with Dynatrace's EF2 Python SDK (`python3 -m <module>` with
 * ../shared/runtimes/dt-extensions-python-sdk on PYTHONPATH, as its README says), its `send_metric:` lines,
 * events and statuses read back; the recording fake of the EF1 API (test/fixtures/ef1-record) run over the same
 * plugin, and what the EF1 agent would have sent from those calls, under the key map's keys.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runMigrate } from "../../src/cli/migrate.js";
import { MORE_THAN_NPM_CI, ROOT, withoutShared } from "../helpers.js";

export const SDK = join(ROOT, "..", "shared", "runtimes", "dt-extensions-python-sdk");
export const RECORD = join(ROOT, "test", "fixtures", "ef1-record");

function python310(): boolean {
  const r = spawnSync("python3", ["-c", "import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)"], {
    stdio: "ignore",
  });
  return r.status === 0;
}

/** Why migrated projects cannot be run here (no SDK beside the clone, no Python 3.10+), or undefined. */
export const cannotRun: string | undefined =
  withoutShared("runtimes/dt-extensions-python-sdk") ??
  (python310()
    ? undefined
    : `python3 (3.10 or later), which runs the EF2 SDK, is absent (${MORE_THAN_NPM_CI})`);

/** `plugin-review migrate <plugin.json> --out <out>` as the CLI runs it (the folder beside plugin.json read). */
export async function migrateInto(
  pluginJson: string,
  out: string,
): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await runMigrate(
    { files: [pluginJson], out, format: "text" },
    { cwd: ROOT, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) },
  );
  return { status, stdout, stderr };
}

export type Dimensions = Record<string, string>;

export interface SentMetric {
  key: string;
  dimensions: Dimensions;
  type: "gauge" | "count";
  value: number;
  /** The metric's timestamp (ms): one per query run. */
  timestamp: number;
}

export interface SentEvent {
  type: string;
  title: string;
}

export interface RunResult {
  metrics: SentMetric[];
  events: SentEvent[];
  /** Each `send_status` the SDK logged: status and message. */
  statuses: { status: string; message: string }[];
  /** How many EF1 queries the layer logged as run. */
  queries: number;
  exitCode: number | null;
  output: string;
  /** The process did what was asked (queries, or exited) before its deadline. */
  inTime: boolean;
}

/** The dimensions of a MINT line: `k="v"` pairs, `\"` and `\\` escaped. */
function parseDimensions(text: string): Dimensions {
  const out: Dimensions = {};
  const re = /([^,=]+)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) out[m[1]!] = m[2]!.replace(/\\(.)/g, "$1");
  return out;
}

/** A `send_metric:` line of the SDK's debug client. */
export function parseMetricLine(line: string): SentMetric | undefined {
  const m = /send_metric: (.*) (gauge,|count,delta=)(\S+) (\d+)$/.exec(line);
  if (!m) return undefined;
  const head = m[1]!;
  const comma = head.indexOf(",");
  return {
    key: comma < 0 ? head : head.slice(0, comma),
    dimensions: comma < 0 ? {} : parseDimensions(head.slice(comma + 1)),
    type: m[2] === "gauge," ? "gauge" : "count",
    value: Number(m[3]),
    timestamp: Number(m[4]),
  };
}

export interface RunOptions {
  /** Queries to wait for (more than 1: EF1COMPAT_QUERY_INTERVAL=1, so that they come a second apart). */
  queries: number;
  /** Stop when the process exits by itself (a configuration it cannot use) instead. */
  exits?: boolean;
  /** The deadline for the first query (the issue's 10 s), then the process is stopped. */
  deadlineMs?: number;
  /** Stop (SIGINT, as the EEC stops an extension) as soon as the output matches, instead of after the queries. */
  stopWhen?: RegExp;
  /** Stop again (a second SIGINT: the user's Ctrl-C pressed twice) this many ms after the first. */
  stopAgainAfterMs?: number;
}

/** `python3 -m <module>` in the project, stopped with SIGINT (the SDK flushes its metrics) after the queries. */
export function runProject(dir: string, module: string, options: RunOptions): Promise<RunResult> {
  const child = spawn("python3", ["-m", module], {
    cwd: dir,
    env: {
      ...process.env,
      PYTHONPATH: `${SDK}:.`,
      PYTHONUNBUFFERED: "1",
      PYTHONDONTWRITEBYTECODE: "1",
      ...(options.queries > 1 ? { EF1COMPAT_QUERY_INTERVAL: "1" } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let queries = 0;
  let inTime = false;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    child.kill("SIGINT");
    if (options.stopAgainAfterMs !== undefined)
      setTimeout(() => child.kill("SIGINT"), options.stopAgainAfterMs).unref();
    setTimeout(() => child.kill("SIGKILL"), 5000).unref();
  };
  // The issue's bound: started, the first query run and reported within 10 s; then each query a second apart.
  let deadline = setTimeout(stop, options.deadlineMs ?? 10_000);
  const onData = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    const before = queries;
    queries = (output.match(/ EF1 query \d+ of /g) ?? []).length;
    if (before === 0 && queries > 0 && options.queries > 1) {
      clearTimeout(deadline);
      deadline = setTimeout(stop, options.queries * 3000 + 5000);
    }
    if (options.stopWhen?.test(output) && !stopping) {
      inTime = true;
      stop();
    }
    if (!options.exits && queries >= options.queries && !stopping) {
      inTime = true;
      // The query's metrics are added after its log line's turn: give the SDK a moment before the flush.
      setTimeout(stop, 150);
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  return new Promise((resolve) => {
    child.on("close", (exitCode) => {
      clearTimeout(deadline);
      if (options.exits && !stopping) inTime = true;
      const lines = output.split("\n");
      resolve({
        metrics: lines.map(parseMetricLine).filter((m): m is SentMetric => m !== undefined),
        events: lines.flatMap((l) => {
          const m =
            /Sending DT Event: .*'eventType': (?:<DtEventType\.\w+: )?'(\w+)'>?, 'title': '([^']*)'/.exec(l);
          return m ? [{ type: m[1]!, title: m[2]! }] : [];
        }),
        statuses: lines.flatMap((l) => {
          const m = /send_status: '(.*)'$/.exec(l);
          return m ? [JSON.parse(m[1]!) as { status: string; message: string }] : [];
        }),
        queries,
        exitCode,
        output,
        inTime,
      });
    });
  });
}

/**
 * The seconds between each query and the one before of a plugin object, as the layer measured and logged them
 * (`EF1 query 2 of <label>: …; 1.000412 s after query 1`; a host plugin's label goes on with ` on <instance>`), by
 * query number: what its per_second divides by.
 */
export function queryIntervals(output: string, label: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const m of output.matchAll(/ EF1 query (\d+) of (.*?): .*; (\d+\.\d+) s after query \d+$/gm))
    if (m[2] === label || m[2]!.startsWith(`${label} on `)) out.set(Number(m[1]), Number(m[3]));
  return out;
}

/** Runs `f` over `items`, at most `limit` at a time (Python processes: two cores are shared). */
export async function pooled<T, R>(
  items: readonly T[],
  limit: number,
  f: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** One EF1 call of a plugin, as the recording fake saw it. */
export interface Ef1Call {
  call: string;
  key?: string;
  value?: unknown;
  dimensions?: Dimensions;
  group?: { id: unknown; name: unknown } | null;
  device?: { id: unknown; name: unknown; endpoint?: string } | null;
  entity_id?: unknown;
  title?: string | null;
  description?: string | null;
}

export type Recorded = { initialize: string } | { calls: Ef1Call[]; error?: string };

/** The recording fake run over a plugin: initialize, then `runs` queries. */
export function record(
  folder: string,
  pkg: string,
  className: string,
  config: Record<string, unknown>,
  runs: number,
  env: Record<string, string> = {},
): Promise<Recorded[]> {
  const child = spawn(
    "python3",
    [join(RECORD, "record.py"), folder, pkg, className, JSON.stringify(config), String(runs)],
    { env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  return new Promise((resolve, reject) =>
    child.on("close", (status) =>
      status === 0
        ? resolve(JSON.parse(stdout) as Recorded[])
        : reject(new Error(`record.py failed: ${stderr}`)),
    ),
  );
}

interface KeyMapEntry {
  ef1: { key: string; dimensions: string[]; kind: string };
  ef2: { key: string; dimensions: string[]; type?: string };
}

/** An EF1 dimension's EF2 key as the key map pairs them (in order), for a metric of the map. */
function pairDimensions(entry: KeyMapEntry): Record<string, string> {
  const keys = entry.ef2.dimensions.filter(
    (d, i, all) => !(entry.ef1.kind === "statetimeseries" && d === "state" && i === all.length - 1),
  );
  const out: Record<string, string> = {};
  if (keys.length === entry.ef1.dimensions.length)
    entry.ef1.dimensions.forEach((d, i) => (out[d] = keys[i]!));
  return out;
}

export interface Expected {
  key: string;
  dimensions: Dimensions;
  type: "gauge" | "count";
  value: number;
  /** per_second: the increase, to be divided by the seconds between the runs (queryIntervals). */
  perSecond?: boolean;
}

const ESCAPE_LIMIT = 250;

/**
 * What the EF1 agent would send from the recorded calls of each run, under the key map's keys: absolute as it
 * is; relative and per_second as the increase over the same series' previous value (nothing the first time or
 * after a decrease); a state as 1 with its state; a group's and device's metrics with their dimensions. A run
 * that raised sends nothing. Undeclared keys are not sent (the agent dropped them).
 */
export function expectedFromCalls(runs: Recorded[], keyMapText: string): Expected[][] {
  const map = (JSON.parse(keyMapText) as { metrics: KeyMapEntry[] }).metrics;
  const previous = new Map<string, number>();
  return runs.map((run) => {
    if ("initialize" in run || run.error) return [];
    const out: Expected[] = [];
    for (const c of run.calls) {
      if (!["absolute", "relative", "per_second", "state_metric"].includes(c.call)) continue;
      const state = c.call === "state_metric";
      const entry =
        map.find((m) => m.ef1.key === c.key && (m.ef1.kind === "statetimeseries") === state) ??
        map.find((m) => m.ef1.key === c.key);
      if (!entry) continue;
      const pairs = pairDimensions(entry);
      const dims: Dimensions = {};
      for (const [k, v] of Object.entries(c.dimensions ?? {}))
        dims[pairs[k] ?? k.toLowerCase()] = v.slice(0, ESCAPE_LIMIT);
      if (c.entity_id !== undefined && c.entity_id !== null)
        dims["dt.entity.process_group_instance"] = `PROCESS_GROUP_INSTANCE-${BigInt(c.entity_id as string)
          .toString(16)
          .toUpperCase()
          .padStart(16, "0")}`;
      if (c.group) Object.assign(dims, { group: String(c.group.id), "group.name": String(c.group.name) });
      if (c.device) {
        Object.assign(dims, { device: String(c.device.id), "device.name": String(c.device.name) });
        if (c.device.endpoint) dims["device.address"] = c.device.endpoint;
      }
      if (state) {
        out.push({
          key: entry.ef2.key,
          dimensions: { ...dims, state: String(c.value) },
          type: "gauge",
          value: 1,
        });
        continue;
      }
      const value = Number(c.value);
      if (c.call === "absolute") {
        out.push({ key: entry.ef2.key, dimensions: dims, type: "gauge", value });
        continue;
      }
      const series = JSON.stringify([c.call, entry.ef2.key, Object.entries(dims).sort()]);
      const before = previous.get(series);
      previous.set(series, value);
      if (before === undefined || value < before) continue;
      out.push({
        key: entry.ef2.key,
        dimensions: dims,
        type: c.call === "relative" ? "count" : "gauge",
        value: value - before,
        ...(c.call === "per_second" ? { perSecond: true } : {}),
      });
    }
    return out;
  });
}

/** A sent metric's identity: key, sorted dimensions, type. */
export function identity(m: { key: string; dimensions: Dimensions; type: string }): string {
  return `${m.key} ${JSON.stringify(Object.entries(m.dimensions).sort())} ${m.type}`;
}

/** The SDK's metrics of each query run, in order (each run's metrics share its timestamp). */
export function byRun(metrics: SentMetric[]): SentMetric[][] {
  const stamps = [...new Set(metrics.map((m) => m.timestamp))].sort((a, b) => a - b);
  return stamps.map((t) => metrics.filter((m) => m.timestamp === t));
}

export function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

export { existsSync };
