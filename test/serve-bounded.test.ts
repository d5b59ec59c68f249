/**
 * One pull request cannot take the App down for everyone (interfaces.md, "Trust: what a pull request cannot
 * do"), tried on `npm start`'s server in a process of its own against the fake GitHub over real HTTP:
 * - 200 new descriptors of 2 MB each (one blob for all, as git stores identical files, so the push itself
 *   is small): the server stays up, its peak memory stays bounded (measured, and printed), and the run
 *   completes as `failure`, naming what was past the review's ceiling;
 * - a delivery whose review killed the process twice is not reviewed a third time: after the next start
 *   its run is completed as `failure`, and the log names the delivery.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { text, validHost } from "./helpers.js";
import { HEAD_SHA, OWNER, pullRequestPayload, REPO } from "./github/harness.js";
import { openPullRequest, timelineOnFailure, within } from "./github/scenarios.js";
import { appProcesses, SECRET } from "./serve-process.js";

const R = `${OWNER}/${REPO}`;

const { start, fakeGitHub } = appProcesses();

/** The process's peak resident memory so far (Linux: VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}

/** A valid descriptor of about 2 MB: 3,200 metrics, each with an alert (no finding at all). */
function twoMegabytes(): Buffer {
  const doc = validHost() as { metrics: Record<string, unknown>[] } & Record<string, unknown>;
  const alert = (doc.metrics[0]!.alert_settings as Record<string, unknown>[])[0]!;
  for (let i = 0; i < 3200; i++)
    doc.metrics.push({
      timeseries: { key: `metric_${i}`, unit: "Count", dimensions: ["rx_pid"], displayname: `Metric ${i}` },
      alert_settings: [{ ...alert, alert_id: `metric_${i}_high`, event_name: `Metric ${i} is high` }],
    });
  return Buffer.from(text(doc));
}

/**
 * What today's review held was every descriptor at once, texts and all: 200 of these took the server to
 * 1.8 GB. Batches of 40 files and the 50 MB ceiling keep it near what one batch needs; the bound leaves
 * room for a loaded machine's garbage collector, well below what holding them all takes.
 */
const PEAK_RSS_BOUND_MB = 600;

describe("npm start: one pull request cannot take the App down", () => {
  it("200 new descriptors of 2 MB each: the server stays up, its memory bounded, and the run fails naming what it did not review", async ({
    annotate,
  }) => {
    const gh = fakeGitHub([
      "token",
      "graphql",
      "listCheckRuns",
      "files",
      "contents",
      "blob",
      "createCheckRun",
      "createReview",
      "listDeliveries",
    ]);
    // Read through REST (as where GraphQL is unavailable): the contents API, then the blob API for files
    // over 1 MB; the fake's GraphQL would spend the test's time building 40 MB answers of truncated text.
    gh.graphqlUnavailable = true;
    const content = twoMegabytes();
    expect(content.length).toBeGreaterThan(2_000_000);
    for (let i = 0; i < 200; i++) {
      const path = `p${String(i).padStart(3, "0")}/plugin.json`;
      // One blob for all, as git stores it; GitHub sends no diff for files this large.
      gh.file(R, HEAD_SHA, path, content);
      gh.prFiles.push({ filename: path, status: "added" });
    }
    timelineOnFailure(gh);
    const app = await start();
    expect(await gh.deliver(app.webhookUrl, SECRET, "pull_request", pullRequestPayload("opened"))).toBe(200);
    await within(280_000, () => gh.runsFor(HEAD_SHA).some((r) => r.status === "completed"));
    const peak = peakRssMb(app.child.pid!);
    // The figure asked for, passing or not (a passing test's console is silent): on the test's report, and one line.
    const figure = `peak RSS of the server reviewing 200 descriptors of 2 MB: ${Math.round(peak)} MB (bound ${PEAK_RSS_BOUND_MB} MB)`;
    await annotate(figure);
    process.stderr.write(`${figure}\n`);
    expect(app.child.exitCode).toBeNull();
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    // 50 MB hold 25 of them (2,059,439 bytes each); the other 175 are named as not reviewed, and only
    // the first batch of 40 was read.
    const fit = Math.floor((50 * 1024 * 1024) / content.length);
    // Identical descriptors share a name: duplicate-plugin-name on each reviewed one, across its batches.
    expect(run!.output!.title).toBe(
      `${200 - fit} changed descriptors not reviewed · ${fit} errors, 0 warnings, 0 notices in ${fit} descriptors`,
    );
    expect(run!.output!.summary).toContain(`(\`max_total_size\` in \`.github/plugin-review.yml\`)`);
    expect(run!.output!.summary).toContain(`- \`p${String(fit).padStart(3, "0")}/plugin.json\``);
    expect(gh.count("GET", /\/git\/blobs\//)).toBe(40);
    expect(peak).toBeLessThan(PEAK_RSS_BOUND_MB);
    // Still serving: a health check answers, and the review of what was reviewed is posted.
    expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);
    await within(60_000, () => gh.reviews.length === 1);
    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(0);
    gh.assertClean();
  }, 320_000);

  it("a delivery whose review killed the process twice is completed as failure after the next start, not retried", async () => {
    // Its reviews never get past their check run: no annotation batches, no review.
    const gh = fakeGitHub(["token", "graphql", "files", "createCheckRun", "listDeliveries"]);
    openPullRequest(gh);
    // The review's first write is taken and never answered, twice: the review is in flight when each
    // process is killed (as an out-of-memory kill would).
    gh.hang("POST", /\/check-runs$/, 2);
    const first = await start();
    expect(await gh.deliver(first.webhookUrl, SECRET, "pull_request", pullRequestPayload("opened"))).toBe(
      200,
    );
    await within(60_000, () => gh.hung.length === 1);
    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");
    // The next process resumes it from its store, and dies in it too.
    const second = await start();
    await within(120_000, () => gh.hung.length === 2);
    second.child.kill("SIGKILL");
    expect(await second.exited).toBe("SIGKILL");
    const reads = gh.graphqlDocuments.filter((d) => d.query.startsWith("query ReadFiles")).length;
    expect(reads).toBe(2);
    const third = await start();
    await within(120_000, () => gh.runsFor(HEAD_SHA).some((r) => r.status === "completed"));
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run!.output!.title).toBe("plugin-review could not review this commit");
    // Not reviewed a third time: no descriptor read, no review posted.
    expect(gh.graphqlDocuments.filter((d) => d.query.startsWith("query ReadFiles"))).toHaveLength(reads);
    expect(gh.reviews).toEqual([]);
    const said = third.logs.find((l) => /not reviewed again/.test(l.msg));
    expect(said).toMatchObject({ level: 50, delivery: expect.any(String) });
    expect(said!.msg).toContain(`delivery ${said!.delivery as string}`);
    expect(gh.deliveryLog.map((a) => a.guid)).toEqual([said!.delivery]);
    third.child.kill("SIGTERM");
    expect(await third.exited).toBe(0);
    gh.assertClean();
  }, 300_000);
});
