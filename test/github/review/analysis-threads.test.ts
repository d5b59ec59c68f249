/**
 * The reviews' analysis threads (src/github/review/analysis-threads.ts), with the thread as built
 * (dist/src/github/review/analysis-thread.js: `npm test` builds first): the findings are the core's, a
 * configuration's compiled name pattern crosses, reviews sharing a thread take turns a descriptor each, and a
 * thread past its time or its heap is stopped: the review whose file it was fails naming it, the others it
 * held fail as a passing failure, and a fresh thread serves the next review.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { AnalysisSession, type DescriptorInput } from "../../../src/core/analyse.js";
import { resolveConfig } from "../../../src/core/config.js";
import { isTransient, TransientReviewError } from "../../../src/github/api/errors.js";
import { AnalysisError, AnalysisThreads } from "../../../src/github/review/analysis-threads.js";
import { MIGRATION, ROOT, text, validHost, validRemote } from "../../helpers.js";

const entry = pathToFileURL(join(ROOT, "dist/src/github/review/analysis-thread.js"));

let threads: AnalysisThreads[] = [];
afterEach(async () => {
  await Promise.all(threads.map((t) => t.stop()));
  threads = [];
});
function pool(opts: Partial<ConstructorParameters<typeof AnalysisThreads>[0]> = {}): AnalysisThreads {
  const t = new AnalysisThreads({ entry, threads: 1, ...opts });
  threads.push(t);
  return t;
}

const inputs = (): DescriptorInput[] => [
  { path: "a/plugin.json", content: Buffer.from(text({ ...validHost(), version: "x" })), isNew: true },
  {
    path: "b/plugin.json",
    content: text(validHost()),
    base: { path: "b/plugin.json", content: text(validRemote()) },
  },
  {
    path: "c/extension.yaml",
    content: MIGRATION.extension.replace("            - key: example.pool.idle\n", ""),
    replaces: { path: "c/plugin.json", content: MIGRATION.plugin, status: "deleted" },
  },
];

/** A flow sequence of `n` items: work enough to outlast a very short timeout. */
const heavy = (n: number): DescriptorInput => ({
  path: "h/extension.yaml",
  content: `name: custom:h\nversion: 1.0.0\nx: [${"1, ".repeat(n)}1]\n`,
});

describe("analysis threads", () => {
  it("give the findings the core gives in this thread, a name pattern and the rules across descriptors included", async () => {
    const config = resolveConfig({
      repo: {
        policy: { name_pattern: "^custom\\.python\\.acme_", extension_name_pattern: "^custom:acme\\." },
      },
    });
    const here = new AnalysisSession(config);
    here.add(inputs());
    const run = pool().start(config);
    await run.add(inputs());
    const there = await run.finish();
    run.close();
    expect(there).toEqual(here.finish());
    // The extension's name pattern crosses too: c/extension.yaml is judged by it.
    const extension = there.find((f) => f.path === "c/extension.yaml");
    expect(extension?.findings.map((x) => x.messageId)).toContain("extension");
    expect(there.flatMap((f) => f.findings.map((x) => x.ruleId))).toEqual(
      expect.arrayContaining([
        "policy-name",
        "duplicate-plugin-name",
        "migration-metric-missing",
        "version-format",
      ]),
    );
  });

  it("take turns: a review's descriptor waits for one of another review's, not for all of them", async () => {
    const threadsOfOne = pool();
    const config = resolveConfig();
    const busy = threadsOfOne.start(config);
    const order: string[] = [];
    const many = (async () => {
      for (let i = 0; i < 4; i++) {
        await busy.add([{ ...heavy(20_000), path: `h${i}/extension.yaml` }]);
        order.push(`heavy ${i}`);
      }
    })();
    await new Promise((r) => setTimeout(r, 10));
    const other = threadsOfOne.start(config);
    await other.add([inputs()[0]!]);
    order.push("other");
    await many;
    expect(order.indexOf("other")).toBeLessThanOrEqual(1);
    for (const r of [busy, other]) r.close();
  });

  it("stop a thread past a descriptor's time: that review fails naming the file, another it held may be tried again, a fresh thread goes on", async () => {
    // 60 s on a clock 100,000 times as fast (0.6 ms) while the culprit runs; real time after.
    let factor = 0.00001;
    const threadsOfOne = pool({ clock: { ms: (d) => d * factor } });
    const config = resolveConfig();
    const culprit = threadsOfOne.start(config);
    const bystander = threadsOfOne.start(config);
    await expect(culprit.add([heavy(100_000)])).rejects.toThrow(
      new AnalysisError("the analysis of `h/extension.yaml` took longer than 60 s and was stopped"),
    );
    const lost = await bystander.finish().catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(TransientReviewError);
    expect(isTransient(lost)).toBe(true);
    expect(isTransient(new AnalysisError("x"))).toBe(false);
    // The same pool starts a fresh thread for the next review.
    factor = 1;
    const next = threadsOfOne.start(config);
    await next.add([inputs()[0]!]);
    expect((await next.finish())[0]!.findings.length).toBeGreaterThan(0);
  });

  it("stop a thread past its heap: the review fails naming the file", async () => {
    const run = pool({ heapMb: 16 }).start(resolveConfig({ repo: { max_extension_size: 5 * 1024 * 1024 } }));
    await expect(run.add([heavy(120_000)])).rejects.toThrow(
      /^the analysis of `h\/extension\.yaml` needed more than 16 MB and was stopped$/,
    );
  });
});
