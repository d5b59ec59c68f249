/** `--format sarif`: SARIF 2.1.0 for code scanning, with rule metadata and help links. */
import { RULES } from "../core/rules/index.js";
import type { FileReview } from "../core/review.js";

import { ruleDocsUrl } from "./links.js";

const LEVEL = { error: "error", warning: "warning", notice: "note" } as const;

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
            ruleIndex: index.get(f.ruleId) ?? 0,
            level: LEVEL[f.severity],
            message: { text: f.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: display(r.path).replace(/\\/g, "/").replace(/^\.\//, "") },
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
