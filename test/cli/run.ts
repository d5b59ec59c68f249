/** Runs the built CLI as a user does: a child process, real files, real exit codes. */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import { ROOT } from "../helpers.js";

export const BIN = join(ROOT, "bin", "plugin-review.js");

/**
 * The CLI runs from the committed bundle dist-cli/plugin-review.mjs; `npm test` rebuilds it from the
 * sources first (pretest), and a bare `vitest` run rebuilds it here when it is missing.
 */
export function ensureBuilt(): void {
  if (!existsSync(join(ROOT, "dist-cli", "plugin-review.mjs"))) {
    execFileSync(process.execPath, ["scripts/bundle.mjs"], { cwd: ROOT, stdio: "ignore" });
  }
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = {}, input = ""): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    input,
    encoding: "utf8",
    // No width but the message column's own (COLUMNS unset), whatever the terminal running the tests.
    env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "", COLUMNS: "", ...env },
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the CLI's `main` in this process (for commands whose GitHub requests nock intercepts). */
export async function mainRun(args: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const status = await main(args, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { status, stdout, stderr };
}

/**
 * The findings of the text format (a file's path, then its rows `line:column  severity  message  rule-id`, a
 * long message continued on the lines below), one line each as `file:line:column severity rule-id message`,
 * for assertions that name a finding; the layout itself is tested in test/cli/check.test.ts and, byte for
 * byte, by the README's example.
 */
export function findingLines(stdout: string): string {
  const out: string[] = [];
  let file: string | undefined;
  for (const line of stdout.split("\n")) {
    const row = /^ +(\d+):(\d+) +(error|warning|notice) +(.*?) +(\S+)$/.exec(line);
    if (row && file !== undefined) out.push(`${file}:${row[1]}:${row[2]} ${row[3]} ${row[5]} ${row[4]}`);
    else if (file !== undefined && out.length && /^ {10,}\S/.test(line))
      out.push(`${out.pop()} ${line.trim()}`);
    else if (line === "" || row) file = undefined;
    else if (!line.startsWith(" ")) file = line;
  }
  return out.join("\n");
}
