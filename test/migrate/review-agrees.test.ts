/**
 * One mapping: what `migrate` writes is what the review of a migration expects (both read src/core/ef2/key-map.ts).
 * Every JMX and Python descriptor of examples/ and of the real corpus (../shared/corpus/real/, skipped when
 * absent) is converted, and its extension.yaml reviewed beside it as the App reviews a migration pull request
 * that deletes the plugin.json: no migration finding, and no finding of the extension's other rules either.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/core/config.js";
import { analyseDescriptors } from "../../src/core/analyse.js";
import { migrate, type MigrateOptions } from "../../src/migrate/migrate.js";
import { readPluginFolder } from "../../src/workspace/plugin-folder.js";
import { describeUnless, ROOT } from "../helpers.js";

const CORPUS = new URL("../../../shared/corpus/real/", import.meta.url);

/** The findings of the review of `plugin`'s migration, as a pull request deleting the plugin.json gets them. */
function reviewOfMigration(plugin: string, options: MigrateOptions = {}): string[] {
  const r = migrate(plugin, options);
  if (!r.converted) return [];
  const extension = r.files.find((f) => f.path === "extension/extension.yaml");
  expect(extension, "migrate writes extension/extension.yaml").toBeDefined();
  const [review] = analyseDescriptors(
    [
      {
        path: "p/extension/extension.yaml",
        content: extension!.content,
        isNew: true,
        replaces: { path: "p/plugin.json", content: plugin, status: "deleted" },
      },
    ],
    resolveConfig(),
  );
  return review!.findings.map((f) => `${f.line}:${f.column} ${f.ruleId} ${f.message}`);
}

const examples = (readdirSync(`${ROOT}examples`, { recursive: true }) as string[])
  .filter((p) => p.endsWith("plugin.json") && !p.includes("mistakes"))
  .map((p) => `examples/${p.split("\\").join("/")}`)
  .sort();

describe("migrate and the review of a migration agree", () => {
  it("has JMX and Python examples to compare", () => {
    expect(examples).toEqual(
      expect.arrayContaining(["examples/jmx-valid/plugin.json", "examples/host-valid/plugin.json"]),
    );
  });

  it.each(examples)("%s", (path) => {
    expect(reviewOfMigration(readFileSync(`${ROOT}${path}`, "utf8"))).toEqual([]);
  });
});

// Python plugins with their code: the code's counters have `.count` keys, which the review takes for the metric.
const withCode = readdirSync(`${ROOT}test/fixtures/ef1-plugins`).sort();

describe("migrate and the review of a migration agree on Python plugins with their code", () => {
  it.each(withCode)("%s", (fixture) => {
    const path = `test/fixtures/ef1-plugins/${fixture}/plugin.json`;
    const code = readPluginFolder(path, ROOT);
    const r = migrate(readFileSync(`${ROOT}${path}`, "utf8"), { code });
    expect(r.converted && r.project?.codeMissing).toBeUndefined();
    expect(reviewOfMigration(readFileSync(`${ROOT}${path}`, "utf8"), { code })).toEqual([]);
  });

  it("a counter's key ends in .count where the code reports it with relative()", () => {
    const path = "test/fixtures/ef1-plugins/remote-topology/plugin.json";
    const r = migrate(readFileSync(`${ROOT}${path}`, "utf8"), { code: readPluginFolder(path, ROOT) });
    expect(r.converted && r.keyMap.metrics.find((m) => m.ef1.key === "requests")?.ef2).toMatchObject({
      key: "tech.topology.demo.requests.count",
      type: "count",
    });
  });
});

const corpus = existsSync(CORPUS)
  ? readdirSync(CORPUS)
      .filter((f) => f.endsWith(".json"))
      .sort()
  : [];

describeUnless(!existsSync(CORPUS) && `${CORPUS.pathname} is absent`)(
  "migrate and the review of a migration agree over the real corpus",
  () => {
    it.each(corpus)("%s", (f) => {
      expect(reviewOfMigration(readFileSync(new URL(f, CORPUS), "utf8"))).toEqual([]);
    });
  },
);
