/**
 * Fails a test that makes its process warn: a warning a contributor would have to investigate is a defect, not
 * noise to scroll past. Loaded into every test file (`setupFiles` in vitest.config.ts). Looked at: every
 * Node.js process warning (MaxListenersExceededWarning, DeprecationWarning, ExperimentalWarning, …, whether or
 * not it is printed), and what reaches the process's standard output or error that is a known warning of a
 * tool (npm's `npm warn`, Powertools' empty publish). What a test captures and never prints, and what a child
 * process writes into a pipe, are not. The test that was running fails, after its own result, naming the
 * warning; what a file warns outside its tests (while it loads, in its hooks) fails the file once its tests
 * have run.
 */
import { afterAll, afterEach, beforeAll } from "vitest";

/** Known warnings of the tools the suite runs, as they print them. */
const KNOWN_WARNINGS: readonly RegExp[] = [
  /^npm warn .*/im,
  /^.*No application metrics to publish.*/m,
  /^.*\b(?:MaxListenersExceeded|Deprecation|Experimental)Warning\b.*/m,
];

const seen = new Set<string>();
/** What warned while the file loaded, reported once its tests have run. */
const loading: string[] = [];
const OWN = `(node:${process.pid}) `;

process.on("warning", (w) => void seen.add(`${w.name}: ${w.message}`));

for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write;
  stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    for (const known of KNOWN_WARNINGS) {
      const line = known.exec(text)?.[0];
      // This process's own warnings (`(node:<pid>) …`) are taken from its "warning" event.
      if (line !== undefined && !line.startsWith(OWN)) seen.add(line.trim());
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof stream.write;
}

/** The real one, whatever timers a test fakes. */
const nextTurn = (
  (immediate) => () =>
    new Promise<void>((r) => immediate(() => r()))
)(setImmediate);

async function failOnWarnings(where: string, earlier: string[] = []): Promise<void> {
  // A warning is emitted on a later tick than it was raised: let it arrive.
  await nextTurn();
  const warnings = [...earlier, ...seen];
  seen.clear();
  if (warnings.length === 0) return;
  throw new Error(
    `${where} made this process warn (test/no-warnings.ts); find the cause and remove it:\n` +
      warnings.map((w) => `  ${w}`).join("\n"),
  );
}

beforeAll(async () => {
  await nextTurn();
  loading.push(...seen);
  seen.clear();
});
afterEach(() => failOnWarnings("this test"));
afterAll(() => failOnWarnings("this file, outside its tests (loading, beforeAll, afterAll),", loading));
