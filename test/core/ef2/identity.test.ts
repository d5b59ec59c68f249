/**
 * An extension.yaml's findings keep their identity when other elements move (rules.md "New and existing
 * findings"): a subgroup inserted before the one a finding is in, a variable before the one it is about, leave
 * the finding existing; changing what it is about makes it new.
 */
import { describe, expect, it } from "vitest";
import { check, EF2, EXTENSION } from "../../helpers.js";

/** Two mistakes: `if.out.bytes` without metadata, and a variable `community` that nothing uses. */
const base = EXTENSION.replace(
  "  - key: example.router.if.out.bytes.count\n    metadata:\n      displayName: Bytes sent\n      unit: Byte\n",
  "",
).replace("vars:\n", "vars:\n  - id: community\n    displayName: Community\n    type: text\n");

const SUBGROUP =
  "      - subgroup: temperature\n        table: false\n        metrics:\n          - key: example.router.temperature\n            value: oid:1.3.6.1.4.1.9.9.13.1.3.1.3\n";
const moved = base
  .replace("      - subgroup: uptime\n", `${SUBGROUP}      - subgroup: uptime\n`)
  .replace("vars:\n", "vars:\n  - id: site\n    displayName: Site\n    type: text\n")
  .replace(
    "  - key: example.router.uptime\n    metadata:",
    "  - key: example.router.temperature\n    metadata:\n      unit: Unspecified\n  - key: example.router.uptime\n    metadata:",
  )
  .replace(
    "filter: var:if_name_filter",
    "filter: var:if_name_filter\n          - key: site\n            value: var:site",
  );

const state = (doc: string, rule: string) =>
  check(doc, { ...EF2, base, isNew: false })
    .filter((f) => f.ruleId === rule)
    .map((f) => [f.data?.key ?? f.data?.id, f.baseline]);

describe("an extension.yaml's finding identity", () => {
  it("keeps a finding existing when a subgroup or a variable is inserted before it", () => {
    expect(state(moved, "metric-metadata-missing")).toEqual([
      ["example.router.if.out.bytes.count", "existing"],
    ]);
    expect(state(moved, "var-unused")).toEqual([["community", "existing"]]);
  });

  it("makes it new when what it is about changes", () => {
    const renamed = base.replace(
      "- key: example.router.if.out.bytes\n",
      "- key: example.router.if.tx.bytes\n",
    );
    expect(state(renamed, "metric-metadata-missing")).toEqual([["example.router.if.tx.bytes.count", "new"]]);
  });
});
