/**
 * Says why each skipped test skipped, after the run: the default reporter only counts them. A group or test
 * that cannot run here is declared with `describeUnless`/`itUnless` (test/helpers.ts), which put the reason in
 * its name, or skips itself with `context.skip(reason)`; this prints one line for each, and nothing when
 * every test ran.
 */
import { relative } from "node:path";
import type { Reporter, TestCase, TestModule, TestSuite, Vitest } from "vitest/node";

export default class SkipReporter implements Reporter {
  /** Tests left out by a name filter (`-t`) are skipped too, for no reason worth a line. */
  private filtered = false;

  onInit(vitest: Vitest): void {
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    const visit = (file: string, children: Iterable<TestCase | TestSuite>) => {
      for (const child of children) {
        if (child.type === "suite") {
          // A skipped group is one line, whatever it holds.
          if (child.options.mode === "skip") lines.push(`${file} > ${child.fullName}`);
          else visit(file, child.children);
        } else if (child.options.mode !== "todo") {
          const result = child.result();
          if (result.state !== "skipped") continue;
          lines.push(`${file} > ${child.fullName}${result.note ? ` (skipped: ${result.note})` : ""}`);
        }
      }
    };
    for (const m of modules) visit(relative(process.cwd(), m.moduleId), m.children);
    if (this.filtered) lines.splice(0, lines.length, ...lines.filter((l) => l.endsWith(")")));
    if (lines.length === 0) return;
    process.stdout.write(`\nSkipped, and why:\n${lines.map((l) => `  ↓ ${l}\n`).join("")}`);
  }
}
