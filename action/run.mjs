#!/usr/bin/env node
/**
 * Entry of the plugin-review GitHub Action (action.yml: `runs.using: node24`, `main: action/run.mjs`). Plain ESM on
 * Node's built-ins, no build step and no dependency of its own: it runs the committed CLI bundle
 * (dist-cli/plugin-review.mjs, the file the npm package and pre-commit run) once, as a child process on the same
 * Node.js, exactly as a user would: `--format github` on stdout for the annotations, `--output json=…` for the counts
 * of the summary and the outputs, `--output sarif=…` for code scanning and the number of descriptors reviewed (SARIF
 * lists each as an artifact). Nothing is scraped from text meant for people. It writes the step summary and the
 * outputs only, never the job's PATH or environment files: later steps of the job see what they saw before.
 *
 * Environment, as the runner sets it: an INPUT_<NAME> variable per input of action.yml (the name upper-cased,
 * hyphens kept: INPUT_BASE-REF), defaults included; GITHUB_WORKSPACE, GITHUB_EVENT_NAME, GITHUB_EVENT_PATH,
 * GITHUB_BASE_REF, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, RUNNER_TEMP.
 *
 * Exit status: the CLI's. 0 passed; 1 findings at the failing level (0 when fail-on-findings is false);
 * 2 the review could not run (bad input, configuration, unknown base), whatever fail-on-findings says.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BUNDLE = fileURLToPath(new URL("../dist-cli/plugin-review.mjs", import.meta.url));
const SARIF_FILE = "plugin-review.sarif"; // relative to the workspace, where upload-sarif looks
const env = process.env;
const cwd = env.GITHUB_WORKSPACE || process.cwd(); // the checked-out repository

// Workflow commands escape %, CR and LF in their message (as @actions/core does).
const escapeData = (s) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");

/**
 * Text that a file, the configuration, a branch or git chose, in the job summary's Markdown: as code, which
 * GitHub renders as the characters it is (no HTML, link or mention), its fence longer than any backtick run
 * in it and its control characters gone. The rules of src/format/markdown.ts's codeSpan and codeBlock, which
 * this script (plain Node.js, run without a build) cannot import.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
const fence = (s, least) => "`".repeat(Math.max(least, ...(s.match(/`+/g) ?? []).map((r) => r.length + 1)));
function codeSpan(s) {
  let content = s.replace(/[\t\r\n]/g, " ").replace(CONTROLS, "") || " ";
  if (/^`|`$/.test(content) || /^ [^]*[^ ][^]* $/.test(content)) content = ` ${content} `;
  return `${fence(content, 1)}${content}${fence(content, 1)}`;
}
function codeBlock(s) {
  const content = s.replace(/\r\n?/g, "\n").replace(CONTROLS, "");
  return `${fence(content, 3)}\n${content}\n${fence(content, 3)}`;
}

/**
 * Stops with exit 2: an `::error` annotation (visible on the run's page, not only in the log) and a summary.
 * It throws rather than calling process.exit(), which could cut short output still being written to a pipe.
 */
const STOP = Symbol("stop");
function fail(message) {
  process.stdout.write(`::error title=plugin-review::${escapeData(message)}\n`);
  summary(`### plugin-review\n\n:x: The review could not run:\n\n${codeBlock(message)}\n`);
  process.exitCode = 2;
  throw STOP;
}

/** Appends to a file GitHub gave us, when it did (a local run has none). */
function append(variable, text) {
  if (env[variable]) appendFileSync(env[variable], text);
}
const summary = (markdown) => append("GITHUB_STEP_SUMMARY", markdown);

/** An input by its action.yml name, as the runner passes it (INPUT_BASE-REF for base-ref). Empty = default. */
function input(name, fallback = "") {
  return (env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim() || fallback;
}

/** A boolean input: true/false in any case (YAML's spellings); anything else is a mistake, not "false". */
function bool(name, fallback) {
  const value = input(name, String(fallback));
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  return fail(`input '${name}' must be true or false, not '${value}'`);
}

const git = (args) => spawnSync("git", args, { cwd, encoding: "utf8" });
const isCommit = (ref) => git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).status === 0;

/** The merge group's base commit, from the event's payload (GitHub sets no GITHUB_BASE_REF for merge groups). */
function mergeGroupBase() {
  try {
    const sha = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH ?? "", "utf8")).merge_group?.base_sha;
    if (typeof sha === "string" && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
  } catch {
    // reported below
  }
  return fail("a merge_group event without merge_group.base_sha in its payload (GITHUB_EVENT_PATH)");
}

/**
 * The ref to compare with, or undefined for a review of every descriptor without change rules. The `base-ref` input
 * wins; otherwise a pull request's base branch, or a merge group's base commit; otherwise (push, schedule, …) none.
 */
function resolveBase() {
  const event = env.GITHUB_EVENT_NAME ?? "";
  // pull_request_target has a base too (it checks out the base, so usually nothing has changed).
  const pr = /^pull_request(_target)?$/.test(event) ? (env.GITHUB_BASE_REF ?? "") : "";
  const explicit = input("base-ref") || (!pr && event === "merge_group" ? mergeGroupBase() : "");
  if (!explicit && !pr) return undefined;
  if (git(["rev-parse", "--is-inside-work-tree"]).status !== 0) {
    fail(`comparing with a base needs the repository checked out (actions/checkout) in ${cwd}`);
  }
  // Lookup order: origin/<base> (what a checkout with fetch-depth: 0 has, and always the remote's latest),
  // then a local branch <base> (a local clone, a test, a workflow that created it). An explicit input as given.
  const candidates = explicit ? [explicit] : [`origin/${pr}`, pr];
  for (const ref of candidates) if (isCommit(ref)) return ref;

  // Not there: actions/checkout fetches only the commit under test by default. One commit of the base is
  // enough: the CLI diffs the work tree against that commit's tree and needs no history between them.
  const branch = pr || (explicit.startsWith("origin/") ? explicit.slice("origin/".length) : "");
  const [what, fetchArgs] = branch
    ? [`origin/${branch}`, [`+refs/heads/${branch}:refs/remotes/origin/${branch}`]]
    : [explicit, [explicit]]; // a tag, a commit SHA or another ref: it lands in FETCH_HEAD
  console.log(`plugin-review: '${candidates.join("' and '")}' not found locally; fetching it from origin`);
  const fetched = git(["fetch", "--no-tags", "--depth=1", "origin", ...fetchArgs]);
  if (fetched.status === 0) {
    if (isCommit(what)) return what;
    const head = git(["rev-parse", "--verify", "--quiet", "FETCH_HEAD^{commit}"]);
    if (head.status === 0) return head.stdout.trim();
  }
  const why = (fetched.stderr || fetched.error?.message || "").trim().split("\n").pop();
  return fail(
    `cannot find the base '${candidates.join("' or '")}' to compare with, and fetching it from origin failed` +
      (why ? ` (${why})` : "") +
      ". Check out with actions/checkout and `fetch-depth: 0` (every branch and its history), keep its" +
      " credentials (persist-credentials, the default) so that the base can be fetched, or set the" +
      " `base-ref` input to a ref that exists.",
  );
}

/** The one CLI run: `github` on stdout, further reports written to the given files (`--output f=file`). */
function run(base, paths, config, outputs) {
  const args = [BUNDLE, "check", "--format", "github"];
  for (const [format, file] of Object.entries(outputs)) args.push("--output", `${format}=${file}`);
  // With a base, the configuration is the base's (`--config-from-base`): the work tree is the pull request's
  // head, and a configuration it adds or changes must not judge it (the App reads the default branch's).
  if (base) args.push("--base-ref", base, "--config-from-base");
  if (config) args.push("--config", config);
  args.push("--", ...paths); // `--`: a path that starts with `-` stays a path
  const r = spawnSync(process.execPath, args, {
    cwd,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    // The token reads the file a base configuration's `_extends` names, as the App reads it (nothing else).
    env: { ...env, NO_COLOR: "1", GITHUB_TOKEN: env.GITHUB_TOKEN || input("token") },
  });
  if (r.error) fail(`cannot run ${BUNDLE}: ${r.error.message}`);
  return r;
}

/** A report the CLI wrote, parsed; a missing or broken one is a failure of the action, not "no findings". */
function readReport(file, what) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    return fail(`plugin-review did not write a readable ${what} report (${e.message})`);
  }
}

function main() {
  if (!existsSync(BUNDLE)) {
    fail("the CLI bundle dist-cli/plugin-review.mjs is missing from the action's checkout");
  }
  const raw = input("paths", ".");
  // One path or glob per line (so that a path may contain spaces), or several on one line separated by spaces.
  // Lines are told before input() trims: a block scalar (`paths: |`) of one path ends with its line break.
  const perLine = (env["INPUT_PATHS"] ?? "").includes("\n");
  const paths = (perLine ? raw.split("\n") : raw.split(/\s+/)).map((p) => p.trim()).filter(Boolean);
  const config = input("config"); // empty: the CLI finds the nearest .github/plugin-review.yml
  const sarif = bool("sarif", false);
  const failOnFindings = bool("fail-on-findings", true);
  // A SARIF file left by an earlier run in the same job must never be uploaded as this run's result.
  rmSync(join(cwd, SARIF_FILE), { force: true });
  const base = resolveBase();

  // Reports go to a temporary folder of the runner, except the SARIF file that code scanning uploads.
  const temp = mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), "plugin-review-"));
  const outputs = {
    json: join(temp, "findings.json"),
    sarif: sarif ? join(cwd, SARIF_FILE) : join(temp, "findings.sarif"),
  };
  const review = run(base, paths, config, outputs);
  // Annotations: the `github` format prints workflow commands, which the runner reads on stdout.
  process.stdout.write(review.stdout);
  // The CLI's notes and errors quote files and the configuration: shown with workflow commands stopped (a
  // token no file can know ends the stop), on the same stream, so that no line of theirs is a command.
  if (review.stderr) {
    const token = randomUUID();
    process.stdout.write(`::stop-commands::${token}\n${review.stderr.replace(/\n?$/, "\n")}::${token}::\n`);
  }
  if (review.status !== 0 && review.status !== 1) {
    // Usage, configuration or I/O error: the CLI said why on stderr.
    rmSync(temp, { recursive: true, force: true });
    const message = review.stderr.replace(/^plugin-review: /gm, "").trim();
    fail(message || `plugin-review exited with status ${review.status ?? review.signal}`);
  }
  // Counts for the summary and the outputs: from the JSON report and the SARIF log, not from messages.
  const findings = readReport(outputs.json, "JSON");
  const checked = readReport(outputs.sarif, "SARIF").runs?.[0]?.artifacts?.length ?? 0;
  rmSync(temp, { recursive: true, force: true });
  const count = (severity) => findings.filter((f) => f.severity === severity).length;
  const [errors, warnings, notices] = [count("error"), count("warning"), count("notice")];
  if (sarif) {
    console.log(`plugin-review: wrote ${SARIF_FILE}`);
    append("GITHUB_OUTPUT", `sarif-file=${SARIF_FILE}\n`);
  }

  append("GITHUB_OUTPUT", `findings=${findings.length}\nerrors=${errors}\n`);

  // The CLI's notes (descriptors left out, configuration remarks) are its stderr lines, shown as code.
  const notes = [...review.stderr.matchAll(/^plugin-review: (.+)$/gm)].map((m) => m[1]);
  const failed = review.status === 1;
  summary(
    [
      "### plugin-review",
      "",
      base
        ? `Compared with ${codeSpan(base)}: the descriptors changed since then, with the change rules.`
        : "No base to compare with: every descriptor, without the change rules.",
      "",
      "| Severity | Findings |",
      "| --- | ---: |",
      `| Errors | ${errors} |`,
      `| Warnings | ${warnings} |`,
      `| Notices | ${notices} |`,
      `| **Total** | **${findings.length}** |`,
      // With a base each finding is new or existing (docs/configuration.md): say how many of each.
      ...(findings.some((f) => f.baseline)
        ? [
            "",
            `${findings.filter((f) => f.baseline === "new").length} new, ${findings.filter((f) => f.baseline === "existing").length} existing (already in the base; by default they do not fail the job).`,
          ]
        : []),
      "",
      `${checked} ${checked === 1 ? "descriptor" : "descriptors"} checked. ` +
        (failed
          ? failOnFindings
            ? ":x: Findings reach the failing level (`fail_on`)."
            : ":warning: Findings reach the failing level (`fail_on`); not failing the job (`fail-on-findings: false`)."
          : ":white_check_mark: Passed."),
      ...(notes.length ? ["", "Notes:", "", codeBlock(notes.join("\n"))] : []),
      "",
    ].join("\n"),
  );

  process.exitCode = failed && failOnFindings ? 1 : 0;
}

try {
  main();
} catch (e) {
  if (e !== STOP) throw e;
}
