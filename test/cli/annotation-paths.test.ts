/**
 * `--format github` and `--format sarif` run from a folder of a repository, as a workflow step with a
 * `working-directory` or a developer in `plugins/` runs them: GitHub places workflow-command annotations and
 * code scanning alerts by the file's path in the repository, so both name the file from the repository root
 * (SARIF: relative to `%SRCROOT%`, defined as that root), whatever folder the command ran in. `text` and
 * `json` keep the names as given, for people and scripts in that folder.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nestedRepo } from "./nested-repo.js";
import { cli, ensureBuilt } from "./run.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let dir: string;
let repo: string;

beforeAll(() => {
  ensureBuilt();
  dir = realpathSync(mkdtempSync(join(tmpdir(), "plugin-review-annotations-")));
  repo = nestedRepo(dir, true);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The `file=` of every workflow command. */
const annotated = (stdout: string) => [
  ...new Set([...stdout.matchAll(/^::\w+ file=([^,]*),/gm)].map((m) => m[1])),
];

/** Every location of a SARIF log resolved as code scanning resolves it: against %SRCROOT%'s URI. */
function sarifFiles(stdout: string): string[] {
  const run = (JSON.parse(stdout) as Json).runs[0] as Json;
  const locations = [
    ...run.artifacts.map((a: Json) => a.location),
    ...run.results.map((r: Json) => r.locations[0].physicalLocation.artifactLocation),
  ] as { uri: string; uriBaseId?: string }[];
  return [
    ...new Set(
      locations.map((l) => {
        expect(l.uriBaseId).toBe("%SRCROOT%");
        expect(l.uri).not.toMatch(/^(file:|\/|\.\.)/);
        return fileURLToPath(new URL(l.uri, run.originalUriBaseIds[l.uriBaseId!].uri as string));
      }),
    ),
  ];
}

describe("run from a folder of the repository", () => {
  it("--format github names the file from the repository root, not from the working directory", () => {
    for (const [cwd, target] of [
      [join(repo, "sub"), "current"],
      [join(repo, "sub", "current"), "."],
      [join(repo, "sub", "current"), "plugin.json"],
      [join(repo, "sub"), "current/*.json"],
      [dir, join(repo, "sub", "current", "plugin.json")],
      // Through a linked folder: the file GitHub knows is the real one.
      [join(dir, "link", "sub"), "current"],
    ] as const) {
      const r = cli(["check", "--format", "github", target], cwd);
      expect(r.status, r.stderr).toBe(1);
      expect(annotated(r.stdout), `${cwd}: ${target}`).toEqual(["sub/current/plugin.json"]);
    }
  });

  it("--format github with --base-ref and with --stdin-filename, from the folder", () => {
    const sub = join(repo, "sub");
    const changed = cli(["check", "--base-ref", "HEAD", "--format", "github", "."], sub);
    expect(annotated(changed.stdout)).toEqual(["sub/current/plugin.json"]);
    expect(changed.status).toBe(1);
    const stdin = cli(
      ["check", "--stdin", "--stdin-filename", "current/plugin.json", "--format", "github"],
      sub,
      {},
      '{"name": 1}',
    );
    expect(annotated(stdin.stdout)).toEqual(["sub/current/plugin.json"]);
  });

  it("--format sarif and --output sarif=: relative to %SRCROOT%, the repository root, which resolves to the file", () => {
    const sub = join(repo, "sub");
    const out = join(dir, "out.sarif");
    const r = cli(["check", "--format", "sarif", "--output", `sarif=${out}`, "current"], sub);
    expect(r.status, r.stderr).toBe(1);
    const root = (JSON.parse(r.stdout) as Json).runs[0].originalUriBaseIds["%SRCROOT%"].uri as string;
    expect(root).toBe(pathToFileURL(repo).href + "/");
    expect(sarifFiles(r.stdout)).toEqual([join(repo, "sub", "current", "plugin.json")]);
    expect(sarifFiles(readFileSync(out, "utf8"))).toEqual([join(repo, "sub", "current", "plugin.json")]);
    const uris = (JSON.parse(r.stdout) as Json).runs[0].artifacts.map((a: Json) => a.location.uri);
    expect(uris).toEqual(["sub/current/plugin.json"]);
  });

  it("text and json keep the names given on the command line", () => {
    const sub = join(repo, "sub");
    const json = cli(["check", "--format", "json", "current"], sub);
    expect(new Set((JSON.parse(json.stdout) as Json[]).map((f) => f.file))).toEqual(
      new Set(["current/plugin.json"]),
    );
    const text = cli(["check", "current"], sub);
    expect(text.stdout.split("\n")[0]).toBe("current/plugin.json");
  });
});

describe("outside any repository", () => {
  it("names files as given: relative references without a base, absolute paths as file: URIs", () => {
    const plain = join(dir, "plain");
    mkdirSync(join(plain, "p"), { recursive: true });
    writeFileSync(join(plain, "p", "plugin.json"), '{"name": 1}');
    const gh = cli(["check", "--format", "github", "p"], plain);
    expect(annotated(gh.stdout)).toEqual(["p/plugin.json"]);
    const sarif = JSON.parse(cli(["check", "--format", "sarif", "p"], plain).stdout) as Json;
    expect(sarif.runs[0].originalUriBaseIds).toBeUndefined();
    expect(sarif.runs[0].artifacts.map((a: Json) => a.location)).toEqual([{ uri: "p/plugin.json" }]);
    const absolute = JSON.parse(cli(["check", "--format", "sarif", join(plain, "p")], plain).stdout) as Json;
    expect(absolute.runs[0].artifacts.map((a: Json) => a.location)).toEqual([
      { uri: pathToFileURL(join(plain, "p", "plugin.json")).href },
    ]);
  });
});
