/**
 * The project's own lint rules (eslint-rules/), run as `npm run lint` runs them: the repository's
 * eslint.config.js on a probe text linted as if it were a file of src/ (nothing is written). An import a
 * layer forbids, and one that closes a cycle through the files on disk, must be reported; one the layers
 * allow must not.
 */
import { ESLint } from "eslint";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

const eslint = new ESLint({ cwd: ROOT });

/** The project rules' messages for `code` as the file `path` of the repository. */
async function projectMessages(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return result!.messages
    .filter((m) => m.ruleId?.startsWith("local/"))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

describe("local/layers", () => {
  it.each([
    ["src/core/probe.ts", "../github/api/port.js", "src/github/api/port.ts"],
    ["src/format/probe.ts", "../github/api/port.js", "src/github/api/port.ts"],
    ["src/github/review/probe.ts", "../../serve/server.js", "src/serve/server.ts"],
    ["src/github/review/probe.ts", "../api/rest/gateway.js", "src/github/api/rest/gateway.ts"],
    ["src/github/api/probe.ts", "../review/pipeline.js", "src/github/review/pipeline.ts"],
    ["src/workspace/probe.ts", "../cli/main.js", "src/cli/main.ts"],
    ["src/lsp/probe.ts", "../cli/main.js", "src/cli/main.ts"],
    ["src/migrate/probe.ts", "../workspace/files.js", "src/workspace/files.ts"],
    ["src/migrate/probe.ts", "../format/text.js", "src/format/text.ts"],
    ["src/core/probe.ts", "../migrate/migrate.js", "src/migrate/migrate.ts"],
  ])("%s may not import %s", async (file, specifier, target) => {
    const messages = await projectMessages(file, `import "${specifier}";\n`);
    expect(messages).toEqual([
      expect.stringMatching(new RegExp(`^local/layers: ${file} may not import ${target}: `)),
    ]);
  });

  it("allows what the layering allows (a review through the port, the CLI on the workspace)", async () => {
    expect(
      await projectMessages(
        "src/github/review/probe.ts",
        `import type { GitHubGateway } from "../api/port.js";\n`,
      ),
    ).toEqual([]);
    expect(await projectMessages("src/cli/probe.ts", `import "../workspace/usage-error.js";\n`)).toEqual([]);
    expect(await projectMessages("src/migrate/probe.ts", `import "../core/locate.js";\n`)).toEqual([]);
  });
});

describe("local/no-import-cycle", () => {
  it("reports an import that closes a cycle through the files on disk, a type-only one too", async () => {
    // config.ts imports policy.ts: policy.ts importing config.ts back would close the circle.
    const messages = await projectMessages(
      "src/core/policy.ts",
      `import type { ResolvedConfig } from "./config.js";\nexport type X = ResolvedConfig;\n`,
    );
    expect(messages).toEqual([
      "local/no-import-cycle: Import cycle: src/core/policy.ts → src/core/config.ts → src/core/policy.ts",
    ]);
  });

  it("says nothing of an import that closes no cycle", async () => {
    expect(await projectMessages("src/core/probe.ts", `import "./config.js";\n`)).toEqual([]);
  });
});
