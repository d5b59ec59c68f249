/**
 * An extension's files decide some findings (its Python module, its activation schema): the base's own
 * findings are judged on the base's files, so that a file the change breaks is a new finding, never an
 * existing one (rules.md "New and existing findings"). Without the base's files the base has none of those
 * findings: head's are new.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyseDescriptors, type DescriptorInput } from "../../../src/core/analyse.js";
import { resolveConfig } from "../../../src/core/config.js";
import type { ExtensionFiles } from "../../../src/core/ef2/package.js";

const example = (path: string) =>
  readFileSync(new URL(`../../../examples/extension-python/${path}`, import.meta.url), "utf8");
const PATH = "queues/extension/extension.yaml";
const SCHEMA = "queues/extension/activationSchema.json";
const MODULE = "queues/example_queue/__main__.py";
const YAML = example("extension/extension.yaml");
const CHANGED = YAML.replace('version: "1.0.0"', 'version: "1.1.0"');
const ACTIVATION = example("extension/activationSchema.json");

/** The findings of `rule` on the extension, with their baseline state. */
function states(files: ExtensionFiles, rule: string, head = CHANGED): (string | undefined)[] {
  const input: DescriptorInput = { path: PATH, content: head, base: { path: PATH, content: YAML }, files };
  const [file] = analyseDescriptors([input], resolveConfig());
  return file!.findings.filter((f) => f.ruleId === rule).map((f) => f.baseline);
}

describe("an extension's files in the base's own findings", () => {
  it("a module folder the change removes is a new finding", () => {
    const files = { paths: [PATH, SCHEMA], contents: new Map([[SCHEMA, ACTIVATION]]) };
    expect(states({ ...files, basePaths: [PATH, SCHEMA, MODULE] }, "python-module-missing")).toEqual(["new"]);
    // The base's files unknown: new as well.
    expect(states(files, "python-module-missing")).toEqual(["new"]);
    // Missing in the base too: existing.
    expect(states({ ...files, basePaths: [PATH, SCHEMA] }, "python-module-missing")).toEqual(["existing"]);
  });

  it("an activation schema the change breaks is a new finding, even when extension.yaml is unchanged", () => {
    const paths = [PATH, SCHEMA, MODULE];
    const broken: ExtensionFiles = {
      paths,
      basePaths: paths,
      contents: new Map([[SCHEMA, "{ not json"]]),
      baseContents: new Map([[SCHEMA, ACTIVATION]]),
    };
    expect(states(broken, "activation-schema-invalid")).toEqual(["new"]);
    expect(states(broken, "activation-schema-invalid", YAML)).toEqual(["new"]);
    const before: ExtensionFiles = { ...broken, baseContents: new Map([[SCHEMA, "{ not json"]]) };
    expect(states(before, "activation-schema-invalid")).toEqual(["existing"]);
  });
});
