/** Every rule id of the catalog has a rule file, a test that makes it fire and one where it is silent, and docs. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RULES, RULE_IDS } from "../../src/core/rules/index.js";
import { ROOT } from "../helpers.js";

/** The ids of ../shared/spec/rules.md (a public interface: never renamed). */
export const CATALOG = [
  "invalid-json",
  "duplicate-key",
  "required-member",
  "invalid-type",
  "invalid-value",
  "invalid-format",
  "unknown-member",
  "name-format",
  "version-format",
  "metric-group-format",
  "metric-group-missing",
  "duplicate-plugin-name",
  "reserved-member",
  "variant-mismatch",
  "ignored-member",
  "host-entity",
  "activation-criteria-missing",
  "invalid-regex",
  "slow-regex",
  "metric-kind",
  "duplicate-metric-key",
  "displayname-equals-key",
  "rx-pid-position",
  "duplicate-alert-id",
  "alert-samples",
  "alert-placeholder",
  "keymetrics-limit",
  "unknown-metric-reference",
  "unknown-dimension-reference",
  "stacked-line",
  "config-property-unknown",
  "duplicate-property-key",
  "property-default-type",
  "dropdown-values",
  "unknown-technology",
  "unknown-process-type",
  "policy-name",
  "version-not-bumped",
  "version-decreased",
  "metric-group-changed",
  "plugin-renamed",
  "metric-removed",
  "metric-unit-changed",
  "metric-dimensions-changed",
  "property-removed",
];

const specPath = join(ROOT, "..", "shared", "spec", "rules.md");

describe("rule catalog", () => {
  it("implements every catalog id (and documents the extra ones)", () => {
    expect(RULE_IDS).toEqual(expect.arrayContaining(CATALOG));
    const extra = RULE_IDS.filter((id) => !CATALOG.includes(id));
    expect(extra.sort()).toEqual(["base-invalid-json", "file-too-large"]);
  });

  it.skipIf(!existsSync(specPath))("matches the ids in ../shared/spec/rules.md", () => {
    const ids = [...readFileSync(specPath, "utf8").matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect([...ids].sort()).toEqual([...CATALOG].sort());
  });

  it.each(RULES.map((r) => [r.meta.id, r] as const))("%s has its file, test and docs", (id, rule) => {
    expect(existsSync(join(ROOT, "src", "core", "rules", `${id}.ts`))).toBe(true);
    expect(existsSync(join(ROOT, "test", "core", "rules", `${id}.test.ts`))).toBe(true);
    const doc = join(ROOT, "docs", "rules", `${id}.md`);
    expect(existsSync(doc)).toBe(true);
    const page = readFileSync(doc, "utf8");
    expect(page).toMatch(new RegExp(`^# ${id}\\b`));
    expect(page).toMatch(new RegExp(`Default severity: \\*\\*${rule.meta.defaultSeverity}\\*\\*`));
    expect(readFileSync(join(ROOT, "docs", "rules.md"), "utf8")).toContain(`[\`${id}\`](rules/${id}.md)`);
  });
});
