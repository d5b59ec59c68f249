/**
 * The shipped examples: examples/mistakes holds one folder per rule, each a realistic descriptor with
 * exactly that one mistake (see examples/mistakes/README.md), and the valid examples stay clean.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../src/core/config.js";
import { analyseDescriptors, type DescriptorInput } from "../src/core/analyse.js";
import { RULE_IDS, RULES_BY_ID } from "../src/core/rules/index.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MISTAKES = "examples/mistakes";

/** Rule ids without a folder, and why: they cannot fire on a shipped descriptor without configuration. */
const NOT_SHOWN: Record<string, string> = {
  "file-too-large": "needs a descriptor over max_file_size (5 MB by default), too large to ship",
  "policy-name": "off unless policy.name_pattern is configured",
};

/** Folders that show many mistakes at once rather than one rule each. */
const COMBINED = ["host-mistakes", "remote-mistakes"];

/** The folder whose two descriptors (a/ and b/) share a name on purpose. */
const DUPLICATE_NAME = "duplicate-plugin-name";

/**
 * The exact rule ids each one-mistake folder reports when checked alone (against its plugin.base.json
 * when it has one). Every folder reports its own rule and nothing else; a folder that cannot avoid a
 * second rule would list it here with the reason (`why`) and in a README.md line of its own.
 */
const EXPECTED: Record<string, { ids: readonly string[]; why?: string }> = {
  "invalid-json": { ids: ["invalid-json"] },
  "duplicate-key": { ids: ["duplicate-key"] },
  "required-member": { ids: ["required-member"] },
  "invalid-type": { ids: ["invalid-type"] },
  "invalid-value": { ids: ["invalid-value"] },
  "invalid-format": { ids: ["invalid-format"] },
  "unknown-member": { ids: ["unknown-member"] },
  "name-format": { ids: ["name-format"] },
  "version-format": { ids: ["version-format"] },
  "metric-group-format": { ids: ["metric-group-format"] },
  "metric-group-missing": { ids: ["metric-group-missing"] },
  "reserved-member": { ids: ["reserved-member"] },
  "variant-mismatch": { ids: ["variant-mismatch"] },
  "ignored-member": { ids: ["ignored-member"] },
  "host-entity": { ids: ["host-entity"] },
  "activation-criteria-missing": { ids: ["activation-criteria-missing"] },
  "invalid-regex": { ids: ["invalid-regex"] },
  "slow-regex": { ids: ["slow-regex"] },
  "metric-kind": { ids: ["metric-kind"] },
  "duplicate-metric-key": { ids: ["duplicate-metric-key"] },
  "displayname-equals-key": { ids: ["displayname-equals-key"] },
  "rx-pid-position": { ids: ["rx-pid-position"] },
  "duplicate-alert-id": { ids: ["duplicate-alert-id"] },
  "alert-samples": { ids: ["alert-samples"] },
  "alert-placeholder": { ids: ["alert-placeholder"] },
  "keymetrics-limit": { ids: ["keymetrics-limit"] },
  "unknown-metric-reference": { ids: ["unknown-metric-reference"] },
  "unknown-dimension-reference": { ids: ["unknown-dimension-reference"] },
  "stacked-line": { ids: ["stacked-line"] },
  "config-property-unknown": { ids: ["config-property-unknown"] },
  "duplicate-property-key": { ids: ["duplicate-property-key"] },
  "property-default-type": { ids: ["property-default-type"] },
  "dropdown-values": { ids: ["dropdown-values"] },
  "unknown-technology": { ids: ["unknown-technology"] },
  "unknown-process-type": { ids: ["unknown-process-type"] },
  "version-not-bumped": { ids: ["version-not-bumped"] },
  "version-decreased": { ids: ["version-decreased"] },
  "metric-group-changed": { ids: ["metric-group-changed"] },
  "plugin-renamed": { ids: ["plugin-renamed"] },
  "metric-removed": { ids: ["metric-removed"] },
  "metric-unit-changed": { ids: ["metric-unit-changed"] },
  "metric-dimensions-changed": { ids: ["metric-dimensions-changed"] },
  "property-removed": { ids: ["property-removed"] },
  "base-invalid-json": { ids: ["base-invalid-json"] },
  "invalid-yaml": { ids: ["invalid-yaml"] },
  "ef2-version-format": { ids: ["ef2-version-format"] },
  "multiple-data-sources": { ids: ["multiple-data-sources"] },
  "min-version-too-low": { ids: ["min-version-too-low"] },
  "migration-metric-missing": { ids: ["migration-metric-missing"] },
  "migration-metric-type-changed": { ids: ["migration-metric-type-changed"] },
  "migration-dimension-dropped": { ids: ["migration-dimension-dropped"] },
  "build-placeholder": { ids: ["build-placeholder"] },
  "metric-not-reported": { ids: ["metric-not-reported"] },
  "metric-metadata-missing": { ids: ["metric-metadata-missing"] },
  "var-undeclared": { ids: ["var-undeclared"] },
  "var-unused": { ids: ["var-unused"] },
  "feature-set-undefined": { ids: ["feature-set-undefined"] },
  "python-module-missing": { ids: ["python-module-missing"] },
  "asset-missing": { ids: ["asset-missing"] },
  "activation-schema-invalid": { ids: ["activation-schema-invalid"] },
  "activation-property-unused": { ids: ["activation-property-unused"] },
  "metric-type-changed": { ids: ["metric-type-changed"] },
  "feature-set-removed": { ids: ["feature-set-removed"] },
  "property-type-changed": { ids: ["property-type-changed"] },
  "min-version-raised": { ids: ["min-version-raised"] },
};

/** The EF1 plugin.json of the migration example, which the migration rules' folders are checked against. */
const MIGRATED = "examples/migration/plugin.json";

const read = (rel: string): string => readFileSync(join(ROOT, rel), "utf8");
const exists = (rel: string): boolean => existsSync(join(ROOT, rel));

function review(inputs: DescriptorInput[]) {
  return analyseDescriptors(inputs, resolveConfig());
}

function ruleIds(findings: readonly { ruleId: string }[]): string[] {
  return [...new Set(findings.map((f) => f.ruleId))].sort();
}

/** The folders of examples/mistakes, sorted. */
function folders(): string[] {
  return readdirSync(join(ROOT, MISTAKES))
    .filter((n) => statSync(join(ROOT, MISTAKES, n)).isDirectory())
    .sort();
}

/** Every file under examples/ that `plugin-review check examples/` reviews (default paths `**\/plugin.json`). */
function descriptors(): string[] {
  return (readdirSync(join(ROOT, "examples"), { recursive: true }) as string[])
    .map((p) => `examples/${p.split(sep).join("/")}`)
    .filter((p) => p.endsWith("/plugin.json"))
    .sort();
}

const single = Object.keys(EXPECTED);

/** Every file under a folder, as repository paths. */
function filesOf(folder: string): string[] {
  return (readdirSync(join(ROOT, folder), { recursive: true }) as string[])
    .map((p) => `${folder}/${p.split(sep).join("/")}`)
    .filter((p) => statSync(join(ROOT, p)).isFile())
    .sort();
}

describe("examples/mistakes: one example of each kind of mistake", () => {
  it("has a folder for every rule id except those that need configuration or a huge file", () => {
    for (const id of Object.keys(NOT_SHOWN)) expect(RULE_IDS).toContain(id);
    const shown = RULE_IDS.filter((id) => !(id in NOT_SHOWN));
    expect([...single, DUPLICATE_NAME].sort()).toEqual([...shown].sort());
    expect(folders()).toEqual([...shown, ...COMBINED].sort());
  });

  it("describes every folder and every rule left out in its README", () => {
    const readme = read(`${MISTAKES}/README.md`);
    for (const folder of folders()) expect(readme).toMatch(new RegExp(`^- \`${folder}\`: `, "m"));
    for (const id of Object.keys(NOT_SHOWN)) expect(readme).toContain(`\`${id}\``);
  });

  it.each(single)("%s reports its rule, and only the expected ones", (folder) => {
    const meta = RULES_BY_ID.get(folder)?.meta;
    // The rules of an EF2 extension show an extension.yaml; the migration rules, against the example's plugin.json.
    const extension = meta?.files?.includes("plugin.json") === false;
    const head = `${MISTAKES}/${folder}/${extension ? "extension.yaml" : "plugin.json"}`;
    const basePath = `${MISTAKES}/${folder}/${extension ? "extension.base.yaml" : "plugin.base.json"}`;
    // Exactly the change rules need a base.
    const isChange = meta?.kind === "change";
    expect(exists(basePath)).toBe(isChange);
    const input: DescriptorInput = { path: head, content: read(head) };
    // An extension with files beside its extension.yaml (a Python project): listed and read as a caller does.
    const beside = extension ? filesOf(`${MISTAKES}/${folder}`) : [];
    if (beside.length > 1)
      input.files = {
        paths: beside,
        contents: new Map(beside.filter((p) => p.endsWith(".json")).map((p) => [p, read(p)])),
      };
    if (isChange) {
      input.base = { path: basePath, content: read(basePath) };
      input.isNew = false;
    }
    if (meta?.kind === "migration") {
      input.replaces = { path: MIGRATED, content: read(MIGRATED) };
      input.isNew = true;
    }
    const ids = ruleIds(review([input])[0]!.findings);
    expect(ids).toContain(folder);
    expect(ids).toEqual([...EXPECTED[folder]!.ids].sort());
    for (const extra of ids.filter((id) => id !== folder)) {
      expect(EXPECTED[folder]!.why, `reason for ${extra} in ${folder}`).toBeTruthy();
      expect(read(`${MISTAKES}/${folder}/README.md`)).toContain(extra);
    }
    if (isChange) {
      // The mistake is in the change only: the head alone (as `check examples/` sees it) is clean.
      expect(review([{ path: head, content: read(head) }])[0]!.findings).toEqual([]);
    }
  });

  it("duplicate-plugin-name: a/ and b/ share a name, and each is clean alone", () => {
    const paths = ["a", "b"].map((d) => `${MISTAKES}/${DUPLICATE_NAME}/${d}/plugin.json`);
    const inputs = paths.map((path) => ({ path, content: read(path) }));
    const together = review(inputs);
    expect(together.map((r) => r.path)).toEqual(paths);
    for (const r of together) expect(r.findings.map((f) => f.ruleId)).toEqual([DUPLICATE_NAME]);
    for (const input of inputs) expect(review([input])[0]!.findings).toEqual([]);
  });
});

describe("valid examples", () => {
  it.each([
    "examples/host-valid/plugin.json",
    "examples/remote-valid/plugin.json",
    "examples/jmx-valid/plugin.json",
    "examples/extension-valid/extension/extension.yaml",
    MIGRATED,
  ])("%s has no findings", (path) => {
    expect(review([{ path, content: read(path) }])[0]!.findings).toEqual([]);
  });

  it("examples/migration/extension/extension.yaml is the complete migration of its plugin.json", () => {
    const path = "examples/migration/extension/extension.yaml";
    const input = { path, content: read(path), replaces: { path: MIGRATED, content: read(MIGRATED) } };
    expect(review([input])[0]!.findings).toEqual([]);
  });
});

describe("plugin names across examples/", () => {
  it("are unique, except in the duplicate-plugin-name folder", () => {
    const byName = new Map<string, string[]>();
    for (const path of descriptors()) {
      let doc: unknown;
      try {
        doc = JSON.parse(read(path));
      } catch {
        continue; // examples/mistakes/invalid-json does not parse, so it takes no part
      }
      const name = (doc as { name?: unknown }).name;
      if (typeof name !== "string") continue;
      byName.set(name, [...(byName.get(name) ?? []), path]);
    }
    const shared = [...byName].filter(([, paths]) => paths.length > 1);
    expect(shared).toEqual([
      [
        "custom.python.example_duplicate_plugin_name",
        [`${MISTAKES}/${DUPLICATE_NAME}/a/plugin.json`, `${MISTAKES}/${DUPLICATE_NAME}/b/plugin.json`],
      ],
    ]);
  });

  it("checked together, only the duplicate-plugin-name folder reports duplicate-plugin-name", () => {
    const reviews = review(descriptors().map((path) => ({ path, content: read(path) })));
    const flagged = reviews
      .filter((r) => r.findings.some((f) => f.ruleId === DUPLICATE_NAME))
      .map((r) => r.path);
    expect(flagged).toEqual([
      `${MISTAKES}/${DUPLICATE_NAME}/a/plugin.json`,
      `${MISTAKES}/${DUPLICATE_NAME}/b/plugin.json`,
    ]);
  });
});
