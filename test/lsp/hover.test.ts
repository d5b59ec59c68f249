/**
 * Hover on an extension.yaml's metrics: every member of a metric's entry, a calculated metric's too (`key: func:…`,
 * `query`, `metricSelector`), and of its metadata, explained from schemas/extension.schema.json (table).
 */
import { describe, expect, it } from "vitest";
import { hoverAt } from "../../src/lsp/hover.js";
import { parseYamlAsDynatrace } from "../../src/core/yaml/snakeyaml.js";

const EXTENSION = `name: custom:example.pool
version: 1.0.0
minDynatraceVersion: "1.285"
metrics:
  - key: example.pool.used
    metadata:
      displayName: Used
      description: Connections in use
      unit: Count
      tags: [pool]
      sourceEntityType: process_group_instance
      dimensions:
        - key: pool
          displayName: Pool
      metricProperties:
        minValue: 0
        maxValue: 100
        rootCauseRelevant: false
        impactRelevant: true
        valueType: score
        latency: 1
  - key: func:example.pool.usage
    query:
      metricSelector: example.pool.used / example.pool.size
    metadata:
      displayName: Usage
`;

/** The hover on the `nth` (0-based) occurrence of `needle`, one character into it. */
function hoverOn(needle: string, nth = 0) {
  const parsed = parseYamlAsDynatrace(EXTENSION);
  if (!parsed.ok) throw new Error(parsed.error.message);
  let at = -1;
  for (let i = 0; i <= nth; i++) at = EXTENSION.indexOf(needle, at + 1);
  expect(at).toBeGreaterThanOrEqual(0);
  return hoverAt(parsed.root, "extension", at + 1);
}

describe("hover on a metric of an extension.yaml", () => {
  it.each([
    ["key: example", 0, /^`key`\n\n.*metric ingestion protocol.*`func:`/s],
    ["key: func:", 0, /^`key`\n\n.*`func:`.*`query\.metricSelector`/s],
    ["query:", 0, /^`query`\n\n.*calculated metric/s],
    ["metricSelector:", 0, /^`metricSelector`\n\n.*metric selector/s],
    ["metadata:", 0, /^`metadata`\n\n/],
    ["displayName: Used", 0, /^`displayName`\n\n.*name Dynatrace shows/s],
    ["description: Connections", 0, /^`description`\n\n/],
    ["unit: Count", 0, /^`unit`\n\n/],
    ["tags:", 0, /^`tags`\n\n/],
    ["sourceEntityType:", 0, /^`sourceEntityType`\n\n.*entity type/s],
    ["dimensions:", 0, /^`dimensions`\n\n/],
    ["displayName: Pool", 0, /^`displayName`\n\n.*dimension/s],
    ["metricProperties:", 0, /^`metricProperties`\n\n/],
    ["minValue:", 0, /^`minValue`\n\n/],
    ["maxValue:", 0, /^`maxValue`\n\n/],
    ["rootCauseRelevant:", 0, /^`rootCauseRelevant`\n\n/],
    ["impactRelevant:", 0, /^`impactRelevant`\n\n/],
    ["valueType:", 0, /^`valueType`\n\n.*Allowed values: `error`, `score`, `unknown`/s],
    ["latency:", 0, /^`latency`\n\n/],
  ])("%s explains itself", (needle, nth, expected) => {
    const hover = hoverOn(needle, nth);
    expect(hover?.markdown).toMatch(expected);
  });
});
