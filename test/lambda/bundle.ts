import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers.js";

/** `npm test` bundles first (pretest); a bare `vitest` run bundles here when the bundles are missing. */
export function ensureBundled(): void {
  if (
    ["worker", "receiver", "recovery"].some((fn) => !existsSync(join(ROOT, "dist-lambda", fn, "index.mjs")))
  ) {
    execFileSync(process.execPath, ["scripts/bundle.mjs"], { cwd: ROOT, stdio: "ignore" });
  }
}
