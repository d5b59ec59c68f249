/**
 * `--format sarif` through Microsoft's official SARIF validator (`Sarif.Multitool validate`, npm
 * `@microsoft/sarif-multitool` with its platform packages), for relative and absolute paths, and every file
 * of `audit --format sarif` (against the fake organisation of test/github/audit/). Skipped, with
 * the reason printed, where the platform package is not installed or its binary does not run.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, mainRun } from "../cli/run.js";
import { cleanup, disableNetwork } from "../github/github-mock.js";
import { acme } from "../github/audit/organisation.js";
import { describeUnless, ROOT, text, validHost } from "../helpers.js";

const require = createRequire(import.meta.url);

/** The validator's binary, or why it cannot run here. */
function findMultitool(): { bin: string } | { skip: string } {
  const pkg = `@microsoft/sarif-multitool-${process.platform}`;
  let bin: string;
  try {
    bin = require(pkg) as string; // the platform package exports the binary's path
  } catch {
    return { skip: `${pkg} is not installed (no SARIF multitool for ${process.platform}-${process.arch})` };
  }
  const r = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 60_000 });
  if (r.error || r.status !== 0) {
    return {
      skip: `${relative(ROOT, bin)} does not run here: ${r.error?.message ?? (r.stderr || `exit ${r.status}`)}`,
    };
  }
  return { bin };
}

const tool = findMultitool();

interface ValidatorResult {
  ruleId: string;
  level?: string;
  message: { id?: string; arguments?: string[] };
}

let dir = "";
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-multitool-"));
});

/** A folder outside any repository holding a copy of examples/mistakes. */
function outsideRepository(): string {
  const at = join(dir, "outside");
  if (!existsSync(at)) cpSync(join(ROOT, "examples", "mistakes"), join(at, "mistakes"), { recursive: true });
  return at;
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `validate` on a SARIF text; returns the validator's own results (its output is SARIF too). */
function validate(name: string, sarif: string): ValidatorResult[] {
  const input = join(dir, `${name}.sarif`);
  writeFileSync(input, sarif);
  return validateFiles(name, [input]);
}

/** Runs `validate` once on SARIF files (the validator takes seconds to start, so once for them all). */
function validateFiles(name: string, inputs: string[]): ValidatorResult[] {
  const bin = (tool as { bin: string }).bin;
  const output = join(dir, `${name}.validation.sarif`);
  const r = spawnSync(bin, ["validate", ...inputs, "--output", output, "--log", "ForceOverwrite"], {
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  const log = JSON.parse(readFileSync(output, "utf8").replace(/^\uFEFF/, "")) as {
    runs: { results?: ValidatorResult[] }[];
  };
  return log.runs.flatMap((run) => run.results ?? []);
}

const describeTool = describeUnless("skip" in tool && tool.skip);

// The validator is a .NET program that takes some seconds to start, more on a busy machine.
describeTool("SARIF multitool validate", { timeout: 180_000 }, () => {
  it("finds SARIF1004 in an absolute path given as a relative reference (the test can fail)", () => {
    const sarif = JSON.stringify({
      version: "2.1.0",
      runs: [
        {
          tool: { driver: { name: "x" } },
          results: [
            {
              ruleId: "r",
              message: { text: "m" },
              locations: [{ physicalLocation: { artifactLocation: { uri: "/abs/plugin.json" } } }],
            },
          ],
        },
      ],
    });
    expect(validate("bad", sarif).map((r) => r.ruleId)).toContain("SARIF1004");
  });

  it.each([
    // In a repository (this one), by their path in it, relative to %SRCROOT%, from any folder.
    ["paths in a repository", "examples/mistakes", ROOT],
    ["absolute paths in a repository", join(ROOT, "examples", "mistakes"), join(ROOT, "examples")],
    // Outside any repository, as given: relative references, or file: URIs for absolute paths.
    ["relative paths", "mistakes", "outside"],
    ["absolute paths", "outside/mistakes", "outside"],
  ])("reports no error and no warning for %s", (name, given, from) => {
    const outside = from === "outside";
    const cwd = outside ? outsideRepository() : from;
    const target = given === "outside/mistakes" ? join(cwd, "mistakes") : given;
    const r = cli(["check", "--format", "sarif", target], cwd);
    expect(r.status).toBe(1);
    const run = (
      JSON.parse(r.stdout) as {
        runs: {
          originalUriBaseIds?: Record<string, { uri: string }>;
          results: {
            locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[];
          }[];
        }[];
      }
    ).runs[0]!;
    const locations = run.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation);
    expect(locations.length).toBeGreaterThan(0);
    for (const l of locations) {
      expect(l.uri.startsWith("file:///"), l.uri).toBe(outside && target.startsWith("/"));
      expect(l.uriBaseId).toBe(outside ? undefined : "%SRCROOT%");
      if (!outside) expect(l.uri).toMatch(/^examples\/mistakes\//);
    }
    expect(run.originalUriBaseIds).toEqual(
      outside
        ? undefined
        : { "%SRCROOT%": expect.objectContaining({ uri: pathToFileURL(join(ROOT, "/")).href }) },
    );
    const problems = validate(name.replace(/ /g, "-"), r.stdout).filter(
      (x) => x.level === undefined || x.level === "error" || x.level === "warning",
    );
    expect(problems).toEqual([]);
  });

  describe("audit --format sarif", () => {
    afterEach(() => {
      cleanup();
      delete process.env.GITHUB_TOKEN;
    });

    it("reports no error and no warning for any repository's file, one cut to GitHub's limit included", async () => {
      disableNetwork();
      const gh = acme();
      // 5,001 findings: the log keeps 5,000 and says so in a notification and the run's properties.
      const doc: Record<string, unknown> = { ...validHost(), processTypeNames: ["PYTHN"] };
      for (let i = 0; i < 5000; i++) doc[`extra${i}`] = i;
      gh.repo("acme/huge").file("acme/huge", "HEAD", "plugin.json", text(doc));
      const out = join(dir, "audit");
      const r = await mainRun(["audit", "acme", "--format", "sarif", "--output-dir", out]);
      expect(r.status).toBe(0);
      const files = r.stdout
        .trim()
        .split("\n")
        .map((l) => l.split("\t")[0]!);
      // acme's four repositories with descriptors, jmx-plugins (in progress), extensions (done), and huge.
      expect(files.length).toBe(7);
      const problems = validateFiles("audit", files).filter(
        (x) => x.level === undefined || x.level === "error" || x.level === "warning",
      );
      expect(problems).toEqual([]);
      gh.assertClean();
    });
  });
});
