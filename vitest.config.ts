import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // The machine has two cores; more workers only thrash.
    maxWorkers: 2,
  },
});
