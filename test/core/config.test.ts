import { describe, expect, it } from "vitest";
import { ConfigError, fails, parseConfig, resolveConfig } from "../../src/core/config.js";
import { check, validHost } from "../helpers.js";

function problems(yaml: string): string[] {
  try {
    parseConfig(yaml, "test.yml");
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe("configuration", () => {
  it("accepts the interfaces.md example", () => {
    const raw = parseConfig(
      [
        'paths: ["**/plugin.json"]',
        "fail_on: error",
        "review: comment",
        "rules:",
        "  unknown-member: off",
        "ignore:",
        '  - paths: ["legacy/**"]',
        "    rules: [name-format]",
        "policy:",
        '  name_pattern: "^custom\\\\.python\\\\.acme_"',
        "  technologies: [PYTHON]",
        "  process_types: [PYTHON, 10]",
        "locked: [version-not-bumped]",
      ].join("\n"),
      "x.yml",
    );
    const c = resolveConfig({ repo: raw });
    expect(c.rules).toEqual({ "unknown-member": "off" });
    expect(c.policy.namePattern?.test("custom.python.acme_x")).toBe(true);
    expect(c.policy.processTypes).toEqual(["PYTHON", 10]);
  });

  it("treats an empty file as defaults", () => {
    expect(resolveConfig({ repo: parseConfig("", "x") })).toMatchObject({
      failOn: "error",
      review: "comment",
      paths: ["**/plugin.json"],
    });
  });

  it("explains every problem, with suggestions", () => {
    expect(problems("fail_on: sometimes")).toEqual([
      'fail_on: "sometimes" is not one of error, warning, notice, never',
    ]);
    expect(problems("rules:\n  unknown-membr: off")).toEqual([
      "rules: unknown rule id `unknown-membr` (did you mean `unknown-member`?)",
    ]);
    expect(problems("rules:\n  unknown-member: of")).toEqual([
      'rules.unknown-member: "of" is not one of error, warning, notice, off',
    ]);
    expect(problems("pathz: []")).toEqual(["(top level): unknown key `pathz` (did you mean `paths`?)"]);
    expect(problems("policy:\n  name_pattern: '('")).toEqual([
      expect.stringMatching(/^policy.name_pattern: not a valid regular expression/),
    ]);
    expect(problems("ignore:\n  - rules: [name-format]")).toEqual([
      expect.stringMatching(/must have required property 'paths'/),
    ]);
    expect(problems("a: [")[0]).toMatch(/^line 1, column \d+: /);
    expect(problems("rules: {a: off}\nrules: {}")[0]).toMatch(/line 2/);
  });

  it("lets a repository override the organisation, except locked rules", () => {
    const org = {
      rules: { "unknown-member": "error" as const, "plugin-renamed": "error" as const },
      locked: ["plugin-renamed"],
      fail_on: "warning" as const,
    };
    const repo = {
      rules: { "unknown-member": "off" as const, "plugin-renamed": "notice" as const },
      fail_on: "error" as const,
    };
    const c = resolveConfig({ org, repo });
    expect(c.rules).toEqual({ "unknown-member": "off", "plugin-renamed": "error" });
    expect(c.failOn).toBe("error");
    expect(c.notes).toEqual([
      "rule `plugin-renamed` is locked by the organisation: the repository's `notice` was not applied",
    ]);
  });

  it("allows a repository to raise a locked rule but never to ignore it", () => {
    const org = { locked: ["name-format"] };
    const c = resolveConfig({
      org,
      repo: {
        rules: { "name-format": "error" },
        ignore: [{ paths: ["legacy/**"] }, { paths: ["x/**"], rules: ["name-format"] }],
      },
    });
    expect(c.rules["name-format"]).toBe("error");
    expect(c.ignore[0]?.rules).not.toContain("name-format");
    expect(c.ignore).toHaveLength(1);
    const doc = { ...validHost(), name: "bad" };
    expect(
      check(doc, { org, config: { ignore: [{ paths: ["legacy/**"] }] }, path: "legacy/plugin.json" }).map(
        (f) => f.ruleId,
      ),
    ).toEqual(["name-format"]);
  });

  it("honours `locked` only from the organisation", () => {
    const c = resolveConfig({ org: {}, repo: { locked: ["name-format"] } });
    expect(c.locked).toEqual([]);
    expect(c.notes[0]).toMatch(/has no effect/);
  });

  it("keeps the organisation's policy of a locked policy rule", () => {
    const c = resolveConfig({
      org: { policy: { name_pattern: "^custom\\.python\\.acme_" }, locked: ["policy-name"] },
      repo: { policy: { name_pattern: ".*" } },
    });
    expect(c.policy.namePattern?.source).toBe("^custom\\.python\\.acme_");
  });

  it("decides failure by fail_on", () => {
    expect(fails("warning", "error")).toBe(false);
    expect(fails("error", "error")).toBe(true);
    expect(fails("notice", "notice")).toBe(true);
    expect(fails("error", "never")).toBe(false);
  });
});

describe("existing findings and locked settings", () => {
  it("`existing` is report by default and validated by the schema", () => {
    expect(resolveConfig().existing).toBe("report");
    expect(resolveConfig({ repo: parseConfig("existing: hide", "x.yml") }).existing).toBe("hide");
    expect(problems("existing: ignore")).toEqual(['existing: "ignore" is not one of report, fail, hide']);
  });

  it("the organisation can lock `existing` and `fail_on`: a repository may only make them stricter", () => {
    const org = parseConfig("existing: report\nfail_on: warning\nlocked: [existing, fail_on]", "org.yml");
    const looser = resolveConfig({ org, repo: parseConfig("existing: hide\nfail_on: error", "repo.yml") });
    expect(looser.existing).toBe("report");
    expect(looser.failOn).toBe("warning");
    expect(looser.notes.join("\n")).toMatch(/`existing` is locked by the organisation at `report`/);
    expect(looser.notes.join("\n")).toMatch(/`fail_on` is locked by the organisation at `warning`/);
    const stricter = resolveConfig({ org, repo: parseConfig("existing: fail\nfail_on: notice", "repo.yml") });
    expect(stricter.existing).toBe("fail");
    expect(stricter.failOn).toBe("notice");
    expect(stricter.notes).toEqual([]);
    // Not locked: the repository wins either way.
    const free = resolveConfig({ org: { existing: "fail" }, repo: { existing: "hide", fail_on: "never" } });
    expect([free.existing, free.failOn]).toEqual(["hide", "never"]);
  });

  it("locked settings are not rule ids, and a repository ignore entry does not trip over them", () => {
    expect(problems("locked: [existing, fail_on, version-not-bumped]")).toEqual([]);
    expect(problems("locked: [existng]")[0]).toMatch(/unknown rule id `existng`/);
    const c = resolveConfig({ org: { locked: ["fail_on"] }, repo: { ignore: [{ paths: ["legacy/**"] }] } });
    expect(c.notes).toEqual([]);
    expect(c.ignore).toEqual([{ paths: ["legacy/**"] }]);
  });
});
