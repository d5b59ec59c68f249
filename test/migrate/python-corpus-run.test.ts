/**
 * Every Python descriptor of the real corpus (../shared/corpus/real, searched to any depth) migrated as the CLI
 * migrates it, then checked as Dynatrace's build reads the project (extension/extension.yaml, its activation
 * schema, the module folder, setup.py's version) and run with Dynatrace's EF2 SDK: `python3 -m <module>` starts,
 * calls query and reports within 10 s. A descriptor whose code is in the corpus (`<package>.py` or
 * `<package>/__init__.py` beside it) runs that code, which may not reach the system it monitors here: it must
 * run its query. The others, whose code the corpus does not hold, run a stand-in this test writes beside a copy
 * of the descriptor, which reports every metric the descriptor declares: each must arrive under its
 * metric-keys.json key, with dimensions extension.yaml declares. Skipped without ../shared or python3.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
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
import { basename, dirname, join } from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, expect, it } from "vitest";
import { detectVariant } from "../../src/core/analyse.js";
import { ROOT, describeUnless, withoutShared } from "../helpers.js";
import { RECORD, cannotRun, migrateInto, pooled, runProject, type RunResult } from "./python-sdk.js";

const CORPUS = join(ROOT, "..", "shared", "corpus", "real");

function descriptors(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return descriptors(path);
      return name.endsWith(".json") ? [path] : [];
    });
}

interface Python {
  path: string;
  doc: { source?: { package?: string; className?: string }; metrics?: unknown[] };
  /** The code is in the corpus beside it. */
  code: boolean;
}

function pythonDescriptors(): Python[] {
  if (withoutShared("corpus/real")) return [];
  return descriptors(CORPUS).flatMap((path) => {
    let doc: Python["doc"] & { type?: unknown };
    try {
      doc = JSON.parse(readFileSync(path, "utf8")) as typeof doc;
    } catch {
      return [];
    }
    if (String(doc.type).toLowerCase() !== "python") return [];
    const pkg = doc.source?.package ?? "";
    const parts = pkg.split(".");
    const code =
      pkg !== "" &&
      (existsSync(join(dirname(path), ...parts.slice(0, -1), `${parts.at(-1)}.py`)) ||
        existsSync(join(dirname(path), ...parts, "__init__.py")));
    return [{ path, doc, code }];
  });
}

/** The stand-in plugin: the descriptor's class, reporting each declared metric once per query. */
function standIn(doc: Python["doc"], remote: boolean): string {
  const metrics = (doc.metrics ?? []).flatMap((m) => {
    const element = m as Record<string, { key?: unknown; dimensions?: unknown; states?: unknown }>;
    return (["timeseries", "statetimeseries"] as const).flatMap((kind) => {
      const spec = element[kind];
      if (!spec || typeof spec.key !== "string") return [];
      const dims = Array.isArray(spec.dimensions) ? spec.dimensions.filter((d) => typeof d === "string") : [];
      const states = Array.isArray(spec.states) ? spec.states.filter((s) => typeof s === "string") : [];
      return [{ key: spec.key, kind, dims, states }];
    });
  });
  return `"""Written by plugin-review's corpus test: the plugin's code is not in the corpus, so this stand-in for its
class reports every metric its plugin.json declares, once per query."""
import json

from ruxit.api.base_plugin import ${remote ? "RemoteBasePlugin" : "BasePlugin"} as Base

METRICS = json.loads(${JSON.stringify(JSON.stringify(metrics))})
CLASS = ${JSON.stringify(doc.source?.className ?? "")}


def query(self, **kwargs):
    settings = dict(self.config)
    target = self.results_builder
    if hasattr(self, "topology_builder"):
        target = self.topology_builder.create_group("corpus", "Corpus group").create_device("device-1", "Device 1")
    for m in METRICS:
        dims = {d: "value" for d in m["dims"] if d != "rx_pid"}
        if m["kind"] == "statetimeseries":
            target.state_metric(m["key"], (m["states"] or ["OK"])[0], dims)
        else:
            target.absolute(m["key"], len(settings), dims)


globals()[CLASS] = type(CLASS, (Base,), {"query": query})
`;
}

interface Project {
  python: Python;
  dir: string;
  module: string;
  cli: { status: number; stdout: string; stderr: string };
  run?: RunResult;
}

const all = pythonDescriptors();
let work: string;
const projects: Project[] = [];

describeUnless(cannotRun ?? withoutShared("corpus/real"))(
  "the real corpus' Python plugins on the EF2 SDK",
  () => {
    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), "ef1-corpus-"));
      for (const [i, python] of all.entries()) {
        const dir = join(work, `${String(i).padStart(3, "0")}-project`);
        let descriptor = python.path;
        if (!python.code) {
          // A folder of its own: a copy of the descriptor and the stand-in, as its package names it.
          const folder = join(work, `${String(i).padStart(3, "0")}-plugin`);
          mkdirSync(folder);
          descriptor = join(folder, "plugin.json");
          copyFileSync(python.path, descriptor);
          const remote = detectVariant(python.doc as Record<string, unknown>) === "remote";
          const pkg = python.doc.source?.package ?? "plugin";
          const parts = pkg.split(".");
          mkdirSync(join(folder, ...parts.slice(0, -1)), { recursive: true });
          writeFileSync(
            join(folder, ...parts.slice(0, -1), `${parts.at(-1)}.py`),
            standIn(python.doc, remote),
          );
        }
        const cli = await migrateInto(descriptor, dir);
        const module = /python3 -m (\S+)`/.exec(cli.stdout)?.[1] ?? "";
        projects.push({ python, dir, module, cli });
      }
      const runnable = projects.filter((p) => p.cli.status === 0 && p.module);
      await pooled(runnable, 4, async (p) => {
        p.run = await runProject(p.dir, p.module, { queries: 1 });
      });
    }, 240_000);

    afterAll(() => {
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it("finds the corpus' Python descriptors", () => {
      expect(all.length).toBeGreaterThan(20);
    });

    it("migrates each into a project, saying how to run it", () => {
      for (const p of projects) {
        expect(p.cli.status, `${basename(p.python.path)}: ${p.cli.stderr}`).toBe(0);
        expect(p.module, p.cli.stdout).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
        expect(p.cli.stdout).not.toContain("to do: the plugin's code is not in the project");
      }
    });

    it("each project passes the SDK build's own checks", () => {
      const r = spawnSync("python3", [join(RECORD, "precheck.py"), ...projects.map((p) => p.dir)], {
        encoding: "utf8",
      });
      expect(r.status, r.stderr).toBe(0);
      const checks = r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { project: string; module: string; problems: string[] });
      expect(checks.length).toBe(projects.length);
      for (const check of checks)
        expect(
          check.problems.filter((p) => !p.startsWith("skipped:")),
          check.project,
        ).toEqual([]);
    });

    it("each starts, runs its query and reports within 10 s", () => {
      for (const p of projects) {
        const name = basename(p.python.path);
        const run = p.run!;
        expect(run.inTime, `${name}: ${run.output}`).toBe(true);
        expect(run.queries, name).toBeGreaterThanOrEqual(1);
        if (p.python.code) continue;
        // The stand-in reports every declared metric: each under its key, with dimensions extension.yaml declares.
        const keys = (
          JSON.parse(readFileSync(join(p.dir, "metric-keys.json"), "utf8")) as {
            metrics: { ef2: { key: string } }[];
          }
        ).metrics.map((m) => m.ef2.key);
        expect([...new Set(run.metrics.map((m) => m.key))].sort(), `${name}: ${run.output}`).toEqual(
          [...new Set(keys)].sort(),
        );
        const declared = new Map(
          (
            (
              parse(readFileSync(join(p.dir, "extension", "extension.yaml"), "utf8")) as {
                metrics?: { key: string; metadata: { dimensions?: { key: string }[] } }[];
              }
            ).metrics ?? []
          ).map((m) => [m.key, new Set((m.metadata.dimensions ?? []).map((d) => d.key))]),
        );
        for (const m of run.metrics)
          for (const d of Object.keys(m.dimensions))
            expect(declared.get(m.key)?.has(d), `${name}: ${m.key} ${d}`).toBe(true);
      }
    });
  },
);
