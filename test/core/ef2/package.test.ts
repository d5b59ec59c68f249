/** What a caller passes of an extension's files: the paths the review reads, and the Python SDK's project folder. */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  alertPaths,
  alertPathsInText,
  dashboardPaths,
  dashboardPathsInText,
  extensionPackage,
  extensionReads,
  projectFolder,
  resolveFrom,
} from "../../../src/core/ef2/package.js";
import { parseYamlAsDynatrace } from "../../../src/core/yaml/snakeyaml.js";
import { itUnless, withoutShared } from "../../helpers.js";

/** The alert paths of an extension.yaml's parsed value, as the rules read them. */
const parsedAlerts = (text: string) => {
  const parsed = parseYamlAsDynatrace(text);
  return alertPaths(parsed.ok ? parsed.value : undefined);
};

/** The dashboard paths of an extension.yaml's parsed value, as the rules read them (in any order). */
const parsedDashboards = (text: string) => {
  const parsed = parseYamlAsDynatrace(text);
  return dashboardPaths(parsed.ok ? parsed.value : undefined).sort();
};

const CORPUS = new URL("../../../../shared/corpus/ef2/", import.meta.url);

describe("the files beside an extension.yaml", () => {
  it("names the activation schemas it reads, as repository paths", () => {
    const value = {
      python: { activation: { remote: { path: "activationSchema.json" }, local: { path: "../local.json" } } },
    };
    expect(extensionReads("ext/extension/extension.yaml", value)).toEqual([
      "ext/extension/activationSchema.json",
      "ext/local.json",
    ]);
    expect(
      extensionReads("extension.yaml", { python: { activation: { remote: { path: "../../x.json" } } } }),
    ).toEqual([]);
    expect(extensionReads("extension.yaml", "not a mapping")).toEqual([]);
  });

  it("finds the SDK's project beside an extension/ folder", () => {
    expect(projectFolder("extension/extension.yaml")).toBe("");
    expect(projectFolder("queue/extension/extension.yaml")).toBe("queue/");
    expect(projectFolder("src/extension.yaml")).toBe("src/");
    expect(projectFolder("extension.yaml")).toBe("");
    expect(resolveFrom("a/b/", "./c/../d.json")).toBe("a/b/d.json");
  });

  it("reads a file once, and says why one cannot be read", () => {
    const files = {
      paths: ["e/extension.yaml", "e/a.json", "e/b.json"],
      contents: new Map<string, string | Uint8Array>([
        ["e/a.json", "{}"],
        ["e/b.json", new Uint8Array([0xff, 0xfe])],
      ]),
    };
    const pkg = extensionPackage("e/extension.yaml", files, 100);
    expect(pkg.read("a.json")).toEqual({ text: "{}" });
    expect(pkg.read("b.json")).toEqual({ problem: "is not UTF-8 text" });
    expect(pkg.read("c.json")).toBeUndefined();
    expect(pkg.read("a.json", true)).toBeUndefined();
    expect(extensionPackage("e/extension.yaml", files, 1).read("a.json")).toEqual({
      problem: "is larger than max_file_size (1 bytes)",
      tooLarge: true,
    });
    // As the App reads a file over max_file_size: its size alone.
    const sized = { contents: new Map([["e/a.json", { tooLarge: 200 }]]) };
    expect(extensionPackage("e/extension.yaml", sized, 100).read("a.json")).toEqual({
      problem: "is larger than max_file_size (100 bytes)",
      tooLarge: true,
    });
  });

  describe("the alert files an extension.yaml lists, found in its text without parsing it (the App)", () => {
    it.each([
      [
        "block style, quoted or not, with comments",
        "name: x\nalerts:\n  - path: \"a/1.json\" # one\n  - path: a/2.json\n  - path: 'a/3.json'\ndashboards:\n  - path: d.json\n",
      ],
      [
        "a sequence at the key's column, CRLF lines",
        "alerts:\r\n- path: a/1.json\r\n- path: a/2.json\r\nversion: 1.0.0\r\n",
      ],
      ["flow style", 'alerts: [{path: a/1.json}, { path: "a/2.json" }]\ndashboards: [{path: d.json}]\n'],
      ["entries with more members, the path not first", "alerts:\n  - id: x\n    path: a/1.json\n"],
      ["a quoted top-level key, after a document start", '---\n"alerts":\n  - path: a/1.json\n'],
      [
        "no alerts, a dashboard's and an activation schema's paths",
        "dashboards:\n  - path: d.json\npython:\n  activation:\n    remote:\n      path: s.json\n",
      ],
      [
        "21 alerts: the first 20 read",
        `alerts:\n${Array.from({ length: 21 }, (_, i) => `  - path: a/${i}.json\n`).join("")}`,
      ],
    ])("%s", (_name, text) => {
      expect(alertPathsInText(text)).toEqual(parsedAlerts(text));
    });

    it.each([
      [
        "block style, both lists, with alerts and comments",
        "alerts:\n  - path: a.json\ndashboards:\n  - path: d/1.json # one\n  - path: 'd/2.json'\ndocuments:\n  # the new app's\n  dashboards:\n    - displayName: One\n      path: \"docs/1.json\"\n    - path: docs/2.json\n      displayName: Two\nversion: 1.0.0\n",
      ],
      [
        "documents' dashboards at the key's column, another key after it, CRLF lines",
        "documents:\r\n  dashboards:\r\n  - displayName: One\r\n    path: docs/1.json\r\n  other:\r\n  - path: not-a-dashboard.json\r\n",
      ],
      [
        "flow style",
        'dashboards: [{path: d/1.json}]\ndocuments: {dashboards: [{displayName: One, path: "docs/1.json"}]}\n',
      ],
      [
        "documents' dashboards in flow style",
        "documents:\n  dashboards: [{displayName: One, path: docs/1.json}]\n",
      ],
      ["no dashboards, an alert's path", "alerts:\n  - path: a.json\n"],
      [
        "21 dashboards and 21 documents: the first 20 of each read",
        `dashboards:\n${Array.from({ length: 21 }, (_, i) => `  - path: d/${i}.json\n`).join("")}documents:\n  dashboards:\n${Array.from({ length: 21 }, (_, i) => `    - path: docs/${i}.json\n`).join("")}`,
      ],
    ])("dashboards: %s", (_name, text) => {
      expect(dashboardPathsInText(text).sort()).toEqual(parsedDashboards(text));
    });

    itUnless(withoutShared("corpus/ef2/"))(
      "finds every published extension's dashboards as its parse does",
      () => {
        const files = readdirSync(CORPUS).filter((f) => f.endsWith(".yaml"));
        let listing = 0;
        for (const file of files) {
          const text = readFileSync(new URL(file, CORPUS), "utf8");
          const parsed = parsedDashboards(text);
          if (parsed.length) listing++;
          expect(dashboardPathsInText(text).sort(), file).toEqual(parsed);
        }
        expect(listing).toBeGreaterThanOrEqual(5);
      },
    );

    itUnless(withoutShared("corpus/ef2/"))(
      "finds every published extension's alerts as its parse does",
      () => {
        const files = readdirSync(CORPUS).filter((f) => f.endsWith(".yaml"));
        let alerting = 0;
        for (const file of files) {
          const text = readFileSync(new URL(file, CORPUS), "utf8");
          const parsed = parsedAlerts(text);
          if (parsed.length) alerting++;
          expect(alertPathsInText(text), file).toEqual(parsed);
        }
        expect(alerting).toBeGreaterThanOrEqual(10);
      },
    );
  });
});
