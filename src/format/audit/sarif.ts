/**
 * `plugin-review audit --format sarif --output-dir <dir>`: one SARIF 2.1.0 log per reviewed repository with
 * descriptors, for code scanning (an upload is per repository and commit). The logs are `check --format
 * sarif`'s (src/format/sarif.ts: the same rule ids, fingerprints and help links, so an alert raised by one
 * is the alert of the other), with the audited commit as provenance and within GitHub's limits. The readiness
 * for Extensions 2.0 is in property bags, which code scanning keeps and shows nowhere, so that it raises no
 * alert: each descriptor's artifact has its own, the run the repository's migration and its EF2 extensions.
 */
import { SEVERITY_RANK } from "../../core/types.js";
import { toSarif, type SarifFinding } from "../sarif.js";
import { capability } from "./readiness.js";
import { reviewed, type AuditFile, type AuditReport, type ReviewedRepository } from "./report.js";
import { jsonText } from "../printable.js";

/** GitHub keeps at most this many results of a run (the most severe); the rest are cut here, with a note. */
export const MAX_SARIF_RESULTS = 5000;

/** Code scanning's category for the audit's uploads (`runAutomationDetails.id`: the part before the last slash). */
const AUDIT_CATEGORY = "plugin-review-audit";

export interface AuditSarifFile {
  repository: string;
  /** The file's name in the output folder: the repository's name, made safe for any file system. */
  name: string;
  /** The audited commit and its branch's ref, which an upload names (`commit_sha`, `ref`). */
  commit: string;
  ref: string;
  text: string;
  results: number;
  /** Results left out to stay within GitHub's limit. */
  omitted: number;
}

/** A repository's name as a file name: GitHub's names are `[A-Za-z0-9._-]`; anything else becomes `_`. */
function fileName(repository: string, taken: Set<string>): string {
  let base = (repository.split("/").pop() ?? repository).replace(/[^A-Za-z0-9._-]/g, "_");
  if (/^\.*$/.test(base)) base = `_${base}`;
  let name = `${base}.sarif`;
  for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${base}-${i}.sarif`;
  taken.add(name.toLowerCase());
  return name;
}

/** The findings kept within the limit: the most severe first, as GitHub keeps them; in their files' order. */
function kept(r: ReviewedRepository): Set<SarifFinding> {
  const all = r.files.flatMap((f) => f.findings);
  if (all.length <= MAX_SARIF_RESULTS) return new Set(all);
  const ranked = all
    .map((f, i) => ({ f, i }))
    .sort((a, b) => SEVERITY_RANK[b.f.severity] - SEVERITY_RANK[a.f.severity] || a.i - b.i);
  return new Set(ranked.slice(0, MAX_SARIF_RESULTS).map((x) => x.f));
}

/** A descriptor's readiness as its artifact's properties (absent in a report that predates it). */
function readinessProperties(r: ReviewedRepository, f: AuditFile): Record<string, unknown> | undefined {
  const x = f.readiness;
  if (!x) {
    // An extension.yaml reviewed beside the plugin.json it replaces.
    const e = r.extensions?.find((e) => e.path === f.path);
    return e && { "pluginReview/framework": e.framework, "pluginReview/dataSource": e.dataSource };
  }
  return {
    "pluginReview/framework": x.framework,
    ...(x.type !== undefined ? { "pluginReview/type": x.type } : {}),
    ...(x.variant ? { "pluginReview/variant": x.variant } : {}),
    "pluginReview/migrate": capability(x),
    ...(x.items.length ? { "pluginReview/migrateDetail": x.items } : {}),
    ...(x.extension ? { "pluginReview/extension": x.extension } : {}),
  };
}

/** The repository's migration and its EF2 extensions, as the run's properties. */
function migrationProperties(r: ReviewedRepository): Record<string, unknown> {
  return {
    ...(r.migration ? { "pluginReview/migration": r.migration } : {}),
    ...(r.extensions?.length ? { "pluginReview/extensions": r.extensions } : {}),
  };
}

function repositorySarif(r: ReviewedRepository, version: string, name: string): AuditSarifFile {
  const keep = kept(r);
  const total = r.files.reduce((n, f) => n + f.findings.length, 0);
  const omitted = total - keep.size;
  const ref = `refs/heads/${r.defaultBranch}`;
  const migration = migrationProperties(r);
  const note = `${omitted} of ${total} results left out: GitHub keeps at most ${MAX_SARIF_RESULTS.toLocaleString("en-US")} results per run, so the most severe were kept (errors first); the audit's JSON, CSV or HTML report lists them all.`;
  const log = toSarif(
    r.files.map((f) => {
      const properties = readinessProperties(r, f);
      return {
        path: f.path,
        findings: f.findings.filter((x) => keep.has(x)),
        ...(properties ? { properties } : {}),
      };
    }),
    (p) => p,
    version,
    {
      // The category of the audit's analyses, apart from those of a repository's own `check` workflow.
      // The commit and ref are the upload's (`commit_sha`, `ref`): the manifest on stdout gives them.
      automationDetails: { id: `${AUDIT_CATEGORY}/` },
      ...(omitted
        ? {
            invocations: [
              {
                executionSuccessful: true,
                toolExecutionNotifications: [{ level: "warning", message: { text: note } }],
              },
            ],
          }
        : {}),
      ...(omitted || Object.keys(migration).length
        ? {
            properties: {
              ...(omitted ? { "pluginReview/results": total, "pluginReview/omittedResults": omitted } : {}),
              ...migration,
            },
          }
        : {}),
    },
  );
  return {
    repository: r.repository,
    name,
    commit: r.commit,
    ref,
    text: jsonText(log, 2) + "\n",
    results: keep.size,
    omitted,
  };
}

/**
 * One SARIF log per reviewed repository that has descriptors (also when they have no findings: an upload
 * without results closes the alerts that were fixed), and per repository whose migration is done: its
 * descriptors are gone, and an upload without them closes their alerts. Other repositories without
 * descriptors get none: code scanning would show an analysis of nothing.
 */
export function auditSarifFiles(report: AuditReport, version: string): AuditSarifFile[] {
  const taken = new Set<string>();
  return reviewed(report)
    .filter((r) => r.descriptors > 0 || r.migration === "done")
    .map((r) => repositorySarif(r, version, fileName(r.repository, taken)));
}
