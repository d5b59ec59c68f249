/** `plugin-review lsp --stdio`: the language server on standard input and output. */
import { format } from "node:util";
import { escaped } from "../format/printable.js";
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { LifecycleReader } from "./lifecycle.js";
import { BoundedMessageReader } from "./reader.js";
import { startServer } from "./server.js";
import { OneWriteMessageWriter } from "./writer.js";

export function runLsp(args: readonly string[], stderr: (s: string) => void): Promise<number> {
  if (args.length !== 1 || args[0] !== "--stdio") {
    // Named as every command names a mistake on its command line: the option or argument, and the help.
    const other = args.find((a) => a !== "--stdio");
    const what =
      other === undefined
        ? "lsp talks over standard input and output: run `plugin-review lsp --stdio`"
        : `${other.startsWith("-") ? "unknown option" : "unexpected argument"} '${escaped(other)}' (lsp takes --stdio alone)`;
    stderr(`plugin-review: ${what}\nRun 'plugin-review lsp --help' for the options.\n`);
    return Promise.resolve(2);
  }
  // Standard output carries the protocol: anything else printed there would corrupt it.
  const toStderr = (...args: unknown[]) => void process.stderr.write(format(...args) + "\n");
  console.log = console.info = console.debug = console.warn = toStderr;
  const reader = new BoundedMessageReader(process.stdin);
  // A malformed message is skipped, and said in the server's log (the editor's output panel).
  reader.onError((e) => toStderr(`plugin-review lsp: ${e.message}`));
  const writer = new OneWriteMessageWriter(process.stdout);
  const connection = createConnection(ProposedFeatures.all, new LifecycleReader(reader, writer), writer);
  const server = startServer(connection);
  connection.listen();
  // The client's `exit` notification ends the process; so does standard input closing (the editor went
  // away), as vscode-languageserver does it for streams: status 0 only after a shutdown request.
  const gone = () => process.exit(server.shutDown() ? 0 : 1);
  process.stdin.on("end", gone);
  process.stdin.on("close", gone);
  return new Promise<number>(() => {});
}
