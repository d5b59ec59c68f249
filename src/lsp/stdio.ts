/** `plugin-review lsp --stdio`: the language server on standard input and output. */
import { format } from "node:util";
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { startServer } from "./server.js";

export function runLsp(args: readonly string[], stderr: (s: string) => void): Promise<number> {
  if (args.length !== 1 || args[0] !== "--stdio") {
    stderr("plugin-review: lsp talks over standard input and output: run `plugin-review lsp --stdio`\n");
    return Promise.resolve(2);
  }
  // Standard output carries the protocol: anything else printed there would corrupt it.
  const toStderr = (...args: unknown[]) => void process.stderr.write(format(...args) + "\n");
  console.log = console.info = console.debug = console.warn = toStderr;
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  startServer(connection);
  connection.listen();
  // The client's `exit` notification (or standard input closing) ends the process.
  return new Promise<number>(() => {});
}
