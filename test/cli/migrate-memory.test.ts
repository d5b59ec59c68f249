/**
 * `plugin-review migrate` over a fleet holds one plugin's migration at a time, not the fleet's: the names and
 * keys of all are compared before anything is written, but each plugin's files (a Python plugin's code copied
 * into its project) wait on disk until written. Run as a user runs it (the built CLI), with a JavaScript heap
 * smaller than the fleet's files together: it migrates and writes every plugin whole.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT } from "../helpers.js";
import { cli, ensureBuilt } from "./run.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-memory-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("migrates a fleet whose files together exceed the heap: memory is bounded by the largest plugin", () => {
  const descriptor = JSON.parse(readFileSync(join(ROOT, "examples/host-valid/plugin.json"), "utf8")) as {
    name: string;
    metricGroup: string;
    source: { package: string };
  };
  // 10 plugins, each with 3 MB of code: 30 MB of code, copied into 10 projects, against a 40 MB heap.
  const data = `DATA = "${"x".repeat(100)}"\n`.repeat(30_000);
  for (let i = 0; i < 10; i++) {
    const folder = join(dir, "plugins", `p${i}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, "plugin.json"),
      JSON.stringify({
        ...descriptor,
        name: `${descriptor.name}_${i}`,
        metricGroup: `${descriptor.metricGroup}_${i}`,
      }),
    );
    writeFileSync(join(folder, `${descriptor.source.package}.py`), "# the plugin\n");
    writeFileSync(join(folder, "data.py"), data);
  }
  const r = cli(["migrate", "plugins", "--out", "out"], dir, { NODE_OPTIONS: "--max-old-space-size=40" });
  expect(r.stderr).not.toMatch(/out of memory/i);
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/✔ 10 descriptors: /);
  for (let i = 0; i < 10; i++)
    expect(
      readFileSync(join(dir, "out", `tech.python.demo.${i}`, "demo_plugin_ef2/plugin/data.py"), "utf8"),
    ).toBe(data);
}, 180_000);

it("holds nothing of a plugin.json's text once converted: a fleet of large descriptors against a small heap", () => {
  const descriptor = JSON.parse(readFileSync(join(ROOT, "examples/jmx-valid/plugin.json"), "utf8")) as {
    name: string;
    metricGroup: string;
  };
  // 60 descriptors of 1 MB each (their JSON padded with spaces): 60 MB of text, against a 40 MB heap. A metric
  // key the JSON parser takes from the text is a slice of it, and a slice kept for the run kept all of it.
  const padding = " ".repeat(1024 * 1024);
  for (let i = 0; i < 60; i++) {
    const folder = join(dir, "large", `p${i}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, "plugin.json"),
      JSON.stringify(
        { ...descriptor, name: `${descriptor.name}_${i}`, metricGroup: `${descriptor.metricGroup}_${i}` },
        null,
        2,
      ) + padding,
    );
  }
  const r = cli(["migrate", "large", "--out", "large-out"], dir, { NODE_OPTIONS: "--max-old-space-size=40" });
  expect(r.stderr).not.toMatch(/out of memory/i);
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/✔ 60 descriptors: /);
}, 300_000);
