/**
 * `--format sarif` against the SARIF 2.1.0 JSON schema, run through the built CLI as a user does.
 *
 * The schema is `lib/schemas/sarif-2.1.0-rtm.5.json` of `@microsoft/jest-sarif` (Microsoft's SARIF JS
 * SDK): the 2.1.0 schema as published on schemastore.org, with the standard's `suppression.status`. No
 * npm package usable as a dev dependency ships OASIS's `sarif-schema-2.1.0.json` file itself. It declares
 * draft-04: its root `id` is renamed `$id` for Ajv's draft-07 class, which is exact because every keyword
 * it uses means the same in draft-04 and draft-07 (checked below). Formats (`uri`, `uri-reference`,
 * `date-time`) are checked with ajv-formats.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv, type ErrorObject } from "ajv";
import formats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifactUri, toSarif } from "../../src/format/sarif.js";
import { cli, ensureBuilt } from "../cli/run.js";
import { ROOT } from "../helpers.js";

const require = createRequire(import.meta.url);
const SCHEMA_FILE = require.resolve("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
const SHIPPED = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as Record<string, unknown>;

/** Keywords whose meaning draft-04 and draft-07 share (draft-04's boolean exclusiveMinimum is not one). */
const SAME_IN_DRAFT_04_AND_07 = new Set([
  "$ref",
  "additionalProperties",
  "allOf",
  "anyOf",
  "default",
  "definitions",
  "description",
  "enum",
  "format",
  "items",
  "maxItems",
  "maxLength",
  "maximum",
  "minItems",
  "minLength",
  "minimum",
  "not",
  "oneOf",
  "pattern",
  "properties",
  "required",
  "title",
  "type",
  "uniqueItems",
]);
/** Annotations: draft-04 and draft-07 ignore members beside `$ref`, Ajv applies them; these do nothing. */
const ANNOTATIONS = new Set(["description", "title", "default"]);

/** Every keyword used in a schema node and below, and what stands beside each `$ref`. */
function inventory(node: unknown, keywords: Set<string>, besideRef: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) inventory(n, keywords, besideRef);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const obj = node as Record<string, unknown>;
  for (const [k, v] of Object.entries(obj)) {
    keywords.add(k);
    if (k === "properties" || k === "definitions") {
      for (const sub of Object.values(v as Record<string, unknown>)) inventory(sub, keywords, besideRef);
    } else if (k !== "enum" && k !== "default" && k !== "required") {
      inventory(v, keywords, besideRef);
    }
  }
  if ("$ref" in obj) for (const k of Object.keys(obj)) if (k !== "$ref") besideRef.add(k);
}

function sarifValidator() {
  const schema: Record<string, unknown> = {
    ...Object.fromEntries(Object.entries(SHIPPED).filter(([k]) => k !== "id" && k !== "$schema")),
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: SHIPPED.id,
  };
  // The schema's `language` pattern ends in `]?$`: a literal `]` in ECMA-262, but an error under the
  // `u` flag that Ajv 8 uses by default.
  const ajv = new Ajv({ allErrors: true, strictTypes: false, strictTuples: false, unicodeRegExp: false });
  formats.default(ajv, ["uri", "uri-reference", "date-time"]);
  return ajv.compile(schema);
}

function explain(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`).join("\n");
}

interface SarifRule {
  id: string;
  name?: string;
  shortDescription?: { text?: string };
  fullDescription?: { text?: string };
  helpUri?: string;
  defaultConfiguration?: { level?: string };
}
interface SarifResult {
  ruleId: string;
  ruleIndex?: number;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: {
      artifactLocation: { uri: string };
      region: { startLine: number; startColumn: number; endLine: number; endColumn: number };
    };
  }[];
  partialFingerprints?: Record<string, string>;
}
interface SarifLog {
  version: string;
  runs: { tool: { driver: { name: string; rules: SarifRule[] } }; results: SarifResult[] }[];
}
interface JsonFinding {
  file: string;
  ruleId: string;
  severity: "error" | "warning" | "notice";
  message: string;
  line: number;
  column: number;
}
const LEVEL = { error: "error", warning: "warning", notice: "note" };

const validate = sarifValidator();

function sarifOf(args: string[], cwd = ROOT): { status: number | null; log: SarifLog } {
  const r = cli(["check", "--format", "sarif", ...args], cwd);
  expect(r.stderr).toBe("");
  const log = JSON.parse(r.stdout) as unknown;
  const valid = validate(log);
  expect(valid, explain(validate.errors)).toBe(true);
  return { status: r.status, log: log as SarifLog };
}

/**
 * The embedded links of a SARIF plain text message, by SARIF 2.1.0 §3.11.6's grammar: `[`, link text (in
 * which `\\`, `[` and `]` are escaped with a backslash), `](`, a link destination, `)`. A backslash escapes
 * the character after it, so an escaped `[` starts no link.
 */
function embeddedLinks(text: string): string[] {
  const links: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") {
      i++;
      continue;
    }
    if (text[i] !== "[") continue;
    let j = i + 1;
    while (j < text.length && text[j] !== "]" && text[j] !== "[") j += text[j] === "\\" ? 2 : 1;
    const end = text.startsWith("](", j) ? text.indexOf(")", j + 2) : -1;
    if (end > j + 2) links.push(text.slice(i, end + 1));
  }
  return links;
}

/** Rule metadata: every result's rule is described, indexed correctly, and linked to its page. */
function expectRuleMetadata(log: SarifLog): void {
  expect(log.runs).toHaveLength(1);
  const run = log.runs[0]!;
  const rules = run.tool.driver.rules;
  const ids = rules.map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const rule of rules) {
    expect(rule.shortDescription?.text, rule.id).toMatch(/\S/);
    expect(rule.fullDescription?.text, rule.id).toMatch(/\S/);
    expect(rule.helpUri, rule.id).toMatch(new RegExp(`^https://[^ ]+/docs/rules/${rule.id}\\.md$`));
    expect(existsSync(join(ROOT, "docs", "rules", `${rule.id}.md`)), `docs/rules/${rule.id}.md`).toBe(true);
  }
  for (const result of run.results) {
    expect(ids, result.ruleId).toContain(result.ruleId);
    expect(result.ruleIndex, result.ruleId).toBe(ids.indexOf(result.ruleId));
    expect(rules[result.ruleIndex!]!.id).toBe(result.ruleId);
  }
}

describe("the SARIF 2.1.0 schema used", () => {
  it("is the 2.1.0 schema, whose draft-04 keywords mean the same in draft-07", () => {
    expect(SHIPPED.$schema).toBe("http://json-schema.org/draft-04/schema#");
    expect(SHIPPED.title).toMatch(/SARIF\) Version 2\.1\.0/);
    const root = SHIPPED.properties as { version: { enum: string[] } };
    expect(root.version.enum).toEqual(["2.1.0"]);
    const keywords = new Set<string>();
    const besideRef = new Set<string>();
    inventory(SHIPPED, keywords, besideRef);
    keywords.delete("$schema");
    keywords.delete("id"); // the root's schema id, renamed `$id`
    expect([...keywords].filter((k) => !SAME_IN_DRAFT_04_AND_07.has(k))).toEqual([]);
    expect([...besideRef].filter((k) => !ANNOTATIONS.has(k))).toEqual([]);
  });

  it("rejects what SARIF 2.1.0 forbids", () => {
    const ok = { version: "2.1.0", runs: [{ tool: { driver: { name: "x" } }, results: [] }] };
    expect(validate(ok), explain(validate.errors)).toBe(true);
    expect(validate({ ...ok, version: "2.0.0" })).toBe(false);
    const badLevel = {
      ...ok,
      runs: [{ tool: { driver: { name: "x" } }, results: [{ message: { text: "m" }, level: "notice" }] }],
    };
    expect(validate(badLevel)).toBe(false);
    const badUri = {
      ...ok,
      runs: [
        {
          tool: { driver: { name: "x" } },
          artifacts: [{ location: { uri: "a b/plugin.json" } }],
        },
      ],
    };
    expect(validate(badUri)).toBe(false);
  });
});

describe("--format sarif", () => {
  beforeAll(() => ensureBuilt());

  it("is valid SARIF 2.1.0 with rule metadata for examples/mistakes", () => {
    const { status, log } = sarifOf(["examples/mistakes"]);
    expect(status).toBe(1);
    expect(log.version).toBe("2.1.0");
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe("plugin-review");
    expect(run.results.length).toBeGreaterThan(0);
    expect(new Set(run.results.map((r) => r.level))).toEqual(new Set(["error", "warning", "note"]));
    expectRuleMetadata(log);

    // The same findings as --format json, in the same files and places.
    const json = JSON.parse(cli(["check", "--format", "json", "examples/mistakes"]).stdout) as JsonFinding[];
    expect(
      run.results.map((r) => {
        const loc = r.locations[0]!.physicalLocation;
        return [loc.artifactLocation.uri, r.ruleId, r.level, loc.region.startLine, loc.region.startColumn];
      }),
    ).toEqual(json.map((f) => [f.file, f.ruleId, LEVEL[f.severity], f.line, f.column]));
  });

  it("keeps a finding's partialFingerprints when an index shifts, and changes them with the offending value", () => {
    const dir = mkdtempSync(join(tmpdir(), "plugin-review-sarif-id-"));
    try {
      const file = join(dir, "plugin.json");
      const doc = JSON.parse(readFileSync(join(ROOT, "examples/host-valid/plugin.json"), "utf8")) as {
        metrics: unknown[];
      };
      const errors = { timeseries: { key: "errors", unit: "Count", displayname: "errors" } };
      const other = { timeseries: { key: "other", unit: "Count", displayname: "Other" } };
      const run = (metrics: unknown[]) => {
        writeFileSync(file, JSON.stringify({ ...doc, metrics }, null, 2) + "\n");
        const { log } = sarifOf([file], dir);
        const [r] = log.runs[0]!.results.filter((x) => x.ruleId === "displayname-equals-key");
        return { line: r!.locations[0]!.physicalLocation.region.startLine, fp: r!.partialFingerprints };
      };
      const before = run([...doc.metrics, errors]);
      const shifted = run([other, ...doc.metrics, errors]);
      expect(shifted.line).toBeGreaterThan(before.line);
      expect(before.fp).toEqual({ "pluginReview/v3": expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(shifted.fp).toEqual(before.fp);
      // Another offending metric (another key) is another finding.
      const renamed = run([
        ...doc.metrics,
        { timeseries: { ...errors.timeseries, key: "fails", displayname: "fails" } },
      ]);
      expect(renamed.fp).not.toEqual(before.fp);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes no embedded link a descriptor's text could make: its brackets are escaped (SARIF 2.1.0 §3.11.6)", () => {
    const dir = mkdtempSync(join(tmpdir(), "plugin-review-sarif-link-"));
    try {
      const doc = JSON.parse(readFileSync(join(ROOT, "examples/host-valid/plugin.json"), "utf8")) as object;
      // Member names a reviewer would click in a SARIF viewer: a link to a URI, one to a location, a backslash.
      const hostile = { ...doc, "[docs](https://evil.example/x)": 1, "a\\[b](0)": 2 };
      writeFileSync(join(dir, "plugin.json"), JSON.stringify(hostile, null, 2) + "\n");
      const { log } = sarifOf(["plugin.json"], dir);
      const json = JSON.parse(cli(["check", "--format", "json", "plugin.json"], dir).stdout) as JsonFinding[];
      const texts = log.runs[0]!.results.map((r) => r.message.text);
      expect(texts.filter((t) => t.includes("evil.example"))).toHaveLength(1);
      for (const t of texts) expect(embeddedLinks(t), t).toEqual([]);
      // What a viewer shows, the escapes read, is the message itself.
      expect(texts.map((t) => t.replace(/\\(.)/g, "$1"))).toEqual(json.map((f) => f.message));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is valid SARIF 2.1.0 with no results for examples/host-valid", () => {
    const { status, log } = sarifOf(["examples/host-valid"]);
    expect(status).toBe(0);
    expect(log.runs[0]!.results).toEqual([]);
    expectRuleMetadata(log);
  });

  describe("file names that are not URI-safe", () => {
    let dir = "";
    const awkward = "dir with space [1] é%#?";
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "plugin-review-sarif-"));
      mkdirSync(join(dir, awkward));
      cpSync(
        join(ROOT, "examples", "mistakes", "remote-mistakes", "plugin.json"),
        join(dir, awkward, "plugin.json"),
      );
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("are percent-encoded into valid URI references that decode to the path", () => {
      const { status, log } = sarifOf([`${awkward}/plugin.json`], dir);
      expect(status).toBe(1);
      const uris = new Set(
        log.runs[0]!.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri),
      );
      expect([...uris]).toEqual(["dir%20with%20space%20%5B1%5D%20%C3%A9%25%23%3F/plugin.json"]);
      expect(decodeURIComponent([...uris][0]!)).toBe(`${awkward}/plugin.json`);
      expectRuleMetadata(log);
    });
  });

  it("turns paths into URI references", () => {
    expect(artifactUri("./examples/host-valid/plugin.json")).toBe("examples/host-valid/plugin.json");
    expect(artifactUri("plugins\\a b\\plugin.json")).toBe("plugins/a%20b/plugin.json");
    expect(artifactUri("../x/plugin.json")).toBe("../x/plugin.json");
    expect(artifactUri("/abs/plugin.json")).toBe("file:///abs/plugin.json");
    expect(artifactUri("/a b/é/plugin.json")).toBe("file:///a%20b/%C3%A9/plugin.json");
    expect(artifactUri("C:\\work\\my plugin\\plugin.json")).toBe("file:///C:/work/my%20plugin/plugin.json");
    expect(artifactUri("d:/work/plugin.json")).toBe("file:///d:/work/plugin.json");
    expect(artifactUri("\\\\server\\share\\plugin.json")).toBe("file://server/share/plugin.json");
  });

  it("lists every reviewed descriptor as an artifact, and gives results a baselineState when compared", () => {
    const finding = (baseline?: "new" | "existing") => ({
      ruleId: "version-not-bumped",
      severity: "error" as const,
      message: "m",
      messageId: "notBumped",
      pointer: "/version",
      target: "value" as const,
      fingerprint: "0123456789abcdef0123456789abcdef",
      line: 3,
      column: 14,
      endLine: 3,
      endColumn: 21,
      ...(baseline ? { baseline } : {}),
    });
    const files = [
      { path: "a/plugin.json", text: "", findings: [finding("new"), finding("existing")] },
      { path: "b/plugin.json", text: "", findings: [] },
      { path: "c/plugin.json", text: "", findings: [finding()] },
    ];
    const log = toSarif(files, (p) => p, "1.0.0") as {
      runs: { artifacts: { location: { uri: string } }[]; results: Record<string, unknown>[] }[];
    };
    const valid = validate(log);
    expect(valid, explain(validate.errors)).toBe(true);
    const run = log.runs[0]!;
    expect(run.artifacts.map((a) => a.location.uri)).toEqual([
      "a/plugin.json",
      "b/plugin.json",
      "c/plugin.json",
    ]);
    expect(run.results.map((r) => r.baselineState)).toEqual(["new", "unchanged", undefined]);
    expect(
      run.results.map(
        (r) =>
          (r.locations as { physicalLocation: { artifactLocation: { index: number } } }[])[0]!
            .physicalLocation.artifactLocation.index,
      ),
    ).toEqual([0, 0, 2]);
  });
});
