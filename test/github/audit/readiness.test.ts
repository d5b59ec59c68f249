/**
 * The readiness's pure parts (src/github/audit/readiness.ts): which extension.yaml replaces which plugin.json,
 * and an extension.yaml's data source from any text, read as the review reads it (what Dynatrace reads, within
 * the same size limit and bounds), hostile ones included (which files the configuration
 * reviews: test/core/reviewed-paths.test.ts). The audit against the fake GitHub: audit-readiness.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { AuditFile } from "../../../src/format/audit/report.js";
import { resolveConfig, type ResolvedConfig } from "../../../src/core/config.js";
import { parseYaml } from "../../../src/core/yaml/parse.js";
import { parseYamlAsDynatrace } from "../../../src/core/yaml/snakeyaml.js";
import { extensionOf, pairMigration } from "../../../src/github/audit/readiness.js";

describe("pairing", () => {
  it("done, in progress, not started, or nothing to migrate", () => {
    const file = (path: string): AuditFile => ({
      path,
      errors: 0,
      warnings: 0,
      notices: 0,
      wouldFail: false,
      findings: [],
      readiness: { framework: "EF1", migrate: "fully", items: [] },
    });
    const ext = (path: string) => ({ path, framework: "EF2" as const });
    expect(pairMigration([], []).migration).toBeUndefined();
    expect(pairMigration([file("a/plugin.json")], []).migration).toBe("not-started");
    expect(pairMigration([], [ext("a/extension.yaml")]).migration).toBe("done");
    // Both, paired or not: the repository is on its way.
    const both = pairMigration(
      [file("a/plugin.json"), file("b/plugin.json")],
      [ext("a/extension/extension.yaml"), ext("c/extension.yaml")],
    );
    expect(both.migration).toBe("in-progress");
    expect(both.files.map((f) => f.readiness?.extension)).toEqual(["a/extension/extension.yaml", undefined]);
    expect(both.extensions.map((e) => e.replaces)).toEqual(["a/plugin.json", undefined]);
  });
});

/** An extension.yaml's name and data source as the review reads the file (test/core/yaml/snakeyaml.test.ts). */
const of = (content: string | Uint8Array, config: ResolvedConfig = resolveConfig(), size?: number) =>
  extensionOf({ path: "e/extension.yaml", content, ...(size !== undefined ? { size } : {}) }, config);

describe("an extension.yaml's data source", () => {
  it("names the data source member, or says what the file is when it is not an extension", () => {
    expect(of("name: custom:x\njmx:\n  groups: []\n")).toEqual({
      path: "e/extension.yaml",
      framework: "EF2",
      dataSource: "jmx",
      name: "custom:x",
    });
    expect(of("python: {}\njmx: {}\n").dataSource).toBe("jmx+python");
    expect(of("- a\n- b\n").problem).toBe("it is not a YAML mapping");
    expect(of("").problem).toBe("it is not a YAML mapping");
    // Where the parse stopped: the line the review's invalid-yaml finding is on.
    expect(of("name: custom:x\njmx: {\n").problem).toBe(
      "it is not valid YAML: unexpected end of the stream within a flow collection (line 3)",
    );
  });

  it("reads what Dynatrace reads and YAML 1.2 refuses, as the review does: its name and data source", () => {
    // A quoted value whose continuation is no deeper than its key: SnakeYAML reads it, the yaml package does not.
    const text =
      'name: custom:acme.sql\nminDynatraceVersion: "1.285"\nsqlOracle:\n  - group: g\n    description: "one\n    two"\n';
    expect(parseYaml(text).ok).toBe(false);
    expect(parseYamlAsDynatrace(text).ok).toBe(true);
    expect(of(text)).toEqual({
      path: "e/extension.yaml",
      framework: "EF2",
      dataSource: "sqlOracle",
      name: "custom:acme.sql",
    });
  });

  it("reads no more than the review: over its size limit, or not UTF-8, it says so and names nothing", () => {
    const text = "name: custom:x\njmx:\n  groups: []\n";
    // Over max_extension_size (within max_file_size): the review does not parse it, nor does the audit.
    const small = resolveConfig({ repo: { max_extension_size: 10 } });
    expect(of(text, small)).toEqual({
      path: "e/extension.yaml",
      framework: "EF2",
      problem: `not read: ${text.length} bytes, over max_extension_size (10)`,
    });
    // Not downloaded (its size alone), over max_file_size, the smaller limit.
    const tiny = resolveConfig({ repo: { max_file_size: 200 } });
    expect(of(new Uint8Array(), tiny, 2_000).problem).toBe("not read: 2,000 bytes, over max_file_size (200)");
    // A byte that is no UTF-8: the review says the file is not UTF-8, not what a replacement character makes of it.
    const latin1 = Buffer.from("name: custom:caf\xe9\njmx: {}\n", "latin1");
    expect(of(new Uint8Array(latin1))).toEqual({
      path: "e/extension.yaml",
      framework: "EF2",
      problem: "the file is not valid UTF-8 text (an extension.yaml must be UTF-8)",
    });
  });

  it("refuses an alias bomb and deep nesting rather than expanding them (their size never decides our memory)", () => {
    expect(of("[".repeat(100_000)).problem).toMatch(
      /^it is not valid YAML: nested more than \d+ levels deep \(line 1\)$/,
    );
    const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 12; i++) {
      const prev = String.fromCharCode(96 + i);
      const next = String.fromCharCode(97 + i);
      lines.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(", ")}]`);
    }
    expect(of(lines.join("\n") + "\njmx: *l\n").problem).toMatch(/^it is not valid YAML: .*alias/i);
    // Past the node bound: refused, whatever the file's size allows.
    expect(
      of(`jmx: [${"1,".repeat(300_000)}1]\n`, resolveConfig({ repo: { max_extension_size: 5_000_000 } }))
        .problem,
    ).toMatch(/^it is not valid YAML: more than 250,000 YAML values/);
  });
});
