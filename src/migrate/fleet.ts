/**
 * A fleet migrated in one run: every descriptor converted with the name and key prefix the map gives it (else
 * the one derived, with `--name-prefix`/`--key-prefix` in front), then the EF2 names and metric keys checked
 * against each other and against the map's other plugins (extensions already migrated). An EF2 extension's
 * name and its metric keys are global in a Dynatrace environment: a second upload of a name replaces the
 * first, a key written by two extensions mixes their series. So a collision refuses both descriptors (one
 * only, when the other side is the map's: that one is deployed), naming both sides and their lines, until the
 * map or a prefix resolves it. Pure: texts in, results and the map's new entries out.
 */
import { parseJsonFast } from "../core/json/parse.js";
import { get, str } from "../core/guards.js";
import { keyPrefixOf, type MigrationMap } from "../core/ef2/mapping.js";
import { deriveName, keyPrefix as namePrefixOf, NAME_MAX, nameProblem } from "../core/ef2/names.js";
import { migrate, refused, type Converted, type MigrationResult } from "./migrate.js";
import { q, said, type Phrase, type Quoted } from "./notes.js";
import type { PluginCode } from "./python-project.js";
import type { Refusal } from "./report.js";

export interface FleetInput {
  /** The descriptor's path as the user gave it (messages, folders). */
  file: string;
  /** Its text; absent when it could not be read (`unreadable` says why). */
  text?: string;
  unreadable?: Refusal;
  /** A Python plugin's folder, which its project gets a copy of (python-project.ts). */
  code?: PluginCode;
  /** The plugin.json's path from the folder its migration goes to (MIGRATION.md's closing commands). */
  source?: string;
  /**
   * Instead of `text`, `unreadable` and `code`: reads them when the run needs them (first to convert it, again
   * only for a collision), so that a caller need not hold a whole fleet's texts and code at once.
   */
  load?: () => Readonly<Pick<FleetInput, "text" | "unreadable" | "code">>;
}

export interface FleetOptions {
  /** `--name` (one descriptor). */
  name?: string;
  /** `--name-prefix`: a section before every derived name (`custom:<prefix>.<derived>`). */
  namePrefix?: string;
  /** `--key-prefix`: a section before every derived key prefix (`<prefix>.<derived name>.<key>`). */
  keyPrefix?: string;
  map?: MigrationMap;
  /**
   * Each result as it is made; what it returns is held instead (the CLI keeps a result's files out of memory
   * until it writes them, so that a fleet's files are never held all at once).
   */
  keep?: (result: MigrationResult) => MigrationResult;
}

/** One side of a collision: a descriptor of this run (its file and line), or an entry of the map. */
export interface Side {
  file?: string;
  line?: number;
  /** The EF1 plugin's name, when it has one. */
  plugin?: string;
  /** An entry of the map: its file and line. */
  map?: { source: string; line: number };
  /** The EF2 name it has after the collision was resolved (named from its EF1 `name`). */
  now?: string;
}

export interface Collision {
  /** One EF2 name, one metric key, or one EF1 plugin (its `name`) in two descriptors. */
  kind: "name" | "key" | "plugin";
  /** The EF2 name, metric key or EF1 plugin name both have. */
  value: string;
  sides: [Side, Side];
}

export interface FleetEntry {
  file: string;
  result: MigrationResult;
  /** The collisions that refused it. */
  collisions: Collision[];
  /** Where its name and key prefix came from. */
  naming?: "map" | "prefix" | "name" | "derived";
  /** Named from its EF1 `name`, not as derived (`from`), because of these collisions. */
  renamed?: { from: string; collisions: Collision[] };
}

/** What the map records of a converted descriptor. */
export interface MapUpdate {
  plugin: string;
  name: string;
  keyPrefix: string;
  metrics: string[];
}

export interface FleetRun {
  entries: FleetEntry[];
  /**
   * The collisions not resolved: each refused a descriptor of it, or had one renamed whose other side was
   * refused for a reason of its own (the renamed side's `now`).
   */
  collisions: Collision[];
  /**
   * The collisions resolved by naming descriptors from their EF1 `name` (their sides' `now`): every descriptor
   * of the run they involve was converted.
   */
  resolved: Collision[];
  /** The map's entries for the converted descriptors that have an EF1 `name`, in the order given. */
  updates: MapUpdate[];
}

interface Parsed {
  plugin?: string;
  doc?: unknown;
  /** The line of the member the EF2 name comes from (`metricGroup`, else `name`). */
  nameLine?: number;
  /** The line of its `name`. */
  pluginLine?: number;
}

/** The EF1 name and the line the derived name comes from, read cheaply (migrate parses it again). */
function peek(text: string): Parsed {
  const parsed = parseJsonFast(text);
  if (!parsed.ok) return {};
  const doc = parsed.value;
  const plugin = str(get(doc, "name"));
  const member = get(doc, "metricGroup") !== undefined ? "metricGroup" : "name";
  const node =
    parsed.root.kind === "object" ? parsed.root.members.findLast((m) => m.key === member) : undefined;
  const nameLine = node ? lineAt(text, node.keyStart) : undefined;
  const own =
    parsed.root.kind === "object" ? parsed.root.members.findLast((m) => m.key === "name") : undefined;
  const pluginLine = own ? lineAt(text, own.keyStart) : undefined;
  return {
    doc,
    ...(plugin !== undefined ? { plugin } : {}),
    ...(nameLine ? { nameLine } : {}),
    ...(pluginLine ? { pluginLine } : {}),
  };
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Every EF2 metric key an extension defines: the collected ones and the calculated per-second ones. */
export function keysOf(r: Converted): string[] {
  // An EF1 metric written twice (a Python plugin's) is one EF2 metric.
  return [
    ...new Set(r.keyMap.metrics.flatMap((m) => [m.ef2.key, ...(m.ef2.rateKey ? [m.ef2.rateKey] : [])])),
  ];
}

/** "`a/plugin.json` line 5" or "the map's `custom.x` (`migrate.yml` line 3)", as a phrase. */
export function sideText(side: Side): Phrase {
  if (side.map)
    return said`${q(side.plugin ?? "")}, already migrated (the map ${q(side.map.source)}, line ${side.map.line})`;
  const where: (string | Quoted)[] = [q(side.file ?? "")];
  if (side.line !== undefined) where.push(` line ${side.line}`);
  return where;
}

/** How one descriptor is named: by the map, `--name`, the prefixes, or as derived. */
interface Naming {
  name?: string;
  keyPrefix?: string;
  naming: NonNullable<FleetEntry["naming"]>;
}

/**
 * A descriptor's name and key prefix; `fromPlugin`: derived from its EF1 `name` alone, as Dynatrace's converter
 * derives a name when there is no `metricGroup` (what a fleet's collision falls back to).
 */
function namingOf(peeked: Parsed, options: FleetOptions, fromPlugin = false): Naming {
  const mapped = peeked.plugin !== undefined ? options.map?.entries.get(peeked.plugin) : undefined;
  const doc = fromPlugin ? { name: peeked.plugin } : peeked.doc;
  let name = options.name ?? mapped?.name;
  let naming: Naming["naming"] = options.name ? "name" : mapped?.name ? "map" : "derived";
  if (name === undefined) {
    const derived = deriveName(doc).name;
    if (derived !== undefined && options.namePrefix !== undefined) {
      name = `custom:${options.namePrefix}.${namePrefixOf(derived)}`;
      naming = "prefix";
    } else if (fromPlugin) name = derived;
  }
  let keyPrefix = mapped?.keyPrefix;
  if (keyPrefix === undefined && options.keyPrefix !== undefined) {
    // Before the name prefix: `--key-prefix acme --name-prefix acme` gives `acme.<derived>.<key>`.
    const base = options.name ?? mapped?.name ?? deriveName(doc).name;
    if (base !== undefined) keyPrefix = `${options.keyPrefix}.${namePrefixOf(base)}`;
    if (naming === "derived") naming = "prefix";
  }
  if (mapped?.keyPrefix !== undefined) naming = "map";
  return {
    ...(name !== undefined ? { name } : {}),
    ...(keyPrefix !== undefined ? { keyPrefix } : {}),
    naming,
  };
}

/** A collision found, with the descriptors of the run it involves. */
interface Found {
  collision: Collision;
  entries: FleetEntry[];
}

/** Every name, key and plugin two converted descriptors (or one and the map's other plugins) share. */
function findCollisions(
  entries: readonly FleetEntry[],
  parsedOf: ReadonlyMap<FleetEntry, Parsed>,
  map: MigrationMap | undefined,
): Found[] {
  const converted = entries.filter((e) => e.result.converted);
  const inRun = new Set(converted.map((e) => parsedOf.get(e)?.plugin).filter((p) => p !== undefined));
  const found: Found[] = [];
  const sideOf = (e: FleetEntry, line?: number): Side => {
    const plugin = parsedOf.get(e)?.plugin;
    return {
      file: e.file,
      ...(line !== undefined ? { line } : {}),
      ...(plugin !== undefined ? { plugin } : {}),
    };
  };
  const add = (kind: Collision["kind"], value: string, a: Side, b: Side, involved: FleetEntry[]) =>
    found.push({ collision: { kind, value, sides: [a, b] }, entries: involved });

  // One EF1 plugin twice (copies of it) with different EF2 names: the map could keep one of them only.
  const byPlugin = new Map<string, FleetEntry>();
  for (const e of converted) {
    const plugin = parsedOf.get(e)?.plugin;
    if (plugin === undefined) continue;
    const other = byPlugin.get(plugin);
    if (other && (other.result as Converted).name !== (e.result as Converted).name)
      add(
        "plugin",
        plugin,
        sideOf(other, parsedOf.get(other)?.pluginLine),
        sideOf(e, parsedOf.get(e)?.pluginLine),
        [other, e],
      );
    else if (!other) byPlugin.set(plugin, e);
  }
  // The map's plugins not in the run, by EF2 name: one look-up per descriptor, whatever the map's size.
  const mapNames = new Map<string, { plugin: string; line: number }[]>();
  for (const entry of map?.entries.values() ?? [])
    if (entry.name !== undefined && !inRun.has(entry.plugin)) {
      const list = mapNames.get(entry.name);
      if (list) list.push(entry);
      else mapNames.set(entry.name, [entry]);
    }
  const byName = new Map<string, FleetEntry>();
  for (const e of converted) {
    const r = e.result as Converted;
    const line = parsedOf.get(e)?.nameLine;
    const other = byName.get(r.name);
    if (other) add("name", r.name, sideOf(other, parsedOf.get(other)?.nameLine), sideOf(e, line), [other, e]);
    else byName.set(r.name, e);
    for (const entry of mapNames.get(r.name) ?? [])
      if (entry.plugin !== parsedOf.get(e)?.plugin)
        add(
          "name",
          r.name,
          sideOf(e, line),
          { plugin: entry.plugin, map: { source: map!.source, line: entry.line } },
          [e],
        );
  }
  // Keys: between descriptors of different names (the same name is one collision already).
  const byKey = new Map<string, { entry: FleetEntry; line: number }>();
  const mapKeys = new Map<string, { plugin: string; line: number }>();
  for (const entry of map?.entries.values() ?? [])
    if (!inRun.has(entry.plugin))
      for (const k of entry.metrics) mapKeys.set(k, { plugin: entry.plugin, line: entry.line });
  for (const e of converted) {
    const r = e.result as Converted;
    const seen = new Set<string>();
    for (const m of r.keyMap.metrics)
      for (const k of [m.ef2.key, ...(m.ef2.rateKey ? [m.ef2.rateKey] : [])]) {
        if (seen.has(k)) continue;
        seen.add(k);
        const line = lineOfPointer(e, `${m.pointer}/key`);
        const other = byKey.get(k);
        if (other && (other.entry.result as Converted).name !== r.name)
          add("key", k, sideOf(other.entry, other.line), sideOf(e, line), [other.entry, e]);
        else if (!other) byKey.set(k, { entry: e, line });
        const fromMap = mapKeys.get(k);
        if (fromMap && fromMap.plugin !== parsedOf.get(e)?.plugin)
          add(
            "key",
            k,
            sideOf(e, line),
            { plugin: fromMap.plugin, map: { source: map!.source, line: fromMap.line } },
            [e],
          );
      }
  }
  return found;
}

/** The side of a collision that is not `e`'s own. */
function otherSide(c: Collision, e: FleetEntry): Side {
  const self = c.sides.findIndex((s) => s.file === e.file && !s.map);
  return c.sides[1 - Math.max(0, self)]!;
}

/** MIGRATION.md's note on a descriptor named from its EF1 `name`: the name it would have had, and why not. */
function renamedNote(from: string, collisions: readonly Collision[], e: FleetEntry): Phrase {
  const why = collisions.flatMap((c, i) => [
    ...(i ? ["; "] : []),
    ...(c.kind === "name" ? [] : said`its metric key \`${c.value}\` would also be a key of `),
    ...sideText(otherSide(c, e)),
    ...(c.kind === "name" ? [" has that name too"] : []),
  ]);
  return [
    ...said`Dynatrace's converter would name the extension \`${from}\`, but `,
    ...why,
    ...said`: it is named from its EF1 \`name\` instead (in a Dynatrace environment a second upload of one name replaces the first, and a key two extensions write mixes their series). Record the name with \`--map\`, so that a later run, of this plugin alone too, gives the same`,
  ];
}

/**
 * Runs the fleet: each descriptor converted, the collisions found. A descriptor a collision meets and that is
 * named as derived from its `metricGroup` is named from its EF1 `name` instead (unique to an EF1 plugin, as
 * Dynatrace's converter names a plugin without `metricGroup`), so that both are converted; what still collides
 * (two copies of one EF1 plugin, names the user chose, a name taken from the EF1 `name` that another descriptor
 * has) is refused.
 */
export function migrateFleet(inputs: readonly FleetInput[], options: FleetOptions = {}): FleetRun {
  const map = options.map;
  const parsedOf = new Map<FleetEntry, Parsed>();
  const keep = options.keep ?? ((result: MigrationResult) => result);
  const load = (input: FleetInput) => input.load?.() ?? input;
  const convert = (input: FleetInput, peeked: Parsed, naming: Naming, nameNote?: Phrase): FleetEntry => {
    const made = migrate(input.text!, {
      ...(naming.name !== undefined ? { name: naming.name } : {}),
      ...(naming.keyPrefix !== undefined ? { keyPrefix: naming.keyPrefix } : {}),
      ...(input.code ? { code: input.code } : {}),
      ...(input.source !== undefined ? { source: input.source } : {}),
      ...(nameNote ? { nameNote } : {}),
    });
    // The lines of its metrics (for the collisions), read from its files before `keep` may take them away.
    if (made.converted) metricLinesOf(made);
    const result = keep(made);
    if (made.converted && result !== made) metricLines.set(result as Converted, metricLinesOf(made));
    const entry: FleetEntry = { file: input.file, result, collisions: [], naming: naming.naming };
    parsedOf.set(entry, peeked);
    return entry;
  };
  const entries: FleetEntry[] = inputs.map((given) => {
    const input = { ...given, ...load(given) };
    if (input.text === undefined)
      return { file: input.file, result: keep(refused(undefined, [input.unreadable!])), collisions: [] };
    const peeked = peek(input.text);
    const entry = convert(input, peeked, namingOf(peeked, options));
    // Only its first naming reads the whole document: not held for the rest of the run.
    delete peeked.doc;
    return entry;
  });

  // The collisions as derived; those a descriptor named as derived meets, it resolves by its EF1 `name`.
  const met = new Map<FleetEntry, Collision[]>();
  for (const f of findCollisions(entries, parsedOf, map))
    for (const e of f.entries) {
      const list = met.get(e);
      if (list) list.push(f.collision);
      else met.set(e, [f.collision]);
    }
  const renamed = new Set<FleetEntry>();
  // Why a descriptor a collision met could not be named from its EF1 `name` (the name that would be, and why not).
  const unrenamable = new Map<FleetEntry, { name: string; problem: string }>();
  entries.forEach((e, i) => {
    const collisions = met.get(e);
    const peeked = parsedOf.get(e);
    if (!collisions || !peeked || !e.result.converted) return;
    if (e.naming !== "derived" && e.naming !== "prefix") return;
    // Copies of one EF1 plugin have one EF1 name: nothing tells them apart.
    if (collisions.some((c) => c.kind === "plugin" || c.sides[0].plugin === c.sides[1].plugin)) return;
    const naming = namingOf(peeked, options, true);
    const from = e.result.name;
    if (naming.name === undefined) {
      const derived = deriveName({ name: peeked.plugin });
      const problem = derived.dynatrace === undefined ? undefined : nameProblem(derived.dynatrace);
      if (problem !== undefined) unrenamable.set(e, { name: derived.dynatrace!, problem });
      return;
    }
    if (naming.name === from) return;
    const next = convert(
      { ...inputs[i]!, ...load(inputs[i]!) },
      peeked,
      naming,
      renamedNote(from, collisions, e),
    );
    if (!next.result.converted) {
      const problem = nameProblem(naming.name);
      if (problem !== undefined) unrenamable.set(e, { name: naming.name, problem });
      return;
    }
    next.renamed = { from, collisions };
    entries[i] = next;
    renamed.add(next);
  });

  // What still collides is refused: both sides, but a descriptor named from its EF1 `name` yields to one that
  // has its name otherwise.
  const collisions: Collision[] = [];
  for (const f of findCollisions(entries, parsedOf, map)) {
    collisions.push(f.collision);
    const yielding = f.entries.filter((e) => renamed.has(e));
    for (const e of yielding.length ? yielding : f.entries) e.collisions.push(f.collision);
  }
  const listed = new Set(collisions);
  for (const e of renamed)
    if (e.collisions.length) {
      // Refused after all: the collisions that had it renamed are its reasons too.
      for (const c of e.renamed!.collisions)
        if (!listed.has(c)) {
          listed.add(c);
          collisions.push(c);
        }
      e.collisions.unshift(...e.renamed!.collisions);
    }
  // How many descriptors of the run are one EF1 plugin (its copies: each collides with the first), counted
  // once for the run rather than once per collision.
  const copiesOf = new Map<string, number>();
  for (const e of entries) {
    const plugin = parsedOf.get(e)?.plugin;
    if (plugin !== undefined) copiesOf.set(plugin, (copiesOf.get(plugin) ?? 0) + 1);
  }
  const copies = (plugin: string) => {
    const n = copiesOf.get(plugin) ?? 0;
    return n === 2 ? "two" : String(n);
  };
  for (const [index, e] of entries.entries()) {
    if (!e.collisions.length || !e.result.converted) continue;
    const r = e.result;
    const reasons: Refusal[] = e.collisions.map((c) => {
      const self = c.sides.findIndex((s) => s.file === e.file && !s.map);
      const mine = c.sides[self] ?? c.sides[0];
      const theirs = otherSide(c, e);
      const same = mine.plugin !== undefined && mine.plugin === theirs.plugin && !theirs.map;
      return {
        ...(mine.line !== undefined ? { line: mine.line } : {}),
        text: [
          ...(c.kind === "name"
            ? said`its EF2 name \`${c.value}\` is also the name of `
            : c.kind === "plugin"
              ? said`it is EF1 plugin ${q(c.value)}, as is `
              : said`its EF2 metric key \`${c.value}\` is also a key of `),
          ...sideText(theirs),
          ...(same ? said`, the same EF1 plugin ${q(mine.plugin)}` : []),
          ...(c.kind === "plugin"
            ? said`: one EF1 plugin cannot become two EF2 extensions`
            : said`: in a Dynatrace environment ${c.kind === "name" ? "the second upload would replace the first" : "the two extensions' series would mix"}`),
        ],
        fix:
          same || c.kind === "plugin"
            ? said`migrate one of the ${copies(mine.plugin ?? c.value)} copies of EF1 plugin ${q(mine.plugin ?? c.value)}: the map cannot tell them apart`
            : said`give one of them another ${c.kind === "name" ? "name" : "key prefix"} in the map (\`--map\`: \`plugins: <EF1 name>: { name: custom:…, key_prefix: … }\`), or run with \`--name-prefix\`/\`--key-prefix\`; docs/migrate.md, "Migrating a fleet"`,
      };
    });
    const why = unrenamable.get(e);
    if (why && reasons.length) {
      // The way out a collision usually has was tried: say what it gave, and what is left to the user.
      const first = reasons[0]!;
      reasons[0] = {
        ...first,
        text: [
          ...first.text,
          ...said`; naming it from its EF1 \`name\` instead, as a fleet's collision otherwise is, would give ${q(why.name)}, which is not a valid EF2 name: ${why.problem}`,
        ],
        fix: [
          ...said`give EF1 plugin `,
          q(parsedOf.get(e)?.plugin ?? ""),
          ...said` an EF2 name of at most ${NAME_MAX} characters in the map (\`--map\`: \`plugins: <EF1 name>: { name: custom:… }\`), or migrate it alone with \`--name custom:…\`; docs/migrate.md, "Migrating a fleet"`,
        ],
      };
    }
    e.result = keep(
      refused(load(inputs[index]!).text, reasons, {
        name: r.name,
        notes: r.notes,
      }),
    );
  }

  // A side's entry, by its file (sides name their descriptor by file).
  const entryOf = new Map<string, FleetEntry>();
  for (const e of entries) if (!entryOf.has(e.file)) entryOf.set(e.file, e);
  const converted = (side: Side) =>
    side.map !== undefined || entryOf.get(side.file!)?.result.converted === true;
  // A collision that had a descriptor renamed is resolved when every descriptor of it was converted; one whose
  // other side was refused for a reason of its own (a copy of a plugin given twice) is listed with the refused.
  const resolved: Collision[] = [];
  for (const e of renamed)
    for (const c of e.renamed!.collisions)
      if (!listed.has(c)) {
        listed.add(c);
        (c.sides.every(converted) ? resolved : collisions).push(c);
      }
  // The name each converted side now has, wherever its collision is listed.
  for (const c of listed)
    for (const side of c.sides) {
      const e = side.map ? undefined : entryOf.get(side.file!);
      if (e && renamed.has(e) && e.result.converted) side.now = e.result.name;
    }

  const updates: MapUpdate[] = [];
  for (const e of entries) {
    const plugin = parsedOf.get(e)?.plugin;
    if (!e.result.converted || plugin === undefined) continue;
    const r = e.result;
    updates.push({
      plugin,
      name: r.name,
      keyPrefix: r.keyMap.keyPrefix ?? keyPrefixOf(undefined, r.name),
      metrics: keysOf(r),
    });
  }
  return { entries, collisions, resolved, updates };
}

const metricLines = new WeakMap<Converted, Map<string, number>>();

/** The line of a metric's key pointer in a converted descriptor (metric-keys.json holds each metric's line). */
function lineOfPointer(e: FleetEntry, pointer: string): number {
  return metricLinesOf(e.result as Converted).get(pointer) ?? 0;
}

/** The line of each metric's key pointer in a converted descriptor, read once from its metric-keys.json. */
function metricLinesOf(r: Converted): Map<string, number> {
  let lines = metricLines.get(r);
  if (!lines) {
    lines = new Map();
    const keys = r.files.find((f) => f.path === "metric-keys.json");
    const parsed = keys
      ? (JSON.parse(keys.content) as { metrics: { ef1: { pointer: string; line: number } }[] })
      : { metrics: [] };
    for (const m of parsed.metrics) lines.set(`${m.ef1.pointer}/key`, m.ef1.line);
    metricLines.set(r, lines);
  }
  return lines;
}
