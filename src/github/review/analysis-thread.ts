/**
 * An analysis thread (node:worker_threads; analysis-threads.ts starts it): the core's AnalysisSession of each
 * review given to this thread, fed one descriptor at a time, finished when asked. One message at a time,
 * answered in order; the sessions keep only findings (core/analyse.ts), so a thread's memory is one
 * descriptor's analysis, bounded by the core's limits.
 */
import { parentPort } from "node:worker_threads";
import { AnalysisSession } from "../../core/analyse.js";
import { fromThread, type FromThread, type ToThread } from "./analysis-protocol.js";

const sessions = new Map<number, AnalysisSession>();

function session(run: number, message: { config?: Parameters<typeof fromThread>[0] }): AnalysisSession {
  let s = sessions.get(run);
  if (!s) {
    if (!message.config) throw new Error(`no configuration for run ${run}`);
    sessions.set(run, (s = new AnalysisSession(fromThread(message.config))));
  }
  return s;
}

function handle(message: ToThread): FromThread | undefined {
  if (message.kind === "close") {
    sessions.delete(message.run);
    return undefined;
  }
  if (message.kind === "add") {
    session(message.run, message).add([message.input]);
    return { ok: true };
  }
  const findings = session(message.run, message).finish();
  sessions.delete(message.run);
  return { ok: true, findings };
}

parentPort?.on("message", (message: ToThread) => {
  let answer: FromThread | undefined;
  try {
    answer = handle(message);
  } catch (e) {
    // The core does not throw (a rule that does is a finding); anything else is said, not a dead thread.
    answer = { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  if (answer) parentPort?.postMessage(answer);
});
