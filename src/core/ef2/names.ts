/**
 * The names an EF2 extension gives what an EF1 descriptor named: the extension's name, its version, metric keys
 * and dimension keys, derived as Dynatrace's own converter (the VS Code add-on's "Convert JMX") derives them, so
 * that its users and ours get the same keys; and the EF2 rules those names must follow (docs/migrate.md).
 */
import { get, str } from "../guards.js";
import { quote } from "../quote.js";

/** The EF2 name rule of Dynatrace's JMX converter: `custom:`, then lower-case sections joined by `.` or `-`. */
export const NAME_PATTERN = /^custom:[a-z][a-z0-9]*([-.][a-z0-9]+)*$/;
/** The longest EF2 name the add-on accepts (its diagnostic DED002). */
export const NAME_MAX = 50;

export interface DerivedName {
  /** The EF2 name, when one could be had (`custom:…`, valid). */
  name?: string;
  /** What Dynatrace's converter writes for this descriptor (before its prompt for names over 43 characters). */
  dynatrace?: string;
  /** How `name` was had: as Dynatrace derives it, made valid from that, or given by `--name`. */
  how?: "derived" | "made-valid" | "given";
  /** Why there is no name, or why the derived one was not usable as it is. */
  problem?: string;
}

/** Why `name` is not a valid EF2 name, or undefined when it is. */
export function nameProblem(name: string): string | undefined {
  if (!name.startsWith("custom:")) return "it does not start with `custom:`";
  if (name.length > NAME_MAX) return `it is ${name.length} characters long (at most ${NAME_MAX})`;
  if (!NAME_PATTERN.test(name))
    return "it is not lower-case letters and digits in sections joined by `.` or `-`, the first starting with a letter";
  return undefined;
}

/**
 * The EF2 name: `given` (`--name`) when set; otherwise Dynatrace's derivation (`custom:` + lower-cased
 * `metricGroup`, else `name`, `_` made `.`, a leading `custom.` cut), and when that is not a valid name, the
 * same made valid (other characters made `.`, runs of separators made one, a leading non-letter cut).
 */
export function deriveName(doc: unknown, given?: string): DerivedName {
  const base = str(get(doc, "metricGroup")) ?? str(get(doc, "name"));
  const dynatrace =
    base === undefined
      ? undefined
      : `custom:${base
          .toLowerCase()
          .replace(/_/g, ".")
          .replace(/^custom\./, "")}`;
  const withDynatrace = dynatrace === undefined ? {} : { dynatrace };
  if (given !== undefined) {
    const problem = nameProblem(given);
    return problem
      ? { ...withDynatrace, problem: `--name ${JSON.stringify(given)} is not a valid EF2 name: ${problem}` }
      : { ...withDynatrace, name: given, how: "given" };
  }
  if (dynatrace === undefined)
    return { problem: "the descriptor has neither `metricGroup` nor `name` to derive the EF2 name from" };
  if (nameProblem(dynatrace) === undefined) return { name: dynatrace, dynatrace, how: "derived" };
  const made =
    "custom:" +
    dynatrace
      .slice("custom:".length)
      .replace(/[^a-z0-9.-]+/g, ".")
      .replace(/[.-]{2,}/g, (run) => run[0]!)
      .replace(/^[^a-z]+/, "")
      .replace(/[.-]+$/, "");
  const problem = nameProblem(made);
  if (problem === undefined)
    return {
      name: made,
      dynatrace,
      how: "made-valid",
      problem: nameProblem(dynatrace)!,
    };
  return {
    dynatrace,
    problem: `the EF2 name derived from it, ${JSON.stringify(dynatrace)}, is not valid: ${nameProblem(dynatrace)}; give one with --name custom:<name>`,
  };
}

/** The part of an EF2 name after `custom:`: what Dynatrace's converter prefixes metric keys with. */
export function keyPrefix(name: string): string {
  return name.replace(/^custom:/, "");
}

export interface Ef2Version {
  version: string;
  /** What changed in meaning, when the EF1 version was not simply three numbers. */
  note?: string;
}

/**
 * EF1 `version` ("d.d+(.d+)?") as EF2's `major.minor.build` without leading zeros: `1.10` → `1.10.0`,
 * `1.07` → `1.7.0`. Anything after the numbers (`-beta`) is left out, and said so; no number at all gives
 * `1.0.0`, said so too.
 */
export function ef2Version(version: unknown): Ef2Version {
  const text = typeof version === "string" ? version : typeof version === "number" ? String(version) : "";
  const m = /^\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(.*)$/s.exec(text);
  if (!m) return { version: "1.0.0", note: "it is not a version: EF2 needs one, `1.0.0` is a placeholder" };
  const parts = [m[1], m[2] ?? "0", m[3] ?? "0"].map((p) => String(Number(p!)));
  const result = parts.join(".");
  const rest = m[4]!;
  if (rest)
    return { version: result, note: `EF2 versions are three numbers: ${quote(rest.trim())} is left out` };
  return { version: result };
}

/** `(.|_)count` at the end, any case of its `c`: the suffix Dynatrace's converter reads as "a count". */
const COUNT_SUFFIX = /[._][cC]ount$/;

/**
 * An EF1 metric key as Dynatrace's converter makes it an EF2 key: characters outside `A-Za-z0-9_.-` dropped,
 * `.-` made `.`; a count (`calculateDelta`) gets `.count` unless it ends in `.count`/`_count`, a gauge loses
 * that ending; then the prefix. `type` undefined (a Python plugin's metric, whose type its code decides):
 * no suffix rule.
 */
export function metricKey(ef1Key: string, prefix: string, type?: "gauge" | "count"): string {
  let key = ef1Key.replace(/[^a-zA-Z0-9_\-.]/g, "").replace(/\.-/g, ".");
  if (type === "count" && !COUNT_SUFFIX.test(key)) key += ".count";
  else if (type === "gauge" && COUNT_SUFFIX.test(key)) key = key.slice(0, -".count".length);
  return `${prefix}.${key}`;
}

/**
 * An EF1 dimension (or splitting) name as an EF2 dimension key, as Dynatrace's converter makes it: each capital
 * becomes `_` and its lower case, a leading `_` cut (`ConnectionPool` → `connection_pool`); then characters
 * EF2 does not allow in a dimension key dropped.
 */
export function dimensionKey(name: string): string {
  const snake = name.replace(/([A-Z])/g, "_$1").toLowerCase();
  return (snake.startsWith("_") ? snake.slice(1) : snake).replace(/[^a-z0-9\-._:]/g, "");
}

/** Why `key` is not a valid EF2 metric key (metric ingestion protocol), or undefined. */
export function metricKeyProblem(key: string): string | undefined {
  if (key.length < 3 || key.length > 255) return `it is ${key.length} characters long (3 to 255)`;
  if (/^[0-9-]/.test(key)) return "it starts with a digit or `-`";
  const sections = key.split(".");
  if (sections.some((s) => s === "")) return "it has an empty section (`..` or a dot at an end)";
  if (sections.some((s) => !/^[A-Za-z0-9_-]+$/.test(s))) return "it has characters other than `A-Za-z0-9_-.`";
  if (sections.some((s) => s.startsWith("-"))) return "a section starts with `-`";
  return undefined;
}

/** Why `key` is not a valid EF2 dimension key, or undefined. */
export function dimensionKeyProblem(key: string): string | undefined {
  if (key.length < 1 || key.length > 100) return `it is ${key.length} characters long (1 to 100)`;
  if (!/^[a-z0-9\-._:]+$/.test(key)) return "it has characters other than `a-z0-9-._:`";
  return undefined;
}
