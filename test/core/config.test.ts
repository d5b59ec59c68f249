import { describe, expect, it } from "vitest";
import {
  ConfigError,
  extendConfig,
  globMatcher,
  parseConfig,
  readConfig,
  resolveConfig,
  type RawConfig,
} from "../../src/core/config.js";
import { analyseDescriptors } from "../../src/core/analyse.js";
import { RULE_IDS } from "../../src/core/rules/index.js";
import { checkConclusion, fails } from "../../src/core/verdict.js";
import { check, text, validHost } from "../helpers.js";

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
      paths: ["**/plugin.json", "**/extension.yaml"],
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
    expect(problems("policy:\n  extension_name_pattern: '(?<=acme)x'")).toEqual([
      expect.stringMatching(
        /^line 2, column 27: policy.extension_name_pattern: not a valid regular expression/,
      ),
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

  it("keeps the organisation's extension name pattern of a locked policy-name, and says so", () => {
    const c = resolveConfig({
      org: { policy: { extension_name_pattern: "^custom:acme\\." }, locked: ["policy-name"] },
      repo: { policy: { extension_name_pattern: ".*", name_pattern: "^custom\\." } },
    });
    expect(c.policy.extensionNamePattern?.source).toBe("^custom:acme\\.");
    // The organisation set no plugin.json pattern: the repository's adds a check.
    expect(c.policy.namePattern?.source).toBe("^custom\\.");
    expect(c.notes).toEqual([
      expect.stringMatching(
        /`policy\.extension_name_pattern` is set by the organisation and its rule `policy-name` is locked/,
      ),
    ]);
    // Unlocked, the repository's replaces the organisation's.
    const unlocked = resolveConfig({
      org: { policy: { extension_name_pattern: "^custom:acme\\." } },
      repo: { policy: { extension_name_pattern: "^custom:team\\." } },
    });
    expect(unlocked.policy.extensionNamePattern?.source).toBe("^custom:team\\.");
  });

  it("decides failure by fail_on", () => {
    expect(fails("warning", "error")).toBe(false);
    expect(fails("error", "error")).toBe(true);
    expect(fails("notice", "notice")).toBe(true);
    expect(fails("error", "never")).toBe(false);
  });
});

describe("paths and ignore globs: every character a name may hold", () => {
  it("`**` and `*` match across line breaks and other separators in a folder's name", () => {
    const match = globMatcher(["**/plugin.json", "legacy/*/x.json"]);
    for (const p of [
      "a\nb/plugin.json",
      "p/a\r\nb/plugin.json",
      "a\u2028b\u2029/plugin.json",
      "legacy/a\nb/x.json",
    ])
      expect(match(p), JSON.stringify(p)).toBe(true);
    for (const p of ["a\nb/plugin.jsonx", "legacy/a\n/b/x.json", "a/.\nplugin.json"])
      expect(match(p), JSON.stringify(p)).toBe(false);
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

  it("locked settings are not rule ids; a repository ignore entry keeps every rule but the gate rules", () => {
    expect(problems("locked: [existing, fail_on, version-not-bumped]")).toEqual([]);
    expect(problems("locked: [existng]")[0]).toMatch(/unknown rule id `existng`/);
    const c = resolveConfig({ org: { locked: ["fail_on"] }, repo: { ignore: [{ paths: ["legacy/**"] }] } });
    expect(c.notes).toEqual([
      "locked rules `file-too-large`, `invalid-json` cannot be ignored by the repository",
    ]);
    expect(c.ignore).toEqual([
      { paths: ["legacy/**"], rules: RULE_IDS.filter((r) => r !== "file-too-large" && r !== "invalid-json") },
    ]);
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

  it("a file that is not UTF-8 says what it is and where, never that it `must be object`", () => {
    const bytes = (yaml: string, encoding: BufferEncoding) => new Uint8Array(Buffer.from(yaml, encoding));
    const read = (b: Uint8Array) => readConfig(b, "repo.yml").problems.map((p) => ({ ...p }));
    const yaml = "fail_on: warning\n";
    // Windows editors' "Unicode": UTF-16 little-endian with its byte order mark; and big-endian, and UTF-32.
    const utf16le = bytes("\uFEFF" + yaml, "utf16le");
    expect(read(utf16le)).toEqual([
      { message: "the file is UTF-16 (its byte order mark says so): save it as UTF-8" },
    ]);
    expect(read(new Uint8Array(Buffer.from(utf16le).swap16()))).toEqual(read(utf16le));
    expect(read(new Uint8Array([0xff, 0xfe, 0, 0, 0x66, 0, 0, 0]))[0]?.message).toMatch(
      /^the file is UTF-32 /,
    );
    // UTF-16 without a mark: NUL characters YAML would take as part of the keys.
    expect(read(bytes(yaml, "utf16le"))).toEqual([
      {
        message: "a NUL character: a configuration is UTF-8 text (a UTF-16 file without a byte order mark?)",
        line: 1,
        column: 2,
      },
    ]);
    // Latin-1 (Windows-1252): `é` one byte, where a glob would otherwise silently match nothing.
    const latin1 = bytes('fail_on: error\nignore:\n  - paths: ["plugins/café/**"]\n', "latin1");
    expect(read(latin1)).toEqual([
      {
        message: "byte 0xE9 is not UTF-8 (a file saved as Latin-1 or Windows-1252?): save it as UTF-8",
        line: 3,
        column: 25,
      },
    ]);
    expect(() => parseConfig(latin1, "repo.yml")).toThrow(/line 3, column 25: byte 0xE9 is not UTF-8/);
    // UTF-8, with or without its byte order mark, reads as the text does.
    const accented = 'ignore:\n  - paths: ["plugins/café/**"]\n';
    expect(readConfig(bytes(accented, "utf8"), "repo.yml")).toEqual(readConfig(accented, "repo.yml"));
    expect(readConfig(bytes("\uFEFF" + yaml, "utf8"), "repo.yml").raw).toEqual({ fail_on: "warning" });
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
      "repo.yml, line 6: locked rules `name-format`, `file-too-large`, `invalid-json` cannot be ignored by the repository",
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
      "acme/base:.github/plugin-review.yml, line 1: `fail_on` is locked by the organisation at `error`: the repository's looser `never` was not applied",
    ]);
  });
});

describe("organisation locks: a repository cannot narrow what is reviewed", () => {
  const ORG = "locked: [metric-group-changed]\n";
  const PATH = "p/plugin.json";
  const BASE = text(validHost());
  const HEAD = text({ ...validHost(), version: "1.3.0", metricGroup: "tech.python.other" });

  /**
   * What the App's run concludes for a pull request that changes `p/plugin.json`'s metricGroup, with the
   * organisation's file and a repository file as the App reads them: an invalid file fails the run, a file
   * outside `paths` is not reviewed, else the conclusion and the rules of the failing findings.
   */
  function run(repoYaml: string, opts: { org?: string; head?: string } = {}): string {
    const org = readConfig(opts.org ?? ORG, "org.yml");
    const repo = readConfig(repoYaml, "repo.yml");
    if (org.problems.length || repo.problems.length) return "invalid configuration";
    const config = resolveConfig({ org: org.raw, repo: repo.raw });
    if (!globMatcher(config.paths)(PATH)) return "not reviewed";
    const [review] = analyseDescriptors(
      [{ path: PATH, content: opts.head ?? HEAD, base: { path: PATH, content: BASE }, isNew: false }],
      config,
    );
    const failing = review!.findings.filter((f) => fails(f.severity, config.failOn)).map((f) => f.ruleId);
    return `${checkConclusion(review!.findings, config)}: ${failing.join(", ")}`;
  }

  const FAILS = "failure: metric-group-changed";
  const INVALID = "invalid configuration";

  it("without a repository file, or without any lock, the repository's file decides", () => {
    expect(run("")).toBe(FAILS);
    expect(run('paths: ["nothing/**/plugin.json"]\n', { org: "" })).toBe("not reviewed");
    expect(run("max_file_size: 1\nrules:\n  file-too-large: off\n", { org: "" })).toBe("success: ");
  });

  it.each([
    // The two repository files.
    ['paths: ["nothing/**/plugin.json"]', FAILS],
    ["max_file_size: 1\nrules:\n  file-too-large: off", FAILS],
    // Other ways to narrow `paths`: negation, odd syntax, a case the descriptor does not have.
    ['paths: ["!**/plugin.json"]', FAILS],
    ['paths: ["p/plugin.json", "!p/plugin.json"]', FAILS],
    ['paths: ["!(p)/**/plugin.json"]', FAILS],
    ['paths: ["P/Plugin.json"]', FAILS],
    ['paths: ["nothing/**/plugin.json"]\nignore:\n  - paths: ["**"]', FAILS],
    // Other ways to make the descriptor too large to read, or its size finding silent.
    ["max_file_size: 1\nignore:\n  - paths: [p/**]\n    rules: [file-too-large]", FAILS],
    ["max_file_size: 1\nignore:\n  - paths: [p/**]", FAILS],
    ["max_file_size: 1\nrules:\n  file-too-large: notice", FAILS],
    ["max_file_size: 0x1\nrules:\n  file-too-large: off", FAILS],
    ["max_file_size: 1.0\nrules:\n  file-too-large: off", FAILS],
    ['max_file_size: "1"\nrules:\n  file-too-large: off', INVALID],
    ["max_file_size: 0\nrules:\n  file-too-large: off", INVALID],
    ["max_file_size: -1", INVALID],
    // The locked rule itself: off, lower, spelt differently, through YAML's syntax.
    ["rules:\n  metric-group-changed: off", FAILS],
    ["rules:\n  metric-group-changed: notice", FAILS],
    ['{"rules": {"metric-group-changed": "off"}}', FAILS],
    ["rules:\n  ? metric-group-changed\n  : off", FAILS],
    ["rules:\n  metric-group-changed: !!str off", FAILS],
    ["rules:\n  metric-group-changed: Off", INVALID],
    ["rules:\n  metric-group-changed: false", INVALID],
    ["%YAML 1.1\n---\nrules:\n  metric-group-changed: off", INVALID],
    ["rules:\n  Metric-Group-Changed: off", INVALID],
    ["rules:\n  metric\u2010group-changed: off", INVALID],
    ["rules:\n  metric-group-changed: error\n  metric-group-changed: off", INVALID],
    ["rules: {}\nrules:\n  metric-group-changed: off", INVALID],
    ["rules:\n  <<: {metric-group-changed: off}", INVALID],
    ["<<: {rules: {metric-group-changed: off}}", INVALID],
    ["---\nrules: {}\n---\nrules:\n  metric-group-changed: off", INVALID],
    ["severities: &off\n  metric-group-changed: off\nrules: *off", INVALID],
    ["rules: &r\n  metric-group-changed: off\nignore:\n  - &e\n    paths: ['**']\n  - *e", FAILS],
    // Ignoring it, by name or by ignoring everything, with any glob.
    ["ignore:\n  - paths: [p/**]\n    rules: [metric-group-changed]", FAILS],
    ['ignore:\n  - paths: ["!nothing"]\n    rules: [metric-group-changed]', FAILS],
    ['ignore:\n  - paths: ["**"]', FAILS],
    ["ignore:\n  - paths: ['**']\n    rules: []", FAILS],
    // Settings the organisation did not lock do not hide a change rule's findings (they are always new).
    ["existing: hide", FAILS],
    ["review: none", FAILS],
    // A repository cannot lock, nor unlock.
    ["locked: []", FAILS],
  ])("%j: %s", (yaml, expected) => {
    expect(run(yaml)).toBe(expected);
  });

  it("the invalid-JSON finding is locked with the rest: a descriptor no rule could read still fails", () => {
    // A byte order mark: lenient readers accept it, strict JSON does not, so no rule judged the change.
    const bom = `\uFEFF${HEAD}`;
    expect(run("rules:\n  invalid-json: off\n", { head: bom })).toBe("failure: invalid-json");
    expect(run("ignore:\n  - paths: [p/**]\n    rules: [invalid-json]\n", { head: bom })).toBe(
      "failure: invalid-json",
    );
    expect(run("rules:\n  invalid-json: off\n", { org: "", head: bom })).toBe("success: ");
  });

  it("`fail_on` and `existing` are the organisation's to lock: locking a rule locks its severity, not the failing level", () => {
    expect(run("fail_on: never")).toBe("neutral: ");
    expect(run("fail_on: never", { org: "locked: [metric-group-changed, fail_on]" })).toBe(FAILS);
  });

  it.each<[string, RawConfig, RawConfig, Partial<ReturnType<typeof resolveConfig>>]>([
    [
      "paths add to the organisation's (the default when it sets none)",
      { locked: ["name-format"] },
      { paths: ["plugins/*/plugin.json", "extra/*.json"] },
      { paths: ["**/plugin.json", "**/extension.yaml", "plugins/*/plugin.json", "extra/*.json"] },
    ],
    [
      "paths add to the organisation's own",
      { locked: ["fail_on"], paths: ["src/**/plugin.json"] },
      { paths: ["src/**/plugin.json", "extra/*.json"] },
      { paths: ["src/**/plugin.json", "extra/*.json"] },
    ],
    [
      "max_file_size may go above the organisation's, not below",
      { locked: ["name-format"], max_file_size: 1000 },
      { max_file_size: 2000 },
      { maxFileSize: 2000 },
    ],
    [
      "max_file_size below the organisation's is the organisation's",
      { locked: ["name-format"], max_file_size: 1000 },
      { max_file_size: 999 },
      { maxFileSize: 1000 },
    ],
    [
      "max_file_size below the default when the organisation sets none",
      { locked: ["existing"] },
      { max_file_size: 1 },
      { maxFileSize: 5 * 1024 * 1024 },
    ],
    [
      "an extension.yaml's limit: 1 MB by default, the repository's own without a lock",
      { max_extension_size: 2000 },
      { max_extension_size: 10 },
      { maxExtensionSize: 10, notes: [] },
    ],
    [
      "max_extension_size below the organisation's, under a lock, is the organisation's",
      { locked: ["name-format"], max_extension_size: 2000 },
      { max_extension_size: 10 },
      { maxExtensionSize: 2000 },
    ],
    [
      "max_extension_size below the default when the organisation sets none, under a lock",
      { locked: ["existing"] },
      { max_extension_size: 1 },
      { maxExtensionSize: 1024 * 1024 },
    ],
    [
      "the gate rules may be raised, not lowered",
      { locked: ["name-format"], rules: { "invalid-json": "warning" } },
      { rules: { "invalid-json": "notice", "file-too-large": "error" } },
      { rules: { "invalid-json": "warning", "file-too-large": "error" } },
    ],
    [
      "without a lock, the repository's paths, size and gate rules are its own",
      { max_file_size: 1000 },
      { paths: ["x/*.json"], max_file_size: 1, rules: { "file-too-large": "off" } },
      { paths: ["x/*.json"], maxFileSize: 1, rules: { "file-too-large": "off" }, notes: [] },
    ],
    [
      "a locked technology list may be narrowed (in any case), not widened",
      { locked: ["unknown-technology"], policy: { technologies: ["PYTHON", "TOMCAT"] } },
      { policy: { technologies: ["python"] } },
      { policy: { technologies: ["python"] }, notes: [] },
    ],
    [
      "without an organisation list, the built-in list is what a repository may narrow",
      { locked: ["unknown-technology"] },
      { policy: { technologies: ["PYTHON"] } },
      { policy: { technologies: ["PYTHON"] }, notes: [] },
    ],
    [
      "a locked process type list may be narrowed by names or ids (one table)",
      { locked: ["unknown-process-type"], policy: { process_types: ["JAVA", 10] } },
      { policy: { process_types: [10] } },
      { policy: { processTypes: [10] }, notes: [] },
    ],
    [
      "a name pattern where the organisation sets none adds a check",
      { locked: ["policy-name"] },
      { policy: { name_pattern: "^custom\\." } },
      { notes: [] },
    ],
  ])("%s", (_, org, repo, expected) => {
    expect(resolveConfig({ org, repo })).toMatchObject(expected);
  });

  it("says what it did not apply, naming the file and line", () => {
    const repo = parseConfig(
      [
        'paths: ["plugins/*/plugin.json"]',
        "max_file_size: 1",
        "rules:",
        "  file-too-large: off",
        "policy:",
        "  technologies: [PYTHON, MY_OWN]",
        "  process_types: [JAVA, 999]",
      ].join("\n"),
      "acme/plugins:.github/plugin-review.yml",
    );
    const c = resolveConfig({
      org: { locked: ["unknown-technology", "unknown-process-type"], policy: { technologies: ["PYTHON"] } },
      repo,
    });
    expect(c.notes).toEqual([
      "acme/plugins:.github/plugin-review.yml, line 4: rule `file-too-large` is locked by the organisation: the repository's `off` was not applied",
      "acme/plugins:.github/plugin-review.yml, line 6: rule `unknown-technology` is locked by the organisation: the repository's `policy.technologies` allows `MY_OWN`, which the organisation's `policy.technologies` does not, and was not applied",
      "acme/plugins:.github/plugin-review.yml, line 7: rule `unknown-process-type` is locked by the organisation: the repository's `policy.process_types` allows `999`, which the built-in list does not, and was not applied",
      "acme/plugins:.github/plugin-review.yml, line 1: under the organisation's locks, its `paths` `**/plugin.json`, `**/extension.yaml` are reviewed too: a repository's `paths` only add to them",
      "acme/plugins:.github/plugin-review.yml, line 2: under the organisation's locks, `max_file_size` cannot go below its 5,242,880 bytes: the repository's `1` was not applied",
    ]);
    expect(c.policy).toEqual({ technologies: ["PYTHON"] });
    expect(c.locked).toEqual([
      "unknown-technology",
      "unknown-process-type",
      "file-too-large",
      "invalid-json",
    ]);
  });
});
