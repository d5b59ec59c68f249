import { describe, expect, it } from "vitest";
import { ConfigError, extendConfig, parseConfig, readConfig, resolveConfig } from "../../src/core/config.js";
import { fails } from "../../src/core/verdict.js";
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
      'line 1, column 10: fail_on: "sometimes" is not one of error, warning, notice, never',
    ]);
    expect(problems("rules:\n  unknown-membr: off")).toEqual([
      "line 2, column 3: rules: unknown rule id `unknown-membr` (did you mean `unknown-member`?)",
    ]);
    expect(problems("rules:\n  unknown-member: of")).toEqual([
      'line 2, column 19: rules.unknown-member: "of" is not one of error, warning, notice, off',
    ]);
    expect(problems("pathz: []")).toEqual([
      "line 1, column 1: (top level): unknown key `pathz` (did you mean `paths`?)",
    ]);
    expect(problems("policy:\n  name_pattern: '('")).toEqual([
      expect.stringMatching(/^line 2, column 17: policy.name_pattern: not a valid regular expression/),
    ]);
    expect(problems("ignore:\n  - rules: [name-format]")).toEqual([
      expect.stringMatching(/^line 2, column 5: ignore.0: must have required property 'paths'/),
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
    expect(problems("existing: ignore")).toEqual([
      'line 1, column 11: existing: "ignore" is not one of report, fail, hide',
    ]);
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

describe("configuration: every problem in one pass, each with its line", () => {
  it("reports five different problems of one file together", () => {
    const yaml = [
      "fail_on: sometimes", // 1: not one of the levels
      "rules:",
      "  unknwn-member: off", // 3: unknown rule id, with a suggestion
      "  name-format: of", // 4: not a severity
      "foo: 1", // 5: unknown key
      "paths: ['plugins/[z-a]/plugin.json']", // 6: not a glob
      "policy:",
      "  name_pattern: '(?<=acme)x'", // 8: not RE2
    ].join("\n");
    expect(problems(yaml)).toEqual([
      'line 1, column 10: fail_on: "sometimes" is not one of error, warning, notice, never',
      "line 3, column 3: rules: unknown rule id `unknwn-member` (did you mean `unknown-member`?)",
      'line 4, column 16: rules.name-format: "of" is not one of error, warning, notice, off',
      "line 5, column 1: (top level): unknown key `foo`",
      "line 6, column 9: paths: invalid glob `plugins/[z-a]/plugin.json`",
      expect.stringMatching(/^line 8, column 17: policy\.name_pattern: not a valid regular expression/),
    ]);
  });

  it("the misspelt rule id and the unknown key together (not one class at a time)", () => {
    expect(problems("rules: {unknwn-member: off}\nfoo: 1\n")).toEqual([
      "line 1, column 9: rules: unknown rule id `unknwn-member` (did you mean `unknown-member`?)",
      expect.stringMatching(/^line 2, column 1: \(top level\): unknown key `foo`/),
    ]);
  });

  it("a duplicate key does not hide the other problems; a file that is not YAML says only that", () => {
    expect(problems("rules: {}\nrules: {name-fromat: off}\nfail_on: x\n")).toEqual([
      expect.stringMatching(/^line 2, column 1: Map keys must be unique/),
      expect.stringMatching(/^line 2, column 9: rules: unknown rule id `name-fromat`/),
      expect.stringMatching(/^line 3, column 10: fail_on: "x"/),
    ]);
    expect(problems("rules: [\nfail_on: x\n")).toEqual([expect.stringMatching(/^line \d+, column \d+: /)]);
  });

  it("keeps the valid part of an invalid file, to merge and report what the locks refuse", () => {
    const read = readConfig(
      "rules:\n  unknwn-member: off\n  name-format: off\nignore:\n  - rules: [x]\n  - paths: [legacy/**]\nfail_on: x\n",
      "repo.yml",
    );
    expect(read.problems).toHaveLength(4);
    expect(read.raw).toEqual({ rules: { "name-format": "off" }, ignore: [{ paths: ["legacy/**"] }] });
    const c = resolveConfig({ org: { locked: ["name-format"] }, repo: read.raw });
    expect(c.notes).toEqual([
      "repo.yml, line 3: rule `name-format` is locked by the organisation: the repository's `off` was not applied",
      "repo.yml, line 6: locked rule `name-format` cannot be ignored by the repository",
    ]);
  });

  it("names the file and line of a refused loosening, also through `_extends`", () => {
    const base = parseConfig("fail_on: never\n", "acme/base:.github/plugin-review.yml");
    const repo = parseConfig("rules:\n  policy-name: off\n", "acme/plugins:.github/plugin-review.yml");
    const c = resolveConfig({
      org: { locked: ["policy-name", "fail_on"] },
      repo: extendConfig(base, repo),
    });
    expect(c.notes).toEqual([
      "acme/plugins:.github/plugin-review.yml, line 2: rule `policy-name` is locked by the organisation: the repository's `off` was not applied",
      "acme/plugins:.github/plugin-review.yml, line 1: `fail_on` is locked by the organisation at `error`: the repository's looser `never` was not applied",
    ]);
  });
});
