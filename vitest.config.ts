import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Guards against a hang, not measures: long enough for the heaviest test on a 2-core machine that runs
    // something else too. Speed is measured by `npm run bench`.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The machine has two cores; more workers only thrash.
    maxWorkers: 2,
    // A passing test prints nothing: what it logged is shown only when it fails.
    silent: "passed-only",
    // What skipped, and why, after the default report (which only counts skipped tests).
    reporters: ["default", "./test/skip-reporter.ts"],
    server: {
      deps: {
        // GitHub's workflow parser imports its JSON schemas without an import attribute, as a bundler reads
        // them: Vite loads it, not Node.js.
        inline: ["@actions/workflow-parser"],
      },
    },
  },
});
