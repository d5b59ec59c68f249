// Bundles the extension (with vscode-languageclient) into dist/extension.js: the .vsix then carries no
// node_modules. esbuild is the extension's own devDependency: the build needs nothing from the repository's root.
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
