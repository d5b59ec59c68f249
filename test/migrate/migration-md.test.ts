/**
 * MIGRATION.md as the person finishing a migration reads it: each thing to do by hand at its `file:line` in the
 * written project (read from the written text, so that it stays right however the files are laid out), the
 * commands to check and build the extension at its end, and links to the docs by their section.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AUTHOR_PLACEHOLDER, type Converted } from "../../src/migrate/migrate.js";
import { shellWord } from "../../src/migrate/next-steps.js";
import { writtenLine } from "../../src/migrate/written.js";
import { escapeSegment } from "../../src/core/json/pointer.js";
import { LineIndex, resolvePointer } from "../../src/core/locate.js";
import { parseYamlAsDynatrace } from "../../src/core/yaml/snakeyaml.js";
import { migrate } from "../../src/migrate/migrate.js";
import { ROOT, validHost, validRemote } from "../helpers.js";
import { converted, file } from "./helpers.js";

const JMX = readFileSync(join(ROOT, "examples/jmx-valid/plugin.json"), "utf8");
const HOST = readFileSync(join(ROOT, "examples/host-valid/plugin.json"), "utf8");

/** The to-do lines of MIGRATION.md. */
function todos(r: Converted): string[] {
  const md = file(r, "MIGRATION.md");
  const from = md.indexOf("## To do by hand");
  // The section ends at the next heading (a Python project's sections, then "Check and build").
  const section = md.slice(from, md.indexOf("\n## ", from + 1));
  return section.split("\n").filter((l) => l.startsWith("- "));
}

/** The line of the written file that a `file:line` names. */
function lineAt(r: Converted, place: string): string {
  const [path, line] = place.split(":");
  return file(r, path!).split("\n")[Number(line) - 1]!;
}

describe("MIGRATION.md's to-dos", () => {
  it("name the author's line in extension/extension.yaml, as the written file has it", () => {
    const r = converted(JMX);
    const author = todos(r).find((l) => l.includes("`author.name`"));
    expect(author).toBe(
      "- `extension/extension.yaml:5`: `author.name` is `Your name here`: EF1 names no author, EF2 needs one",
    );
    expect(lineAt(r, "extension/extension.yaml:5")).toBe(`  name: ${AUTHOR_PLACEHOLDER}`);
  });

  it("follow the written text when its layout moves the member (a long name, a Python extension)", () => {
    // A name YAML folds onto lines of its own would move `author` down: the line is read, never assumed.
    for (const r of [converted(JMX, { name: "custom:acme.pool" }), converted(HOST)]) {
      for (const todo of todos(r)) {
        const place = /^- `([^`]+:\d+)`/.exec(todo)?.[1];
        if (!place) continue;
        const line = lineAt(r, place);
        if (todo.includes("`author.name`")) expect(line).toBe(`  name: ${AUTHOR_PLACEHOLDER}`);
        if (todo.includes("alert_settings")) expect(line).toBe("alerts:");
        if (todo.includes("source.className")) expect(line).toMatch(/^ {4}module: /);
      }
    }
  });

  it("give every to-do a place in the written project where there is one, with the EF1 line it comes from", () => {
    const r = converted(HOST);
    expect(todos(r)).toEqual([
      // The code is copied into a folder of the project (no line to name): the EF1 line alone.
      expect.stringMatching(
        /^- line 11, `source\.package`: the plugin's code \(`demo_plugin`\) was not found/,
      ),
      expect.stringMatching(
        /^- `extension\/extension\.yaml:\d+` \(from line 26, `metrics\[0\]\.alert_settings`\): /,
      ),
      expect.stringMatching(/^- `extension\/extension\.yaml:\d+`: `author\.name` is /),
    ]);
  });

  it("writtenLine reads a member of YAML or JSON by pointer, other text by what the line holds", () => {
    const files = [
      { path: "extension/extension.yaml", content: "name: custom:a.b\nauthor:\n  name: x\n" },
      { path: "extension/alerts/a.json", content: '{\n  "name": "a",\n  "enabled": false\n}\n' },
      { path: "setup.py", content: "from setuptools import setup\n\nsetup(install_requires=[])\n" },
    ];
    expect(writtenLine(files, { file: "extension/extension.yaml", pointer: "/author/name" })).toBe(3);
    expect(writtenLine(files, { file: "extension/alerts/a.json", pointer: "/enabled" })).toBe(3);
    expect(writtenLine(files, { file: "setup.py", text: "install_requires" })).toBe(3);
    // Nothing there: no place rather than a wrong one.
    expect(
      writtenLine(files, { file: "extension/extension.yaml", pointer: "/author/email" }),
    ).toBeUndefined();
    expect(writtenLine(files, { file: "nope.yaml", pointer: "/name" })).toBeUndefined();
  });

  it("writtenLine reads a YAML file as the review reads an extension.yaml, where the line-by-line read cannot", () => {
    // A flow list continued at its key's column: Dynatrace's parser and the review read it, YAML 1.2 does not.
    const files = [
      { path: "extension/extension.yaml", content: "name: custom:a.b\ntags: [x,\ny]\nauthor: {name: x}\n" },
    ];
    expect(writtenLine(files, { file: "extension/extension.yaml", pointer: "/author/name" })).toBe(4);
    expect(writtenLine(files, { file: "extension/extension.yaml", pointer: "/tags/1" })).toBe(3);
  });
});

/** Every member's pointer in a value (its keys and indices), depth first. */
function pointers(value: unknown, at = ""): string[] {
  if (typeof value !== "object" || value === null) return [];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : Object.entries(value as Record<string, unknown>);
  return entries.flatMap(([k, v]) => {
    const p = `${at}/${escapeSegment(k)}`;
    return [p, ...pointers(v, p)];
  });
}

describe("writtenLine in extension.yaml, read line by line, agrees with the review's YAML parser", () => {
  const corpus = join(ROOT, "..", "shared", "corpus", "real");
  const texts = [
    JMX,
    HOST,
    JSON.stringify(validRemote()),
    ...(existsSync(corpus)
      ? readdirSync(corpus)
          .filter((f) => f.endsWith(".json"))
          .map((f) => readFileSync(join(corpus, f), "utf8"))
      : []),
  ];

  it("for every member of every written extension.yaml (the examples, and the real corpus when present)", () => {
    let compared = 0;
    for (const text of texts) {
      const r = migrate(text);
      if (!r.converted) continue;
      const yaml = file(r, "extension/extension.yaml");
      const parsed = parseYamlAsDynatrace(yaml);
      if (!parsed.ok) expect.fail(parsed.error.message);
      const index = new LineIndex(yaml);
      for (const pointer of pointers(parsed.value)) {
        const found = resolvePointer(parsed.root, pointer);
        const expected = index.position(found.keyStart ?? found.node.start).line;
        expect(writtenLine(r.files, { file: "extension/extension.yaml", pointer }), pointer).toBe(expected);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});

describe("MIGRATION.md's end: how to check and build", () => {
  const block = (md: string) => /```sh\n([\s\S]*?)\n```\n$/.exec(md)?.[1]?.split("\n");

  it("JMX: the check against the plugin.json it replaces, then Dynatrace's assemble and sign", () => {
    const md = file(converted(JMX, { source: "../../examples/jmx-valid/plugin.json" }), "MIGRATION.md");
    expect(block(md)).toEqual([
      "npx plugin-review check --base ../../examples/jmx-valid/plugin.json extension/extension.yaml",
      "dt ext assemble --source extension --output dist/extension.zip",
      "dt ext sign --src dist/extension.zip --key ~/.dynatrace/certificates/developer.pem --output dist/bundle.zip",
    ]);
  });

  it("Python: the check, then the SDK's build", () => {
    const md = file(converted(validHost(), { source: "plugin.json" }), "MIGRATION.md");
    expect(block(md)).toEqual([
      "npx plugin-review check --base plugin.json extension/extension.yaml",
      "dt-sdk build .",
    ]);
  });

  it("links to the docs by section, each a heading docs/migrate.md has", () => {
    const md = file(converted(JMX), "MIGRATION.md");
    // The other links are to files of the migration (its dashboard).
    const written = new Set(converted(JMX).files.map((f) => f.path));
    const links = [...md.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!).filter((l) => !written.has(l));
    expect(links.length).toBeGreaterThanOrEqual(2);
    const slug = (h: string) =>
      h
        .trim()
        .toLowerCase()
        .replace(/[^\w\- ]/g, "")
        .replace(/ /g, "-");
    const headings = [...readFileSync(join(ROOT, "docs/migrate.md"), "utf8").matchAll(/^#+ (.*)$/gm)].map(
      (m) => slug(m[1]!),
    );
    for (const link of links) {
      const [page, section] = link.split("#");
      expect(page, link).toBe("https://github.com/plugin-review/plugin-review/blob/main/docs/migrate.md");
      expect(headings, link).toContain(section);
    }
  });

  it("quotes a path the shell would split or act on, and the block holds whatever the path holds", () => {
    expect(shellWord("../plugins/a/plugin.json")).toBe("../plugins/a/plugin.json");
    expect(shellWord("my plugins/it's/plugin.json")).toBe(`'my plugins/it'\\''s/plugin.json'`);
    expect(shellWord("a$(rm -rf ~)/plugin.json")).toBe(`'a$(rm -rf ~)/plugin.json'`);
    expect(shellWord("a\u001b[2Jb/plugin.json")).toBe(`$'a\\u001b[2Jb/plugin.json'`);
    const md = file(converted(JMX, { source: "```\n# x/plugin.json" }), "MIGRATION.md");
    // A fence longer than any run of backticks in the path: the path cannot end the block.
    expect(md).toMatch(/\n````sh\n[\s\S]*\n````\n$/);
  });
});
