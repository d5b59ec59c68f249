/**
 * The executable: runs the CLI with the process's arguments. The bundle dist-cli/plugin-review.mjs is built from
 * this file, so that `node dist-cli/plugin-review.mjs …` (the GitHub Action, pre-commit) and `bin/plugin-review.js`
 * (npx, the package's bin) run the same code; `main.ts` stays importable without side effects.
 */
import { main } from "./main.js";
import { endQuietlyWhenOutputCloses } from "./output.js";

endQuietlyWhenOutputCloses();
process.exitCode = await main(process.argv.slice(2));
