import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    {
      // Vite warns of every source map whose sources a package did not ship (the Lambda bundles', GitHub's
      // workflow parser's): nothing a test can act on, so not printed. (Vitest sets Vite's logger itself.)
      name: "no-missing-sourcemap-source-warnings",
      configResolved(config) {
        const { logger } = config;
        const warnOnce = logger.warnOnce.bind(logger);
        logger.warnOnce = (message, options) => {
          if (!/^Sourcemap for .* points to missing source files/.test(message)) warnOnce(message, options);
        };
      },
    },
  ],
  test: {
    include: ["test/**/*.test.ts"],
    // Guards against a hang, not measures: long enough for the heaviest test on a 2-core machine that runs
    // something else too. Speed is measured by `npm run bench`.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Three files at a time on a 2-core machine: the slowest files mostly wait (GitHub's write spacing, a
    // server in another process, backoffs), so a third worker overlaps their waits with the CPU-bound ones
    // (measured on this 2-core machine, idle: 353 s of vitest with 2 workers, 293 s with 4); more only thrash.
    maxWorkers: 3,
    // A passing test prints nothing: what it logged is shown only when it fails.
    silent: "passed-only",
    env: {
      // The AWS SDK warns once per process on Node.js 20, which `engines` no longer admits but the tests may
      // run on: a line of output no test can act on.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
    // A test that makes its process warn (Node.js, npm, Powertools) fails, naming the warning.
    setupFiles: ["./test/no-warnings.ts"],
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
