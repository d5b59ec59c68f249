/**
 * `plugin-review audit --compare <earlier.json>`: what changed since an earlier audit's JSON report. Findings
 * are matched by repository, descriptor path and fingerprint (the finding's identity, the same however other
 * elements move), as many times as each occurs: what only the earlier audit has was fixed, what only this one
 * has is new. Only repositories that both audits reviewed are compared; the others are listed with the
 * reason, so that a repository the earlier audit did not cover never makes its findings look new (nor one
 * that could not be read this time makes them look fixed).
 */
import {
  blobUrl,
  type AuditComparison,
  type AuditFinding,
  type AuditReport,
  type AuditRepository,
  type ChangeTally,
  type ComparedFinding,
  type ReadinessTotals,
  type ReviewedRepository,
} from "./report.js";

const SEVERITIES: readonly string[] = ["error", "warning", "notice"];

/** A fingerprint of this identity scheme (core/identity.ts: 32 hex digits of SHA-256). */
const FINGERPRINT = /^[0-9a-f]{32}$/;

/** Why a value is not a finding as the JSON report writes it, or undefined when it is one. */
function findingProblem(f: unknown): string | undefined {
  if (typeof f !== "object" || f === null) return "not an object";
  const x = f as Record<string, unknown>;
  for (const k of ["ruleId", "message", "fingerprint"])
    if (typeof x[k] !== "string") return `its \`${k}\` is not a string`;
  if (!SEVERITIES.includes(x.severity as string)) return "its `severity` is not error, warning or notice";
  for (const k of ["line", "column", "endLine", "endColumn"])
    if (!Number.isInteger(x[k]) || (x[k] as number) < 1) return `its \`${k}\` is not a positive integer`;
  return undefined;
}

/**
 * The earlier audit from its JSON text, checked as far as comparing and rendering read it; or why it cannot
 * be compared (not JSON, not an audit report, another organisation's, written before reports kept findings).
 */
export function parseEarlierAudit(
  text: string,
  file: string,
  organization: string,
): { report: AuditReport } | { error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    return { error: `${file} is not JSON (${(e as Error).message})` };
  }
  const d = data as Partial<Record<keyof AuditReport, unknown>> | null;
  const isAudit =
    typeof d === "object" &&
    d !== null &&
    !Array.isArray(d) &&
    typeof d.organization === "string" &&
    Array.isArray(d.repositories) &&
    typeof d.totals === "object" &&
    d.totals !== null;
  if (!isAudit)
    return {
      error: `${file} is not an audit's JSON report (plugin-review audit <org> --format json writes one)`,
    };
  const report = data as AuditReport;
  if (report.organization.toLowerCase() !== organization.toLowerCase())
    return { error: `${file} is an audit of ${report.organization}, not of ${organization}` };
  for (const [i, r] of (report.repositories as unknown[]).entries()) {
    const repo = r as Partial<ReviewedRepository> | null;
    if (typeof repo !== "object" || repo === null || typeof repo.repository !== "string")
      return { error: `${file}: repositories[${i}] is not a repository of an audit` };
    if (repo.status !== "reviewed") continue;
    if (!Array.isArray(repo.files))
      return { error: `${file}: ${repo.repository} has no list of descriptors` };
    for (const f of repo.files as unknown[]) {
      const file_ = f as { path?: unknown; findings?: unknown } | null;
      if (typeof file_ !== "object" || file_ === null || typeof file_.path !== "string")
        return { error: `${file}: a descriptor of ${repo.repository} has no path` };
      if (!Array.isArray(file_.findings))
        return {
          error: `${file} lists no findings per descriptor (${repo.repository}/${file_.path}): it was written by an earlier plugin-review; audit again with this one to start comparing`,
        };
      for (const [j, x] of (file_.findings as unknown[]).entries()) {
        const problem = findingProblem(x);
        if (problem)
          return {
            error: `${file}: finding ${j + 1} of ${repo.repository}/${file_.path} is not one an audit writes: ${problem}`,
          };
        // Fingerprints match only within one identity scheme: matching others would call every finding new.
        if (!FINGERPRINT.test((x as AuditFinding).fingerprint))
          return {
            error: `${file} was written by an earlier plugin-review, whose fingerprints (${(x as AuditFinding).fingerprint}) are not this one's SHA-256 identities: its findings cannot be matched with this audit's; audit again with this one to start comparing`,
          };
      }
    }
  }
  return { report };
}

/** An earlier report's readiness when it has the counts the trend reads (an earlier plugin-review wrote none). */
function earlierReadiness(x: unknown): ReadinessTotals | undefined {
  const r = x as Partial<ReadinessTotals> | undefined;
  const numbers = (o: unknown, keys: readonly string[]) =>
    typeof o === "object" &&
    o !== null &&
    keys.every((k) => Number.isInteger((o as Record<string, unknown>)[k]));
  return r &&
    numbers(r.repositories, ["done", "in-progress", "not-started"]) &&
    numbers(r.descriptors, ["total", "fully", "partly", "notAtAll"])
    ? (r as ReadinessTotals)
    : undefined;
}

const key = (path: string, fingerprint: string) => `${path}\u0000${fingerprint}`;

function statusWords(r: AuditRepository): string {
  if (r.status === "invalid-configuration") return "its configuration was invalid";
  if (r.status === "skipped") return `skipped: ${r.reason}`;
  if (r.status === "unreadable") return "it could not be read";
  return "reviewed";
}

function tally<K extends string>(
  name: K,
  fixed: readonly ComparedFinding[],
  added: readonly ComparedFinding[],
  of: (f: ComparedFinding) => string,
): (ChangeTally & Record<K, string>)[] {
  const by = new Map<string, ChangeTally>();
  const at = (k: string) => by.get(k) ?? (by.set(k, { fixed: 0, new: 0 }).get(k) as ChangeTally);
  for (const f of fixed) at(of(f)).fixed++;
  for (const f of added) at(of(f)).new++;
  return [...by]
    .map(([k, t]) => ({ [name]: k, ...t }) as ChangeTally & Record<K, string>)
    .sort((a, b) => b.fixed + b.new - (a.fixed + a.new) || a[name].localeCompare(b[name]));
}

/**
 * This audit compared with an earlier one: a copy of `now` whose findings in compared repositories carry
 * `baseline` (`existing` when the earlier audit had them, else `new`), with the comparison attached.
 */
export function compareAudits(earlier: AuditReport, now: AuditReport, file: string): AuditReport {
  const before = new Map(earlier.repositories.map((r) => [r.repository.toLowerCase(), r]));
  const seen = new Set<string>();
  const fixed: ComparedFinding[] = [];
  const added: ComparedFinding[] = [];
  const notCompared: AuditComparison["notCompared"] = [];
  let unchanged = 0;
  let compared = 0;
  const repositories = now.repositories.map((r): AuditRepository => {
    const id = r.repository.toLowerCase();
    seen.add(id);
    const then = before.get(id);
    if (r.status !== "reviewed" || then?.status !== "reviewed") {
      if (r.status === "reviewed")
        notCompared.push({
          repository: r.repository,
          reason: then
            ? `not reviewed by the earlier audit (${statusWords(then)})`
            : "not in the earlier audit",
        });
      else if (then?.status === "reviewed")
        notCompared.push({
          repository: r.repository,
          reason: `not reviewed by this audit (${statusWords(r)})`,
        });
      return r;
    }
    compared++;
    // The earlier findings by descriptor and identity, each matched at most once.
    const pending = new Map<string, { path: string; finding: AuditFinding }[]>();
    for (const f of then.files)
      for (const x of f.findings) {
        const k = key(f.path, x.fingerprint);
        const same = pending.get(k);
        if (same) same.push({ path: f.path, finding: x });
        else pending.set(k, [{ path: f.path, finding: x }]);
      }
    const files = r.files.map((f) => ({
      ...f,
      findings: f.findings.map((x): AuditFinding => {
        const match = pending.get(key(f.path, x.fingerprint))?.shift();
        if (match) {
          unchanged++;
          return { ...x, baseline: "existing" };
        }
        added.push({ ...x, repository: r.repository, path: f.path, ...link(r, f.path, x.line) });
        return { ...x, baseline: "new" };
      }),
    }));
    for (const left of pending.values())
      for (const { path, finding } of left)
        fixed.push({
          ...finding,
          repository: r.repository,
          path,
          ...link(then, path, finding.line),
        });
    return { ...r, files };
  });
  for (const r of earlier.repositories)
    if (r.status === "reviewed" && !seen.has(r.repository.toLowerCase()))
      notCompared.push({ repository: r.repository, reason: "not in this audit" });
  const comparison: AuditComparison = {
    earlier: {
      file,
      ...(typeof earlier.auditedAt === "string" ? { auditedAt: earlier.auditedAt } : {}),
      totals: earlier.totals,
      ...(earlierReadiness(earlier.readiness) ? { readiness: earlier.readiness } : {}),
    },
    compared,
    fixed,
    new: added,
    unchanged,
    byRule: tally("ruleId", fixed, added, (f) => f.ruleId),
    byRepository: tally("repository", fixed, added, (f) => f.repository),
    notCompared,
  };
  return { ...now, repositories, comparison };
}

function link(repo: { url?: string; commit?: string }, path: string, line: number): { url?: string } {
  const url = blobUrl(repo, path, line);
  return url ? { url } : {};
}
