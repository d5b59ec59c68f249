/**
 * A repository's readiness for Extensions 2.0, as the audit reports it: which of its files are EF1 descriptors
 * (`plugin.json`) and which EF2 extensions (`extension.yaml`), what `plugin-review migrate` can do with each
 * descriptor (src/migrate's `readiness()`: the one classification, so that the audit and `migrate` never
 * disagree), and whether the repository's migration is done, in progress or not started. Pure: paths and
 * texts in, the report's parts out; collect.ts reads the files.
 *
 * An extension.yaml is paired with the plugin.json it replaces as the review of a migration pairs them: in the
 * same folder, or one folder up from an `extension/` subfolder (the layout `migrate` and Dynatrace's tools
 * write). The audit reads the extension.yaml files beside a path the configuration's `paths` name, so that it
 * finds an EF2 extension wherever the organisation keeps its descriptors, and nowhere else.
 */
import { parse } from "yaml";
import { globMatcher } from "../../core/config.js";
import { get, isObj, str } from "../../core/guards.js";
import type { FileReview } from "../../core/review.js";
import { DATA_SOURCES } from "../../migrate/check.js";
import { readiness } from "../../migrate/migrate.js";
import type {
  AuditExtension,
  AuditFile,
  DescriptorReadiness,
  MigrationState,
} from "../../format/audit/report.js";

/** The file name of an EF2 extension's descriptor. */
export const EXTENSION_FILE = "extension.yaml";
const SUBFOLDER = "extension/";

export function isExtensionPath(path: string): boolean {
  return path === EXTENSION_FILE || path.endsWith(`/${EXTENSION_FILE}`);
}

/** The plugin.json paths an extension.yaml may replace, the one in its own folder first. */
export function replacedDescriptorPaths(path: string): string[] {
  if (!isExtensionPath(path)) return [];
  const dir = path.slice(0, path.length - EXTENSION_FILE.length);
  const out = [`${dir}plugin.json`];
  if (dir === SUBFOLDER || dir.endsWith(`/${SUBFOLDER}`))
    out.push(`${dir.slice(0, dir.length - SUBFOLDER.length)}plugin.json`);
  return out;
}

/** The extension.yaml files the audit reads: each beside a plugin.json path the configuration's `paths` name. */
export function extensionMatcher(paths: readonly string[]): (path: string) => boolean {
  const match = globMatcher(paths);
  return (path) => replacedDescriptorPaths(path).some(match);
}

/** An EF1 descriptor's readiness from its review (its text as read, its variant). */
export function descriptorReadiness(review: FileReview, unread?: string): DescriptorReadiness {
  if (unread !== undefined) return { framework: "EF1", items: [{ text: unread }] };
  const r = readiness(review.text);
  return {
    framework: "EF1",
    ...(r.type !== undefined ? { type: r.type } : {}),
    // The core says host or remote for anything it parsed as a JSON object (rules.md "Variant").
    ...(review.variant ? { variant: review.variant } : {}),
    migrate: r.migrate,
    items: r.items,
  };
}

/** An extension.yaml's data source and name, from its text; what it is when it does not parse. */
export function extensionOf(path: string, text: string | { unread: string }): AuditExtension {
  if (typeof text !== "string") return { path, framework: "EF2", problem: text.unread };
  let doc: unknown;
  try {
    // Errors throw (duplicate keys too); warnings are not printed.
    doc = parse(text, { version: "1.2", prettyErrors: false, logLevel: "error" });
  } catch (e) {
    const first = (e instanceof Error ? e.message : String(e)).split("\n")[0];
    return { path, framework: "EF2", problem: `it is not YAML: ${first}` };
  }
  if (!isObj(doc)) return { path, framework: "EF2", problem: "it is not a YAML mapping" };
  // EF2 allows one data source; should a file hold several, each is named.
  const sources = DATA_SOURCES.filter((s) => get(doc, s) !== undefined);
  const name = str(get(doc, "name"));
  return {
    path,
    framework: "EF2",
    ...(sources.length ? { dataSource: sources.join("+") } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}

/**
 * Each descriptor paired with the extension.yaml that replaces it (and back), and the repository's state:
 * done (EF2 only), in progress (both), not started (EF1 only); undefined when it holds neither.
 */
export function pairMigration(
  files: AuditFile[],
  extensions: AuditExtension[],
): { files: AuditFile[]; extensions: AuditExtension[]; migration?: MigrationState } {
  const descriptors = new Set(files.map((f) => f.path));
  const paired = extensions.map((e) => {
    const replaces = replacedDescriptorPaths(e.path).find((p) => descriptors.has(p));
    return replaces !== undefined ? { ...e, replaces } : e;
  });
  const replacedBy = new Map<string, string>();
  for (const e of paired) if (e.replaces && !replacedBy.has(e.replaces)) replacedBy.set(e.replaces, e.path);
  const withExtension = files.map((f) => {
    const extension = replacedBy.get(f.path);
    return extension && f.readiness ? { ...f, readiness: { ...f.readiness, extension } } : f;
  });
  const migration: MigrationState | undefined = files.length
    ? extensions.length
      ? "in-progress"
      : "not-started"
    : extensions.length
      ? "done"
      : undefined;
  return { files: withExtension, extensions: paired, ...(migration ? { migration } : {}) };
}
