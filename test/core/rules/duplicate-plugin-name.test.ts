import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/core/config.js";
import { analyseDescriptors } from "../../../src/core/analyse.js";
import { ruleTable, validHost, validRemote, text, lineOf, edit, EXTENSION } from "../../helpers.js";

const ID = "duplicate-plugin-name";
const host = text(validHost());
const remote = text(validRemote());
/** The host example moved: same name, other content, `name` on another line. */
const hostCopy = text({ version: "3.0", ...validHost() });

function review(files: { path: string; content: string }[], config = resolveConfig()) {
  return analyseDescriptors(files, config).map((r) => ({
    path: r.path,
    findings: r.findings.filter((f) => f.ruleId === ID),
  }));
}

// A single file can never clash with itself, whatever it holds.
ruleTable("duplicate-plugin-name", {
  valid: [
    { name: "the host example alone", doc: host },
    { name: "the remote example alone", doc: remote },
    {
      name: "a file whose name appears twice via a duplicate key",
      doc: edit(host, '"version": "1.2.0",', '"version": "1.2.0",\n  "name": "custom.python.demo_plugin",'),
    },
    { name: "a file without a name", doc: text({ ...validHost(), name: undefined }) },
  ],
  invalid: [],
});

describe("duplicate-plugin-name across descriptors checked together", () => {
  it("two files sharing a name: one finding each, at its own `name` line", () => {
    const out = review([
      { path: "a/plugin.json", content: host },
      { path: "b/plugin.json", content: hostCopy },
    ]);
    expect(out.map((r) => r.findings.map((f) => f.line))).toEqual([
      [lineOf(host, '"name"')],
      [lineOf(hostCopy, '"name"')],
    ]);
    expect(lineOf(hostCopy, '"name"')).not.toBe(lineOf(host, '"name"'));
    expect(out[0]?.findings[0]?.message).toContain(
      "plugin name `custom.python.demo_plugin` is also used by `b/plugin.json`",
    );
    expect(out[1]?.findings[0]?.message).toContain("is also used by `a/plugin.json`");
    expect(out[0]?.findings[0]?.severity).toBe("error");
  });

  it("three files, two sharing a name: the third is not reported; each names all the others", () => {
    const out = review([
      { path: "a/plugin.json", content: remote },
      { path: "b/plugin.json", content: host },
      { path: "c/plugin.json", content: remote },
      { path: "d/plugin.json", content: remote },
    ]);
    expect(out.map((r) => r.findings.length)).toEqual([1, 0, 1, 1]);
    expect(out[0]?.findings[0]?.message).toContain("`c/plugin.json`, `d/plugin.json`");
    expect(out[0]?.findings[0]?.line).toBe(lineOf(remote, '"name"'));
  });

  it("different names, even differing only in case, are not reported", () => {
    const out = review([
      { path: "a/plugin.json", content: host },
      { path: "b/plugin.json", content: text({ ...validHost(), name: "custom.python.Demo_plugin" }) },
      { path: "c/plugin.json", content: remote },
    ]);
    expect(out.flatMap((r) => r.findings)).toEqual([]);
  });

  it("a file that does not parse takes no part", () => {
    const out = review([
      { path: "a/plugin.json", content: host },
      { path: "b/plugin.json", content: edit(host, '"version"', '// x\n  "version"') },
    ]);
    expect(out.flatMap((r) => r.findings)).toEqual([]);
  });

  it("a name that is not a string takes no part", () => {
    const out = review([
      { path: "a/plugin.json", content: text({ ...validHost(), name: 1 }) },
      { path: "b/plugin.json", content: text({ ...validRemote(), name: 1 }) },
    ]);
    expect(out.flatMap((r) => r.findings)).toEqual([]);
  });

  it("configuration: severity, off, and ignore by path", () => {
    const files = [
      { path: "a/plugin.json", content: host },
      { path: "legacy/plugin.json", content: hostCopy },
    ];
    const warned = review(files, resolveConfig({ repo: { rules: { [ID]: "warning" } } }));
    expect(warned.map((r) => r.findings.map((f) => f.severity))).toEqual([["warning"], ["warning"]]);
    expect(
      review(files, resolveConfig({ repo: { rules: { [ID]: "off" } } })).flatMap((r) => r.findings),
    ).toEqual([]);
    const ignored = review(
      files,
      resolveConfig({ repo: { ignore: [{ paths: ["legacy/**"], rules: [ID] }] } }),
    );
    expect(ignored.map((r) => r.findings.length)).toEqual([1, 0]);
  });
});

describe("duplicate-plugin-name across extension.yaml files checked together", () => {
  /** The valid extension copied into another project, its `name` one line lower. */
  const copy = `# the router extension, copied\n${EXTENSION}`;
  /** A build template: its build writes the name (build-placeholder). */
  const template = edit(
    EXTENSION,
    "name: custom:example.snmp-router",
    "name: com.dynatrace.extension.<%=extensionName%>",
  );

  it("two extensions sharing a name: one finding each, at its own `name` line", () => {
    const out = review([
      { path: "router/extension/extension.yaml", content: EXTENSION },
      { path: "router-v2/extension/extension.yaml", content: copy },
    ]);
    expect(out.map((r) => r.findings.map((f) => f.line))).toEqual([[1], [2]]);
    expect(out[0]?.findings[0]?.message).toBe(
      "extension name `custom:example.snmp-router` is also used by `router-v2/extension/extension.yaml`; Dynatrace takes them as one extension, of which one version is active at a time",
    );
    expect(out[1]?.findings[0]?.message).toContain("is also used by `router/extension/extension.yaml`");
    expect(out[0]?.findings[0]?.severity).toBe("error");
  });

  it("an extension and a plugin.json are never compared, whatever their names", () => {
    const out = review([
      { path: "router/extension/extension.yaml", content: EXTENSION },
      { path: "router/plugin.json", content: text({ ...validRemote(), name: "custom:example.snmp-router" }) },
    ]);
    expect(out.flatMap((r) => r.findings)).toEqual([]);
  });

  it("build templates, whose build writes the name, take no part", () => {
    const out = review([
      { path: "a/extension/extension.yaml", content: template },
      { path: "b/extension/extension.yaml", content: `# another\n${template}` },
    ]);
    expect(out.flatMap((r) => r.findings)).toEqual([]);
  });

  it("another tool's extension.yaml, which is not reviewed, takes no part", () => {
    const firebase = "name: resize-images\nversion: 0.1.0\n";
    const out = review([
      { path: "a/extension.yaml", content: firebase },
      { path: "b/extension.yaml", content: firebase },
    ]);
    expect(out.flatMap((r) => r.findings)).toEqual([]);
  });
});
