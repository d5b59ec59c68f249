import js from "@eslint/js";
import tseslint from "typescript-eslint";
import local from "./eslint-rules/index.js";

/** Adapters of the GitHub port: only the api layer's chooser, the audit and the entry points build on them. */
const ADAPTERS = ["src/github/api/rest/**", "src/github/api/graphql/**", "src/github/api/gateway.ts"];
const ENTRY_POINTS = [
  "src/app.ts",
  "src/serve/**",
  "src/server.ts",
  "src/lambda/**",
  "src/cli/**",
  "src/lsp/**",
];

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "dist-cli/",
      "dist-lambda/",
      "node_modules/",
      "coverage/",
      ".serverless/",
      "editors/*/dist/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The layering of src/ (docs/development.md): kept by lint, not by memory.
    files: ["src/**/*.ts"],
    plugins: { local },
    rules: {
      "local/no-import-cycle": "error",
      "local/layers": [
        "error",
        [
          {
            from: "src/core/**",
            allow: ["src/core/**", "schemas/**"],
            because: "the core is pure: text in, findings out",
          },
          {
            from: "src/migrate/**",
            allow: [
              "src/migrate/**",
              "src/core/**",
              "schemas/**",
              "src/format/markdown.ts",
              "src/format/printable.ts",
              "src/format/csv.ts",
            ],
            because:
              "the migration is pure like the core: an EF1 descriptor in, the EF2 extension's files out (made inert by the formats' one escaping of untrusted text)",
          },
          {
            from: "src/format/**",
            deny: ["src/github/**", ...ENTRY_POINTS],
            because: "formats render findings; they know nothing of GitHub or of the commands",
          },
          {
            from: "src/github/**",
            deny: ENTRY_POINTS,
            because: "the GitHub layer serves the entry points, never the other way round",
          },
          {
            from: "src/github/api/**",
            deny: ["src/github/review/**", "src/github/delivery/**", "src/github/audit/**"],
            because: "the port and its adapters are the bottom of the GitHub layer",
          },
          {
            from: "src/github/review/**",
            deny: [...ADAPTERS, "src/github/api/octokit/**", "src/github/delivery/**", "src/github/audit/**"],
            because: "a review talks to GitHub only through the port (api/port.ts)",
          },
          {
            from: "src/workspace/**",
            allow: ["src/workspace/**", "src/core/**", "schemas/**"],
            because: "the CLI and the language server share it: it builds on the core alone",
          },
          {
            from: "src/lsp/**",
            deny: ["src/cli/**"],
            because: "what the CLI and the language server share has a folder of its own",
          },
        ],
      ],
    },
  },
);
