/**
 * The schemas' addresses (docs/editors.md "Schema addresses"): stable `$id`s that resolve the schemas' references
 * the way an editor fetching them does, the SchemaStore-style catalog, the documented editor mappings, and the
 * configuration schema agreeing with the configuration validator.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readConfig } from "../../src/core/config.js";
import { ROOT } from "../helpers.js";

const BASE = "https://raw.githubusercontent.com/plugin-review/plugin-review/main/schemas/";
const dir = join(ROOT, "schemas");
const files = readdirSync(dir).filter((f) => f.endsWith(".schema.json"));
const load = (file: string) => JSON.parse(readFileSync(join(dir, file), "utf8")) as Record<string, unknown>;
const catalog = load("catalog.json") as {
  $schema: string;
  schemas: { name: string; description: string; fileMatch: string[]; url: string }[];
};

/** A validator that knows the schemas only by their `$id`s, as an editor that fetched them does. */
function byAddress() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  for (const f of files) ajv.addSchema(load(f));
  return ajv;
}

const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), "utf8")) as unknown;

describe("schema addresses", () => {
  it("gives every schema its raw GitHub address as $id", () => {
    expect(files.sort()).toEqual([
      "dashboard.schema.json",
      "extension.schema.json",
      "plugin-common.schema.json",
      "plugin-host.schema.json",
      "plugin-remote.schema.json",
      "plugin-review-config.schema.json",
      "plugin.schema.json",
    ]);
    for (const f of files) expect(load(f).$id, f).toBe(BASE + f);
  });

  it("resolves the references between schemas through those addresses alone", () => {
    const validate = byAddress().getSchema(`${BASE}plugin.schema.json`)!;
    expect(validate(json("examples/host-valid/plugin.json"))).toBe(true);
    expect(validate(json("examples/remote-valid/plugin.json"))).toBe(true);
    expect(validate(json("examples/mistakes/invalid-type/plugin.json"))).toBe(false);
  });
});

describe("schemas/catalog.json", () => {
  it("is a SchemaStore-style catalog of the two schemas, by address", () => {
    expect(catalog.$schema).toBe("https://json.schemastore.org/schema-catalog.json");
    expect(catalog.schemas.map((s) => s.url)).toEqual([
      `${BASE}plugin.schema.json`,
      `${BASE}plugin-review-config.schema.json`,
    ]);
    for (const s of catalog.schemas) {
      expect(s.name.length).toBeGreaterThan(0);
      expect(s.description.length).toBeGreaterThan(0);
      expect(s.fileMatch.length).toBeGreaterThan(0);
    }
  });

  it("matches the files each schema is for", () => {
    // As SchemaStore reads fileMatch: a pattern without a slash matches a file name, one with a slash a path.
    const matcher = (patterns: string[]) => {
      const each = patterns.map((p) => picomatch(p, { dot: true, basename: !p.includes("/") }));
      return (path: string) => each.some((m) => m(path));
    };
    const [plugin, config] = catalog.schemas.map((s) => matcher(s.fileMatch));
    for (const f of ["plugin.json", "plugins/jmx/plugin.json"]) expect(plugin!(f), f).toBe(true);
    expect(plugin!("myplugin.json")).toBe(false);
    expect(config!("repo/.github/plugin-review.yml")).toBe(true);
    expect(config!("repo/plugin-review.yml")).toBe(false);
  });
});

describe("the documented editor mappings (docs/editors.md)", () => {
  const doc = readFileSync(join(ROOT, "docs", "editors.md"), "utf8");
  const settings = [...doc.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => JSON.parse(m[1]!) as Record<string, unknown>)
    .find((s) => "json.schemas" in s && "yaml.schemas" in s) as {
    "json.schemas": { fileMatch: string[]; url: string }[];
    "yaml.schemas": Record<string, string[]>;
  };

  it("maps plugin.json with json.schemas to the descriptor schema the package ships", () => {
    const [mapping] = settings["json.schemas"];
    expect(mapping!.fileMatch).toEqual(["**/plugin.json"]);
    // node_modules/plugin-review/ is this package: its schemas/ folder is the one in the published files.
    expect(mapping!.url).toBe("./node_modules/plugin-review/schemas/plugin.schema.json");
  });

  it("maps .github/plugin-review.yml with yaml.schemas to the configuration schema's address", () => {
    expect(settings["yaml.schemas"]).toEqual({
      [`${BASE}plugin-review-config.schema.json`]: [".github/plugin-review.yml"],
    });
  });
});

describe("the configuration schema and the configuration validator", () => {
  const schema = byAddress().getSchema(`${BASE}plugin-review-config.schema.json`)!;
  const cases: [string, string, boolean][] = [
    [
      "the documented file",
      /```yaml\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, "docs/configuration.md"), "utf8"))![1]!,
      true,
    ],
    ["empty", "{}", true],
    ["rules and ignore", 'rules:\n  unknown-member: off\nignore:\n  - paths: ["legacy/**"]\n', true],
    ["an unknown key", "fail_onn: error\n", false],
    ["a bad severity", "rules:\n  unknown-member: loud\n", false],
    ["a bad fail_on", "fail_on: sometimes\n", false],
    ["a bad existing", "existing: forget\n", false],
    ["a string for paths", "paths: plugin.json\n", false],
  ];

  it.each(cases)("agree on %s", (_name, yaml, valid) => {
    const { problems } = readConfig(yaml, "plugin-review.yml");
    expect(problems.length === 0, JSON.stringify(problems)).toBe(valid);
    expect(schema(parse(yaml)), JSON.stringify(schema.errors)).toBe(valid);
  });
});
