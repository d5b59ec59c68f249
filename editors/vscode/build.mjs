// Bundles the extension (with vscode-languageclient) into dist/extension.js: the .vsix then carries no
// node_modules. esbuild is the repository's own (resolved from the root's node_modules).
import { build } from "esbuild";

await build({
  entryPoints: ["src/extension.ts"],
  outfile: "dist/extension.js",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["vscode"],
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
