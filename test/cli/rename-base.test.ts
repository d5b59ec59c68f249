/**
 * `check --base-ref` in a real git repository: a renamed file's base is its old path only when the base's
 * review read that path (core/base-path.ts). A file the configuration's `paths` never reached (a fixture),
 * moved into a descriptor path and edited, is new: every finding new, exit 1. A rename between descriptor
 * paths keeps its base, so its old findings stay existing.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { text, validHost } from "../helpers.js";
import { cli, ensureBuilt } from "./run.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let dir: string;
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "pipe" }).toString();

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** A descriptor with three metrics whose unit does not exist (three `invalid-value` errors). */
function bad(name: string): Json {
  const d: Json = validHost();
  d.name = name;
  for (let i = 0; i < 3; i++)
    d.metrics.push({ timeseries: { key: `bad_metric${i}`, unit: "Secs", displayname: `Bad ${i}` } });
  return d;
}

/** A repository whose main branch holds `from` (a descriptor with three errors); the branch moves it to `to`, edited. */
function repository(name: string, from: string, to: string, edit: Json): string {
  const repo = join(dir, name);
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  git(repo, "config", "user.email", "t@example.com");
  git(repo, "config", "user.name", "t");
  git(repo, "config", "commit.gpgsign", "false");
  write(join(repo, from), text(bad("custom.python.fixture")));
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "base");
  git(repo, "checkout", "-q", "-b", "feature");
  mkdirSync(dirname(join(repo, to)), { recursive: true });
  git(repo, "mv", from, to);
  write(join(repo, to), text({ ...(JSON.parse(readFileSync(join(repo, to), "utf8")) as Json), ...edit }));
  git(repo, "commit", "-q", "-am", "move");
  // git sees a rename (the edit is small), which is what the base would otherwise be taken from.
  expect(git(repo, "diff", "--name-status", "-M", "main", "HEAD").trim()).toMatch(/^R\d+\t/);
  return repo;
}

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-rename-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("plugin-review check --base-ref: a renamed file's base is only what the base reviewed", () => {
  it("a fixture outside `paths` renamed into plugins/new/plugin.json: every finding new, exit 1", () => {
    const repo = repository("fixture", "fixtures/bad.json", "plugins/new/plugin.json", {
      name: "custom.python.new",
    });
    const r = cli(["check", "--base-ref", "main", "--format", "json"], repo);
    expect(r.status).toBe(1);
    const findings = JSON.parse(r.stdout) as Json[];
    expect(findings.map((f) => [f.file, f.ruleId, f.baseline])).toEqual(
      Array.from({ length: 3 }, () => ["plugins/new/plugin.json", "invalid-value", "new"]),
    );
    expect(r.stderr).toBe(
      "plugin-review: 'plugins/new/plugin.json' is reviewed as a new file: it was renamed from 'fixtures/bad.json', which the configuration's `paths` do not review, so nothing of it was reviewed before and every finding is new.\n",
    );
    const textRun = cli(["check", "--base-ref", "main"], repo);
    expect(textRun.status).toBe(1);
    expect(textRun.stdout).toMatch(/^3 new, 0 existing$/m);
  });

  it("a rename between descriptor paths keeps the old path as its base: its old findings are existing", () => {
    const repo = repository("moved", "plugins/old/plugin.json", "plugins/new/plugin.json", {
      version: "1.2.1",
    });
    const r = cli(["check", "--base-ref", "main", "--format", "json"], repo);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as Json[]).map((f) => f.baseline)).toEqual([
      "existing",
      "existing",
      "existing",
    ]);
  });

  it("the configuration decides what the base reviewed: `paths` that name the fixtures keep its base", () => {
    const repo = repository("configured", "fixtures/bad.json", "plugins/new/plugin.json", {
      version: "1.2.1",
    });
    write(join(repo, ".github", "plugin-review.yml"), 'paths: ["**/plugin.json", "fixtures/*.json"]\n');
    const r = cli(["check", "--base-ref", "main", "--format", "json"], repo);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as Json[]).every((f) => f.baseline === "existing")).toBe(true);
  });

  it("what the configuration ignores at the old path was never seen there: moved out of it, its findings are new", () => {
    for (const ignore of [
      '  - paths: ["legacy/**"]\n',
      '  - paths: ["legacy/**"]\n    rules: [invalid-value]\n',
    ]) {
      const repo = repository(`ignored${ignore.length}`, "legacy/plugin.json", "plugins/new/plugin.json", {
        version: "1.2.1",
      });
      write(join(repo, ".github", "plugin-review.yml"), `ignore:\n${ignore}`);
      const r = cli(["check", "--base-ref", "main", "--format", "json"], repo);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(1);
      expect((JSON.parse(r.stdout) as Json[]).map((f) => [f.ruleId, f.baseline])).toEqual(
        Array.from({ length: 3 }, () => ["invalid-value", "new"]),
      );
    }
  });
});

/** The shipped Python extension, with an alert file its extension.yaml lists (`alert`: what the file holds). */
function pythonExtension(root: string, alert: string): void {
  const example = (path: string) => readFileSync(join("examples/extension-python", path), "utf8");
  write(
    join(root, "extension/extension.yaml"),
    `${example("extension/extension.yaml")}alerts:\n  - path: alerts/depth.json\n`,
  );
  write(join(root, "extension/activationSchema.json"), example("extension/activationSchema.json"));
  write(join(root, "extension/alerts/depth.json"), alert);
  write(join(root, "example_queue/__main__.py"), example("example_queue/__main__.py"));
}

describe("plugin-review check --base-ref: a renamed extension's base files are at its old place", () => {
  const EVENT = '{ "summary": "Queue depth", "queryDefinition": { "metricKey": "example.queue.depth" } }\n';
  // Each: what the branch moves of the project `queues/` (extension.yaml always, its version raised), where to,
  // what it holds at the base, and the findings of the review with their states.
  it.each<[string, { moves: string[]; to: string; alert?: string; expected: [string, string][] }]>([
    [
      "extension.yaml moved without its module: the module missing is new (the base had it)",
      {
        moves: ["extension/extension.yaml", "extension/activationSchema.json"],
        to: "moved/",
        expected: [["python-module-missing", "new"]],
      },
    ],
    [
      "out of its `extension/` folder, without its module: new (the base held the module beside that folder)",
      {
        moves: ["extension/extension.yaml", "extension/activationSchema.json"],
        to: "flat/",
        expected: [["python-module-missing", "new"]],
      },
    ],
    ["the whole project moved: nothing to say", { moves: ["."], to: "moved/", expected: [] }],
    [
      "the whole project moved with an alert file broken at the base already: existing",
      { moves: ["."], to: "moved/", alert: "{ not json", expected: [["asset-missing", "existing"]] },
    ],
  ])("%s", (name, { moves, to, alert, expected }) => {
    const repo = join(dir, `extension-${expected.length}-${to.length}-${moves.length}-${alert ? 1 : 0}`);
    mkdirSync(repo);
    git(repo, "init", "-q", "-b", "main");
    git(repo, "config", "user.email", "t@example.com");
    git(repo, "config", "user.name", "t");
    git(repo, "config", "commit.gpgsign", "false");
    pythonExtension(join(repo, "queues"), alert ?? EVENT);
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "base");
    for (const m of moves) {
      // `extension/extension.yaml` to `flat/extension.yaml` when `to` is `flat/`: the SDK's folder dropped.
      const target = m === "." ? to : to === "flat/" ? `${to}${m.replace(/^extension\//, "")}` : `${to}${m}`;
      mkdirSync(dirname(join(repo, target)), { recursive: true });
      git(repo, "mv", m === "." ? "queues" : `queues/${m}`, target.replace(/\/$/, ""));
    }
    const yaml = join(repo, to === "flat/" ? "flat/extension.yaml" : `${to}extension/extension.yaml`);
    write(yaml, readFileSync(yaml, "utf8").replace('version: "1.0.0"', 'version: "1.0.1"'));
    expect(git(repo, "diff", "--name-status", "-M", "main", "--").trim()).toMatch(/^R\d+\t/);
    const r = cli(["check", "--base-ref", "main", "--format", "json"], repo);
    expect(r.stderr).toBe("");
    expect((JSON.parse(r.stdout) as Json[]).map((f) => [f.ruleId, f.baseline])).toEqual(expected);
    expect(r.status).toBe(expected.some(([, state]) => state === "new") ? 1 : 0);
  });
});
