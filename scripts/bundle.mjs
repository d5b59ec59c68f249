#!/usr/bin/env node
// Bundles each Lambda function with esbuild (tree-shaken, minified, with source maps) into
// dist-lambda/<fn>/index.mjs. Everything is bundled, the AWS SDK clients too: one minified file loads
// faster than the runtime's SDK spread over hundreds of files (measured: receiver import 90 ms instead
// of 120 ms over bare Node), and the SDK version is the one tested.
import { build } from "esbuild";
import { chmodSync, rmSync } from "node:fs";

const banner = [
  // Bundled CommonJS dependencies call require(); give them one in the ES module output.
  'import { createRequire as __createRequire } from "node:module";',
  "const require = __createRequire(import.meta.url);",
].join("\n");

// The CLI, as one self-contained executable file that is committed (dist-cli/): the published package (which has
// no runtime dependencies), installs from git, the GitHub Action and pre-commit all run it without installing or
// building anything. CI rebuilds it and fails when the committed file differs from what the sources produce.
{
  const outfile = "dist-cli/plugin-review.mjs";
  const result = await build({
    entryPoints: ["src/cli/bin.ts"],
    outfile,
    bundle: true,
    platform: "node",
    target: "node22",
    format: "esm",
    minify: true,
    treeShaking: true,
    sourcemap: false,
    banner: { js: `#!/usr/bin/env node\n${banner}` },
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  chmodSync(outfile, 0o755); // `./dist-cli/plugin-review.mjs` runs as a program, as pre-commit's script hooks do
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  console.log(`${outfile}: ${(bytes / 1024).toFixed(0)} KB`);
}

rmSync("dist-lambda", { recursive: true, force: true });
for (const fn of ["receiver", "worker"]) {
  const result = await build({
    entryPoints: [`src/lambda/${fn}.ts`],
    outfile: `dist-lambda/${fn}/index.mjs`,
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
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  console.log(`dist-lambda/${fn}/index.mjs: ${(bytes / 1024).toFixed(0)} KB with its source map`);
}
