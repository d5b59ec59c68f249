/**
 * Standard output and standard error of every command, and what happens when their reader goes away
 * (`plugin-review migrate plugin.json | head -1`). A command line tool stops quietly then, as one that the
 * system ends with SIGPIPE: no more output, no message, exit status 141 (128 + SIGPIPE, what a shell
 * reports for `yes | head -1`). Node.js ignores SIGPIPE and reports a closed pipe as an `EPIPE` error event
 * some time after the write, which unhandled prints a stack trace ("write EPIPE"), and by then the command
 * may have printed more (a summary on standard error). So the commands write synchronously, as a C program
 * does: a write blocks until the reader has taken it, a closed reader ends the process at that write, and
 * nothing written after it (on either stream) is printed. Standard error closed early is ignored: there is
 * nothing to say, and nowhere to say it.
 */
import { writeSync } from "node:fs";
import { escaped } from "../format/printable.js";
import type { UsageError } from "../workspace/usage-error.js";

/**
 * A usage error as printed after `plugin-review: `: its message on one line and each detail on one line below,
 * whatever they quote (a path or a value with a line break or an escape sequence is shown escaped, `a\nb`).
 */
export function usageErrorText(e: UsageError): string {
  return [escaped(e.message), ...e.details.map((d) => `  ${escaped(d)}`)].join("\n");
}

/** The exit status of a process ended by SIGPIPE, as shells report it. */
export const CLOSED_OUTPUT_STATUS = 141;

/** The errors of a write to a reader that went away (EOF: Windows's word for it). */
const isClosed = (e: unknown) => ["EPIPE", "EOF"].includes((e as NodeJS.ErrnoException).code ?? "");

/** For the short waits of a write to a full pipe (Atomics.wait sleeps without spinning). */
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `text` to a file descriptor, waiting while a full pipe (opened non-blocking by Node.js when
 * `process.stdout` was first read) cannot take more.
 */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
      Atomics.wait(pause, 0, 0, 2);
    }
  }
}

let stderrClosed = false;
let stdoutClosed = false;

/** Writes to standard output; a closed reader ends the process quietly (exit status 141). */
export function writeStdout(text: string): void {
  try {
    writeAll(1, text);
  } catch (e) {
    if (!isClosed(e)) throw e;
    process.exit(CLOSED_OUTPUT_STATUS);
  }
}

/**
 * Writes to standard output for a command whose product is files and its output only a report of them
 * (`migrate --out`): a closed reader stops the report, not the command, which finishes its files (a fleet
 * half migrated is worse than lines not read) and then exits 141 (`stdoutWasClosed`).
 */
export function writeReport(text: string): void {
  if (stdoutClosed) return;
  try {
    writeAll(1, text);
  } catch (e) {
    if (!isClosed(e)) throw e;
    stdoutClosed = true;
  }
}

/** Whether the reader of standard output went away during `writeReport`. */
export function stdoutWasClosed(): boolean {
  return stdoutClosed;
}

/** Writes to standard error; once its reader is gone, what follows is dropped. */
export function writeStderr(text: string): void {
  if (stderrClosed) return;
  try {
    writeAll(2, text);
  } catch (e) {
    if (!isClosed(e)) throw e;
    stderrClosed = true;
  }
}

/**
 * For what writes through Node.js's streams instead (the language server's messages): a closed standard
 * output ends the process as above, a closed standard error is ignored, instead of an unhandled error.
 */
export function endQuietlyWhenOutputCloses(): void {
  process.stdout.on("error", (e) => {
    if (!isClosed(e)) throw e;
    process.exit(CLOSED_OUTPUT_STATUS);
  });
  process.stderr.on("error", (e) => {
    if (!isClosed(e)) throw e;
  });
}
