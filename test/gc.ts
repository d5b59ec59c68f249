/**
 * A garbage collection on demand, for tests of what must survive one (timers and signals held weakly).
 * `--expose-gc` set at run time, then `gc` read from a new context, where V8 installs it.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");

export const collectGarbage = runInNewContext("gc") as () => void;
