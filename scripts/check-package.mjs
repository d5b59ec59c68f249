#!/usr/bin/env node
/**
 * Checks a packed tarball (`npm pack`) before it is published: the files a user installs and nothing else, no
 * dependency of any kind (the CLI bundle holds everything it runs, the EF1 compatibility layer `migrate` writes
 * too), and, with `--tag`, the version the release tag names. The release workflow runs it before `npm publish`; CI and .ci/run run it on every change, so that a
 * release finds nothing new to fail on.
 *
 *   node scripts/check-package.mjs plugin-review-0.1.0.tgz [--tag v0.1.0]
 *
 * Exit status 0 when the tarball is fit to publish, 1 with each problem on stderr, 2 on a usage error.
 */
import { execFileSync } from "node:child_process";

const args = process.argv.slice(2);
const tagAt = args.indexOf("--tag");
const tag = tagAt >= 0 ? args.splice(tagAt, 2)[1] : undefined;
if (args.length !== 1 || (tagAt >= 0 && !tag)) {
  process.stderr.write("usage: node scripts/check-package.mjs <tarball> [--tag v<version>]\n");
  process.exit(2);
}
const [tarball] = args;

/** What the package holds at its top: `files` of package.json, plus what npm always adds. */
const TOP = ["CHANGELOG.md", "LICENSE", "README.md", "bin", "dist-cli", "docs", "package.json", "schemas"];
/** Files a user's install cannot work without. */
const REQUIRED = [
  "bin/plugin-review.js",
  "dist-cli/plugin-review.mjs",
  "dist-cli/shared.mjs",
  "dist-cli/lsp.mjs",
  "schemas/plugin.schema.json",
];
const DEPENDENCIES = ["dependencies", "optionalDependencies", "peerDependencies", "bundleDependencies"];

const problems = [];
const paths = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
  .split("\n")
  .filter((p) => p && !p.endsWith("/"))
  .map((p) => p.replace(/^package\//, ""));
const top = [...new Set(paths.map((p) => p.split("/")[0]))].sort();
for (const t of top) if (!TOP.includes(t)) problems.push(`unexpected in the package: ${t}`);
for (const t of TOP) if (!top.includes(t)) problems.push(`missing from the package: ${t}`);
for (const f of REQUIRED) if (!paths.includes(f)) problems.push(`missing from the package: ${f}`);

const pkg = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }));
for (const d of DEPENDENCIES) {
  const names = Object.keys(pkg[d] ?? {});
  if (pkg[d] !== undefined)
    problems.push(`package.json has ${d}${names.length ? `: ${names.join(", ")}` : ""}`);
}
// `migrate` writes the EF1 compatibility layer (src/migrate/ef1compat/) from the bundle, which embeds it.
const bundle = ["dist-cli/plugin-review.mjs", "dist-cli/shared.mjs"]
  .filter((f) => paths.includes(f))
  .map((f) =>
    execFileSync("tar", ["-xzOf", tarball, `package/${f}`], { encoding: "utf8", maxBuffer: 64 << 20 }),
  )
  .join("\n");
for (const marker of ["EF1COMPAT_QUERY_INTERVAL", "class NotCarriedToEF2(PluginException)"])
  if (!bundle.includes(marker))
    problems.push(`the CLI bundle does not carry the EF1 compatibility layer (${marker} is missing)`);
if (tag !== undefined && tag !== `v${pkg.version}`) {
  problems.push(
    `the tag ${tag} does not name the package's version ${pkg.version} (expected v${pkg.version})`,
  );
}

if (problems.length) {
  process.stderr.write(problems.map((p) => `${tarball}: ${p}\n`).join(""));
  process.exit(1);
}
process.stdout.write(`${tarball}: ${pkg.name}@${pkg.version}, ${paths.length} files, no dependencies\n`);
