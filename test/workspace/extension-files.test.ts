/**
 * extensionFilesOnDisk (src/workspace/extension-files.ts): an extension.yaml's project files as `check` and the
 * language server pass them; its text parsed once, and a project not listed said with every kind of file whose
 * check it leaves out.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as snakeyaml from "../../src/core/yaml/snakeyaml.js";
import { extensionFilesOnDisk } from "../../src/workspace/extension-files.js";

vi.mock("../../src/core/yaml/snakeyaml.js", async (importOriginal) => {
  const original = await importOriginal<typeof snakeyaml>();
  return { ...original, parseYamlAsDynatrace: vi.fn(original.parseYamlAsDynatrace) };
});

let dir: string;
const put = (path: string, content = "x") => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), content);
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hc-extension-files-"));
  vi.mocked(snakeyaml.parseYamlAsDynatrace).mockClear();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const HEAD = 'name: custom:acme.demo\nversion: 1.0.0\nminDynatraceVersion: "1.285"\n';
const PYTHON = `${HEAD}python:\n  runtime:\n    module: acme_demo\n  activation:\n    remote:\n      path: activationSchema.json\nalerts:\n  - path: alerts/a.json\n`;

describe("extensionFilesOnDisk", () => {
  it("parses the extension's text once, whether its project is listed or not", () => {
    put("extension/extension.yaml", PYTHON);
    put("extension/activationSchema.json", "{}");
    put("extension/alerts/a.json", "{}");
    put("acme_demo/__init__.py");
    const parse = vi.mocked(snakeyaml.parseYamlAsDynatrace);
    const listed = extensionFilesOnDisk(
      join(dir, "extension", "extension.yaml"),
      "extension/extension.yaml",
      PYTHON,
      1000,
    );
    expect([...(listed.files?.contents?.keys() ?? [])].sort()).toEqual([
      "extension/activationSchema.json",
      "extension/alerts/a.json",
    ]);
    expect(listed.files?.paths).toContain("acme_demo/__init__.py");
    expect(parse).toHaveBeenCalledTimes(1);
    parse.mockClear();
    // Outside a repository, named without its `extension/` folder: not listed, and said.
    const unlisted = extensionFilesOnDisk(
      join(dir, "extension", "extension.yaml"),
      "extension.yaml",
      PYTHON,
      1000,
    );
    expect(unlisted.files).toBeUndefined();
    expect(unlisted.unchecked).toBe(
      "its Python module, its activation schema and the files it lists (alerts)",
    );
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it("reads the dashboards it lists, and of a file over the bound only its size (never its bytes)", () => {
    const listing = `${HEAD}dashboards:\n  - path: dashboards/big.json\ndocuments:\n  dashboards:\n    - displayName: Doc\n      path: documents/doc.json\n`;
    put("extension.yaml", listing);
    put("dashboards/big.json", `{"tiles": []}${" ".repeat(2000)}`);
    put("documents/doc.json", "{}");
    const { files } = extensionFilesOnDisk(join(dir, "extension.yaml"), "extension.yaml", listing, 1000);
    expect(files?.contents).toEqual(
      new Map<string, unknown>([
        ["dashboards/big.json", { tooLarge: 2013 }],
        ["documents/doc.json", new Uint8Array(Buffer.from("{}"))],
      ]),
    );
  });

  it("a project not listed names every kind of file it lists, documents too", () => {
    const unchecked = (yaml: string) =>
      extensionFilesOnDisk(join(dir, "x", "extension.yaml"), "elsewhere/extension.yaml", yaml, 1000)
        .unchecked;
    expect(unchecked(`${HEAD}documents:\n  dashboards:\n    - path: dashboards/d.json\n`)).toBe(
      "the files it lists (documents)",
    );
    expect(unchecked(`${HEAD}alerts:\n  - path: a.json\ndashboards:\n  - path: d.json\n`)).toBe(
      "the files it lists (alerts, dashboards)",
    );
    expect(unchecked(HEAD)).toBeUndefined();
  });
});
