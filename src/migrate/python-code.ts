/**
 * What an EF1 plugin's Python code does with the EF1 API, read without running it: each call of the API (absolute,
 * relative, create_group, report_property, …) with its file and line, and the metric key it names when it names
 * one as a literal. `migrate` uses it for three things: the counters (a metric the code reports with `relative`
 * is an EF2 count, whose key ends in `.count`), MIGRATION.md's table of the plugin's own calls and their EF2
 * counterparts, and the calls the compatibility layer cannot carry. Pure and linear in the code's length: a
 * tokenizer of Python's lexical grammar (strings of every kind, comments, line continuations), not a parser.
 */

/** One use of the EF1 API in the plugin's code. */
export interface ApiUse {
  /** The file, relative to the plugin's folder (`demo_plugin.py`, `lib/client.py`). */
  file: string;
  /** 1-based. */
  line: number;
  /** What is used: a method (`relative`), `self.config`, `class`, an import (`ruxit.api.snapshot`), … */
  name: string;
  /** The metric key, when the call names it as a literal (`relative("requests", …)`). */
  key?: string;
}

interface Token {
  kind: "name" | "string" | "number" | "op";
  value: string;
  line: number;
}

/** A string literal's prefix: r, u, b, f and their pairs, in any case. */
const STRING_PREFIX = /^(?:[rRuUbBfF]|[rR][bBfF]|[bBfF][rR])$/;

/** Python's tokens, enough to find calls: names, string literals (decoded when simple), numbers, operators. */
function tokenize(code: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  const n = code.length;
  while (i < n) {
    const c = code[i]!;
    if (c === "\n") {
      line++;
      i++;
    } else if (c === "#") {
      while (i < n && code[i] !== "\n") i++;
    } else if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\\") {
      i++;
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_\u0080-\uffff]/.test(code[j]!)) j++;
      const word = code.slice(i, j);
      if ((code[j] === "'" || code[j] === '"') && STRING_PREFIX.test(word)) {
        const s = readString(code, j, line);
        // A bytes or f-string literal names no metric key.
        tokens.push({ kind: "string", value: /[bBfF]/.test(word) ? "\u0000" : s.value, line });
        line = s.line;
        i = s.end;
      } else {
        tokens.push({ kind: "name", value: word, line });
        i = j;
      }
    } else if (c === "'" || c === '"') {
      const s = readString(code, i, line);
      tokens.push({ kind: "string", value: s.value, line });
      line = s.line;
      i = s.end;
    } else if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(code[j]!)) j++;
      tokens.push({ kind: "number", value: code.slice(i, j), line });
      i = j;
    } else {
      const two = code.slice(i, i + 2);
      const op = ["==", "!=", "<=", ">=", "**", "//", "->", ":="].includes(two) ? two : c;
      tokens.push({ kind: "op", value: op, line });
      i += op.length;
    }
  }
  return tokens;
}

/**
 * A string literal from its opening quote: its value when it holds no escape (enough for a metric key; an escape
 * gives "\u0000" so that it names no key), where it ends, and the line it ends on.
 */
function readString(code: string, start: number, line: number): { value: string; end: number; line: number } {
  const quote = code[start]!;
  const triple = code.startsWith(quote.repeat(3), start);
  const close = triple ? quote.repeat(3) : quote;
  let i = start + close.length;
  let escaped = false;
  const from = i;
  while (i < code.length) {
    const c = code[i]!;
    if (c === "\\") {
      escaped = true;
      if (code[i + 1] === "\n") line++;
      i += 2;
      continue;
    }
    if (c === "\n") {
      line++;
      if (!triple) return { value: "\u0000", end: i, line: line - 1 }; // unterminated: stop at the line's end
    }
    if (code.startsWith(close, i)) {
      return { value: escaped ? "\u0000" : code.slice(from, i), end: i + close.length, line };
    }
    i++;
  }
  return { value: "\u0000", end: i, line };
}

/** The EF1 methods whose first argument (or `key=`) is a metric key. */
export const MEASUREMENTS = new Set(["absolute", "relative", "per_second", "state_metric"]);
/** The results builder's methods that take a measurement object of ruxit.api.data, and the call each is. */
const MEASUREMENT_OBJECTS = new Map([
  ["add_absolute_result", "absolute"],
  ["add_relative_result", "relative"],
  ["add_per_second_result", "per_second"],
  ["add_state_result", "state_metric"],
]);
/** The other EF1 API methods MIGRATION.md names. */
const METHODS = new Set([
  "create_group",
  "create_device",
  "create_element",
  "add_endpoint",
  "report_property",
  "report_error_event",
  "report_performance_event",
  "report_availability_event",
  "report_resource_contention_event",
  "report_custom_info_event",
  "report_custom_deployment_event",
  "report_custom_annotation_event",
  "report_event",
  "find_single_process_group",
  "find_all_process_groups",
  "find_single_process",
  "find_all_processes",
  "add_absolute_result",
  "add_relative_result",
  "add_per_second_result",
  "add_state_result",
]);
/**
 * Members of the EF1 plugin class that the contract (ef1-python-runtime.md) does not document and the layer does not
 * carry: Dynatrace's OneAgent plugin demo calls them. The layer's BasePlugin raises NotCarriedToEF2 for each.
 */
export const ENGINE_MEMBERS = new Set(["get_activation_context", "get_monitored_entities"]);
/** The modules of `ruxit` the compatibility layer provides. */
export const RUXIT_MODULES = new Set([
  "ruxit",
  "ruxit.api",
  "ruxit.api.base_plugin",
  "ruxit.api.exceptions",
  "ruxit.api.data",
  "ruxit.api.events",
  "ruxit.api.selectors",
  "ruxit.api.snapshot",
  "ruxit.api.results",
  "ruxit.api.topology_builder",
]);
/**
 * Modules of the EF1 engine whose names the layer provides so that the plugins that import them unused (public
 * ActiveGate plugins copy `from ruxit.select_plugins import BaseActivationContext, selectors`) run: using a name
 * raises NotCarriedToEF2.
 */
export const RUXIT_ENGINE_NAMES = new Set(["ruxit.select_plugins"]);

function literal(t: Token | undefined): string | undefined {
  return t?.kind === "string" && t.value !== "" && !t.value.includes("\u0000") ? t.value : undefined;
}

/** The dotted name that starts at token i (`ruxit.api.snapshot`), and the index after it. */
function dotted(tokens: Token[], i: number): { name: string; next: number } {
  const parts: string[] = [];
  let j = i;
  while (tokens[j]?.kind === "name") {
    parts.push(tokens[j]!.value);
    if (tokens[j + 1]?.value !== ".") {
      j++;
      break;
    }
    j += 2;
  }
  return { name: parts.join("."), next: j };
}

/** The metric key of a call whose `(` is at token i: its first argument, or its `key=` argument, as a literal. */
function keyOf(tokens: Token[], open: number): string | undefined {
  const first = tokens[open + 1];
  const after = tokens[open + 2];
  if (literal(first) !== undefined && (after?.value === "," || after?.value === ")")) return literal(first);
  // key="…" anywhere among the call's arguments at its own depth
  let depth = 0;
  for (let j = open + 1; j < tokens.length; j++) {
    const t = tokens[j]!;
    if (t.value === "(" || t.value === "[" || t.value === "{") depth++;
    else if (t.value === ")" || t.value === "]" || t.value === "}") {
      if (depth === 0) return undefined;
      depth--;
    } else if (depth === 0 && t.kind === "name" && t.value === "key" && tokens[j + 1]?.value === "=")
      return literal(tokens[j + 2]);
  }
  return undefined;
}

/**
 * The metric key of an `add_*_result(` call whose `(` is at token i, when its argument is a measurement made there
 * (`PluginMeasurement("k", …)`, `data.PluginStateMetric(key="k", …)`); one made elsewhere names none.
 */
function measurementKeyOf(tokens: Token[], open: number): string | undefined {
  const { name, next } = dotted(tokens, open + 1);
  if (!/(^|\.)Plugin(Measurement|StateMetric)$/.test(name) || tokens[next]?.value !== "(") return undefined;
  return keyOf(tokens, next);
}

/** Every use of the EF1 API in one Python file. */
export function scanPython(file: string, code: string): ApiUse[] {
  const tokens = tokenize(code);
  const uses: ApiUse[] = [];
  const use = (t: Token, name: string, key?: string) =>
    uses.push({ file, line: t.line, name, ...(key !== undefined ? { key } : {}) });
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if (t.kind !== "name") continue;
    if (t.value === "class" && next?.kind === "name" && tokens[i + 2]?.value === "(") {
      for (let j = i + 3; j < tokens.length && tokens[j]!.value !== ")" && tokens[j]!.value !== ":"; j++)
        if (tokens[j]!.value === "BasePlugin" || tokens[j]!.value === "RemoteBasePlugin") {
          use(t, "class");
          break;
        }
    } else if (
      t.value === "def" &&
      next &&
      (["initialize", "query", "close"].includes(next.value) || ENGINE_MEMBERS.has(next.value))
    ) {
      // A plugin that defines an engine member itself (its own helper of that name) uses no EF1 one.
      use(t, `def ${next.value}`);
    } else if ((t.value === "from" || t.value === "import") && tokens[i + 1]?.value === "ruxit") {
      const { name } = dotted(tokens, i + 1);
      use(t, `import ${name}`);
    } else if (t.value === "self" && next?.value === "." && tokens[i + 2]?.value === "config") {
      use(t, "self.config");
    } else if (
      t.value === "kwargs" &&
      ((next?.value === "[" && literal(tokens[i + 2]) === "config") ||
        (next?.value === "." && tokens[i + 2]?.value === "get" && literal(tokens[i + 4]) === "config"))
    ) {
      use(t, "self.config");
    } else if (
      t.value === "raise" &&
      next?.kind === "name" &&
      ["ConfigException", "AuthException", "NothingToReportException"].includes(next.value)
    ) {
      use(t, `raise ${next.value}`);
    } else if (
      (t.value === "entity_id" || t.value === "entity_selector") &&
      next?.value === "=" &&
      tokens[i - 1] &&
      (tokens[i - 1]!.value === "," || tokens[i - 1]!.value === "(")
    ) {
      // FromPluginSelector() names the entity the call reports on anyway: nothing to carry.
      if (t.value !== "entity_selector" || !/(^|\.)FromPluginSelector$/.test(dotted(tokens, i + 2).name))
        use(t, t.value);
    } else if (tokens[i - 1]?.value === "." && ENGINE_MEMBERS.has(t.value)) {
      // Called here or later (`fetch = self.get_monitored_entities`): the layer's raises when called.
      use(t, t.value);
    } else if (tokens[i - 1]?.value === "." && next?.value === "(") {
      if (MEASUREMENTS.has(t.value)) use(t, t.value, keyOf(tokens, i + 1));
      else if (MEASUREMENT_OBJECTS.has(t.value)) use(t, t.value, measurementKeyOf(tokens, i + 1));
      else if (METHODS.has(t.value)) use(t, t.value);
    } else if (t.value === "pgi_name" && next?.value === "(") {
      use(t, "find_single_process_group");
    }
  }
  return uses;
}

/** The measurement call a use is (`add_relative_result` is `relative`), or undefined for other uses. */
export function measurementOf(use: ApiUse): string | undefined {
  return MEASUREMENTS.has(use.name) ? use.name : MEASUREMENT_OBJECTS.get(use.name);
}

/** What the code makes of each EF1 metric key: a count (`relative`) or a gauge (only other calls name it). */
export function typesOfKeys(uses: readonly ApiUse[]): Map<string, "count" | "gauge"> {
  const types = new Map<string, "count" | "gauge">();
  for (const u of uses) {
    const call = measurementOf(u);
    if (u.key === undefined || call === undefined) continue;
    if (call === "relative") types.set(u.key, "count");
    else if (!types.has(u.key)) types.set(u.key, "gauge");
  }
  return types;
}
