/**
 * `plugin-review audit <org>`: a thin shell over src/github/audit/ (token, progress line) and the formats in
 * src/format/audit/ (output on stdout, or one SARIF file per repository in --output-dir), with --compare
 * reading an earlier audit's JSON first, so that a bad file is said before any request is made.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compareAudits, parseEarlierAudit } from "../format/audit/compare.js";
import { formatCsv } from "../format/audit/csv.js";
import { formatHtml } from "../format/audit/html.js";
import type { AuditReport } from "../format/audit/report.js";
import { auditSarifFiles, MAX_SARIF_RESULTS } from "../format/audit/sarif.js";
import { formatAuditText } from "../format/audit/text.js";
import { auditOctokit, auditOrganization } from "../github/audit/collect.js";
import { describeRequestError } from "../github/api/errors.js";
import { githubAccess } from "./github-access.js";

export type AuditFormat = "text" | "json" | "markdown" | "html" | "csv" | "sarif";
export const AUDIT_FORMATS: readonly AuditFormat[] = ["text", "json", "markdown", "html", "csv", "sarif"];

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

const isFormat = (f: string): f is AuditFormat => (AUDIT_FORMATS as readonly string[]).includes(f);

/** The formats `--output` writes to one file (SARIF is a file per repository: `--output-dir`). */
const FILE_FORMATS = AUDIT_FORMATS.filter((f) => f !== "sarif");

/** `--output <format>=<file>` values, or the first that is not one. */
function parseOutputs(values: readonly string[]): { format: AuditFormat; file: string }[] | string {
  const out: { format: AuditFormat; file: string }[] = [];
  for (const o of values) {
    const eq = o.indexOf("=");
    const format = o.slice(0, Math.max(0, eq));
    if (eq < 1 || eq === o.length - 1 || !isFormat(format) || format === "sarif")
      return `audit --output takes <format>=<file> with a format among ${FILE_FORMATS.join(", ")} (SARIF: --format sarif --output-dir), not '${o}'`;
    out.push({ format, file: o.slice(eq + 1) });
  }
  return out;
}

/** Why the options cannot work together, or undefined. */
function usageProblem(opts: AuditCliOptions): string | undefined {
  if (!isFormat(opts.format))
    return `audit --format must be one of ${AUDIT_FORMATS.join(", ")}, not '${opts.format}'`;
  const outputs = parseOutputs(opts.outputs ?? []);
  if (typeof outputs === "string") return outputs;
  if (opts.format === "sarif" && !opts.outputDir)
    return "audit --format sarif writes one file per repository: give the folder with --output-dir <dir>";
  if (opts.format !== "sarif" && opts.outputDir !== undefined)
    return `--output-dir is for --format sarif (one file per repository); --format ${opts.format} prints to standard output: redirect it to a file`;
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(opts.org))
    return `'${opts.org}' is not an organisation name`;
  return undefined;
}

/** The earlier audit to compare with, or the reason it cannot be (said before anything is asked of GitHub). */
function earlierAudit(file: string, org: string, cwd: string): { report: AuditReport } | { error: string } {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      error: `--compare cannot read ${file}${code === "ENOENT" ? ": no such file" : `: ${code ?? e}`}`,
    };
  }
  const parsed = parseEarlierAudit(text, file, org);
  return "error" in parsed ? { error: `--compare: ${parsed.error}` } : parsed;
}

/** Writes one SARIF file per repository; prints each as `file<TAB>repository<TAB>commit<TAB>ref` for scripts. */
function writeSarif(report: AuditReport, dir: string, io: AuditIo): number {
  const files = auditSarifFiles(report, io.version ?? "0.0.0");
  const at = resolve(io.cwd ?? process.cwd(), dir);
  try {
    mkdirSync(at, { recursive: true });
    for (const f of files) writeFileSync(join(at, f.name), f.text);
  } catch (e) {
    io.stderr(`plugin-review: cannot write the SARIF files to ${dir}: ${(e as Error).message}\n`);
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
  const problem = usageProblem(opts);
  if (problem) {
    io.stderr(`plugin-review: ${problem}\n`);
    return 2;
  }
  const format = opts.format as AuditFormat;
  let earlier: AuditReport | undefined;
  if (opts.compare !== undefined) {
    const read = earlierAudit(opts.compare, opts.org, io.cwd ?? process.cwd());
    if ("error" in read) {
      io.stderr(`plugin-review: ${read.error}\n`);
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
    });
  } catch (e) {
    io.stderr(`plugin-review: ${describeRequestError(e, `listing the repositories of ${opts.org}`)}\n`);
    return 2;
  } finally {
    if (progress) io.stderr("\r\u001b[2K");
  }
  // The version beside the organisation: fingerprints compare within one plugin-review's identity scheme.
  if (io.version) {
    const { organization, auditedAt, ...rest } = report;
    report = { organization, ...(auditedAt ? { auditedAt } : {}), version: io.version, ...rest };
  }
  if (earlier) report = compareAudits(earlier, report, opts.compare as string);
  const render = (f: Exclude<AuditFormat, "sarif">): string =>
    f === "html"
      ? formatHtml(report, io.version ?? "0.0.0")
      : f === "csv"
        ? formatCsv(report)
        : formatAuditText(report, f);
  for (const o of parseOutputs(opts.outputs ?? []) as {
    format: Exclude<AuditFormat, "sarif">;
    file: string;
  }[])
    try {
      writeFileSync(resolve(io.cwd ?? process.cwd(), o.file), render(o.format));
    } catch (e) {
      io.stderr(`plugin-review: cannot write '${o.file}': ${(e as Error).message}\n`);
      return 2;
    }
  if (format === "sarif") return writeSarif(report, opts.outputDir as string, io);
  io.stdout(render(format));
  return 0;
}
