/**
 * One pull request's files cannot stall the server (interfaces.md, "Trust: what a pull request cannot do";
 * issue 39, "One pull request stalls the server"), tried on `npm start`'s server in a process of its own
 * against the fake GitHub over real HTTP: 8 extension.yaml files of 4.5 MB beside their plugin.json, in the
 * shapes that took the event loop for minutes (one flow sequence `[1, 1, …]`: 18 s and 1.7 GB each; YAML 1.1
 * merge keys copying a map 99 times: 25 s and 900 MB), under a configuration that raises max_extension_size
 * to its most (5 MB), so that the worst the limits allow is parsed. Meanwhile `/healthz` answers within 2 s,
 * another installation's pull request gets its completed check run within 60 s, and the server's resident
 * memory stays under 800 MB (its peak printed). The files are generated here, never committed.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MIGRATION, text, validHost } from "./helpers.js";
import { BASE_SHA, HEAD_SHA, OWNER, pullRequestPayload, REPO } from "./github/harness.js";
import { timelineOnFailure, within } from "./github/scenarios.js";
import { appProcesses, SECRET } from "./serve-process.js";

const MB = 1024 * 1024;
const SIZE = Math.round(4.5 * MB);
const R = `${OWNER}/${REPO}`;

const { start, fakeGitHub } = appProcesses();

/** The process's peak resident memory so far (Linux: VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}

/** `head` padded to `SIZE` bytes with `unit` repeated, then `tail`. */
function padded(head: string, unit: string, tail = ""): string {
  const room = SIZE - head.length - tail.length;
  return head + unit.repeat(Math.floor(room / unit.length)) + tail;
}

const NAME = "name: custom:jmx.example.pool\nversion: 1.0.0\n";

/** The extension.yaml files, by shape: what each did to the server before its bounds. */
const SHAPES: { shape: string; content: () => string; finding: RegExp }[] = [
  // One flow sequence: the yaml package's syntax tree of 1.5 million items.
  {
    shape: "flow",
    content: () => padded(`${NAME}x: [`, "1, ", "1]\n"),
    finding: /more than 250,000 YAML values/,
  },
  {
    shape: "flow, no spaces",
    content: () => padded(`${NAME}x: [`, "1,", "1]\n"),
    finding: /more than 250,000 YAML values/,
  },
  {
    // The merge keys: refused at the directive.
    shape: "YAML 1.1 merge keys",
    content: () => {
      const merges = Array.from({ length: 99 }, (_, i) => `m${i}:\n  <<: *b\n`).join("");
      return padded(`%YAML 1.1\n---\n${NAME}b: &b\n`, `  key_${"k".repeat(12)}: value\n`, merges);
    },
    finding: /`%YAML 1\.1`/,
  },
  {
    shape: "merge keys in YAML 1.2",
    content: () => {
      const merges = Array.from({ length: 99 }, (_, i) => `m${i}:\n  <<: *b\n`).join("");
      return padded(`${NAME}b: &b\n`, `  k: ${"w".repeat(1000)}\n`, merges);
    },
    finding: /a merge key \(`<<`\)/,
  },
  { shape: "flow, again", content: () => padded(`${NAME}x: [`, "2, ", "2]\n"), finding: /more than 250,000/ },
  {
    shape: "flow of maps",
    content: () => padded(`${NAME}x: [`, "{a: b}, ", "{}]\n"),
    finding: /more than 250,000 YAML values/,
  },
  {
    // Within the node bound (last: its thousands of findings would take GitHub's 1,000 annotations from
    // the refused files before it in the run): 4.5 MB read whole, its metrics compared with the plugin.json's.
    shape: "long keys",
    content: () => {
      const lines: string[] = [];
      let size = MIGRATION.extension.length;
      for (let i = 0; size < SIZE - 300; i++) {
        const line = `            - key: example.pool.${"z".repeat(200)}.${i}\n              value: attribute:N\n`;
        lines.push(line);
        size += line.length;
      }
      return MIGRATION.extension.replace("            - key: example.pool.idle\n", lines.join(""));
    },
    finding: /./,
  },
  {
    shape: "long values",
    content: () => {
      const lines: string[] = [];
      let size = NAME.length + 3;
      for (let i = 0; size < SIZE - 500; i++) {
        const line = `  k${i}: ${"v".repeat(400)}\n`;
        lines.push(line);
        size += line.length;
      }
      return `${NAME}m:\n${lines.join("")}`;
    },
    finding: /./,
  },
];

/**
 * Asks `url` every 100 ms from a child process, until stopped: the slowest answer's time in ms (a request
 * that fails, or answers other than 200, counts as never answered).
 */
function healthProbe(url: string): { stop(): Promise<number> } {
  const script = `
    let slowest = 0, polling = true;
    process.on("message", () => { polling = false; });
    (async () => {
      while (polling) {
        const t = performance.now();
        const ok = await fetch(${JSON.stringify(url)}, { signal: AbortSignal.timeout(60000) })
          .then(async (r) => (await r.text(), r.status === 200), () => false);
        slowest = Math.max(slowest, ok ? performance.now() - t : 1e9);
        await new Promise((r) => setTimeout(r, 100));
      }
      process.send(slowest, () => process.exit(0));
    })();`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const answer = new Promise<number>((resolve) => child.once("message", (m) => resolve(Number(m))));
  return {
    stop: () => {
      child.send("stop");
      return answer;
    },
  };
}

describe("npm start: one pull request's files cannot stall the server", () => {
  it("8 extension.yaml files of 4.5 MB: /healthz within 2 s throughout, another installation's run within 60 s, RSS under 800 MB", async ({
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
      // The annotations past the first 50, added to the completed run 50 at a time.
      "updateCheckRun",
      "createReview",
      "listDeliveries",
    ]);
    // Read through REST, as serve-bounded.test.ts does: the fake's GraphQL would spend the test's time
    // building answers of 36 MB.
    gh.graphqlUnavailable = true;
    gh.file(R, "HEAD", ".github/plugin-review.yml", `max_extension_size: ${5 * MB}\n`);
    for (const [i, { content }] of SHAPES.entries()) {
      const dir = `p${i}`;
      const body = content();
      expect(Buffer.byteLength(body)).toBeGreaterThan(4.4 * MB);
      expect(Buffer.byteLength(body)).toBeLessThan(5 * MB);
      gh.file(R, BASE_SHA, `${dir}/plugin.json`, MIGRATION.plugin);
      gh.file(R, HEAD_SHA, `${dir}/plugin.json`, MIGRATION.plugin);
      gh.file(R, HEAD_SHA, `${dir}/extension.yaml`, body);
      gh.prFiles.push({ filename: `${dir}/extension.yaml`, status: "added" });
    }
    // Another installation's pull request: one valid descriptor.
    const other = { owner: "other-org", repo: "other-plugins", sha: "d".repeat(40), number: 3 };
    const descriptor = text(validHost());
    gh.file(`${other.owner}/${other.repo}`, other.sha, "q/plugin.json", descriptor);
    gh.pullFiles.set(`${other.owner}/${other.repo}#${other.number}`, [
      { filename: "q/plugin.json", status: "added" },
    ]);
    gh.push(other.number, other.sha); // its head is the one opened
    const otherPayload = pullRequestPayload("opened", { headSha: other.sha, number: other.number });
    otherPayload.installation = { id: 78, node_id: "MDIzOkluc3RhbGxhdGlvbjc4" };
    otherPayload.repository.name = other.repo;
    otherPayload.repository.full_name = `${other.owner}/${other.repo}`;
    otherPayload.repository.owner.login = other.owner;
    otherPayload.pull_request.base.repo = structuredClone(otherPayload.repository);
    otherPayload.pull_request.head.repo = structuredClone(otherPayload.repository);
    timelineOnFailure(gh);

    const app = await start();
    // /healthz every 100 ms, from a process of its own (this one is busy being GitHub): the slowest answer.
    const health = healthProbe(`${app.baseUrl}/healthz`);
    expect(await gh.deliver(app.webhookUrl, SECRET, "pull_request", pullRequestPayload("opened"))).toBe(200);
    // Once the heavy files are being read, the other installation's pull request.
    await within(60_000, () => gh.count("GET", /\/git\/blobs\//) > 0);
    const sent = Date.now();
    expect(await gh.deliver(app.webhookUrl, SECRET, "pull_request", otherPayload)).toBe(200);
    const otherDone = await within(60_000, () => gh.runsFor(other.sha).some((r) => r.status === "completed"));
    await within(240_000, () => gh.runsFor(HEAD_SHA).some((r) => r.status === "completed"));
    const slowest = await health.stop();
    const peak = peakRssMb(app.child.pid!);
    const figure =
      `8 extension.yaml files of 4.5 MB: slowest /healthz ${Math.round(slowest)} ms, the other installation's run ` +
      `completed ${(otherDone / 1000).toFixed(1)} s after its delivery, the heavy run ` +
      `${((Date.now() - sent) / 1000).toFixed(1)} s after it, peak RSS ${Math.round(peak)} MB`;
    await annotate(figure);
    process.stderr.write(`${figure}\n`);

    expect(slowest).toBeLessThan(2_000);
    expect(otherDone).toBeLessThan(60_000);
    expect(peak).toBeLessThan(800);
    expect(gh.runsFor(other.sha)).toMatchObject([{ status: "completed", conclusion: "success" }]);
    const [run, ...others] = gh.runsFor(HEAD_SHA);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    // Each refused shape says why, on its own file (those within the bounds are reviewed: their findings may
    // fall past GitHub's 1,000 annotations).
    for (const [i, { shape, finding }] of SHAPES.entries()) {
      const on = run!.annotations.filter((a) => a.path === `p${i}/extension.yaml`);
      if (finding.source !== ".")
        expect(
          on.map((a) => `${a.title}: ${a.message}`),
          shape,
        ).toContainEqual(expect.stringMatching(new RegExp(`^invalid-yaml: .*${finding.source}`)));
    }
    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(0);
    gh.assertClean();
  }, 320_000);
});
