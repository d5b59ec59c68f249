/**
 * What the code's shape promises, read from its syntax trees (TypeScript's parser):
 * - one review's stages are ordered in src/github/review/pipeline.ts alone: the stage functions are called
 *   nowhere else, in their order there; the scheduler and the Probot handlers hold no stage logic (the
 *   scheduler imports nothing of the review; the delivery reaches it through pipeline.ts; each handler is a
 *   few lines);
 * - one word per idea: no two exported types, interfaces, classes or enums of src/ share a name.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

const PIPELINE = "src/github/review/pipeline.ts";
/** The stages, in their order, and the file each is defined in. */
const STAGES = [
  ["readInputs", "src/github/review/read-inputs.ts"],
  ["analyseInputs", "src/github/review/analyse-inputs.ts"],
  ["completeCheckRun", "src/github/review/check-run/complete.ts"],
  ["publishPullReview", "src/github/review/pull-review/publish-stage.ts"],
] as const;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let sf = parsed.get(file);
  if (!sf) {
    sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, true);
    parsed.set(file, sf);
  }
  return sf;
}

function visitAll(node: ts.Node, fn: (n: ts.Node) => void): void {
  fn(node);
  node.forEachChild((c) => visitAll(c, fn));
}

/** The names called in a file (`f(…)`, `x.f(…)`), with their positions. */
function callsIn(file: string): { name: string; pos: number; line: number }[] {
  const sf = parse(file);
  const calls: { name: string; pos: number; line: number }[] = [];
  visitAll(sf, (n) => {
    if (!ts.isCallExpression(n)) return;
    const e = n.expression;
    const name = ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : undefined;
    if (name)
      calls.push({ name, pos: n.getStart(), line: sf.getLineAndCharacterOfPosition(n.getStart()).line + 1 });
  });
  return calls;
}

/** The modules a file imports or re-exports, as written. */
function importsOf(file: string): string[] {
  return parse(file)
    .statements.filter((s) => ts.isImportDeclaration(s) || ts.isExportDeclaration(s))
    .flatMap((s) => {
      const spec = (s as ts.ImportDeclaration | ts.ExportDeclaration).moduleSpecifier;
      return spec && ts.isStringLiteral(spec) ? [spec.text] : [];
    });
}

describe("one review's stages", () => {
  const files = sourceFiles("src");

  it("are defined where the pipeline says, and called nowhere but the pipeline", () => {
    for (const [stage, home] of STAGES) {
      const defined = files.filter((f) =>
        parse(f).statements.some((s) => ts.isFunctionDeclaration(s) && s.name?.text === stage),
      );
      expect(defined, stage).toEqual([home]);
      const callers = files.filter((f) => callsIn(f).some((c) => c.name === stage));
      expect(callers, `${stage} is called from`).toEqual([PIPELINE]);
    }
  });

  it("are called once each in the pipeline, in their order", () => {
    const calls = callsIn(PIPELINE);
    const at = STAGES.map(([stage]) => {
      const found = calls.filter((c) => c.name === stage);
      expect(found, stage).toHaveLength(1);
      return found[0]!.pos;
    });
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it("are reached from the delivery only through the pipeline; the scheduler knows nothing of the review", () => {
    const delivery = files.filter(
      (f) => /^src\/(github\/delivery|serve|lambda)\//.test(f) || f === "src/app.ts",
    );
    const reaching = delivery.flatMap((f) =>
      importsOf(f)
        .filter((m) => /(^|\/)review\//.test(m))
        // The pipeline, and the one setting the app reads of the configuration's loader.
        .filter((m) => !/\/review\/(pipeline|load-config)\.js$/.test(m))
        .map((m) => `${f} imports ${m}`),
    );
    expect(reaching).toEqual([]);
    expect(importsOf("src/github/delivery/scheduler.ts").filter((m) => m.includes("review/"))).toEqual([]);
  });

  it("leave each Probot handler a few lines that turn an event into a target", () => {
    const file = "src/github/delivery/app.ts";
    const sf = parse(file);
    const handlers: { event: string; lines: number }[] = [];
    visitAll(sf, (n) => {
      if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression)) return;
      if (!["on", "onAny"].includes(n.expression.name.text)) return;
      const fn = n.arguments[n.arguments.length - 1]!;
      const lines =
        sf.getLineAndCharacterOfPosition(fn.getEnd()).line -
        sf.getLineAndCharacterOfPosition(fn.getStart()).line +
        1;
      handlers.push({ event: n.arguments[0]!.getText(sf).slice(0, 60), lines });
    });
    expect(handlers.length).toBeGreaterThanOrEqual(6);
    expect(handlers.filter((h) => h.lines > 10)).toEqual([]);
  });
});

describe("exported names", () => {
  it("no two exported types, interfaces, classes or enums of src/ share a name", () => {
    const byName = new Map<string, string[]>();
    for (const file of sourceFiles("src"))
      for (const s of parse(file).statements) {
        if (
          !(
            ts.isInterfaceDeclaration(s) ||
            ts.isTypeAliasDeclaration(s) ||
            ts.isClassDeclaration(s) ||
            ts.isEnumDeclaration(s)
          ) ||
          !s.name ||
          !ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
        )
          continue;
        byName.set(s.name.text, [...(byName.get(s.name.text) ?? []), file]);
      }
    expect(byName.size).toBeGreaterThan(100);
    const shared = [...byName]
      .filter(([, where]) => where.length > 1)
      .map(([name, where]) => `${name}: ${where.join(", ")}`);
    expect(shared).toEqual([]);
  });
});
