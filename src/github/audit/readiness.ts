/**
 * A repository's readiness for Extensions 2.0, as the audit reports it: which of its files are EF1 descriptors
 * (`plugin.json`) and which EF2 extensions (`extension.yaml`), what `plugin-review migrate` can do with each
 * descriptor (src/migrate's `readiness()`: the one classification, so that the audit and `migrate` never
 * disagree), and whether the repository's migration is done, in progress or not started. Pure: paths and
 * texts in, the report's parts out; collect.ts reads the files.
 *
 * An extension.yaml is paired with the plugin.json it replaces as the review of a migration pairs them
 * (core/ef2/pairing.ts): in the same folder, or one folder up from an `extension/` subfolder (the layout
 * `migrate` and Dynatrace's tools write). The audit reads the extension.yaml files the configuration reviews,
 * as the App does (core/ef2/pairing.ts reviewedPathMatcher), so that it finds an EF2 extension wherever the organisation keeps
 * its descriptors and extensions, and nowhere else.
 */
import { isExtensionPath, replacedDescriptorPaths } from "../../core/ef2/pairing.js";
import { get, isObj, str } from "../../core/guards.js";
import { sizeLimit, type DescriptorInput, type AnalysedFile } from "../../core/analyse.js";
import type { ResolvedConfig } from "../../core/config.js";
import { FORMATS, load, type Loaded } from "../../core/formats.js";
import { LineIndex } from "../../core/locate.js";
import { DATA_SOURCES } from "../../migrate/check.js";
import { readiness } from "../../migrate/migrate.js";
import type {
  AuditExtension,
  AuditFile,
  DescriptorReadiness,
  MigrationState,
} from "../../format/audit/report.js";

/**
 * The extension.yaml files as review inputs, as the App reviews them in a pull request touching them: each
 * compared with the plugin.json it replaces when the repository holds one beside it (which the change keeps:
 * the audit reads one commit).
 */
export function reviewedExtensions(
  descriptors: readonly DescriptorInput[],
  extensions: readonly DescriptorInput[],
): DescriptorInput[] {
  const byPath = new Map(descriptors.map((d) => [d.path, d]));
  return extensions.map((e): DescriptorInput => {
    const ef1 = replacedDescriptorPaths(e.path)
      .map((p) => byPath.get(p))
      .find((d) => d !== undefined);
    if (!ef1) return e;
    const replaces = {
      path: ef1.path,
      content: ef1.content,
      ...(ef1.size !== undefined ? { size: ef1.size } : {}),
      status: "kept" as const,
    };
    return { ...e, replaces };
  });
}

/** An EF1 descriptor's readiness from its analysed file (its text as read, its variant). */
export function descriptorReadiness(file: AnalysedFile, unread?: string): DescriptorReadiness {
  if (unread !== undefined) return { framework: "EF1", items: [{ text: unread }] };
  const r = readiness(file.text);
  return {
    framework: "EF1",
    ...(r.type !== undefined ? { type: r.type } : {}),
    // The core says host or remote for anything it parsed as a JSON object (rules.md "Variant").
    ...(file.variant ? { variant: file.variant } : {}),
    migrate: r.migrate,
    items: r.items,
  };
}

/**
 * An extension.yaml's data source and name; what it is when they cannot be read. Read as the review reads it
 * (formats.ts: the same size limit, `max_extension_size` within `max_file_size`, the same UTF-8 check, and the
 * same parse, Dynatrace's, bounded in depth, aliases and nodes), so that the audit never calls a file Dynatrace
 * reads "not YAML" while the review reviews it, nor names it otherwise. `file.size`: its real size when it was
 * not downloaded (over the limit).
 */
export function extensionOf(
  file: Pick<DescriptorInput, "path" | "content" | "size">,
  config: Pick<ResolvedConfig, "maxFileSize" | "maxExtensionSize">,
): AuditExtension {
  const { limit } = sizeLimit(config, true);
  return extensionRead(
    file.path,
    load(file.content, limit, file.size, FORMATS["extension.yaml"].parse),
    config,
  );
}

/**
 * extensionOf of a file already read (`loaded`) within the extension's size limit: the audit passes the read
 * the review made (AnalysisOptions.onRead), so that each extension.yaml is parsed once.
 */
export function extensionRead(
  path: string,
  loaded: Loaded,
  config: Pick<ResolvedConfig, "maxFileSize" | "maxExtensionSize">,
): AuditExtension {
  const { limit, setting } = sizeLimit(config, true);
  const parsed = loaded.parsed;
  if (!parsed) {
    const problem =
      loaded.encodingError !== undefined
        ? FORMATS["extension.yaml"].notUtf8
        : `not read: ${overLimit(loaded.size, limit, setting)}`;
    return { path, framework: "EF2", problem };
  }
  if (!parsed.ok) {
    const { line } = new LineIndex(loaded.text).position(parsed.error.offset);
    return {
      path,
      framework: "EF2",
      problem: `it is not valid YAML: ${parsed.error.message} (line ${line})`,
    };
  }
  const doc = parsed.value;
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

const thousands = (n: number) => n.toLocaleString("en-US");

/** Why a file was not read: it is over its size limit (`setting`, in bytes), for descriptors and extensions alike. */
export function overLimit(size: number, limit: number, setting = "max_file_size"): string {
  return `${thousands(size)} bytes, over ${setting} (${thousands(limit)})`;
}

/** An extension with its review's counts (the file the audit reviewed at its path; none: left as it is). */
export function withFindings(e: AuditExtension, file: AuditFile | undefined): AuditExtension {
  if (!file) return e;
  const { errors, warnings, notices, wouldFail } = file;
  return { ...e, errors, warnings, notices, wouldFail };
}

/**
 * Each descriptor paired with the extension.yaml that replaces it (and back), and the repository's state:
 * done (EF2 only), in progress (both), not started (EF1 only); undefined when it holds neither.
 */
export function pairMigration(
  files: AuditFile[],
  extensions: AuditExtension[],
): { files: AuditFile[]; extensions: AuditExtension[]; migration?: MigrationState } {
  // The files reviewed hold extension.yaml files too (those a pull request would review): EF1 are the others.
  const ef1 = files.filter((f) => !isExtensionPath(f.path));
  const descriptors = new Set(ef1.map((f) => f.path));
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
  const migration: MigrationState | undefined = ef1.length
    ? extensions.length
      ? "in-progress"
      : "not-started"
    : extensions.length
      ? "done"
      : undefined;
  return { files: withExtension, extensions: paired, ...(migration ? { migration } : {}) };
}
