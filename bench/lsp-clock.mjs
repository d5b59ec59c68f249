// Preloaded into the language server by bench/lsp.mjs (`node --import`): the server's own time for each
// change, from the moment the change's bytes were read from standard input to the moment the write of its
// publishDiagnostics began, and how long that write (a pipe write that wakes the editor) took. Saved as JSON
// to the file named by PLUGIN_REVIEW_BENCH_CLOCK when the server exits. It reads the clock and nothing else.
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const file = process.env.PLUGIN_REVIEW_BENCH_CLOCK;
if (file) {
  const inside = [];
  const writing = [];
  let read = 0;
  process.stdin.prependListener("data", () => {
    read = performance.now();
  });
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    const start = performance.now();
    const result = write(chunk, ...rest);
    const end = performance.now();
    if (read && typeof chunk === "string" && chunk.includes('"textDocument/publishDiagnostics"')) {
      inside.push(start - read);
      writing.push(end - start);
    }
    read = 0;
    return result;
  };
  process.on("exit", () => writeFileSync(file, JSON.stringify({ inside, writing })));
}
