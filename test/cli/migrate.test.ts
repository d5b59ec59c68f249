/**
 * `plugin-review migrate`, run as a user runs it (the built CLI in a child process, real files): the layout it
 * writes for one descriptor and for several, what it prints without --out, --format json, --name, exit statuses,
 * usage errors, and no control character from a file on the terminal.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, text, validHost, validRemote } from "../helpers.js";
import { cli, ensureBuilt } from "./run.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-migrate-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const JMX = join(ROOT, "examples/jmx-valid/plugin.json");
const HOST = join(ROOT, "examples/host-valid/plugin.json");
const REMOTE = join(ROOT, "examples/remote-valid/plugin.json");

/** Every file below `root`, relative to it, sorted. */
function tree(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(root, join(d.parentPath, d.name)).split("\\").join("/"))
    .sort();
}

function write(name: string, content: string): string {
  const p = join(dir, name);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, content);
  return p;
}

describe("plugin-review migrate --out", () => {
  it("writes one descriptor's extension in Dynatrace's layout, the same bytes every time", () => {
    const out = join(dir, "one");
    const r = cli(["migrate", JMX, "--out", out]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(tree(out)).toEqual([
      ".plugin-review-migrate.json",
      "MIGRATION.md",
      "extension/alerts/pool_exhausted.json",
      "extension/dashboards/tech.demo.pool.json",
      "extension/extension.yaml",
      "metric-keys.csv",
      "metric-keys.json",
    ]);
    // The summary is one line broken to fit 80 columns (COLUMNS unset): read it joined.
    expect(r.stdout.replace(/\n {4}/g, " ")).toMatch(
      /: custom:tech\.demo\.pool 1\.7\.0 \(JMX\): 4 metrics in 2 subgroups, 1 metric event, a dashboard of 2 tiles; MIGRATION\.md: \d+ not carried over, \d+ changed in meaning, \d+ to do by hand\n/,
    );
    expect(r.stdout).toContain(`  wrote ${join(out, "extension/extension.yaml")}\n`);
    expect(r.stdout.replace(/\n {4}/g, " ")).toMatch(
      /✔ 1 descriptor: 0 converted, 1 partly \(MIGRATION\.md lists what is not carried over\), 0 refused\n$/,
    );
    const first = tree(out).map((f) => readFileSync(join(out, f)));
    expect(cli(["migrate", JMX, "--out", out]).status).toBe(0);
    expect(tree(out).map((f) => readFileSync(join(out, f)))).toEqual(first);
    const keys = JSON.parse(readFileSync(join(out, "metric-keys.json"), "utf8")) as { metrics: unknown[] };
    expect(keys.metrics).toHaveLength(4);
  });

  it("writes a Python plugin's activation schema beside its extension.yaml", () => {
    const out = join(dir, "python");
    expect(cli(["migrate", REMOTE, "--out", out]).status).toBe(0);
    expect(tree(out)).toContain("extension/activationSchema.json");
  });

  it("keeps several descriptors apart, by EF2 name; a refused one gets its MIGRATION.md; exit 2", () => {
    const out = join(dir, "many");
    const pmi = write("pmi/plugin.json", text({ ...validHost(), type: "PMI" }));
    const r = cli(["migrate", JMX, HOST, pmi, "--out", out]);
    expect(r.status).toBe(2);
    expect(readdirSync(out).sort()).toEqual([
      "custom.python.demo_plugin",
      "tech.demo.pool",
      "tech.python.demo",
    ]);
    expect(tree(join(out, "custom.python.demo_plugin"))).toEqual([
      ".plugin-review-migrate.json",
      "MIGRATION.md",
    ]);
    expect(readFileSync(join(out, "custom.python.demo_plugin/MIGRATION.md"), "utf8")).toMatch(
      /^# `custom\.python\.demo_plugin` was not migrated\n[\s\S]*## Why\n\n- line 4: PMI plugins have no EF2 form/,
    );
    expect(r.stderr.replace(/\n {4}/g, " ")).toBe(
      `plugin-review: ${pmi}: not converted:\n  line 4: PMI plugins have no EF2 form: EF2 has no PMI data source (WebSphere's PMI), and Dynatrace converts JMX and Python plugins only\n` +
        `  wrote ${join(out, "custom.python.demo_plugin/MIGRATION.md")}\n`,
    );
    expect(r.stdout.replace(/\n {4}/g, " ")).toMatch(
      /✖ 3 descriptors: 0 converted, 2 partly \(MIGRATION\.md lists what is not carried over\), 1 refused\n$/,
    );
  });
});

describe("plugin-review migrate --out where no folder can be made", () => {
  it("says so in one line, exit 2, at once (never a hang), and writes nothing", () => {
    const file = write("not-a-folder", "");
    const cases: [string, string][] = [
      [file, "something else is already there"],
      [join(file, "out"), "a part of its path is not a directory"],
    ];
    // A virtual file system: mkdir answers "no such file or directory" with the parent there, where
    // Node.js's recursive mkdir tries again for ever.
    if (existsSync("/proc/self")) cases.push(["/proc/plugin-review/out", "no such file or directory"]);
    if (existsSync("/dev/full")) cases.push(["/dev/full", "something else is already there"]);
    for (const [out, why] of cases) {
      const r = cli(["migrate", JMX, "--out", out]);
      expect(r.stderr, out).toBe(`plugin-review: --out: cannot make the folder '${out}': ${why}\n`);
      expect(r.status, out).toBe(2);
      expect(r.stdout, out).toBe("");
    }
    expect(readFileSync(file, "utf8")).toBe("");
  });
});

describe("plugin-review migrate without --out", () => {
  it("prints what it would write and writes nothing", () => {
    const cwd = mkdtempSync(join(dir, "print-"));
    const r = cli(["migrate", JMX], cwd);
    expect(r.status).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
    const headers = r.stdout.match(/^==> .* <==$/gm);
    expect(headers).toEqual([
      `==> extension/extension.yaml (from ${JMX}) <==`,
      `==> extension/alerts/pool_exhausted.json (from ${JMX}) <==`,
      `==> extension/dashboards/tech.demo.pool.json (from ${JMX}) <==`,
      `==> metric-keys.json (from ${JMX}) <==`,
      `==> metric-keys.csv (from ${JMX}) <==`,
      `==> MIGRATION.md (from ${JMX}) <==`,
    ]);
    expect(r.stdout).toContain("name: custom:tech.demo.pool\n");
    expect(r.stderr).toBe(
      "✔ 1 descriptor: 0 converted, 1 partly (MIGRATION.md lists what is not carried\n" +
        "    over), 0 refused (nothing written: --out <dir> writes the files)\n",
    );
  });

  it("--format json: a summary of each descriptor, with the files' contents", () => {
    const bad = write("bad/plugin.json", "{ nope");
    const r = cli(["migrate", HOST, bad, "--format", "json"]);
    expect(r.status).toBe(2);
    const summary = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(summary[0]).toMatchObject({
      file: HOST,
      converted: true,
      outcome: "partly",
      framework: "python",
      name: "custom:tech.python.demo",
      version: "1.2.0",
      metrics: 2,
      alerts: 1,
    });
    const files = summary[0]!.files as { path: string; content: string }[];
    expect(files.map((f) => f.path).slice(0, 7)).toEqual([
      "tech.python.demo/extension/extension.yaml",
      "tech.python.demo/extension/activationSchema.json",
      "tech.python.demo/extension/alerts/requests_high.json",
      "tech.python.demo/extension/dashboards/tech.python.demo.json",
      "tech.python.demo/metric-keys.json",
      "tech.python.demo/metric-keys.csv",
      "tech.python.demo/MIGRATION.md",
    ]);
    // The Python project: the EF2 SDK template's layout, the compatibility layer, the local run's files.
    expect(files.map((f) => f.path).slice(6)).toEqual(
      expect.arrayContaining([
        "tech.python.demo/setup.py",
        "tech.python.demo/demo_plugin_ef2/__init__.py",
        "tech.python.demo/demo_plugin_ef2/__main__.py",
        "tech.python.demo/demo_plugin_ef2/ef1compat/__init__.py",
        "tech.python.demo/demo_plugin_ef2/ef1compat/ruxit/api/base_plugin.py",
        "tech.python.demo/demo_plugin_ef2/metric-keys.json",
        "tech.python.demo/demo_plugin_ef2/plugin/__init__.py",
        "tech.python.demo/activation.json",
        "tech.python.demo/secrets.json",
        "tech.python.demo/.gitignore",
      ]),
    );
    // examples/host-valid has no code beside its plugin.json: the project says so, and how to run it.
    expect(summary[0]!.project).toEqual({
      module: "demo_plugin_ef2",
      run: "python3 -m demo_plugin_ef2",
      code: false,
      codeMissing: expect.stringMatching(/^neither demo_plugin\.py nor demo_plugin\/__init__\.py is in /),
    });
    expect(files[0]!.content).toMatch(/^name: custom:tech\.python\.demo\n/);
    // A Python host plugin's process types: the compatibility layer applies them to OneAgent's snapshot.
    expect(summary[0]!.notes).toContainEqual({
      kind: "changed",
      line: 8,
      member: "processTypeNames",
      text: expect.stringMatching(/^EF2 activates an extension by monitoring configuration/),
    });
    expect(summary[0]!.dashboard).toEqual({ path: "dashboards/tech.python.demo.json", tiles: 3 });
    expect(summary[1]).toEqual({
      file: bad,
      converted: false,
      outcome: "refused",
      reasons: [
        {
          line: 1,
          text: expect.stringMatching(/^it is not JSON: /),
          fix: expect.stringMatching(/^make it valid JSON/),
        },
      ],
      files: [
        { path: "bad/MIGRATION.md", content: expect.stringMatching(/^# This descriptor was not migrated\n/) },
      ],
    });
    expect(r.stderr).toBe("");
  });

  it("prints no control character from a descriptor", () => {
    const evil = write(
      "evil/plugin.json",
      text({
        ...validRemote(),
        ui: { charts: [{ group: "g", title: "\u001b]0;owned\u0007\u001b[2J", series: [] }] },
      }),
    );
    for (const args of [
      ["migrate", evil],
      ["migrate", evil, "--out", join(dir, "evil-out")],
    ]) {
      const r = cli(args);
      expect(r.status).toBe(0);
      // The CSV's lines end in CRLF, as RFC 4180 has them; nothing else below U+0020 but line feeds.
      // eslint-disable-next-line no-control-regex
      const control = /[\u0000-\u0008\u000b-\u001f\u007f]/;
      expect((r.stdout + r.stderr).replace(/\r\n/g, "\n")).not.toMatch(control);
    }
    // The chart is still listed (it has no series to draw); its title's sequences are gone whole, as a
    // terminal would have acted on them.
    const out = cli(["migrate", evil]).stdout;
    expect(out).toMatch(/`ui\.charts\[0\]`: chart/);
    expect(out).not.toContain("owned");
  });
});

describe("plugin-review migrate: names and mistakes", () => {
  it("--name gives the EF2 name and prefixes the keys with it", () => {
    const out = join(dir, "named");
    expect(cli(["migrate", JMX, "--name", "custom:acme.pool", "--out", out]).status).toBe(0);
    expect(readFileSync(join(out, "extension/extension.yaml"), "utf8")).toMatch(
      /^name: custom:acme\.pool\n[\s\S]*- key: acme\.pool\.pool_active\n/,
    );
  });

  it("says why a descriptor is not converted: an invalid --name, no name to derive", () => {
    // As wide as the message: at 80 columns (COLUMNS unset) where its line breaks depends on where the clone is.
    const bad = cli(["migrate", JMX, "--name", "custom:Not Valid"], ROOT, { COLUMNS: "1000" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      /not converted:\n {2}line 6: --name "custom:Not Valid" is not a valid EF2 name: /,
    );
    const nameless = write(
      "nameless/plugin.json",
      text({ ...validHost(), name: undefined, metricGroup: undefined }),
    );
    expect(cli(["migrate", nameless]).stderr).toMatch(/neither `metricGroup` nor `name`/);
  });

  it.each([
    [[], "name at least one plugin.json to convert"],
    [[JMX, HOST, "--name", "custom:a.b"], "--name names one extension: give it with one plugin.json"],
    [[JMX, "--format", "sarif"], "--format must be text or json, not 'sarif'"],
    [[JMX, "--outt", "x"], "unknown option '--outt' (did you mean --out?)"],
  ])("usage error: %j", (args, message) => {
    const r = cli(["migrate", ...args]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`plugin-review: ${message}\nRun 'plugin-review migrate --help' for the options.\n`);
  });

  it("a file that is there but cannot be read is not converted, and the others are", () => {
    const out = join(dir, "missing");
    // Not text (a path to nothing is a usage error: migrate-report.test.ts).
    writeFileSync(join(dir, "binary.json"), Buffer.from([0x7b, 0xff, 0x7d]));
    const r = cli(["migrate", join(dir, "binary.json"), JMX, "--out", out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/binary\.json: not converted:\n {2}it is not UTF-8 text \(byte 1\)\n/);
    expect(existsSync(join(out, "tech.demo.pool/extension/extension.yaml"))).toBe(true);
  });

  it("an extension.yaml named is said to be EF2 already, not 'not JSON'; nothing is written", () => {
    const yaml = write(
      "ef2/extension.yaml",
      'name: custom:demo.ext\nversion: 1.0.0\nminDynatraceVersion: "1.300"\nauthor:\n  name: x\n',
    );
    const out = join(dir, "from-ef2");
    const r = cli(["migrate", yaml, "--out", out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `plugin-review: '${yaml}' is an Extensions 2.0 extension already: migrate converts EF1 plugin.json descriptors to extension.yaml (plugin-review check reviews this one)\n`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("is listed in the help, and has its own", () => {
    expect(cli(["--help"]).stdout).toMatch(/^ {2}migrate <plugin\.json>\.\.\. {3}convert EF1 descriptors/m);
    expect(cli(["migrate", "--help"]).stdout).toMatch(
      /^Usage: plugin-review migrate <plugin\.json\|dir\|glob>\.\.\. \[options\]/,
    );
  });
});

describe("plugin-review migrate, a Python plugin's project", () => {
  it("copies the plugin's folder, writes the project and says how to try it; without the code, a to-do", () => {
    const out = join(dir, "python");
    const r = cli(["migrate", REMOTE, HOST, "--out", out]);
    expect(r.status).toBe(0);
    const remote = join(out, "tech.demo.device");
    expect(r.stdout).toContain(
      `  wrote ${join(remote, "demo_device_ef2/ef1compat/")} (13 files: the compatibility layer)\n` +
        `  wrote ${join(remote, "demo_device_ef2/metric-keys.json")}\n`,
    );
    expect(r.stdout).toContain(
      `  wrote ${join(remote, "demo_device_ef2/plugin/")} (2 files: the EF1 plugin's code)\n`,
    );
    expect(r.stdout).toContain(
      `  project: ${remote}: try it with \`cd ${remote} && python3 -m demo_device_ef2\` (after \`pip install dt-extensions-sdk .\`)\n`,
    );
    expect(readFileSync(join(remote, "demo_device_ef2/plugin/demo_device.py"), "utf8")).toBe(
      readFileSync(join(ROOT, "examples/remote-valid/demo_device.py"), "utf8"),
    );
    // examples/host-valid has no code beside it: the project is written, and what it lacks is said.
    const host = join(out, "tech.python.demo");
    expect(r.stdout).toContain(
      `  to do: the plugin's code is not in the project (neither demo_plugin.py nor demo_plugin/__init__.py is in ${join(ROOT, "examples/host-valid")}): copy it into ${join(host, "demo_plugin_ef2/plugin")}/\n`,
    );
    expect(tree(host)).toContain("demo_plugin_ef2/__main__.py");
  });

  it("a plugin folder that holds the output: migrate leaves its own output out of the copy", () => {
    const folder = join(dir, "inplace");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "plugin.json"), readFileSync(REMOTE));
    writeFileSync(
      join(folder, "demo_device.py"),
      readFileSync(join(ROOT, "examples/remote-valid/demo_device.py")),
    );
    for (let i = 0; i < 2; i++)
      expect(cli(["migrate", join(folder, "plugin.json"), "--out", join(folder, "ef2")]).status).toBe(0);
    expect(tree(join(folder, "ef2", "demo_device_ef2", "plugin"))).toEqual(["__init__.py", "demo_device.py"]);
  });
});
