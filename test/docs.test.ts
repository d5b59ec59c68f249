/**
 * The README and docs/*.md, as users read them: written for users (no issue numbers, internal paths or dated load
 * figures), every relative link resolving, and every command of their shell blocks run, here (in a repository like
 * a user's, with this checkout's CLI standing for the installed package), by another named test, or by .ci/run.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT, text, validHost } from "./helpers.js";
import { BIN, ensureBuilt } from "./cli/run.js";

const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const read = (page: string) => readFileSync(join(ROOT, page), "utf8");
const CI = read(".ci/run");

/** Every command line of a page's shell blocks, without its trailing comment. */
function commands(page: string): string[] {
  return [...read(page).matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)].flatMap((m) =>
    m[1]!
      .split("\n")
      .map((l) => l.replace(/\s+#\s.*$/, "").trim())
      .filter((l) => l && !l.startsWith("#")),
  );
}
const ALL = PAGES.flatMap((page) => commands(page).map((command) => ({ page, command })));

/** Commands that act on an account or an installed editor: documented, and not run anywhere (the reason). */
const NOT_RUN: [RegExp, string][] = [
  [/^aws ssm put-parameter /, "writes secrets into an AWS account"],
  [/^code --install-extension /, "installs into a user's VS Code"],
  [/^npm run bench$/, "takes minutes; measures, tests nothing"],
  [
    /^git clone https:\/\/github\.com\/plugin-review\/plugin-review\.git$/,
    "fetches from GitHub (test/npm-start.test.ts clones this checkout and runs npm start in the clone)",
  ],
  [
    /^npm install --save-dev plugin-review$/,
    "installs from the npm registry (test/package.test.ts installs the tarball)",
  ],
  [
    /^pip install dt-extensions-sdk \.$/,
    "installs from PyPI (test/migrate/python-run.test.ts puts Dynatrace's SDK on PYTHONPATH instead)",
  ],
  [
    /^python3 -m \w+_ef2$/,
    "runs a migrated plugin until stopped (test/migrate/python-run.test.ts runs migrated projects so)",
  ],
];
/** Commands run verbatim by another test. */
const ELSEWHERE: [RegExp, string][] = [
  [/^pre-commit (install|run plugin-review --all-files)$/, "test/precommit.test.ts"],
  [/^npm install --save-dev \S+\.tgz$/, "test/package.test.ts"],
];

let repo: string;
beforeAll(() => {
  ensureBuilt();
  // A user's repository: descriptors under plugins/ and the examples, on main, with origin/main, and a change.
  repo = mkdtempSync(join(tmpdir(), "plugin-review-docs-"));
  const git = (...args: string[]) => {
    const r = spawnSync("git", args, { cwd: repo, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stdout}${r.stderr}`);
  };
  git("init", "-q", "-b", "main");
  cpSync(join(ROOT, "examples"), join(repo, "examples"), { recursive: true });
  cpSync(join(ROOT, "examples/host-valid"), join(repo, "plugins/host"), { recursive: true });
  cpSync(join(ROOT, "examples/mistakes/remote-mistakes"), join(repo, "plugins/remote"), { recursive: true });
  // Dashboards, SLOs and alerts exported from Dynatrace, for `migrate --rewrite` (docs/migrate.md).
  cpSync(join(ROOT, "test/migrate/rewrite"), join(repo, "exports"), { recursive: true });
  git("add", ".");
  git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "plugins");
  git("update-ref", "refs/remotes/origin/main", "HEAD");
  git("checkout", "-q", "-b", "feature");
  writeFileSync(join(repo, "plugins/host/plugin.json"), text({ ...validHost(), ui: {} })); // no version bump
  git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-am", "a change");
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

/** Runs a documented command line with `npx plugin-review` / the action's path standing for this checkout's. */
function runHere(command: string) {
  const env: Record<string, string> = {};
  let line = command;
  for (let m; (m = /^([A-Z_]+)=(\S*) /.exec(line)); line = line.slice(m[0].length)) env[m[1]!] = m[2]!;
  const words = line.split(/\s+/);
  const args =
    words[0] === "npx" && words[1] === "plugin-review"
      ? [BIN, ...words.slice(2)]
      : words[0] === "node"
        ? words.slice(1).map((w) => w.replace("/path/to/plugin-review", ROOT))
        : undefined;
  if (!args) throw new Error(`cannot run '${command}' here`);
  const redirect = args.indexOf(">");
  if (redirect >= 0) args.splice(redirect);
  // Commands that talk to GitHub cannot reach it here (test/github/audit/audit.test.ts and test/cli/pr.test.ts run
  // them against the fake GitHub): with --help added, their options must all be known.
  if (words[2] === "audit" || words[2] === "pr") args.push("--help");
  return spawnSync(process.execPath, args, {
    cwd: repo,
    encoding: "utf8",
    timeout: 60_000,
    // As shown: no terminal, no COLUMNS (unless the command sets it), whatever runs the tests.
    env: {
      ...process.env,
      NO_COLOR: "1",
      COLUMNS: "",
      ...env,
      GITHUB_TOKEN: env.GITHUB_TOKEN ? "not-a-real-token" : "",
    },
  });
}

describe("the README and docs", () => {
  it.each(PAGES)("%s is written for users", (page) => {
    const text = read(page);
    expect(text).not.toMatch(/\bissues? #?\d+\b|design (contract|card)/i);
    // The folder beside the clone that holds the real corpus: said only where contributors read how to get it.
    if (page !== "docs/development.md") expect(text).not.toMatch(/\.\.\/shared\b/);
    expect(text).not.toMatch(/load average|\b(before|was)\s*\|/i);
  });

  it.each(["README.md", "docs/deploy.md"])("%s names exactly app.yml's permissions and events", (page) => {
    const app = parse(read("app.yml")) as { default_permissions: object; default_events: string[] };
    const said =
      /asks for\s+the least it needs:\s+the permissions\s+([\s\S]*?),\s+and the events\s+([\s\S]*?)\./.exec(
        read(page),
      );
    expect(
      said,
      `${page}: "asks for the least it needs: the permissions …, and the events …."`,
    ).not.toBeNull();
    const permissions = Object.fromEntries(
      [...said![1]!.matchAll(/`(\w+): (read|write)`/g)].map((m) => [m[1], m[2]]),
    );
    expect(permissions).toEqual(app.default_permissions);
    expect([...said![2]!.matchAll(/`(\w+)`/g)].map((m) => m[1])).toEqual(app.default_events);
  });

  it("names one ref for the Action everywhere, its major tag, and a release's tag for pre-commit", () => {
    const { version } = JSON.parse(read("package.json")) as { version: string };
    const refs = PAGES.flatMap((page) =>
      [...read(page).matchAll(/plugin-review\/plugin-review@([\w.-]+)|^\s*rev: (\S+)/gm)].map((m) =>
        m[1] !== undefined ? `${page}: action @${m[1]}` : `${page}: pre-commit rev ${m[2]}`,
      ),
    );
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs)
      expect(ref).toMatch(new RegExp(`: (action @v${version.split(".")[0]}|pre-commit rev v${version})$`));
  });

  it("keeps the README short: at most 250 lines", () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(250);
  });

  it.each(PAGES)("%s links only to files and headings that exist", (page) => {
    const slug = (h: string) =>
      h
        .trim()
        .toLowerCase()
        .replace(/[^\w\- ]/g, "")
        .replace(/ /g, "-");
    const text = read(page).replace(/```[\s\S]*?```/g, "");
    for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?|mailto):/.test(link!)) continue;
      const [path, anchor] = link!.split("#");
      const target = path ? normalize(join(dirname(page), path)) : page;
      expect(existsSync(join(ROOT, target)), `${page}: ${link}`).toBe(true);
      if (anchor && target.endsWith(".md")) {
        const headings = [...read(target).matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1]!));
        expect(headings, `${page}: ${link}`).toContain(anchor);
      }
    }
  });
});

describe("every command in the README and docs is run", () => {
  it("each is run here, by a named test, by .ci/run, or named as not runnable with the reason", () => {
    const unaccounted = ALL.filter(({ command }) => {
      if (/^(GITHUB_\w+=\S+ )*(npx plugin-review|node \/path\/to\/plugin-review\/)/.test(command))
        return false;
      if (NOT_RUN.some(([re]) => re.test(command))) return false;
      if (ELSEWHERE.some(([re, test]) => re.test(command) && read(test).includes('blocks("sh")')))
        return false;
      // npm commands and `cd <dir> && …` chains: each step is a line of .ci/run.
      const steps = command.split(" && ");
      if (steps.every((s) => /^npm /.test(s) || /^cd /.test(s))) {
        const dir = steps.find((s) => s.startsWith("cd "))?.slice(3);
        return !steps
          .filter((s) => s.startsWith("npm "))
          .every((s) => {
            const [, verb, ...rest] = s.split(" ");
            const inCi = dir
              ? new RegExp(`npm (run )?--prefix ${dir} ${rest.length ? rest.join(" ") : verb}`).test(CI) ||
                new RegExp(`npm ${verb} --prefix ${dir}`).test(CI)
              : new RegExp(`^(PORT=\\S+ (setsid )?)?${s}\\b`, "m").test(CI);
            return inCi;
          });
      }
      return true;
    });
    expect(unaccounted).toEqual([]);
  });

  const here = ALL.filter(({ command }) =>
    /^(GITHUB_\w+=\S+ )*(npx plugin-review|node \/path)/.test(command),
  );

  /** Shown runs: a block whose first line is `$ npx plugin-review …`, the rest its output as printed. */
  const shown = PAGES.flatMap((page) =>
    [...read(page).matchAll(/```[a-z]*\n\$ (npx plugin-review [^\n]*)\n([\s\S]*?)```/g)].map((m) => ({
      page,
      command: m[1]!,
      output: m[2]!,
    })),
  );

  it("shows at least the README's example as it runs", () => {
    expect(shown.map((s) => s.page)).toContain("README.md");
  });

  it.each(shown)("$page shows what `$command` prints", ({ command, output }) => {
    expect(runHere(command).stdout).toBe(output);
  });

  it.each(here)("$page: $command", ({ command }) => {
    const r = runHere(command);
    if (/ (audit|pr) /.test(command)) {
      expect(r.stdout).toMatch(/^Usage: plugin-review (audit|pr) /);
      expect(r.status).toBe(0);
      return;
    }
    expect(r.stderr).not.toMatch(/unknown option|Run 'plugin-review \w+ --help'/);
    expect([0, 1]).toContain(r.status);
    expect(r.stdout.length).toBeGreaterThan(0);
  });
});
