/**
 * The readiness's pure parts (src/github/audit/readiness.ts): which extension.yaml replaces which plugin.json,
 * and an extension.yaml's data source from any text, hostile ones included (which files the configuration
 * reviews: test/core/reviewed-paths.test.ts). The audit against the fake GitHub: audit-readiness.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { AuditFile } from "../../../src/format/audit/report.js";
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

describe("an extension.yaml's data source", () => {
  it("names the data source member, or says what the file is when it is not an extension", () => {
    expect(extensionOf("e/extension.yaml", "name: custom:x\njmx:\n  groups: []\n")).toEqual({
      path: "e/extension.yaml",
      framework: "EF2",
      dataSource: "jmx",
      name: "custom:x",
    });
    expect(extensionOf("e", "python: {}\njmx: {}\n").dataSource).toBe("jmx+python");
    expect(extensionOf("e", "- a\n- b\n").problem).toBe("it is not a YAML mapping");
    expect(extensionOf("e", "").problem).toBe("it is not a YAML mapping");
    expect(extensionOf("e", "jmx: {\n").problem).toMatch(/^it is not YAML: /);
    expect(extensionOf("e", { unread: "not read: too large" })).toEqual({
      path: "e",
      framework: "EF2",
      problem: "not read: too large",
    });
  });

  it("refuses an alias bomb and deep nesting rather than expanding them (their size never decides our memory)", () => {
    expect(extensionOf("deep/extension.yaml", "[".repeat(100_000)).problem).toMatch(
      /^it is not YAML: nested more than \d+ levels deep/,
    );
    const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 12; i++) {
      const prev = String.fromCharCode(96 + i);
      const next = String.fromCharCode(97 + i);
      lines.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(", ")}]`);
    }
    const r = extensionOf("bomb/extension.yaml", lines.join("\n") + "\njmx: *l\n");
    expect(r.problem).toMatch(/^it is not YAML: .*alias/i);
  });
});
