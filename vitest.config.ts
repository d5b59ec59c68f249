import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // The machine has two cores; more workers only thrash.
    maxWorkers: 2,
    // A passing test prints nothing: what it logged is shown only when it fails.
    silent: "passed-only",
    server: {
      deps: {
        // GitHub's workflow parser imports its JSON schemas without an import attribute, as a bundler reads
        // them: Vite loads it, not Node.js.
        inline: ["@actions/workflow-parser"],
      },
    },
  },
});
