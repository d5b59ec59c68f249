/**
 * The published package, as a user gets it: `npm pack` of this repository, then `npm install` of the tarball in an
 * empty directory (no network needed: the package has no dependency to fetch), then `npx plugin-review`.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";
import { BIN, ensureBuilt } from "./cli/run.js";
import { LspClient } from "./lsp/client.js";

/** The shell blocks of docs/quick-start.md, whose install of a packed tarball runs here. */
const QUICK_START = readFileSync(join(ROOT, "docs", "quick-start.md"), "utf8");
const blocks = (lang: string) =>
  [...QUICK_START.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
const QUICK_START_BLOCKS = blocks("sh");

let dir: string;
let tarball: string;
let packed: { files: { path: string }[] };

// npx must never fetch a package of the same name from the registry when the local install is missing.
const env = {
  ...process.env,
  npm_config_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
};

function run(command: string, args: string[], cwd = dir) {
  const r = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 120_000 });
  if (r.error) throw r.error;
  return r;
}

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "plugin-review-package-"));
  const pack = run("npm", ["pack", "--json", "--pack-destination", dir], ROOT);
  expect(pack.status, pack.stderr).toBe(0);
  packed = (JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[])[0]!;
  tarball = readdirSync(dir).find((f) => /^plugin-review-.+\.tgz$/.test(f))!;
  // docs/quick-start.md's command, verbatim but for where the tarball is: the name it gives is npm's.
  const documented = QUICK_START_BLOCKS.flatMap((b) => b.split("\n")).find((l) => l.endsWith(".tgz"))!;
  expect(documented).toBe(`npm install --save-dev /path/to/plugin-review/${tarball}`);
  const [command, ...args] = documented
    .replace(`/path/to/plugin-review/${tarball}`, `./${tarball}`)
    .split(" ");
  const install = run(command!, args);
  expect(install.status, install.stderr).toBe(0);
  cpSync(join(ROOT, "examples"), join(dir, "examples"), { recursive: true });
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the packed package", () => {
  it("installs as one package: no runtime dependency", () => {
    const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")) as {
      packages: Record<string, unknown>;
    };
    expect(Object.keys(lock.packages).filter((p) => p !== "")).toEqual(["node_modules/plugin-review"]);
    expect(readdirSync(join(dir, "node_modules")).filter((d) => !d.startsWith("."))).toEqual([
      "plugin-review",
    ]);
    const pkg = JSON.parse(
      readFileSync(join(dir, "node_modules/plugin-review/package.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.optionalDependencies).toBeUndefined();
    expect(pkg.peerDependencies).toBeUndefined();
  });

  it("holds the CLI bundle, its bin, the schemas and the docs, and none of the App's sources", () => {
    const top = [...new Set(packed.files.map((f) => f.path.split("/")[0]))].sort();
    expect(top).toEqual([
      "CHANGELOG.md",
      "LICENSE",
      "README.md",
      "bin",
      "dist-cli",
      "docs",
      "package.json",
      "schemas",
    ]);
    const paths = packed.files.map((f) => f.path);
    expect(paths).toContain("dist-cli/plugin-review.mjs");
    // The language server and the code it shares with the commands, loaded by `lsp` alone.
    expect(paths).toContain("dist-cli/lsp.mjs");
    expect(paths).toContain("dist-cli/shared.mjs");
    expect(paths).toContain("schemas/plugin.schema.json");
    expect(paths).toContain("docs/rules/version-not-bumped.md");
  });

  it("`npx plugin-review check examples/` prints what `node bin/plugin-review.js check examples/` prints", () => {
    const viaNpx = run("npx", ["plugin-review", "check", "examples/"]);
    const fromRepo = run(process.execPath, [BIN, "check", "examples/"]);
    expect(viaNpx.stderr.replace(/^npm warn .*\n/gm, "")).toBe(fromRepo.stderr);
    expect(viaNpx.stdout).toBe(fromRepo.stdout);
    expect(viaNpx.status).toBe(1); // the examples carry mistakes on purpose
    expect(fromRepo.status).toBe(1);
    expect(viaNpx.stdout).toMatch(/✖ \d+ findings .* in \d+ of \d+ descriptors/);
  });

  it("`npx plugin-review migrate` writes a Python plugin's project with the compatibility layer it carries", () => {
    cpSync(join(ROOT, "test/fixtures/ef1-plugins/remote-topology"), join(dir, "plugin"), { recursive: true });
    const r = run("npx", ["plugin-review", "migrate", "plugin/plugin.json", "--out", "migrated"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("python3 -m topology_demo_ef2");
    for (const file of ["__init__.py", "ruxit/api/base_plugin.py", "README.md"])
      expect(readFileSync(join(dir, "migrated/topology_demo_ef2/ef1compat", file), "utf8")).toBe(
        readFileSync(join(ROOT, "src/migrate/ef1compat", file), "utf8"),
      );
    expect(readFileSync(join(dir, "migrated/topology_demo_ef2/plugin/topology_demo.py"), "utf8")).toBe(
      readFileSync(join(ROOT, "test/fixtures/ef1-plugins/remote-topology/topology_demo.py"), "utf8"),
    );
  });

  it("starts its language server as editors do (`plugin-review lsp --stdio`), which reviews an opened file", async () => {
    const file = join(dir, "examples/mistakes/unknown-member/plugin.json");
    const client = new LspClient(dir, env, join(dir, "node_modules/plugin-review/bin/plugin-review.js"));
    try {
      await client.initialize(dir);
      const diagnostics = await client.open(file, readFileSync(file, "utf8"));
      expect(diagnostics.map((d) => d.code)).toContain("unknown-member");
      expect(await client.shutdown()).toBe(0);
    } finally {
      client.kill();
    }
  });

  it("runs its bundle directly: --help and --version", () => {
    const bundle = join(dir, "node_modules/plugin-review/dist-cli/plugin-review.mjs");
    const help = run(process.execPath, [bundle, "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: plugin-review <command>/);
    const version = run(bundle, ["--version"]); // executable, through its #! line
    const { version: expected } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    expect(version.stdout).toBe(`${expected}\n`);
    expect(version.status).toBe(0);
  });
});

describe("the repository's basics", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;

  it("is MIT-licensed, in package.json and in LICENSE", () => {
    expect(pkg.license).toBe("MIT");
    expect(readFileSync(join(ROOT, "LICENSE"), "utf8")).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /);
  });

  it("names its repository, home page and issue tracker", () => {
    expect(pkg.repository).toEqual({
      type: "git",
      url: "git+https://github.com/plugin-review/plugin-review.git",
    });
    expect(pkg.homepage).toBe("https://github.com/plugin-review/plugin-review#readme");
    expect(pkg.bugs).toEqual({ url: "https://github.com/plugin-review/plugin-review/issues" });
  });

  it("supports Node.js 22 and later (CI tests the maintained LTS lines, 22, 24 and 26)", () => {
    expect(pkg.engines).toEqual({ node: ">=22" });
  });

  it("keeps the App's secrets out of git: .env and private keys are ignored", () => {
    for (const file of [".env", "plugin-review.2026-11-24.private-key.pem", "keys/app.pem"]) {
      expect(spawnSync("git", ["check-ignore", "-q", "--no-index", file], { cwd: ROOT }).status, file).toBe(
        0,
      );
    }
  });

  it.each(["", "editors/vscode/"])(
    "%spackage.json decides every install script of its lockfile, by name, each one explained in docs/development.md",
    (dir) => {
      const own = JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as {
        allowScripts?: Record<string, boolean>;
      };
      const lock = JSON.parse(readFileSync(join(ROOT, dir, "package-lock.json"), "utf8")) as {
        packages: Record<string, { hasInstallScript?: boolean }>;
      };
      const withScripts = Object.entries(lock.packages)
        .filter(([path, entry]) => path && entry.hasInstallScript)
        .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
      // Name-only keys: the lockfile records no resolved URL, so npm refuses a `name@version` allow.
      expect(Object.keys(own.allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort());
      const development = readFileSync(join(ROOT, "docs", "development.md"), "utf8");
      const paragraph = development.slice(development.indexOf("**Install scripts.**"));
      for (const name of Object.keys(own.allowScripts ?? {}))
        expect(paragraph, name).toContain(`\`${name}\``);
    },
  );

  it("keeps a changelog in Keep a Changelog form", () => {
    const changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
    expect(changelog).toMatch(/^# Changelog\n/);
    expect(changelog).toContain("[Keep a Changelog](https://keepachangelog.com/en/1.1.0/)");
    const versions = [...changelog.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(versions[0]).toBe("[Unreleased]");
    for (const v of versions) expect(v).toMatch(/^\[(Unreleased|\d+\.\d+\.\d+)\]( - \d{4}-\d{2}-\d{2})?$/);
    const kinds = [...changelog.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    for (const k of kinds)
      expect(["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"]).toContain(k);
    for (const v of versions)
      expect(changelog).toMatch(new RegExp(`^\\[${v.slice(1, v.indexOf("]"))}\\]: https://`, "m"));
  });
});
