/** `--format sarif`: SARIF 2.1.0 for code scanning, with rule metadata and help links. */
import { pathToFileURL } from "node:url";
import { RULES } from "../core/rules/index.js";
import type { Finding } from "../core/types.js";
import { jsonText } from "./printable.js";

/** What a result is made of: a finding of `check` (core's Finding) or of the audit's report alike. */
export type SarifFinding = Pick<
  Finding,
  "ruleId" | "severity" | "message" | "pointer" | "line" | "column" | "endLine" | "endColumn" | "fingerprint"
> & { baseline?: "new" | "existing" | undefined };

/** A reviewed descriptor: an artifact, with its findings as results. */
export interface SarifFile {
  path: string;
  findings: readonly SarifFinding[];
  /** The artifact's property bag (the audit's readiness of the descriptor). */
  properties?: Record<string, unknown>;
}

const LEVEL = { error: "error", warning: "warning", notice: "note" } as const;

/**
 * A displayed path as a SARIF `artifactLocation.uri` (RFC 3986), each segment percent-encoded so that spaces,
 * non-ASCII letters, `%`, `#`, `?` and brackets stay part of the path. A relative path is a relative
 * reference (`plugins/a%20b/plugin.json`: code scanning resolves it against the repository root); an
 * absolute one is a `file:` URI (`file:///tmp/x`, `file:///C:/x` for a Windows drive, `file://server/share/x`
 * for a UNC path): a relative reference must not begin with a slash (the validator's SARIF1004), and a drive
 * letter would read as a URI scheme.
 */
export function artifactUri(path: string): string {
  const slashed = path.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
  const encode = (p: string) => p.split("/").map(encodeURIComponent).join("/");
  const drive = /^[A-Za-z]:\//.exec(slashed)?.[0];
  if (drive) return `file:///${drive}${encode(slashed.slice(drive.length))}`;
  if (slashed.startsWith("//")) return `file:${encode(slashed)}`; // UNC: //server/share/…
  if (slashed.startsWith("/")) return `file://${encode(slashed)}`;
  return encode(slashed);
}

/**
 * A message as SARIF plain text (§3.11.6): `[text](target)` there is an embedded link, which viewers render
 * as a link (to a URI, or a location). A message quotes what a descriptor holds (a member name such as
 * `[docs](https://example.com)`), so its `[`, `]` and `\` are escaped with a backslash, as the standard says
 * for literal brackets and as CodeQL writes every message: no text of a descriptor becomes a link.
 */
export function sarifText(message: string): string {
  return message.replace(/[\\[\]]/g, "\\$&");
}

/** SARIF's `baselineState` for a finding compared with a base: new, or already there (unchanged). */
function baselineState(f: SarifFinding): { baselineState: "new" | "unchanged" } | undefined {
  if (f.baseline === "new") return { baselineState: "new" };
  if (f.baseline === "existing") return { baselineState: "unchanged" };
  return undefined;
}

/** A descriptor's path in its git repository (relative to `root`, the folder holding `.git`). */
export interface RepositoryPath {
  path: string;
  root: string;
}

/** The base id of paths relative to the repository root, as code scanning and CodeQL name it. */
export const SRCROOT = "%SRCROOT%";

/**
 * The SARIF log of reviewed descriptors. `run` adds members to the run (the audit's provenance, automation
 * details and notes); `check` and `audit` share everything else, so that rule ids, fingerprints and help
 * links are the same in both.
 */
export function toSarif(
  files: readonly SarifFile[],
  display: (path: string) => string,
  version: string,
  run: Record<string, unknown> = {},
  /**
   * A descriptor's path in its repository, when it is in one: its location is then that path relative to
   * %SRCROOT% (the repository root), which is what code scanning resolves, wherever the command ran.
   */
  inRepository: (path: string) => RepositoryPath | undefined = () => undefined,
): object {
  const index = new Map(RULES.map((r, i) => [r.meta.id, i]));
  const location = (path: string) => {
    const repo = inRepository(path);
    return repo ? { uri: artifactUri(repo.path), uriBaseId: SRCROOT } : { uri: artifactUri(display(path)) };
  };
  // %SRCROOT% defined where it is one folder (descriptors of several repositories leave it to the reader).
  const roots = new Set(files.flatMap((r) => inRepository(r.path)?.root ?? []));
  const [root] = roots;
  const rootUri = root !== undefined ? pathToFileURL(root).href.replace(/\/?$/, "/") : "";
  const originalUriBaseIds =
    roots.size === 1
      ? {
          originalUriBaseIds: {
            [SRCROOT]: {
              uri: rootUri,
              description: { text: "The repository root: the folder holding .git." },
            },
          },
        }
      : {};
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "plugin-review",
            version,
            informationUri: "https://github.com/plugin-review/plugin-review",
            rules: RULES.map((r) => ({
              // No `name`: equal to the id, the validator says it must be left out (SARIF1001).
              id: r.meta.id,
              shortDescription: { text: r.meta.description },
              fullDescription: { text: r.meta.description },
              helpUri: r.meta.docs.url,
              defaultConfiguration: { level: LEVEL[r.meta.defaultSeverity] },
            })),
          },
        },
        columnKind: "unicodeCodePoints",
        ...originalUriBaseIds,
        // Every reviewed descriptor, also those without findings: what was analysed, not only what failed.
        artifacts: files.map((r) => ({
          location: location(r.path),
          roles: ["analysisTarget"],
          ...(r.properties ? { properties: r.properties } : {}),
        })),
        results: files.flatMap((r, artifactIndex) =>
          r.findings.map((f) => ({
            ruleId: f.ruleId,
            ...(index.has(f.ruleId) ? { ruleIndex: index.get(f.ruleId) } : {}),
            level: LEVEL[f.severity],
            message: { text: sarifText(f.message) },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { ...location(r.path), index: artifactIndex },
                  region: {
                    startLine: f.line,
                    startColumn: f.column,
                    endLine: f.endLine,
                    endColumn: f.endColumn,
                  },
                },
                logicalLocations: [{ fullyQualifiedName: f.pointer || "/", kind: "member" }],
              },
            ],
            // The finding's identity: code scanning keeps one alert per finding however elements move.
            // (`pluginReview/v1` was rule and raw pointer, which moved with every index shift.)
            partialFingerprints: { "pluginReview/v3": f.fingerprint },
            ...baselineState(f),
          })),
        ),
        ...run,
      },
    ],
  };
}

export function formatSarif(
  files: readonly SarifFile[],
  display: (path: string) => string,
  version: string,
  inRepository?: (path: string) => RepositoryPath | undefined,
): string {
  return jsonText(toSarif(files, display, version, {}, inRepository), 2) + "\n";
}
