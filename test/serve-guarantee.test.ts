/**
 * The check run guarantee on `npm start` (src/serve.ts on Probot's own server, in process, with the App's
 * production Octokit: throttling and retries as deployed), against the validated fake GitHub misbehaving
 * (test/github/scenarios.ts): each delivery ends with exactly one completed run within 3 minutes, no
 * annotation and no comment twice. Time runs 5 times as fast (an injected clock).
 */
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { PluginReviewOctokit } from "../src/github/api/octokit/app-octokit.js";
import { scaledClock, type Clock } from "../src/github/api/clock.js";
import { AnswersFirst } from "../src/github/delivery/concurrency.js";
import { completesRun, FakeGitHub } from "./github/fake-github.js";
import { cleanup, disableNetwork } from "./github/github-mock.js";
import { HEAD_SHA, pullRequestPayload } from "./github/harness.js";
import {
  completed,
  expectExactlyOnce,
  openPullRequest,
  SCALE,
  SCENARIO_ROUTES,
  SCENARIOS,
  within,
  WITHIN_MS,
} from "./github/scenarios.js";
import { postDelivery, startServe } from "./serve-harness.js";

beforeEach(() => disableNetwork());
afterEach(() => cleanup());

/**
 * `npm start`'s server with the App's Octokit as deployed; its log lines are kept, and printed with their
 * times (each request GitHub answered among them) when the test fails, so that a failure says what waited.
 */
async function start(clock: Clock) {
  const logs: { msg: string; time: number }[] = [];
  const log = pino({ level: "debug" }, { write: (s: string) => void logs.push(JSON.parse(s)) });
  const started = Date.now();
  onTestFailed(() => {
    console.error(logs.map((l) => `+${l.time - started} ms ${l.msg}`).join("\n"));
  });
  const schedulerLog = { warn: (m: string) => log.warn(m), error: (o: object, m: string) => log.error(o, m) };
  const serve = await startServe({
    Octokit: PluginReviewOctokit,
    log,
    schedulerLog,
    answers: new AnswersFirst(),
    clock,
  });
  return { ...serve, logs };
}

async function post(url: string, name: string, payload: unknown): Promise<number> {
  return (await postDelivery(url, name, payload)).status;
}

/** Each scenario gets an installation of its own: its token, its write queue. */
let installation = 300;

describe("npm start: a check run on every commit, whatever GitHub does", () => {
  it.each(SCENARIOS.map((s) => [s.name, s] as const))(
    "%s: exactly one completed run within 3 minutes, nothing sent twice",
    async (_, scenario) => {
      const gh = new FakeGitHub([...SCENARIO_ROUTES, ...scenario.routes]);
      openPullRequest(gh);
      scenario.fault(gh);
      const { server, scheduler, url } = await start(scaledClock(SCALE));
      try {
        const payload = pullRequestPayload("opened");
        payload.installation.id = installation++;
        expect(await post(url, "pull_request", payload)).toBe(200);
        await within(WITHIN_MS, () => completed(gh));
        // The review follows (its writes are spaced by the throttling plugin, in real seconds).
        await expect(scheduler.drain(WITHIN_MS)).resolves.toBe(true);
        scenario.met(gh);
        expectExactlyOnce(gh);
        gh.assertClean();
      } finally {
        await server.stop();
      }
    },
    90_000,
  );

  it("GitHub failing the completing write past the review's deadline: the run is created in progress, and the server's own retry completes it", async () => {
    // On this clock the deadline passes after 4.8 s, the first later retry comes 2.4 s after that.
    const gh = new FakeGitHub([...SCENARIO_ROUTES, "listCheckRuns"]);
    openPullRequest(gh);
    gh.failFor("POST", /\/check-runs$/, 150_000 * 0.04, { when: completesRun });
    gh.failFor("PATCH", /\/check-runs\/\d+$/, 150_000 * 0.04, { when: completesRun });
    const { server, scheduler, logs, url } = await start(scaledClock(0.04));
    try {
      const payload = pullRequestPayload("opened");
      payload.installation.id = installation++;
      expect(await post(url, "pull_request", payload)).toBe(200);
      // The run exists, in progress, while GitHub refuses to complete it.
      await within(180_000 * 0.04, () => gh.runsFor(HEAD_SHA).some((r) => r.status === "in_progress"));
      await within(180_000 * 0.04, () => logs.some((l) => /trying again in 2\.4 s/.test(l.msg)));
      expect(gh.runsFor(HEAD_SHA)).toEqual([expect.objectContaining({ status: "in_progress" })]);
      await within(600_000 * 0.04, () => completed(gh) && gh.reviews.length > 0);
      await expect(scheduler.drain(1000)).resolves.toBe(true);
      expectExactlyOnce(gh);
      gh.assertClean();
    } finally {
      await server.stop();
    }
  });
});
