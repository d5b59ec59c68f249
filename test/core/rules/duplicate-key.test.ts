import { describe, expect, it } from "vitest";
import { check, ruleTable, validHost, validRemote, text, lineOf, edit, MIGRATION } from "../../helpers.js";

const host = text(validHost());
const remote = text(validRemote());

const topLevel = edit(host, '"version": "1.2.0",', '"version": "1.2.0",\n  "version": "1.3.0",');
const inSource = edit(
  host,
  '"className": "DemoPlugin",',
  '"className": "DemoPlugin",\n    "className": "OtherPlugin",',
);
// In the second timeseries (an object inside an array): `key` appears twice there.
const inArrayElement = edit(remote, '"key": "status",', '"key": "status",\n        "key": "state",');
const thrice = edit(host, '"type": "python",', '"type": "python",\n  "type": "JMX",\n  "type": "python",');
// `"n\u0061me"` is the same member name as `"name"` once the escape is decoded.
const escaped = edit(
  host,
  '"version": "1.2.0",',
  '"version": "1.2.0",\n  "n\\u0061me": "custom.python.other",',
);
const twoObjects = edit(
  edit(host, '"className": "DemoPlugin",', '"className": "DemoPlugin",\n    "package": "again",'),
  '"displayName": "Demo plugin",',
  '"displayName": "Demo plugin",\n    "displayName": "Again",',
);
const remoteTwice = edit(remote, '"favicon"', '"type": "python",\n  "favicon"');

/** An extension.yaml whose `created.count` metric says its type twice (YAML parsers differ on which wins). */
const yamlTwice = edit(
  MIGRATION.extension,
  "attribute:CreatedCount\n              type: count\n",
  "attribute:CreatedCount\n              type: count\n              type: gauge\n",
);

ruleTable("duplicate-key", {
  valid: [
    { name: "the host example", doc: host },
    { name: "the remote example", doc: remote },
    {
      name: "the same name at two levels (`package` at the top and in `source`)",
      doc: edit(host, '"version": "1.2.0",', '"version": "1.2.0",\n  "package": "demo_plugin",'),
    },
    {
      name: "names that differ only in case",
      doc: edit(host, '"version": "1.2.0",', '"version": "1.2.0",\n  "Version": "1.2.0",'),
    },
    {
      name: "names that differ by a trailing space",
      doc: edit(host, '"version": "1.2.0",', '"version": "1.2.0",\n  "version ": "1.2.0",'),
    },
    {
      name: "the same string twice as array items",
      doc: edit(
        host,
        '"processTypeNames": [\n    "PYTHON"',
        '"processTypeNames": [\n    "PYTHON",\n    "PYTHON"',
      ),
    },
  ],
  invalid: [
    {
      name: "an extension.yaml: a key twice in a YAML mapping",
      messageId: "duplicate",
      data: { key: "type", object: "jmx.groups[0].subgroups[1].metrics[0]", times: "twice" },
      doc: yamlTwice,
      options: { path: "extension/extension.yaml" },
      lines: [lineOf(yamlTwice, "type: count") + 1],
      message: `first on line ${lineOf(yamlTwice, "type: count")}`,
    },
    {
      name: "top-level member twice",
      messageId: "duplicate",
      data: { key: "version", object: "(root)", times: "twice", occurrence: 2 },
      doc: topLevel,
      lines: [lineOf(topLevel, '"version"', 2)],
      message: `first on line ${lineOf(topLevel, '"version"')}`,
    },
    {
      name: "inside a nested object",
      messageId: "duplicate",
      doc: inSource,
      lines: [lineOf(inSource, '"className"', 2)],
      message: /member `className` appears twice in `source`/,
    },
    {
      name: "inside an object in an array",
      messageId: "duplicate",
      doc: inArrayElement,
      lines: [lineOf(inArrayElement, '"key": "state"')],
      message: /`metrics\[1\]\.statetimeseries`/,
    },
    {
      name: "three times: the second and the third are reported",
      messageId: "duplicate",
      doc: thrice,
      lines: [lineOf(thrice, '"type"', 2), lineOf(thrice, '"type"', 3)],
      data: [
        { key: "type", times: "3 times", occurrence: 2 },
        { key: "type", times: "3 times", occurrence: 3 },
      ],
      message: new RegExp(
        `appears 3 times in \`\\(root\\)\` \\(first on line ${lineOf(thrice, '"type"')}\\)`,
      ),
    },
    {
      name: "same name once decoded (\\u escape)",
      messageId: "duplicate",
      doc: escaped,
      lines: [lineOf(escaped, '"n\\u0061me"')],
      message: /member `name` appears twice/,
    },
    {
      name: "two objects each with a duplicate",
      messageId: "duplicate",
      doc: twoObjects,
      lines: [lineOf(twoObjects, '"package": "again"'), lineOf(twoObjects, '"displayName": "Again"')],
    },
    {
      name: "the remote variant",
      doc: remoteTwice,
      lines: [lineOf(remoteTwice, '"type"', 2)],
      messageId: "duplicate",
    },
    {
      name: "severity can be lowered",
      messageId: "duplicate",
      doc: topLevel,
      lines: [lineOf(topLevel, '"version"', 2)],
      severity: "warning",
      options: { config: { rules: { "duplicate-key": "warning" } } },
    },
  ],
});

describe("duplicate-key: location and configuration", () => {
  it("points at the second occurrence's key (line and column of its opening quote)", () => {
    const [f] = check(inSource).filter((x) => x.ruleId === "duplicate-key");
    const secondKey = inSource.indexOf('"className"', inSource.indexOf('"className"') + 1);
    const lineStart = inSource.lastIndexOf("\n", secondKey) + 1;
    expect(f).toMatchObject({
      line: lineOf(inSource, '"className"', 2),
      column: secondKey - lineStart + 1,
      pointer: "/source/className",
    });
    expect(f?.endColumn).toBe(secondKey - lineStart + 1 + '"className"'.length);
  });

  it("three times: the second and the third copies are two findings, with two identities", () => {
    const found = check(thrice).filter((x) => x.ruleId === "duplicate-key");
    expect(found).toHaveLength(2);
    expect(found[0]!.fingerprint).not.toBe(found[1]!.fingerprint);
  });

  it("three times in a wide object: every copy names the line of the first", () => {
    const wide = Array.from({ length: 20 }, (_, i) => `"k${i}": ${i}`);
    wide.splice(1, 0, '"type": "JMX"');
    wide.push('"type": "python"');
    const doc = edit(host, '"type": "python",', `"type": "python",\n  ${wide.join(",\n  ")},`);
    const found = check(doc).filter((x) => x.ruleId === "duplicate-key");
    expect(found.map((f) => [f.line, f.data?.occurrence])).toEqual([
      [lineOf(doc, '"type"', 2), 2],
      [lineOf(doc, '"type"', 3), 3],
    ]);
    for (const f of found)
      expect(f.message).toContain(`3 times in \`(root)\` (first on line ${lineOf(doc, '"type"')})`);
  });

  it("the other rules see the last value, as JSON.parse keeps it", () => {
    // Second `version` is not a valid version: version-format reports the value that wins.
    const doc = edit(host, '"version": "1.2.0",', '"version": "1.2.0",\n  "version": "one",');
    expect(
      check(doc)
        .filter((f) => f.ruleId === "version-format")
        .map((f) => f.line),
    ).toEqual([lineOf(doc, '"one"')]);
  });

  it("can be turned off", () => {
    expect(
      check(topLevel, { config: { rules: { "duplicate-key": "off" } } }).filter(
        (f) => f.ruleId === "duplicate-key",
      ),
    ).toEqual([]);
  });
});
