/** Every rule id of the catalog: file name = `meta.id` (the registry's key) = docs page = table test. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DOCS_BASE, type Rule } from "../../src/core/rule.js";
import { RULE_IDS, RULES, RULES_BY_ID } from "../../src/core/rules/index.js";
import { itUnless, ROOT, withoutShared } from "../helpers.js";

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
    expect(extra.sort()).toEqual([
      "activation-property-unused",
      "activation-schema-invalid",
      "asset-missing",
      "base-invalid-json",
      "build-placeholder",
      "ef2-version-format",
      "feature-set-removed",
      "feature-set-undefined",
      "file-too-large",
      "invalid-yaml",
      "metric-metadata-missing",
      "metric-not-reported",
      "metric-type-changed",
      "migration-dimension-dropped",
      "migration-metric-missing",
      "migration-metric-type-changed",
      "min-version-raised",
      "min-version-too-low",
      "multiple-data-sources",
      "property-type-changed",
      "python-module-missing",
      "var-undeclared",
      "var-unused",
    ]);
  });

  it("docs/rules.md lists every rule once, with its default severity", () => {
    const rows = [
      ...readFileSync(join(ROOT, "docs", "rules.md"), "utf8").matchAll(
        /^\| \[`([a-z0-9-]+)`\]\(rules\/\1\.md\) *\| (\w+) +\|/gm,
      ),
    ].map((m) => [m[1] as string, m[2] as string] as const);
    expect(rows.map(([id]) => id).sort()).toEqual([...RULE_IDS].sort());
    for (const [id, severity] of rows) expect(severity, id).toBe(RULES_BY_ID.get(id)?.meta.defaultSeverity);
  });

  itUnless(withoutShared("spec/rules.md"))("matches the ids in ../shared/spec/rules.md", () => {
    const ids = [...readFileSync(specPath, "utf8").matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect([...ids].sort()).toEqual([...CATALOG].sort());
  });

  it("registers every rule file once, each named after its rule's `meta.id`", async () => {
    const files = readdirSync(join(ROOT, "src", "core", "rules"))
      .filter((f) => f.endsWith(".ts") && f !== "index.ts")
      .map((f) => f.slice(0, -3));
    expect([...files].sort()).toEqual([...RULE_IDS].sort());
    for (const file of files) {
      const mod = (await import(`../../src/core/rules/${file}.ts`)) as { rule: Rule };
      expect(mod.rule.meta.id, file).toBe(file);
      expect(RULES_BY_ID.get(file), file).toBe(mod.rule);
    }
    // The registry is derived from `meta.id`: an id taken twice would hide a rule.
    expect(new Set(RULE_IDS).size).toBe(RULES.length);
    expect(RULES_BY_ID.size).toBe(RULES.length);
  });

  it.each([...RULES_BY_ID])("%s has its docs page and table test", (id, rule) => {
    expect(rule.meta.docs.url).toBe(`${DOCS_BASE}${id}.md`);
    const doc = join(ROOT, "docs", "rules", `${id}.md`);
    expect(existsSync(doc)).toBe(true);
    const page = readFileSync(doc, "utf8");
    expect(page).toMatch(new RegExp(`^# ${id}\\b`));
    expect(page).toMatch(new RegExp(`Default severity: \\*\\*${rule.meta.defaultSeverity}\\*\\*`));
    expect(readFileSync(join(ROOT, "docs", "rules.md"), "utf8")).toContain(`[\`${id}\`](rules/${id}.md)`);
    const table = join(ROOT, "test", "core", "rules", `${id}.test.ts`);
    expect(existsSync(table)).toBe(true);
    expect(readFileSync(table, "utf8")).toContain(`ruleTable("${id}"`);
  });

  it.each([...RULES_BY_ID])("%s has messages and uses only its own", (id, rule) => {
    const messages = Object.keys(rule.meta.messages);
    expect(messages.length).toBeGreaterThan(0);
    const source = readFileSync(join(ROOT, "src", "core", "rules", `${id}.ts`), "utf8");
    for (const [, used] of source.matchAll(/messageId: "(\w+)"/g)) expect(messages).toContain(used);
  });
});
