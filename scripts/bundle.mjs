#!/usr/bin/env node
// Bundles each Lambda function with esbuild (tree-shaken, minified, with source maps) into
// dist-lambda/<fn>/index.mjs. Everything is bundled, the AWS SDK clients too: one minified file loads
// faster than the runtime's SDK spread over hundreds of files (measured: receiver import 90 ms instead
// of 120 ms over bare Node), and the SDK version is the one tested.
import { build } from "esbuild";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const banner = [
  // Bundled CommonJS dependencies call require(); give them one in the ES module output.
  'import { createRequire as __createRequire } from "node:module";',
  "const require = __createRequire(import.meta.url);",
].join("\n");

// The CLI, as self-contained files that are committed (dist-cli/): the published package (which has no runtime
// dependencies), installs from git, the GitHub Action and pre-commit all run it without installing or building
// anything. CI rebuilds them and fails when the committed files differ from what the sources produce.
// plugin-review.mjs is the executable; the language server is a second entry, lsp.mjs, that only the `lsp`
// command imports, so that `check` and the other commands neither read nor parse its code; what both need
// lives in shared.mjs. Nothing else is written there, and dist-cli is emptied first, so a file the build no
// longer makes cannot linger.
{
  const dir = "dist-cli";
  rmSync(dir, { recursive: true, force: true });
  const result = await build({
    entryPoints: { "plugin-review": "src/cli/bin.ts", lsp: "src/lsp/stdio.ts" },
    outdir: dir,
    outExtension: { ".js": ".mjs" },
    splitting: true,
    // One chunk, shared by the two entries: a fixed name (no hash) keeps the committed files' names stable.
    chunkNames: "shared",
    bundle: true,
    platform: "node",
    target: "node22",
    format: "esm",
    minify: true,
    treeShaking: true,
    sourcemap: false,
    banner: { js: banner },
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  const outputs = Object.keys(result.metafile.outputs).sort();
  const expected = ["dist-cli/lsp.mjs", "dist-cli/plugin-review.mjs", "dist-cli/shared.mjs"];
  if (outputs.join() !== expected.join())
    throw new Error(`dist-cli: expected ${expected.join(", ")}; esbuild wrote ${outputs.join(", ")}`);
  // The executable's #! line; `./dist-cli/plugin-review.mjs` runs as a program, as pre-commit's script hooks do.
  const bin = `${dir}/plugin-review.mjs`;
  writeFileSync(bin, `#!/usr/bin/env node\n${readFileSync(bin, "utf8")}`);
  chmodSync(bin, 0o755);
  for (const [file, { bytes }] of Object.entries(result.metafile.outputs))
    console.log(`${file}: ${(bytes / 1024).toFixed(0)} KB`);
}

rmSync("dist-lambda", { recursive: true, force: true });
// The functions that review run the analysis in a thread (src/github/review/analysis-threads.ts), whose entry
// is a file of its own beside the handler: analysis-thread.mjs, which the handler finds by its own URL.
const REVIEWING = ["worker", "recovery"];
for (const fn of ["receiver", "worker", "recovery"]) {
  const result = await build({
    entryPoints: {
      index: `src/lambda/${fn}.ts`,
      ...(REVIEWING.includes(fn) ? { "analysis-thread": "src/github/review/analysis-thread.ts" } : {}),
    },
    outdir: `dist-lambda/${fn}`,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    target: "node24",
    format: "esm",
    minify: true,
    treeShaking: true,
    sourcemap: true,
    sourcesContent: false,
    banner: { js: banner },
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  for (const [file, { bytes }] of Object.entries(result.metafile.outputs))
    if (!file.endsWith(".map")) console.log(`${file}: ${(bytes / 1024).toFixed(0)} KB`);
}
