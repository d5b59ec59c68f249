/**
 * Which files a configuration reviews (src/core/ef2/pairing.ts, the one answer the App, check, the language
 * server and the audit share), and which extension.yaml files are extensions at all
 * (src/core/ef2/extension-document.ts): another tool's file of that name gets no finding.
 */
import { describe, expect, it } from "vitest";
import { analyseDescriptors } from "../../../src/core/analyse.js";
import { DEFAULT_PATHS, resolveConfig } from "../../../src/core/config.js";
import { isExtensionDocument } from "../../../src/core/ef2/extension-document.js";
import {
  isReviewedPath,
  projectDescriptorPaths,
  reviewedPathMatcher,
} from "../../../src/core/ef2/pairing.js";

describe("reviewed paths", () => {
  it("the default reviews every plugin.json and every extension.yaml, wherever they are", () => {
    const defaults = reviewedPathMatcher(DEFAULT_PATHS);
    for (const p of [
      "plugin.json",
      "a/plugin.json",
      "extension.yaml",
      "x/y/z/extension.yaml",
      ".hidden/extension.yaml",
    ])
      expect(defaults(p), p).toBe(true);
    for (const p of [
      "x/extension.yml",
      "x/my-extension.yaml",
      "x/plugin.json.bak",
      "x/activationSchema.json",
    ])
      expect(defaults(p), p).toBe(false);
  });

  it("`paths` written for plugin.json reach the extension.yaml of each project, in every layout, and no other", () => {
    const scoped = reviewedPathMatcher(["plugins/*/plugin.json"]);
    for (const p of [
      "plugins/x/plugin.json",
      "plugins/x/extension.yaml",
      "plugins/x/extension/extension.yaml",
      "plugins/x/src/extension.yaml",
      "plugins/x/src/extension/extension.yaml",
    ])
      expect(scoped(p), p).toBe(true);
    for (const p of [
      "plugins/extension.yaml",
      "plugins/x/lib/extension.yaml",
      "plugins/x/extension/src/extension.yaml",
      "vendor/x/extension.yaml",
      "plugins/x/other.json",
    ])
      expect(scoped(p), p).toBe(false);
    expect(reviewedPathMatcher(["**/plugin.json"])("deep/down/extension/extension.yaml")).toBe(true);
    expect(reviewedPathMatcher(["only/extension.yaml"])("only/extension.yaml")).toBe(true);
  });

  it("an extension.yaml's project plugin.json paths, its own folder's first; none for other files", () => {
    expect(projectDescriptorPaths("a/src/extension/extension.yaml")).toEqual([
      "a/src/extension/plugin.json",
      "a/src/plugin.json",
      "a/plugin.json",
    ]);
    expect(projectDescriptorPaths("extension/extension.yaml")).toEqual([
      "extension/plugin.json",
      "plugin.json",
    ]);
    expect(projectDescriptorPaths("src/extension.yaml")).toEqual(["src/plugin.json", "plugin.json"]);
    expect(projectDescriptorPaths("a/plugin.json")).toEqual([]);
  });

  it("isReviewedPath answers for a configuration as its `paths` say", () => {
    const config = resolveConfig({ repo: { paths: ["plugins/**/plugin.json"] } });
    expect(isReviewedPath(config, "plugins/a/extension/extension.yaml")).toBe(true);
    expect(isReviewedPath(config, "tools/extension.yaml")).toBe(false);
    expect(isReviewedPath(resolveConfig(), "tools/extension.yaml")).toBe(true);
  });
});

describe("which extension.yaml is an extension", () => {
  it("one with minDynatraceVersion, or a name in Dynatrace's namespaces", () => {
    expect(isExtensionDocument({ name: "custom:a", version: "1.0.0", minDynatraceVersion: "1.285" })).toBe(
      true,
    );
    expect(isExtensionDocument({ minDynatraceVersion: "1.285" })).toBe(true);
    expect(isExtensionDocument({ name: "custom:a", version: "1.0.0" })).toBe(true);
    expect(isExtensionDocument({ name: "com.dynatrace.extension.x", version: "1.0.0" })).toBe(true);
    // Firebase Extensions' extension.yaml: a name and a version, nothing of Dynatrace's.
    expect(
      isExtensionDocument({ name: "firestore-bigquery-export", version: "0.1.45", specVersion: "v1beta" }),
    ).toBe(false);
    for (const v of [null, "text", [1], {}, { name: 3 }]) expect(isExtensionDocument(v)).toBe(false);
  });

  const config = resolveConfig();
  const firebase = "name: storage-resize-images\nversion: 0.1.0\nspecVersion: v1beta\nversion: 2\n";

  it("another tool's extension.yaml: no finding at all (not even its duplicate key), and marked so", () => {
    const [r] = analyseDescriptors([{ path: "ext/extension.yaml", content: firebase }], config);
    expect(r).toMatchObject({ findings: [], notAnExtension: true });
  });

  it("an extension that lost what made it one is reviewed against its base, and told", () => {
    const base = 'name: custom:a\nversion: "1.0.0"\nminDynatraceVersion: "1.285"\n';
    const [r] = analyseDescriptors(
      [
        {
          path: "ext/extension.yaml",
          content: "name: a\nversion: 1.0\n",
          base: { path: "ext/extension.yaml", content: base },
          isNew: false,
        },
      ],
      config,
    );
    expect(r!.notAnExtension).toBeUndefined();
    expect(r!.findings.map((f) => f.ruleId)).toContain("ef2-version-format");
  });

  it("a new file that does not parse may be an extension: its YAML error is reported", () => {
    const [r] = analyseDescriptors([{ path: "extension.yaml", content: "name: [\n", isNew: true }], config);
    expect(r!.notAnExtension).toBeUndefined();
    expect(r!.findings.map((f) => f.ruleId)).toEqual(["invalid-yaml"]);
  });

  it("a file that does not parse, whose base was another tool's: still not ours", () => {
    const [r] = analyseDescriptors(
      [
        {
          path: "extension.yaml",
          content: "name: [\n",
          base: { path: "extension.yaml", content: "name: x\nversion: 1.0.0\n" },
          isNew: false,
        },
      ],
      config,
    );
    expect(r).toMatchObject({ findings: [], notAnExtension: true });
  });

  it("another tool's file made an extension: nothing of it was reviewed, so every finding is new", () => {
    // The base's review left it out; had it been the base, its missing members would pass as existing.
    const before = "name: counter\nversion: 0.2.0\nspecVersion: v1beta\nauthor:\n  authorName: F\n";
    const after = before.replace("name: counter", "name: custom:counter").replace("0.2.0", "0.2.1");
    const [r] = analyseDescriptors(
      [
        {
          path: "ext/extension.yaml",
          content: after,
          base: { path: "ext/extension.yaml", content: before },
          isNew: false,
        },
      ],
      config,
    );
    expect(r!.notAnExtension).toBeUndefined();
    expect(r!.findings.map((f) => [f.ruleId, f.pointer, f.baseline])).toEqual([
      ["required-member", "/minDynatraceVersion", "new"],
      ["unknown-member", "/specVersion", "new"],
      ["required-member", "/author/name", "new"],
    ]);
    // Reviewed as added: no change rule compares it with the other tool's file (no plugin-renamed).
    expect(r!.fixed).toBe(0);
  });
});
