/**
 * `plugin-review check` over folders and globs of Extensions 2.0 extensions, as users run it (the bundle, real
 * files): after `migrate --out <dir>` the obvious next step, `check <dir>`, reviews the extension.yaml it wrote
 * (issue 44); every extension.yaml the configuration reaches is found, with or without a plugin.json beside it,
 * and compared with the one beside it when there is one; another tool's extension.yaml gets no finding; the
 * text, JSON and SARIF outputs name the extension.yaml.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonFinding } from "../../src/format/json.js";
import { edit, MIGRATION } from "../helpers.js";
import { cli, ensureBuilt, findingLines } from "./run.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-extension-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(rel: string, content: string): string {
  const p = join(dir, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, content);
  return p;
}

/** What Dynatrace's schema requires beside name, version and minDynatraceVersion. */
const AUTHOR = "author:\n  name: Acme\n";

const NOT_AN_EXTENSION =
  "not an Extensions 2.0 extension (it has no `minDynatraceVersion` and no `custom:` name), so it is not reviewed";

describe("check <folder> after migrate --out <folder>", () => {
  it("reviews the extension.yaml that migrate wrote: passes as written, fails once its version is broken", () => {
    const out = join(dir, "migrated");
    const migrated = cli(["migrate", "examples/migration/plugin.json", "--out", out]);
    expect(migrated.status).toBe(0);
    const ok = cli(["check", out]);
    expect([ok.status, ok.stderr]).toEqual([0, ""]);
    expect(ok.stdout).toMatch(/^✔ 1 descriptor checked: no findings$/m);

    const path = join(out, "extension", "extension.yaml");
    writeFileSync(path, edit(readFileSync(path, "utf8"), 'version: "1.7.0"', "version: 1.8"));
    const broken = cli(["check", out]);
    expect(broken.status).toBe(1);
    expect(findingLines(broken.stdout)).toMatch(
      new RegExp(`^${join(out, "extension", "extension.yaml")}:2:10 error ef2-version-format `, "m"),
    );
  });

  it("a folder with nothing to review says what it looked for: plugin.json and extension.yaml files", () => {
    mkdirSync(join(dir, "empty"));
    const r = cli(["check", join(dir, "empty")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `plugin-review: no descriptors found under '${join(dir, "empty")}' (looked for **/plugin.json, **/extension.yaml; node_modules and .git are not searched)\n`,
    );
  });
});

describe("check finds every extension.yaml, wherever it is", () => {
  it("alone in a repository of extensions, through a folder and a glob; JSON and SARIF name it", () => {
    write("ext2/.git/HEAD", "ref: refs/heads/main\n"); // the repository's root: paths are relative to it
    write(
      "ext2/src/extension.yaml",
      `name: custom:a.b\nversion: 1.0\nminDynatraceVersion: "1.285"\n${AUTHOR}`,
    );
    write(
      "ext2/other/extension/extension.yaml",
      `name: custom:c.d\nversion: "2.0.0"\nminDynatraceVersion: "1.285"\n${AUTHOR}`,
    );
    const folder = cli(["check", "--format", "json", "."], join(dir, "ext2"));
    expect(folder.status).toBe(1);
    // `1.0` is YAML's number 1; "2.0.0" is a version.
    expect((JSON.parse(folder.stdout) as JsonFinding[]).map((f) => [f.file, f.ruleId, f.line])).toEqual([
      ["src/extension.yaml", "ef2-version-format", 2],
    ]);
    const glob = cli(["check", "--format", "json", "**/extension.yaml"], join(dir, "ext2"));
    expect(glob.stdout).toBe(folder.stdout);

    const sarif = JSON.parse(cli(["check", "--format", "sarif", "."], join(dir, "ext2")).stdout) as {
      runs: {
        artifacts: { location: { uri: string } }[];
        results: { ruleId: string; locations: unknown[] }[];
      }[];
    };
    expect(sarif.runs[0]!.artifacts.map((a) => a.location.uri)).toEqual([
      "other/extension/extension.yaml",
      "src/extension.yaml",
    ]);
    expect(sarif.runs[0]!.results.map((r) => r.ruleId)).toEqual(["ef2-version-format"]);
  });

  it("`paths` written for plugin.json reach the extension.yaml of each project, and no other", () => {
    write("scoped/.github/plugin-review.yml", 'paths: ["plugins/*/plugin.json"]\n');
    // Each its own name: two extensions of one run with one name are duplicate-plugin-name.
    const bad = (name: string) =>
      `name: custom:${name}\nversion: 1.0\nminDynatraceVersion: "1.285"\n${AUTHOR}`;
    write("scoped/plugins/a/src/extension.yaml", bad("a"));
    write("scoped/plugins/b/extension/extension.yaml", bad("b"));
    write("scoped/vendor/sdk/extension.yaml", bad("sdk"));
    const r = cli(["check", "--format", "json", "."], join(dir, "scoped"));
    expect((JSON.parse(r.stdout) as JsonFinding[]).map((f) => f.file)).toEqual([
      "plugins/a/src/extension.yaml",
      "plugins/b/extension/extension.yaml",
    ]);
  });

  it("beside the plugin.json it replaces, an extension.yaml is compared with it (the migration rules)", () => {
    write("pair/pool/plugin.json", MIGRATION.plugin);
    write(
      "pair/pool/extension/extension.yaml",
      edit(
        MIGRATION.extension,
        "            - key: example.pool.idle\n              value: attribute:NumIdle\n              type: gauge\n",
        "",
      ),
    );
    const r = cli(["check", "--format", "json", join(dir, "pair")]);
    const findings = JSON.parse(r.stdout) as JsonFinding[];
    // The metric's metadata stays behind: it describes a key no data source reports any more.
    expect(findings.map((f) => [f.file.slice(dir.length), f.ruleId])).toEqual([
      ["/pair/pool/extension/extension.yaml", "migration-metric-missing"],
      ["/pair/pool/extension/extension.yaml", "metric-not-reported"],
    ]);
    expect(findings[0]!.message).toMatch(/^EF1 metric `idle` \(`[^`]*pair\/pool\/plugin\.json` line \d+\)/);
    expect(r.status).toBe(1);
  });

  it("another tool's extension.yaml (Firebase Extensions') gets no finding; the run says it left it out", () => {
    const firebase = write(
      "fb/functions/extension.yaml",
      "name: storage-resize-images\nversion: 0.1\nspecVersion: v1beta\n",
    );
    const text = cli(["check", join(dir, "fb")]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`${firebase}: ${NOT_AN_EXTENSION}`);
    expect(text.stdout).not.toMatch(/ef2-version-format|error/);
    const json = cli(["check", "--format", "json", join(dir, "fb")]);
    expect([json.status, json.stdout, json.stderr]).toEqual([
      0,
      "[]\n",
      `plugin-review: ${firebase}: ${NOT_AN_EXTENSION}\n`,
    ]);
  });
});

describe("check --stdin with an extension.yaml", () => {
  it("unnamed, it is read as a plugin.json and the run says how to name it; named, it is reviewed as YAML", () => {
    const yaml = readFileSync("examples/extension-valid/extension/extension.yaml", "utf8");
    const unnamed = cli(["check", "--stdin"], dir, {}, yaml);
    expect(unnamed.status).toBe(1);
    expect(unnamed.stdout).toContain("invalid-json");
    expect(unnamed.stdout).toContain(
      "<stdin> was read as a plugin.json: for an extension.yaml, name it with --stdin-filename <path>/extension.yaml",
    );
    const named = cli(["check", "--stdin", "--stdin-filename", "x/extension/extension.yaml"], dir, {}, yaml);
    expect([named.status, findingLines(named.stdout)]).toEqual([0, ""]);
    expect(named.stdout).not.toContain("was read as a plugin.json");
  });

  it("a broken plugin.json piped in, or named on the command line, gets its finding and no such note", () => {
    const broken = '\ufeff {"name": "custom.python.x", "version": }\n';
    const folder = join(dir, "broken-plugin");
    mkdirSync(folder);
    const piped = cli(["check", "--stdin"], folder, {}, broken);
    writeFileSync(join(folder, "plugin.json"), broken);
    const named = cli(["check", "plugin.json"], folder);
    for (const r of [piped, named]) {
      expect(r.status).toBe(1);
      expect(r.stdout).toContain("invalid-json");
      expect(r.stdout + r.stderr).not.toContain("was read as a plugin.json");
    }
  });

  it("a YAML file named otherwise (basic_extension.yaml) is read as a plugin.json, and the run says why and how", () => {
    const yaml = readFileSync("examples/extension-valid/extension/extension.yaml", "utf8");
    const folder = join(dir, "fixtures");
    mkdirSync(folder);
    writeFileSync(join(folder, "basic_extension.yaml"), yaml);
    const named = cli(["check", "basic_extension.yaml"], folder);
    expect(named.status).toBe(1);
    expect(named.stdout).toContain("invalid-json");
    expect(named.stdout).toContain(
      "basic_extension.yaml was read as a plugin.json: only a file named extension.yaml is an extension; " +
        "rename it, or pipe it in with --stdin --stdin-filename <path>/extension.yaml",
    );
    // The way out it names works.
    const piped = cli(["check", "--stdin", "--stdin-filename", "x/extension.yaml"], folder, {}, yaml);
    expect([piped.status, findingLines(piped.stdout)]).toEqual([0, ""]);
  });
});

describe("check reads a Python extension's project beside its extension.yaml", () => {
  const PYTHON = `name: custom:acme.queue
version: 1.0.0
minDynatraceVersion: "1.285"
${AUTHOR}python:
  runtime:
    module: acme_queue
    version:
      min: "3.10"
  activation:
    remote:
      path: activationSchema.json
`;

  it("the module's folder and the activation schema are looked for on disk: missing, then there", () => {
    write("py/extension/extension.yaml", PYTHON);
    // From the folder of the projects, as a user runs it: the files are named from there.
    const missing = cli(["check", "--format", "json", "py"], dir);
    expect(missing.status).toBe(1);
    const found = JSON.parse(missing.stdout) as JsonFinding[];
    expect(found.map((f) => [f.file, f.ruleId, f.line])).toEqual([
      ["py/extension/extension.yaml", "python-module-missing", 8],
      ["py/extension/extension.yaml", "activation-schema-invalid", 13],
    ]);

    write("py/acme_queue/__main__.py", "print('queue')\n");
    write(
      "py/extension/activationSchema.json",
      readFileSync("examples/extension-python/extension/activationSchema.json", "utf8"),
    );
    const whole = cli(["check", "py"], dir);
    expect([whole.status, findingLines(whole.stdout)]).toEqual([0, ""]);
  });

  it("named from its own folder outside a repository, the run says its module and schema were not checked", () => {
    write("alone/extension/extension.yaml", PYTHON);
    const alone = join(dir, "alone", "extension");
    const text = cli(["check", "extension.yaml"], alone);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(
      "extension.yaml: its Python module and activation schema were not checked: outside a repository, a path without its `extension/` folder",
    );
    // JSON on standard output stays whole: the note goes to standard error.
    const json = cli(["check", "--format", "json", "extension.yaml"], alone);
    expect([json.status, json.stdout.trim()]).toEqual([0, "[]"]);
    expect(json.stderr).toContain("extension.yaml: its Python module and activation schema were not checked");
    // Named from the folder above, as the note says: judged.
    const above = cli(["check", "--format", "json", "extension/extension.yaml"], join(dir, "alone"));
    expect((JSON.parse(above.stdout) as JsonFinding[]).map((f) => f.ruleId)).toContain(
      "python-module-missing",
    );
    expect(above.stderr).toBe("");
  });

  it("outside a repository, named from anywhere, an extension's alerts and dashboards are read from its folder", () => {
    // Its dashboard is missing: asset-missing; its alerts are judged on their metric events.
    const source = `${readFileSync("examples/extension-valid/extension/extension.yaml", "utf8")}alerts:\n  - path: alerts/errors.json\n  - path: alerts/uptime.json\n`;
    write("router/extension/extension.yaml", source);
    const strategy = { type: "STATIC_THRESHOLD", samples: 3, violatingSamples: 5, dealertingSamples: 5 };
    write(
      "router/extension/alerts/errors.json",
      JSON.stringify({ name: "Errors", description: "{entityname}", monitoringStrategy: strategy }),
    );
    write(
      "router/extension/alerts/uptime.json",
      JSON.stringify({
        name: "Down",
        description: "{entityname} down on {dimensions}",
        monitoringStrategy: { ...strategy, samples: 5, violatingSamples: 3 },
      }),
    );
    const rules = (args: string[], cwd: string) => {
      const r = cli(["check", "--no-config", "--format", "json", ...args], cwd);
      expect(r.stderr).toBe("");
      return (JSON.parse(r.stdout) as JsonFinding[]).map((f) => [f.ruleId, f.line]);
    };
    const expected = [
      ["asset-missing", 102],
      ["alert-samples", 104],
      ["alert-placeholder", 105],
    ];
    // From the folder above, as the project's files are named; from this repository, by its absolute path
    // (folder or file); from its own folder: the same findings each way.
    expect(rules(["router"], dir)).toEqual(expected);
    expect(rules([join(dir, "router")], process.cwd())).toEqual(expected);
    expect(rules([join(dir, "router", "extension", "extension.yaml")], process.cwd())).toEqual(expected);
    expect(rules(["extension.yaml"], join(dir, "router", "extension"))).toEqual(expected);
  });

  it("a project too large to list is said for an extension that lists alerts or dashboards too", () => {
    write(
      "bigalerts/extension/extension.yaml",
      `name: custom:acme.alerts\nversion: 1.0.0\nminDynatraceVersion: "1.285"\n${AUTHOR}alerts:\n  - path: alerts/a.json\n`,
    );
    for (let i = 0; i <= 5000; i++) write(`bigalerts/data/f${i}.txt`, "");
    expect(cli(["check", "bigalerts"], dir).stdout).toContain(
      "bigalerts/extension/extension.yaml: the files it lists (alerts) were not checked: its project folder has more than 5,000 files",
    );
  });

  it("a project too large to list is said, never a silent pass; an extension without python needs no note", () => {
    write("big/extension/extension.yaml", PYTHON);
    for (let i = 0; i <= 5000; i++) write(`big/data/f${i}.txt`, "");
    const big = cli(["check", "big"], dir);
    expect(big.status).toBe(0);
    expect(big.stdout).toContain(
      "big/extension/extension.yaml: its Python module and activation schema were not checked: its project folder has more than 5,000 files",
    );
    write(
      "bigjmx/extension/extension.yaml",
      `name: custom:acme.jmx\nversion: 1.0.0\nminDynatraceVersion: "1.285"\n${AUTHOR}`,
    );
    for (let i = 0; i <= 5000; i++) write(`bigjmx/data/f${i}.txt`, "");
    expect(cli(["check", "bigjmx"], dir).stdout).not.toContain("were not checked");
  });

  it("with --base-ref, a changed module file without a higher version is version-not-bumped, fixed by --fix", () => {
    const repo = join(dir, "gitpy");
    write("gitpy/queue/extension/extension.yaml", PYTHON);
    write("gitpy/queue/acme_queue/__main__.py", "print('queue')\n");
    write(
      "gitpy/queue/extension/activationSchema.json",
      readFileSync("examples/extension-python/extension/activationSchema.json", "utf8"),
    );
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "root");
    git("add", ".");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "base");
    write("gitpy/queue/acme_queue/__main__.py", "print('queue, faster')\n");
    const args = ["check", "--base-ref", "main", "queue/extension/extension.yaml"];
    const r = cli([...args, "--format", "json"], repo);
    expect(r.status).toBe(1);
    const found = JSON.parse(r.stdout) as JsonFinding[];
    expect(found.map((f) => [f.ruleId, f.line, f.message])).toEqual([
      [
        "version-not-bumped",
        2,
        expect.stringContaining("`queue/acme_queue/__main__.py`, which the extension packages, changed"),
      ],
    ]);
    // Not named, unchanged itself: a file of its project changed, so it is reviewed all the same.
    const all = cli(["check", "--base-ref", "main", "--format", "json"], repo);
    expect((JSON.parse(all.stdout) as JsonFinding[]).map((f) => f.ruleId)).toEqual(["version-not-bumped"]);
    expect(cli([...args, "--fix"], repo).status).toBe(0);
    expect(readFileSync(join(repo, "queue/extension/extension.yaml"), "utf8")).toBe(
      edit(PYTHON, "version: 1.0.0", "version: 1.0.1"),
    );
  });

  it("links: a linked module folder is there; a linked schema outside the repository is not read", () => {
    const outside = mkdtempSync(join(tmpdir(), "plugin-review-outside-"));
    try {
      writeFileSync(join(outside, "secret.json"), '{"token": "s3cr3t-value"}');
      mkdirSync(join(outside, "acme_queue"));
      write("linked/extension/extension.yaml", PYTHON);
      symlinkSync(join(outside, "acme_queue"), join(dir, "linked", "acme_queue"));
      symlinkSync(join(outside, "secret.json"), join(dir, "linked", "extension", "activationSchema.json"));
      const r = cli(["check", "--format", "json", "linked"], dir);
      const found = JSON.parse(r.stdout) as JsonFinding[];
      expect(found.map((f) => [f.ruleId, f.line])).toEqual([["activation-schema-invalid", 13]]);
      expect(r.stdout).not.toContain("s3cr3t");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("with --base-ref, a module missing at the ref too is an existing finding, one the change removed is new", () => {
    const repo = join(dir, "gitbase");
    write("gitbase/q/extension/extension.yaml", PYTHON);
    write(
      "gitbase/q/extension/activationSchema.json",
      readFileSync("examples/extension-python/extension/activationSchema.json", "utf8"),
    );
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], {
        cwd: repo,
        stdio: "pipe",
      });
    git("init", "-q", "-b", "main");
    git("add", ".");
    git("commit", "-q", "-m", "base without the module");
    write("gitbase/q/extension/extension.yaml", edit(PYTHON, "version: 1.0.0", "version: 1.0.1"));
    const before = cli(["check", "--base-ref", "main", "--format", "json"], repo);
    expect((JSON.parse(before.stdout) as JsonFinding[]).map((f) => [f.ruleId, f.baseline])).toEqual([
      ["python-module-missing", "existing"],
    ]);
    write("gitbase/q/acme_queue/__main__.py", "print('queue')\n");
    git("add", ".");
    git("commit", "-q", "-m", "the module");
    rmSync(join(repo, "q", "acme_queue"), { recursive: true });
    write("gitbase/q/extension/extension.yaml", edit(PYTHON, "version: 1.0.0", "version: 1.0.2"));
    const removed = cli(["check", "--base-ref", "main", "--format", "json"], repo);
    expect((JSON.parse(removed.stdout) as JsonFinding[]).map((f) => [f.ruleId, f.baseline])).toEqual([
      ["python-module-missing", "new"],
    ]);
  });
});

describe("check reads the files an extension lists beside its extension.yaml", () => {
  const VALID = readFileSync("examples/extension-valid/extension/extension.yaml", "utf8");
  const LISTED = `${VALID}\nalerts:\n  - path: ./alerts/interface-errors.json\n`;

  it("an alert listed and not in the folder is asset-missing at its path; there, it passes", () => {
    write("assets/extension.yaml", LISTED);
    write("assets/dashboards/overview.json", "{}\n");
    const missing = cli(["check", "--format", "json", "assets"], dir);
    expect(missing.status).toBe(1);
    const found = JSON.parse(missing.stdout) as JsonFinding[];
    expect(found.map((f) => [f.file, f.ruleId, f.line])).toEqual([
      [
        "assets/extension.yaml",
        "asset-missing",
        LISTED.split("\n").indexOf("  - path: ./alerts/interface-errors.json") + 1,
      ],
    ]);
    expect(found[0]!.message).toContain(
      "`./alerts/interface-errors.json` is listed, but the extension has no",
    );

    write("assets/alerts/interface-errors.json", "{}\n");
    const whole = cli(["check", "assets"], dir);
    expect([whole.status, findingLines(whole.stdout)]).toEqual([0, ""]);
  });

  it("a lone extension.yaml, copied out of its project, holds none of what it lists: not asset-missing", () => {
    write("lone/extension.yaml", LISTED);
    const lone = cli(["check", "--format", "json", "lone"], dir);
    expect((JSON.parse(lone.stdout) as JsonFinding[]).filter((f) => f.ruleId === "asset-missing")).toEqual(
      [],
    );
  });
  it("an alert file on a metric the extension does not report is unknown-metric-reference at its path", () => {
    write("alerting/extension.yaml", LISTED);
    write("alerting/dashboards/overview.json", "{}\n");
    write(
      "alerting/alerts/interface-errors.json",
      JSON.stringify({ name: "Interface errors", metricId: "example.router.if.errors" }),
    );
    const wrong = cli(["check", "--format", "json", "alerting"], dir);
    const found = JSON.parse(wrong.stdout) as JsonFinding[];
    expect(found.map((f) => [f.ruleId, f.severity, f.line])).toEqual([
      [
        "unknown-metric-reference",
        "warning",
        LISTED.split("\n").indexOf("  - path: ./alerts/interface-errors.json") + 1,
      ],
    ]);
    expect(found[0]!.message).toContain("did you mean `example.router.if.errors.count`?");

    write(
      "alerting/alerts/interface-errors.json",
      JSON.stringify({ name: "Interface errors", metricId: "example.router.if.errors.count" }),
    );
    const right = cli(["check", "alerting"], dir);
    expect([right.status, findingLines(right.stdout)]).toEqual([0, ""]);
  });

  it("an alert file that is not JSON is asset-missing at its path, as the App says it", () => {
    write("broken/extension.yaml", LISTED);
    write("broken/dashboards/overview.json", "{}\n");
    write("broken/alerts/interface-errors.json", '{\n  "name": "Interface errors",\n}');
    const broken = cli(["check", "--format", "json", "broken"], dir);
    expect(broken.status).toBe(1);
    const found = JSON.parse(broken.stdout) as JsonFinding[];
    expect(found.map((f) => [f.ruleId, f.severity, f.line, f.message])).toEqual([
      [
        "asset-missing",
        "error",
        LISTED.split("\n").indexOf("  - path: ./alerts/interface-errors.json") + 1,
        "alert `./alerts/interface-errors.json` is not valid JSON (line 3, column 1): Dynatrace cannot import the metric event it should hold",
      ],
    ]);
  });

  it("a dashboard that is not JSON is asset-missing at its path, as the App says it; one too large is a warning, its size read alone", () => {
    const line = VALID.split("\n").indexOf("  - path: dashboards/overview.json") + 1;
    write("boards/extension.yaml", VALID);
    write("boards/dashboards/overview.json", '{\n  "tiles": [],\n}');
    const broken = cli(["check", "--format", "json", "boards"], dir);
    expect(broken.status).toBe(1);
    expect(
      (JSON.parse(broken.stdout) as JsonFinding[]).map((f) => [f.ruleId, f.severity, f.line, f.message]),
    ).toEqual([
      [
        "asset-missing",
        "error",
        line,
        "dashboard `dashboards/overview.json` is not valid JSON (line 3, column 1): Dynatrace cannot import the dashboard it should hold",
      ],
    ]);

    write("boards/.github/plugin-review.yml", "max_file_size: 1048576\n");
    write("boards/dashboards/overview.json", `{ "tiles": [] }${" ".repeat(1024 * 1024)}`);
    const large = cli(["check", "--format", "json", "boards"], dir);
    expect(
      (JSON.parse(large.stdout) as JsonFinding[]).map((f) => [f.ruleId, f.severity, f.line, f.message]),
    ).toEqual([
      [
        "asset-missing",
        "warning",
        line,
        "dashboard `dashboards/overview.json` is larger than max_file_size (1048576 bytes), so it was not checked to be JSON",
      ],
    ]);

    write("boards/dashboards/overview.json", '{ "tiles": [] }');
    const fixed = cli(["check", "boards"], dir);
    expect([fixed.status, findingLines(fixed.stdout)]).toEqual([0, ""]);
  });
});
