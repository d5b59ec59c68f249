/**
 * `plugin-review audit <org>`: a thin shell over src/github/audit/ (token, progress line) and the formats in
 * src/format/audit/ (output on stdout, or one SARIF file per repository in --output-dir), with --compare
 * reading an earlier audit's JSON first, so that a bad file is said before any request is made.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compareAudits, parseEarlierAudit } from "../format/audit/compare.js";
import { formatCsv } from "../format/audit/csv.js";
import { formatHtml } from "../format/audit/html.js";
import type { AuditReport } from "../format/audit/report.js";
import { auditSarifFiles, MAX_SARIF_RESULTS } from "../format/audit/sarif.js";
import { formatAuditText } from "../format/audit/text.js";
import { escaped } from "../format/printable.js";
import { auditOctokit, auditOrganization } from "../github/audit/collect.js";
import { describeRequestError } from "../github/api/errors.js";
import { makeFolder } from "../workspace/make-folder.js";
import { describeErrno } from "../workspace/usage-error.js";
import { githubAccess } from "./github-access.js";

/** The formats one audit writes to a single file: on stdout, or with `--output <format>=<file>`. */
const RENDER = {
  text: (r: AuditReport) => formatAuditText(r, "text"),
  json: (r: AuditReport) => formatAuditText(r, "json"),
  markdown: (r: AuditReport) => formatAuditText(r, "markdown"),
  html: (r: AuditReport, version: string) => formatHtml(r, version),
  csv: (r: AuditReport) => formatCsv(r),
} satisfies Record<string, (r: AuditReport, version: string) => string>;
type FileFormat = keyof typeof RENDER;
const FILE_FORMATS = Object.keys(RENDER) as FileFormat[];
/** SARIF is a file per repository (`--output-dir`). */
const AUDIT_FORMATS = [...FILE_FORMATS, "sarif"] as const;

export interface AuditCliOptions {
  org: string;
  repos: string[];
  /** The App's slug, to find its installation (default plugin-review). */
  app?: string;
  apiUrl?: string;
  format: string;
  /** An earlier audit's JSON report: what changed since. */
  compare?: string;
  /** Where `--format sarif` writes its files (one per repository). */
  outputDir?: string;
  /** Further reports of the same audit (`--output <format>=<file>`): one audit, several formats. */
  outputs?: string[];
}

export interface AuditIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal: only then is a progress line drawn (and redrawn in place). */
  stderrIsTTY: boolean;
  /** plugin-review's version, for the SARIF driver and the HTML page. */
  version?: string;
  /** What relative paths (`--compare`, `--output`, `--output-dir`) are relative to (default: the process's). */
  cwd?: string;
}

const isFileFormat = (f: string): f is FileFormat => Object.hasOwn(RENDER, f);

/** Where the reports go: one format on stdout (or SARIF files in a folder), and further files. */
type Destinations = {
  outputs: { format: FileFormat; file: string }[];
} & ({ format: FileFormat } | { format: "sarif"; outputDir: string });

/** `--output <format>=<file>` values, or the first that is not one. */
function parseOutputs(values: readonly string[]): Destinations["outputs"] | string {
  const out: Destinations["outputs"] = [];
  for (const o of values) {
    const eq = o.indexOf("=");
    const format = o.slice(0, Math.max(0, eq));
    if (eq < 1 || eq === o.length - 1 || !isFileFormat(format))
      return `audit --output takes <format>=<file> with a format among ${FILE_FORMATS.join(", ")} (SARIF: --format sarif --output-dir), not '${o}'`;
    out.push({ format, file: o.slice(eq + 1) });
  }
  return out;
}

/** The options' destinations, or why the options cannot work together. */
function destinations(opts: AuditCliOptions): Destinations | string {
  const { format, outputDir } = opts;
  if (format !== "sarif" && !isFileFormat(format))
    return `audit --format must be one of ${AUDIT_FORMATS.join(", ")}, not '${format}'`;
  const outputs = parseOutputs(opts.outputs ?? []);
  if (typeof outputs === "string") return outputs;
  if (format === "sarif" && !outputDir)
    return "audit --format sarif writes one file per repository: give the folder with --output-dir <dir>";
  if (format !== "sarif" && outputDir !== undefined)
    return `--output-dir is for --format sarif (one file per repository); --format ${format} prints to standard output: redirect it to a file`;
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(opts.org))
    return `'${opts.org}' is not an organisation name`;
  return format === "sarif" ? { format, outputDir: outputDir!, outputs } : { format, outputs };
}

/** The earlier audit to compare with, or the reason it cannot be (said before anything is asked of GitHub). */
function earlierAudit(file: string, org: string, cwd: string): { report: AuditReport } | { error: string } {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), "utf8");
  } catch (e) {
    return { error: `--compare cannot read ${file}: ${describeErrno(e)}` };
  }
  const parsed = parseEarlierAudit(text, file, org);
  return "error" in parsed ? { error: `--compare: ${parsed.error}` } : parsed;
}

/** Writes one SARIF file per repository; prints each as `file<TAB>repository<TAB>commit<TAB>ref` for scripts. */
function writeSarif(report: AuditReport, dir: string, cwd: string, io: AuditIo): number {
  const files = auditSarifFiles(report, io.version ?? "0.0.0");
  const at = resolve(cwd, dir);
  for (const f of files)
    try {
      writeFileSync(join(at, f.name), f.text);
    } catch (e) {
      io.stderr(`plugin-review: cannot write '${escaped(join(dir, f.name))}': ${describeErrno(e)}\n`);
      return 2;
    }
  for (const f of files) {
    io.stdout(`${join(dir, f.name)}\t${f.repository}\t${f.commit}\t${f.ref}\n`);
    if (f.omitted)
      io.stderr(
        `plugin-review: ${f.repository}: ${f.omitted} of ${f.results + f.omitted} results left out of ${f.name} (GitHub keeps at most ${MAX_SARIF_RESULTS} per run; errors kept first)\n`,
      );
  }
  return 0;
}

export async function runAudit(opts: AuditCliOptions, io: AuditIo): Promise<number> {
  const to = destinations(opts);
  if (typeof to === "string") {
    // Options that do not go together, or a bad value: a usage error, with the pointer every command gives.
    io.stderr(`plugin-review: ${escaped(to)}\nRun 'plugin-review audit --help' for the options.\n`);
    return 2;
  }
  const cwd = io.cwd ?? process.cwd();
  const version = io.version ?? "0.0.0";
  let earlier: AuditReport | undefined;
  if (opts.compare !== undefined) {
    const read = earlierAudit(opts.compare, opts.org, cwd);
    if ("error" in read) {
      io.stderr(`plugin-review: ${escaped(read.error)}\n`);
      return 2;
    }
    earlier = read.report;
  }
  const access = githubAccess(
    opts.apiUrl,
    io,
    "the organisation's repositories (and its .github repository)",
  );
  if (!access) return 2;
  // The folder the SARIF files go to, made before the audit: one that cannot be is said before any request.
  if (to.format === "sarif")
    try {
      makeFolder(resolve(cwd, to.outputDir));
    } catch (e) {
      io.stderr(
        `plugin-review: --output-dir: cannot make the folder '${escaped(to.outputDir)}': ${describeErrno(e)}\n`,
      );
      return 2;
    }
  const octokit = auditOctokit(access.token, access.baseUrl, (m) => io.stderr(`plugin-review: ${m}\n`));
  const progress = io.stderrIsTTY
    ? (done: number, total: number, repo: string) => io.stderr(`\r\u001b[2K[${done}/${total}] ${repo}`)
    : undefined;
  let report: AuditReport;
  try {
    report = await auditOrganization(octokit, {
      org: opts.org,
      repos: opts.repos,
      ...(opts.app ? { app: opts.app } : {}),
      ...(progress ? { onProgress: progress } : {}),
      ...(io.version ? { version: io.version } : {}),
    });
  } catch (e) {
    io.stderr(`plugin-review: ${describeRequestError(e, `listing the repositories of ${opts.org}`)}\n`);
    return 2;
  } finally {
    if (progress) io.stderr("\r\u001b[2K");
  }
  if (earlier && opts.compare !== undefined) report = compareAudits(earlier, report, opts.compare);
  for (const o of to.outputs)
    try {
      writeFileSync(resolve(cwd, o.file), RENDER[o.format](report, version));
    } catch (e) {
      io.stderr(`plugin-review: cannot write '${escaped(o.file)}': ${describeErrno(e)}\n`);
      return 2;
    }
  if (to.format === "sarif") return writeSarif(report, to.outputDir, cwd, io);
  io.stdout(RENDER[to.format](report, version));
  return 0;
}
