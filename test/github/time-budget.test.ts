/**
 * The time budget (src/github/time-budget.ts) is the only place a duration of the App is written: no timing
 * literal elsewhere in src/github, src/serve or src/lambda (a scan of their syntax trees); every entry says
 * what it is and why; docs/reliability.md's table is the one rendered from it (PLUGIN_REVIEW_WRITE_DOCS=1
 * writes it); and the Lambda deployment (serverless.yml) leaves a review its whole budget.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { format } from "prettier";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import * as budget from "../../src/github/time-budget.js";
import { ROOT } from "../helpers.js";

const BUDGET_FILE = "src/github/time-budget.ts";
const SCANNED = ["src/github", "src/serve", "src/lambda", "src/server.ts", "src/app.ts"];

/** A name that says it holds a duration, a delay, a retry count or a schedule. */
function saysTime(name: string): boolean {
  return (
    /timeout|delay|interval|backoff|deadline|grace|linger|wait|retr(y|ies)|visibility|window|margin|overlap|ttl/i.test(
      name,
    ) ||
    /(^|_)(MS|S|SECONDS|MINUTES|HOURS|DAYS)$/.test(name) ||
    /[a-z0-9](Ms|Seconds|Minutes|Hours|Days)$/.test(name) ||
    /^(ms|seconds|minutes|hours|days)$/.test(name)
  );
}

/** The numeric literals in an expression other than 0 (a string of digits counts: a header's seconds). */
function literalsIn(node: ts.Node): string[] {
  const found: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isNumericLiteral(n) && Number(n.text) !== 0) found.push(n.getText());
    else if (ts.isStringLiteral(n) && /^[1-9]\d*$/.test(n.text)) found.push(`"${n.text}"`);
    // A callback's own body is not the duration (setTimeout(() => …, ms)).
    else if (!ts.isArrowFunction(n) && !ts.isFunctionExpression(n)) n.forEachChild(visit);
  };
  visit(node);
  return found;
}

function nameOf(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteral(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  return undefined;
}

/** The calls whose argument is a duration, and which argument it is. */
const DURATION_ARGUMENT: Record<string, number> = {
  setTimeout: 1,
  setInterval: 1,
  timeout: 0, // AbortSignal.timeout(ms)
  ms: 0, // clock.ms(duration)
};

/**
 * The timing literals of a source file, each as "file:line: what": a duration written as a number where a
 * timer is set, a clock runs it, or a name says it holds one (a variable, a property, a parameter's default,
 * an assignment, a function's return value), rather than taken from the time budget.
 */
function timingLiterals(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const report = (at: ts.Node, what: string, expression: ts.Node | undefined) => {
    const literals = expression ? literalsIn(expression) : [];
    if (!literals.length) return;
    const line = source.getLineAndCharacterOfPosition(at.getStart()).line + 1;
    out.push(`${file}:${line}: ${what} = ${literals.join(", ")}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = nameOf(node.expression);
      const index = callee === undefined ? undefined : DURATION_ARGUMENT[callee];
      // server.setTimeout(ms) takes its duration first.
      const at = callee === "setTimeout" && node.arguments.length === 1 ? 0 : index;
      if (at !== undefined) report(node, `${callee}()`, node.arguments[at]);
    } else if (
      (ts.isVariableDeclaration(node) ||
        ts.isPropertyAssignment(node) ||
        ts.isPropertyDeclaration(node) ||
        ts.isParameter(node)) &&
      saysTime(nameOf(node.name) ?? "")
    ) {
      report(node, nameOf(node.name)!, node.initializer);
    } else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      saysTime(nameOf(node.left) ?? "")
    ) {
      report(node, nameOf(node.left)!, node.right);
    } else if (
      (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node)) &&
      saysTime(nameOf(node.name) ?? "") &&
      node.body
    ) {
      const returns = (n: ts.Node): void => {
        if (ts.isReturnStatement(n)) report(n, `${nameOf(node.name)}()`, n.expression);
        else if (!ts.isFunctionLike(n)) n.forEachChild(returns);
      };
      node.body.forEachChild(returns);
    }
    node.forEachChild(visit);
  };
  visit(source);
  return out;
}

function filesUnder(path: string): string[] {
  const full = join(ROOT, path);
  if (path.endsWith(".ts")) return [path];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => relative(ROOT, join(full, f)));
}

describe("the time budget is the only place a duration is written", () => {
  it("finds the timing literals a change could bring back (the scan's own check)", () => {
    const found = (code: string) => timingLiterals("x.ts", code);
    expect(found("setTimeout(() => go(5), 5_000);")).toEqual(["x.ts:1: setTimeout() = 5_000"]);
    expect(found("setInterval(sweep, 60 * 1000);")).toEqual(["x.ts:1: setInterval() = 60, 1000"]);
    expect(found("server.setTimeout(15_000);")).toEqual(["x.ts:1: setTimeout() = 15_000"]);
    expect(found("const s = AbortSignal.timeout(3000);")).toEqual(["x.ts:1: timeout() = 3000"]);
    expect(found("const until = Date.now() + clock.ms(120_000);")).toEqual(["x.ts:1: ms() = 120_000"]);
    expect(found("export const RETRY_DELAY_MS = 5;")).toEqual(["x.ts:1: RETRY_DELAY_MS = 5"]);
    expect(found("const WINDOW_HOURS = 1;")).toEqual(["x.ts:1: WINDOW_HOURS = 1"]);
    expect(found("const x = { requestTimeout: 20_000 };")).toEqual(["x.ts:1: requestTimeout = 20_000"]);
    expect(found('res.writeHead(503, { "retry-after": "30" });')).toEqual(['x.ts:1: retry-after = "30"']);
    expect(found("class A { constructor(private readonly maxWaitMs = 250) {} }")).toEqual([
      "x.ts:1: maxWaitMs = 250",
    ]);
    expect(found("server.keepAliveTimeout = 5_000;")).toEqual(["x.ts:1: keepAliveTimeout = 5_000"]);
    expect(found("function backoffSeconds(n: number) { return Math.min(900, 30 * n); }")).toEqual([
      "x.ts:1: backoffSeconds() = 900, 30",
    ]);
    expect(found("const settings = { recoveryIntervalMs: interval * 60_000 };")).toEqual([
      "x.ts:1: recoveryIntervalMs = 60_000",
    ]);
    // Not durations: a count, a size, a display in seconds, a zero, a duration taken from the budget.
    expect(found("const REMEMBERED_REFUSALS = 10_000; const MAX_BYTES = 25 * 1024 * 1024;")).toEqual([]);
    expect(found("log.warn(`trying again in ${ms / 1000} s`);")).toEqual([]);
    expect(found("const ms = Math.max(0, deadline - Date.now()); opts.request = { retries: 0 };")).toEqual(
      [],
    );
    expect(found("setTimeout(resolve, clock.ms(REVIEW_DEADLINE_MS));")).toEqual([]);
  });

  it("has no timing literal in src/github, src/serve or src/lambda outside the time budget", () => {
    const files = SCANNED.flatMap(filesUnder).filter((f) => f !== BUDGET_FILE);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => timingLiterals(f, readFileSync(join(ROOT, f), "utf8")));
    expect(found, "move each to src/github/time-budget.ts, with its reason").toEqual([]);
  });
});

/** An entry of the time budget as its source says it: its section, name, first parameter, and comment. */
interface Entry {
  section: string;
  name: string;
  parameter?: string;
  comment: string;
}

function budgetEntries(): Entry[] {
  const text = readFileSync(join(ROOT, BUDGET_FILE), "utf8");
  const source = ts.createSourceFile(BUDGET_FILE, text, ts.ScriptTarget.Latest, true);
  const entries: Entry[] = [];
  let section = "";
  for (const statement of source.statements) {
    for (const range of ts.getLeadingCommentRanges(text, statement.pos) ?? []) {
      const heading = /^\/\/ # (.+)$/.exec(text.slice(range.pos, range.end));
      if (heading) section = heading[1]!;
    }
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) continue;
    const doc = ts
      .getJSDocCommentsAndTags(statement)
      .map((d) => ts.getTextOfJSDocComment(d.comment) ?? "")
      .join(" ")
      .replace(/\s+/g, " ")
      .trim();
    if (ts.isFunctionDeclaration(statement))
      entries.push({
        section,
        name: statement.name!.text,
        parameter: nameOf(statement.parameters[0]?.name),
        comment: doc,
      });
    else if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations)
        entries.push({ section, name: nameOf(d.name)!, comment: doc });
  }
  return entries;
}

/** A duration as people read it: the largest unit it is a whole number of. */
function humanise(ms: number): string {
  if (ms === 0) return "at once";
  const units: [number, string, string][] = [
    [budget.DAY_MS, "day", "days"],
    [budget.HOUR_MS, "h", "h"],
    [budget.MINUTE_MS, "min", "min"],
    [budget.SECOND_MS, "s", "s"],
  ];
  for (const [size, one, many] of units)
    if (ms % size === 0) return `${ms / size} ${ms === size ? one : many}`;
  return `${ms} ms`;
}

/** An entry's value as the table shows it, read from the module (a schedule: its waits until they stop growing). */
function valueOf(entry: Entry): string {
  const value = (budget as Record<string, unknown>)[entry.name];
  const unit = /_?(MS|Ms)$/.test(entry.name)
    ? 1
    : /(_S|Seconds)$/.test(entry.name)
      ? budget.SECOND_MS
      : /_MINUTES$/.test(entry.name)
        ? budget.MINUTE_MS
        : /_HOURS$/.test(entry.name)
          ? budget.HOUR_MS
          : undefined;
  if (typeof value === "function") {
    const waits: number[] = [];
    for (let n = entry.parameter === "attempt" ? 0 : 1; waits.length < 12; n++) {
      const wait = (value as (n: number) => number)(n) * unit!;
      if (waits.at(-1) === wait) break;
      waits.push(wait);
    }
    const shown = waits.map(humanise);
    return `${shown.slice(0, -1).join(", ")}, then ${shown.at(-1)}`;
  }
  if (Array.isArray(value)) return value.map((v: number) => humanise(v * unit!)).join(", ");
  if (unit === undefined) return `${String(value)} times`;
  return humanise((value as number) * unit);
}

const START =
  "<!-- time-budget: generated from src/github/time-budget.ts (test/github/time-budget.test.ts) -->";
const END = "<!-- /time-budget -->";

/** The tables of docs/reliability.md's time budget, one per section of the module (its units aside). */
function renderTables(entries: readonly Entry[]): string {
  const out: string[] = [START];
  for (const section of [...new Set(entries.map((e) => e.section))].filter((s) => s !== "Units")) {
    out.push("", `**${section}**`, "", "| What | How long | Why |", "| --- | --- | --- |");
    for (const e of entries.filter((x) => x.section === section)) {
      const at = e.comment.indexOf(": ");
      const why = e.comment.slice(at + 2);
      out.push(`| ${e.comment.slice(0, at)} | ${valueOf(e)} | ${why[0]!.toUpperCase()}${why.slice(1)} |`);
    }
  }
  out.push("", END);
  return out.join("\n");
}

/** A Markdown block's lines as their content: table cells trimmed, the alignment row and blank lines out. */
function normalised(markdown: string): string[] {
  return markdown
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/^\|[\s|:-]+\|$/.test(l))
    .map((l) =>
      l.startsWith("|")
        ? l
            .slice(1, -1)
            .split("|")
            .map((c) => c.trim())
            .join(" | ")
        : l,
    );
}

describe("the time budget says why, and docs/reliability.md shows it", () => {
  const entries = budgetEntries();

  it("says what each entry is and why it is that long", () => {
    expect(entries.map((e) => e.section)).not.toContain("");
    for (const e of entries.filter((x) => x.section !== "Units")) {
      expect(e.comment, `${e.name}: a comment "what: why"`).toMatch(/^[^:]{3,60}: \S.{10,}$/);
      expect(e.comment, `${e.name}: one sentence`).not.toMatch(/\. \S/);
    }
    // Nothing hidden: every duration the module exports is an entry the table shows (units aside).
    const shown = new Set(entries.map((e) => e.name));
    expect(Object.keys(budget).filter((k) => !shown.has(k))).toEqual([]);
  });

  it("is the table docs/reliability.md shows", async () => {
    const path = join(ROOT, "docs/reliability.md");
    const page = readFileSync(path, "utf8");
    const rendered = renderTables(entries);
    const start = page.indexOf(START);
    const end = page.indexOf(END);
    if (process.env.PLUGIN_REVIEW_WRITE_DOCS === "1" && start >= 0 && end > start) {
      const written = page.slice(0, start) + rendered + page.slice(end + END.length);
      writeFileSync(path, await format(written, { parser: "markdown", printWidth: 110 }));
      return;
    }
    expect(start, `docs/reliability.md: ${START} … ${END}`).toBeGreaterThanOrEqual(0);
    expect(
      normalised(page.slice(start, end + END.length)),
      "PLUGIN_REVIEW_WRITE_DOCS=1 npx vitest run test/github/time-budget.test.ts writes the table",
    ).toEqual(normalised(rendered));
  });
});

describe("the Lambda deployment leaves a review its budget", () => {
  const yml = parse(readFileSync(join(ROOT, "serverless.yml"), "utf8"), { logLevel: "silent" }) as {
    functions: Record<string, { timeout: number; environment?: Record<string, string>; events?: unknown[] }>;
    resources: { Resources: { DeliveryQueue: { Properties: { VisibilityTimeout: number } } } };
  };

  it("gives the worker and the recovery a review's deadline, its margin and the time to start one", () => {
    for (const fn of ["worker", "recovery"])
      expect(yml.functions[fn]!.timeout * budget.SECOND_MS).toBeGreaterThanOrEqual(
        budget.REVIEW_DEADLINE_MS + budget.MARGIN_MS + budget.MIN_REVIEW_MS,
      );
    // A message being worked on is never handed to a second worker.
    expect(yml.resources.Resources.DeliveryQueue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(
      yml.functions.worker!.timeout,
    );
  });

  it("runs the recovery as often as its window assumes, and sets the window the budget names", () => {
    const rate = JSON.stringify(yml.functions.recovery!.events);
    expect(rate).toContain(`rate(${budget.RECOVERY_INTERVAL_MINUTES} minutes)`);
    expect(Number(yml.functions.recovery!.environment!.PLUGIN_REVIEW_RECOVERY_WINDOW_HOURS)).toBe(
      budget.LAMBDA_RECOVERY_WINDOW_HOURS,
    );
    expect(budget.LAMBDA_RECOVERY_WINDOW_HOURS * budget.HOUR_MS).toBeGreaterThan(
      budget.RECOVERY_INTERVAL_MINUTES * budget.MINUTE_MS,
    );
  });
});
