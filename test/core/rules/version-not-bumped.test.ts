import { describe, expect, it } from "vitest";
import {
  check,
  ruleTable,
  validHost,
  validRemote,
  lineOf,
  at,
  make,
  edit,
  EF2,
  EXTENSION,
} from "../../helpers.js";

type Obj = Record<string, unknown>;

/** The same JSON with every object's members in reverse order (arrays keep their order). */
function reversed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversed);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, reversed(x)]),
  );
}

function withVersion(doc: Obj, version: string): Obj {
  doc.version = version;
  return doc;
}

const renameDisplay = (d: Obj) => {
  at(d, "metrics", 1, "timeseries").displayname = "Response time";
};

const host = make(validHost(), renameDisplay);
const v1025 = make(withVersion(validHost(), "1.025"), renameDisplay);
const v19 = make(withVersion(validHost(), "1.9"), renameDisplay);
const shorter = make(withVersion(validHost(), "2.1"), renameDisplay);
const remote = make(validRemote(), (d) => {
  at(d, "metrics", 0, "alert_settings", 0).threshold = 95;
});
const arrayOrder = make(validHost(), (d) => {
  at<unknown[]>(d, "metrics").reverse();
});
const badVersion = make(withVersion(validHost(), "v1"), renameDisplay);
// Exact text: reformatted (one line per top-level member, 4-space indent) and one real change.
const reformattedAndChanged =
  "{\n" +
  Object.entries(
    (() => {
      const d = validHost();
      renameDisplay(d);
      return d;
    })(),
  )
    .map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(",\n") +
  "\n}\n";

/** The extension with one display name changed. */
const efChanged = EXTENSION.replace("displayName: Uptime", "displayName: Time since restart");
const efFiles = ["extension/extension.yaml", "extension/dashboards/overview.json", "extension/README.md"];

ruleTable("version-not-bumped", {
  valid: [
    { name: "extension.yaml: unchanged", doc: EXTENSION, options: { ...EF2, base: EXTENSION } },
    {
      name: "extension.yaml: changed, with a higher version (semantic versions: 1.10.0 > 1.9.0)",
      doc: efChanged.replace('version: "1.4.0"', 'version: "1.10.0"'),
      options: { ...EF2, base: EXTENSION.replace('version: "1.4.0"', 'version: "1.9.0"') },
    },
    {
      name: "extension.yaml: a build template's version is the build's",
      doc: efChanged.replace('version: "1.4.0"', "version: <%=version%>"),
      options: { ...EF2, base: EXTENSION.replace('version: "1.4.0"', "version: <%=version%>") },
    },
    {
      name: "extension.yaml: a file the extension does not package changed",
      doc: EXTENSION,
      options: { ...EF2, base: EXTENSION, files: { paths: efFiles, changed: ["extension/README.md"] } },
    },
    { name: "unchanged host descriptor", doc: validHost(), options: { base: validHost() } },
    { name: "unchanged remote descriptor", doc: validRemote(), options: { base: validRemote() } },
    {
      name: "same document reformatted (compact) and with every member order reversed, same version",
      doc: JSON.stringify(reversed(validHost())),
      options: { base: validHost() },
    },
    {
      name: "same document with CRLF line endings and tabs",
      doc: JSON.stringify(validRemote(), null, "\t").replace(/\n/g, "\r\n"),
      options: { base: validRemote() },
    },
    {
      name: "changed and bumped",
      doc: make(withVersion(validHost(), "1.2.1"), renameDisplay),
      options: { base: validHost() },
    },
    {
      name: "changed and bumped from 1.9 to 1.10 (numeric comparison)",
      doc: make(withVersion(validHost(), "1.10"), renameDisplay),
      options: { base: withVersion(validHost(), "1.9") },
    },
    {
      name: "changed and bumped by adding a segment (1.2 to 1.2.1)",
      doc: make(withVersion(validHost(), "1.2.1"), renameDisplay),
      options: { base: withVersion(validHost(), "1.2") },
    },
    {
      name: "changed with a lower version is version-decreased's business",
      doc: make(withVersion(validHost(), "1.1.0"), renameDisplay),
      options: { base: validHost() },
    },
    { name: "no base (plain check): change rules do not run", doc: host },
    {
      name: "a base that is not valid JSON (base-invalid-json reports it)",
      doc: host,
      options: { base: "{ nope" },
    },
    {
      name: "rule turned off",
      doc: host,
      options: { base: validHost(), config: { rules: { "version-not-bumped": "off" } } },
    },
  ],
  invalid: [
    {
      name: "extension.yaml: changed without a higher version: the fix bumps the patch",
      doc: efChanged,
      options: { ...EF2, base: EXTENSION },
      lines: [lineOf(efChanged, "version:")],
      messageId: "extension",
      data: { head: "1.4.0", next: "1.4.1" },
      message: /Dynatrace refuses an upload whose version is not higher than the installed one/,
      output: efChanged.replace('version: "1.4.0"', 'version: "1.4.1"'),
    },
    {
      name: "extension.yaml: a dashboard it packages changed, extension.yaml did not",
      doc: EXTENSION,
      options: {
        ...EF2,
        base: EXTENSION,
        files: { paths: efFiles, changed: ["extension/dashboards/overview.json"] },
      },
      lines: [lineOf(EXTENSION, "version:")],
      messageId: "extensionFile",
      data: { file: "extension/dashboards/overview.json", next: "1.4.1" },
      output: EXTENSION.replace('version: "1.4.0"', 'version: "1.4.1"'),
    },
    {
      name: "extension.yaml: an unquoted version is bumped unquoted",
      doc: efChanged.replace('version: "1.4.0"', "version: 1.4.0"),
      options: { ...EF2, base: EXTENSION },
      lines: [lineOf(efChanged, "version:")],
      messageId: "extension",
      output: efChanged.replace('version: "1.4.0"', "version: 1.4.1"),
    },
    {
      name: "extension.yaml: `1.4` equals the base's 1.4.0; the fix writes three numbers (`1.5` is no EF2 version)",
      doc: efChanged.replace('version: "1.4.0"', 'version: "1.4"'),
      options: { ...EF2, base: EXTENSION },
      lines: [lineOf(efChanged, "version:")],
      messageId: "extension",
      data: { head: "1.4", next: "1.4.1" },
      output: efChanged.replace('version: "1.4.0"', 'version: "1.4.1"'),
    },
    {
      name: "extension.yaml: leading zeros and a fourth number are not carried into the fix",
      doc: efChanged.replace('version: "1.4.0"', 'version: "01.4.0.0"'),
      options: { ...EF2, base: EXTENSION },
      lines: [lineOf(efChanged, "version:")],
      messageId: "extension",
      data: { head: "01.4.0.0", next: "1.4.1" },
      output: efChanged.replace('version: "1.4.0"', 'version: "1.4.1"'),
    },
    {
      name: "host: changed, same version; at head's version value, naming the next version",
      messageId: "notBumpedNext",
      data: { head: "1.2.0", next: "1.2.1" },
      output: edit(host, '"version": "1.2.0"', '"version": "1.2.1"'),
      doc: host,
      lines: [lineOf(host, '"version": "1.2.0"')],
      message: "the descriptor changed but `version` is still `1.2.0`; increase it, e.g. to `1.2.1`",
      severity: "error",
      options: { base: validHost() },
    },
    {
      name: "zero padding is kept: 1.025 → 1.026",
      messageId: "notBumpedNext",
      output: edit(v1025, '"1.025"', '"1.026"'),
      doc: v1025,
      lines: [lineOf(v1025, '"version": "1.025"')],
      message: "e.g. to `1.026`",
      options: { base: withVersion(validHost(), "1.025") },
    },
    {
      name: "1.9 → 1.10",
      messageId: "notBumpedNext",
      output: edit(v19, '"1.9"', '"1.10"'),
      doc: v19,
      lines: [lineOf(v19, '"version": "1.9"')],
      message: "e.g. to `1.10`",
      options: { base: withVersion(validHost(), "1.9") },
    },
    {
      name: "2.1 equals the base's 2.1.0 (missing segments are 0)",
      messageId: "notBumpedNext",
      output: edit(shorter, '"2.1"', '"2.2"'),
      doc: shorter,
      lines: [lineOf(shorter, '"version": "2.1"')],
      message: "is still `2.1` (equal to the base's `2.1.0`); increase it, e.g. to `2.2`",
      options: { base: withVersion(validHost(), "2.1.0") },
    },
    {
      name: "remote: a changed alert threshold",
      messageId: "notBumpedNext",
      output: edit(remote, '"2.0.3"', '"2.0.4"'),
      doc: remote,
      lines: [lineOf(remote, '"version": "2.0.3"')],
      message: "e.g. to `2.0.4`",
      options: { base: validRemote() },
    },
    {
      name: "array order is content: reordered metrics are a change",
      messageId: "notBumpedNext",
      output: edit(arrayOrder, '"version": "1.2.0"', '"version": "1.2.1"'),
      doc: arrayOrder,
      lines: [lineOf(arrayOrder, '"version"')],
      message: "is still `1.2.0`",
      options: { base: validHost() },
    },
    {
      name: "reformatted text with a real change",
      messageId: "notBumpedNext",
      output: edit(reformattedAndChanged, '"version": "1.2.0"', '"version": "1.2.1"'),
      doc: reformattedAndChanged,
      lines: [lineOf(reformattedAndChanged, '"version"')],
      message: "e.g. to `1.2.1`",
      options: { base: validHost() },
    },
    {
      name: "an equal but malformed version: no next version to suggest",
      messageId: "notBumped",
      doc: badVersion,
      lines: [lineOf(badVersion, '"version": "v1"')],
      message: /^the descriptor changed but `version` is still `v1`; increase it$/,
      options: { base: withVersion(validHost(), "v1") },
    },
  ],
});

describe("version-not-bumped fix", () => {
  const fixOf = (head: string, base: Obj) => {
    const found = check(head, { base }).filter((f) => f.ruleId === "version-not-bumped");
    expect(found).toHaveLength(1);
    return found[0]?.fix;
  };

  it("carries the next version as the replacement of head's version value", () => {
    expect(fixOf(host, validHost())).toEqual({
      replacement: '"1.2.1"',
      description: "bump the version to `1.2.1`",
    });
  });

  it("keeps zero padding (1.025 → 1.026) and carries over (1.9 → 1.10, 1.99 → 1.100)", () => {
    expect(fixOf(v1025, withVersion(validHost(), "1.025"))?.replacement).toBe('"1.026"');
    expect(fixOf(v19, withVersion(validHost(), "1.9"))?.replacement).toBe('"1.10"');
    const v199 = make(withVersion(validHost(), "1.99"), renameDisplay);
    expect(fixOf(v199, withVersion(validHost(), "1.99"))?.replacement).toBe('"1.100"');
  });

  it("bumps head's own spelling (2.1 → 2.2 even when the base says 2.1.0)", () => {
    expect(fixOf(shorter, withVersion(validHost(), "2.1.0"))?.replacement).toBe('"2.2"');
  });

  it("offers no fix for a malformed version", () => {
    expect(fixOf(badVersion, withVersion(validHost(), "v1"))).toBeUndefined();
  });

  it("the finding spans exactly head's version value", () => {
    const [f] = check(host, { base: validHost() }).filter((x) => x.ruleId === "version-not-bumped");
    const line = lineOf(host, '"version": "1.2.0"');
    const column = host.split("\n")[line - 1]!.indexOf('"1.2.0"') + 1;
    expect(f).toMatchObject({ line, column, endLine: line, endColumn: column + '"1.2.0"'.length });
  });
});
