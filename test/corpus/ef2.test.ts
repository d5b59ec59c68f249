/**
 * The Extensions 2.0 corpus (../shared/corpus/ef2/, extension.yaml files Dynatrace publishes; SOURCES.md names
 * each): Dynatrace ships these, so the review raises no error on any of them, never throws, locates every
 * finding inside the file, and says of a build template's placeholders (`<%=version%>`) that it does not judge
 * them. Skipped when ../shared is absent.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { resolveConfig } from "../../src/core/config.js";
import { analyseDescriptors } from "../../src/core/analyse.js";
import { INTERNAL_ERROR } from "../../src/core/analyse.js";
import { describeUnless, withoutShared } from "../helpers.js";
import { EXPECTED_EF2 } from "./expected-ef2.js";

const CORPUS = new URL("../../../shared/corpus/ef2/", import.meta.url);
const files = existsSync(CORPUS)
  ? readdirSync(CORPUS)
      .filter((f) => f.endsWith(".yaml"))
      .sort()
  : [];

/**
 * The file's path in its repository (the corpus names it `<NNN>__<owner>__<repo>__<path with / as -->`); the
 * VS Code add-on's test manifests (`basic_extension.yaml`) are reviewed as the extension.yaml they are.
 */
const repoPath = (file: string) =>
  file
    .split("__")
    .slice(3)
    .join("__")
    .replace(/--/g, "/")
    .replace(/[^/]*\.yaml$/, "extension.yaml");

describeUnless(withoutShared("corpus/ef2/"))("Extensions 2.0 corpus, each file alone", () => {
  it("holds the 25 published extensions SOURCES.md lists", () => {
    const sources = readFileSync(new URL("SOURCES.md", CORPUS), "utf8");
    const listed = [...sources.matchAll(/^\| (\d{3}) \|/gm)].map((m) => m[1]);
    expect(files.map((f) => f.slice(0, 3))).toEqual(listed);
  });

  it("every expectation is sorted and explains each rule", () => {
    for (const [file, e] of Object.entries(EXPECTED_EF2)) {
      expect(e.rules, file).toEqual([...new Set(e.rules)].sort());
      expect(Object.keys(e.reasons).sort(), file).toEqual(e.rules);
    }
  });

  it.each(files)("%s: no error, every finding inside the file", (file) => {
    const text = readFileSync(new URL(file, CORPUS), "utf8");
    const [analysed] = analyseDescriptors([{ path: repoPath(file), content: text }], resolveConfig());
    const findings = analysed!.findings;
    expect(findings.filter((f) => f.messageId === INTERNAL_ERROR)).toEqual([]);
    expect(
      findings.filter((f) => f.severity === "error").map((f) => `${f.line}: ${f.ruleId}: ${f.message}`),
    ).toEqual([]);
    const lines = text.split("\n").length;
    for (const f of findings)
      expect(f.line >= 1 && f.endLine <= lines, `${f.ruleId} at ${f.line}`).toBe(true);
    // Exactly the findings the expectation explains, as many as it counts.
    const expected = EXPECTED_EF2[file.slice(0, 3)] ?? { rules: [], reasons: {} };
    expect([...new Set(findings.map((f) => f.ruleId))].sort()).toEqual(expected.rules);
    for (const [rule, reason] of Object.entries(expected.reasons)) {
      const counted = /\[(\d+)\]$/.exec(reason)?.[1];
      if (counted)
        expect(findings.filter((f) => f.ruleId === rule).length, `${rule}: ${reason}`).toBe(Number(counted));
      expect(findings.filter((f) => f.ruleId === rule).every((f) => f.severity !== "error")).toBe(true);
    }
    // A build template is said to be one, at each value its build writes.
    const templated = /<%[\s\S]*?%>/.test(text);
    expect(findings.some((f) => f.ruleId === "build-placeholder")).toBe(templated);
  });
});
