/** `--format sarif`: SARIF 2.1.0 for code scanning, with rule metadata and help links. */
import { RULES } from "../core/rules/index.js";
import type { FileReview } from "../core/review.js";

import { ruleDocsUrl } from "./links.js";

const LEVEL = { error: "error", warning: "warning", notice: "note" } as const;

/**
 * A displayed path as a SARIF `artifactLocation.uri`, which must be a URI reference (RFC 3986): each
 * segment is percent-encoded, so spaces, non-ASCII letters, `%`, `#`, `?` and brackets in file names
 * stay part of the path; a Windows drive path becomes a `file:` URI rather than a "C:" scheme.
 */
export function artifactUri(path: string): string {
  const slashed = path.replace(/\\/g, "/").replace(/^\.\//, "");
  const drive = /^[A-Za-z]:\//.exec(slashed)?.[0];
  const rest = drive ? slashed.slice(drive.length) : slashed;
  const encoded = rest.split("/").map(encodeURIComponent).join("/");
  return drive ? `file:///${drive}${encoded}` : encoded;
}

export function toSarif(
  reviews: readonly FileReview[],
  display: (path: string) => string,
  version: string,
): object {
  const index = new Map(RULES.map((r, i) => [r.meta.id, i]));
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
              id: r.meta.id,
              name: r.meta.id,
              shortDescription: { text: r.meta.description },
              fullDescription: { text: r.meta.description },
              helpUri: ruleDocsUrl(r.meta.id),
              defaultConfiguration: { level: LEVEL[r.meta.defaultSeverity] },
            })),
          },
        },
        columnKind: "unicodeCodePoints",
        results: reviews.flatMap((r) =>
          r.findings.map((f) => ({
            ruleId: f.ruleId,
            ...(index.has(f.ruleId) ? { ruleIndex: index.get(f.ruleId) } : {}),
            level: LEVEL[f.severity],
            message: { text: f.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: artifactUri(display(r.path)) },
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
            partialFingerprints: { "pluginReview/v1": `${f.ruleId}:${f.pointer}` },
          })),
        ),
      },
    ],
  };
}

export function formatSarif(
  reviews: readonly FileReview[],
  display: (path: string) => string,
  version: string,
): string {
  return JSON.stringify(toSarif(reviews, display, version), null, 2) + "\n";
}
