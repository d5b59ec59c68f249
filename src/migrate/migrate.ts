/**
 * `plugin-review migrate`'s work, pure like the core: an EF1 descriptor's text in, the EF2 extension's files out
 * (extension/extension.yaml, extension/activationSchema.json for Python, extension/alerts/*.json,
 * metric-keys.json and .csv, MIGRATION.md), or the reason it cannot be converted. The same text always gives
 * the same bytes. docs/migrate.md is the mapping, member by member.
 */
import { parseJson } from "../core/json/parse.js";
import { LineIndex } from "../core/locate.js";
import { arr, get, isObj, obj, str, type Obj } from "../core/guards.js";
import { alertFiles } from "./alerts.js";
import { checkExtension } from "./check.js";
import { DescriptorMigration } from "./context.js";
import { jmxSource } from "./jmx.js";
import { frameworkOf, mapMetrics, type Ef1Metric, type Framework, type KeyMap } from "../core/ef2/key-map.js";
import { deriveName, dimensionKeyProblem, ef2Version, keyPrefix } from "../core/ef2/names.js";
import { dashboardOf } from "./dashboard.js";
import { jsonText } from "./json-text.js";
import { dashboardSentence, queriesSection, refusedMigrationMd, type Refusal } from "./report.js";
import { ef1Group, ef1MetricId, ef2Selector } from "../core/ef2/selectors.js";
import { field, textCell } from "../format/csv.js";
import { printable } from "../format/printable.js";
import { codeSpan, markdown, plain, q, said, type Note, type Phrase } from "./notes.js";
import { ACTIVATION_FILE, isRemote, pythonSource } from "./python.js";
import {
  codeSections,
  notCarried,
  planPython,
  projectFiles,
  withCodeTypes,
  type PluginCode,
} from "./python-project.js";
import { toYaml, type YamlValue } from "./yaml.js";
import { MIGRATE_DOCS, nextSteps } from "./next-steps.js";
import { EXTENSION_FILE, writtenLine, type OutputFile } from "./written.js";

export type { OutputFile } from "./written.js";

/** What Dynatrace's JMX converter writes, and the Python SDK's template: the oldest clusters that run them. */
const MIN_DYNATRACE = { JMX: "1.275.0", python: "1.285" } as const;
/** EF1 has no author: EF2 needs one, so this stands in, and MIGRATION.md asks for it (as Dynatrace's converter). */
export const AUTHOR_PLACEHOLDER = "Your name here";

export interface MigrateOptions {
  /** `--name`: the EF2 name, instead of the one derived from the descriptor. */
  name?: string;
  /** What the metric keys start with, instead of the name without `custom:` (`--key-prefix`, the map). */
  keyPrefix?: string;
  /**
   * Read extension.yaml's text back before it is written, and check that it says what was validated (default
   * true). Only what is not written (the audit's readiness) leaves it out.
   */
  readBack?: boolean;
  /** A Python plugin's folder (the files beside plugin.json), which the project gets a copy of (python-project.ts). */
  code?: PluginCode;
  /**
   * The plugin.json's path from the folder the migration is written to (the one holding MIGRATION.md), for
   * the command MIGRATION.md ends with: `plugin-review check --base <source> extension/extension.yaml`.
   */
  source?: string;
  /**
   * Why the extension is not named as Dynatrace's converter names it (a fleet's collision: named from its EF1
   * `name`), noted in MIGRATION.md at the member the converter's name comes from.
   */
  nameNote?: Phrase;
}

export interface LocatedNote extends Note {
  /** The line of the EF1 descriptor the note is about (1-based); none for what EF1 does not have (the author). */
  line?: number;
}

export interface Converted {
  converted: true;
  framework: Framework;
  /** The EF2 extension's name and version. */
  name: string;
  version: string;
  files: OutputFile[];
  notes: LocatedNote[];
  keyMap: KeyMap;
  metrics: number;
  subgroups?: number;
  alerts: number;
  /** The dashboard made of the EF1 charts (extension/<path>), with its Data Explorer tiles. */
  dashboard?: { path: string; tiles: number };
  /**
   * A Python plugin's project: its module (`python3 -m <module>`), why the plugin's code is not in it, and the
   * calls of its code the compatibility layer does not carry (each raises or is not sent on EF2: a loss as
   * real as a member of plugin.json not carried over).
   */
  project?: { module: string; codeMissing?: string; notCarried?: CodeLoss[] };
}

/** A call of the plugin's code not carried to EF2: its file (in the plugin's folder) and line, and why. */
export interface CodeLoss {
  file: string;
  line: number;
  call: string;
  why: string;
}

/** What a converted descriptor loses: members of plugin.json not carried over, then calls of its code. */
export function lossesOf(r: Pick<Converted, "notes" | "project">): number {
  return r.notes.filter((n) => n.kind === "dropped").length + (r.project?.notCarried?.length ?? 0);
}

export interface NotConverted {
  converted: false;
  /** JMX or python when the descriptor is one; else its `type` as written (PMI), if any. */
  type?: string;
  /** The EF2 name it would have had, when one could be derived (a folder names it). */
  name?: string;
  /** Why, each with the line it is about when there is one, and what to do when that can be said. */
  reasons: Refusal[];
  notes: LocatedNote[];
  /** MIGRATION.md alone: why, line by line, what to do, and the metrics that wait for a new home. */
  files: OutputFile[];
}

export type MigrationResult = Converted | NotConverted;

/** The EF1 members this mapping knows at the top level; any other is listed as not carried over. */
const TOP_MEMBERS = new Set([
  "name",
  "version",
  "type",
  "entity",
  "metricGroup",
  "processTypeNames",
  "processTypes",
  "technologies",
  "favicon",
  "source",
  "metrics",
  "ui",
  "configUI",
  "properties",
  "requiredAgentVersion",
  "experimentalMinVersion",
  "productiveMinVersion",
]);
const METRIC_MEMBERS = new Set(["timeseries", "statetimeseries", "source", "entity", "alert_settings"]);
const TIMESERIES_MEMBERS = new Set([
  "key",
  "unit",
  "aggregation",
  "dimensions",
  "displayname",
  "states",
  "topxconfig",
]);

/** Notes about the members every descriptor may have, beyond metrics, the data source and alerts. */
function noteDescriptor(m: DescriptorMigration, framework: Framework): void {
  const doc = m.doc;
  for (const member of Object.keys(doc))
    if (!TOP_MEMBERS.has(member))
      m.note("dropped", `/${member}`, said`not an EF1 member this migration knows: EF2 has no place for it`);
  // A Python host plugin's compatibility layer applies them to OneAgent's process snapshot (ef1compat).
  const layerActivates = framework === "python" && !isRemote(doc);
  for (const member of ["processTypeNames", "processTypes", "technologies"])
    if (doc[member] !== undefined)
      m.note(
        layerActivates ? "changed" : "dropped",
        `/${member}`,
        framework === "JMX"
          ? said`EF2 activates an extension by monitoring configuration (hosts, host groups, management zones), not by process type or technology; the MBean queries match the JVMs that have those MBeans`
          : layerActivates
            ? said`EF2 activates an extension by monitoring configuration, not by process type or technology: on the hosts it names, the compatibility layer runs the plugin for each process group instance of OneAgent's process snapshot that this matches, as the EF1 agent did`
            : said`EF2 activates an extension by monitoring configuration, not by process type or technology`,
      );
  if (doc.favicon !== undefined)
    m.note("dropped", "/favicon", said`EF2's extension.yaml has no custom device icon`);
  if (doc.requiredAgentVersion !== undefined)
    m.note(
      "dropped",
      "/requiredAgentVersion",
      said`EF2 names the oldest Dynatrace version (\`minDynatraceVersion\`), not an agent's`,
    );
  for (const member of ["experimentalMinVersion", "productiveMinVersion"])
    if (doc[member] !== undefined)
      m.note(
        "dropped",
        `/${member}`,
        said`reserved for Dynatrace's built-in plugins; EF2 has no counterpart`,
      );
  const entity = str(doc.entity);
  if (framework === "python" && entity?.toUpperCase().startsWith("CUSTOM_DEVICE"))
    m.note(
      "dropped",
      "/entity",
      said`EF2's extension.yaml declares no custom devices: the code reports metrics with dimensions (an entity would need \`topology:\`, which Latest Dynatrace no longer reads)`,
    );
  if (framework === "JMX") {
    if (doc.configUI !== undefined)
      m.note(
        "dropped",
        "/configUI",
        said`a JMX extension's monitoring configuration is Dynatrace's own: EF2 reads no settings from the extension`,
      );
    if (doc.properties !== undefined)
      m.note("dropped", "/properties", said`a JMX extension has no properties of its own in EF2`);
    if (doc.source !== undefined)
      m.note("dropped", "/source", said`a JMX plugin runs no code: EF2 has no place for it`);
  }

  // `ui.keymetrics`, `keycharts` and `charts` become the extension's dashboard (dashboard.ts).
  const ui = obj(doc.ui);
  if (ui) {
    for (const member of Object.keys(ui))
      if (!["keymetrics", "keycharts", "charts"].includes(member))
        m.note("dropped", `/ui/${member}`, said`not an EF1 \`ui\` member this migration knows`);
  } else if (doc.ui !== undefined)
    m.note("dropped", "/ui", said`not an object: nothing of it is carried over`);

  arr(doc.metrics).forEach((element, i) => {
    if (!isObj(element)) {
      m.note("dropped", `/metrics/${i}`, said`not a metric definition`);
      return;
    }
    for (const member of Object.keys(element))
      if (!METRIC_MEMBERS.has(member))
        m.note(
          "dropped",
          `/metrics/${i}/${member}`,
          said`not a member of an EF1 metric: EF2 has no place for it`,
        );
    if (framework === "JMX" && element.statetimeseries !== undefined)
      m.note("dropped", `/metrics/${i}/statetimeseries`, said`a JMX plugin has no state metrics`);
    for (const kind of ["timeseries", "statetimeseries"]) {
      const spec = obj(element[kind]);
      if (!spec) continue;
      if (str(spec.key) === undefined)
        m.note("dropped", `/metrics/${i}/${kind}`, said`a metric without a key: nothing names it in EF2`);
      for (const member of Object.keys(spec))
        if (!TIMESERIES_MEMBERS.has(member))
          m.note(
            "dropped",
            `/metrics/${i}/${kind}/${member}`,
            said`not a member of an EF1 ${kind}: EF2 has no place for it`,
          );
      if (framework === "JMX" && spec.aggregation !== undefined)
        m.note(
          "dropped",
          `/metrics/${i}/${kind}/aggregation`,
          said`EF2's metric metadata has no default chart aggregation`,
        );
    }
  });
  m.note("todo", "", said`\`author.name\` is ${q(AUTHOR_PLACEHOLDER)}: EF1 names no author, EF2 needs one`, {
    file: EXTENSION_FILE,
    pointer: "/author/name",
  });
}

/** The rows of metric-keys.json: every EF1 metric with its line, and the EF2 metric it becomes. */
function metricKeysJson(keyMap: KeyMap, m: DescriptorMigration, version: string, from: Obj): string {
  return jsonText({
    name: keyMap.name,
    keyPrefix: keyMap.keyPrefix ?? keyPrefix(keyMap.name ?? ""),
    version,
    from: { name: from.name, version: from.version, type: from.type },
    metrics: keyMap.metrics.map((x) => ({
      ef1: { ...x.ef1, pointer: x.pointer, line: m.line(x.pointer) },
      ef2: x.ef2,
      dimensions: x.dimensions,
    })),
  });
}

/** A CSV cell that no spreadsheet runs as a formula (RFC 4180 quoting; OWASP's `'` before a formula's start). */
function cell(text: string): string {
  return field(textCell(printable(text)));
}

function metricKeysCsv(keyMap: KeyMap, m: DescriptorMigration): string {
  // Columns are only added at the end: scripts read the first seven by position.
  const rows = [
    [
      "ef1_key",
      "ef1_dimensions",
      "ef1_line",
      "ef2_key",
      "ef2_dimensions",
      "ef2_type",
      "ef2_rate_key",
      "ef1_id",
      "ef1_selector",
      "ef2_selector",
      "dimension_keys",
      "ef2_aggregation",
    ],
  ];
  for (const x of keyMap.metrics)
    rows.push([
      x.ef1.key,
      x.ef1.dimensions.join(";"),
      String(m.line(x.pointer)),
      x.ef2.key,
      x.ef2.dimensions.join(";"),
      x.ef2.type ?? "",
      x.ef2.rateKey ?? "",
      x.ef1.id ?? "",
      x.ef1.selector ?? "",
      x.ef2.selector,
      x.dimensions.map((d) => `${d.ef1}=${d.ef2 ?? ""}`).join(";"),
      x.ef2.aggregation ?? "",
    ]);
  return rows.map((r) => r.map(cell).join(",") + "\r\n").join("");
}

const SECTIONS: { kind: Note["kind"]; title: string; none: string }[] = [
  { kind: "dropped", title: "Not carried over", none: "Everything is carried over." },
  { kind: "changed", title: "Changed in meaning", none: "Nothing changes its meaning." },
  { kind: "todo", title: "To do by hand", none: "Nothing." },
];

/**
 * MIGRATION.md: what is not carried over and what changes meaning, each with its EF1 line; what is left to do,
 * each at its file and line in the written project (`written`, the other files); a Python project's sections
 * (`more`); the EF2 selector of every EF1 metric id (`line`: an EF1 pointer's line); then how to check and build.
 */
function migrationMd(
  r: Omit<Converted, "files" | "converted">,
  from: Obj,
  written: readonly OutputFile[],
  source: string,
  line: (pointer: string) => number,
  more: readonly string[] = [],
): string {
  const lines = [
    `# Migrating ${codeSpan(str(from.name) ?? "(no name)")} to \`${r.name}\``,
    "",
    `The EF1 plugin ${codeSpan(str(from.name) ?? "(no name)")} version ${codeSpan(String(from.version ?? "(none)"))} (${r.framework === "JMX" ? "JMX" : "Python"}) is the EF2 extension \`${r.name}\` version \`${r.version}\`: extension/extension.yaml, with ${r.metrics} ${r.metrics === 1 ? "metric" : "metrics"}${r.subgroups !== undefined ? ` in ${r.subgroups} JMX ${r.subgroups === 1 ? "subgroup" : "subgroups"}` : ""}${r.framework === "python" ? ` and extension/${ACTIVATION_FILE}` : ""}${r.alerts ? `, and ${r.alerts} metric ${r.alerts === 1 ? "event" : "events"} in extension/alerts/` : ""}. metric-keys.json (and .csv) names the EF2 metric of every EF1 metric.`,
    "",
    ...(r.dashboard ? [dashboardSentence(r.dashboard), ""] : []),
    `Each entry names the line of the EF1 plugin.json it comes from, and each thing to do by hand its place in this folder (\`file:line\`). [docs/migrate.md](${MIGRATE_DOCS}#the-mapping-member-by-member) explains the mapping.`,
  ];
  for (const s of SECTIONS) {
    lines.push("", `## ${s.title}`, "");
    const notes = r.notes.filter((n) => n.kind === s.kind);
    const inCode = s.kind === "dropped" ? (r.project?.notCarried?.length ?? 0) : 0;
    if (!notes.length && !inCode) lines.push(s.none);
    for (const n of notes) {
      const at = n.written && writtenLine(written, n.written);
      const ef1 = n.line === undefined ? undefined : `line ${n.line}, ${codeSpan(n.member)}`;
      const where =
        at === undefined ? ef1 : `\`${n.written!.file}:${at}\`${ef1 === undefined ? "" : ` (from ${ef1})`}`;
      lines.push(`- ${where === undefined ? "" : `${where}: `}${markdown(n.text)}`);
    }
    // The code's losses are listed with the code; said here too, so that this section never reads "everything".
    if (inCode) {
      const calls = `${inCode} ${inCode === 1 ? "call of the plugin's code is" : "calls of the plugin's code are"}`;
      const see = "see [Not carried over from the code](#not-carried-over-from-the-code)";
      lines.push(
        notes.length
          ? `\n${calls} not carried over either: ${see}.`
          : `Everything of plugin.json is carried over, but ${calls} not: ${see}.`,
      );
    }
  }
  // One by one, not spread: a plugin's lines (a call of its code each, a metric each) may be more than a call's
  // arguments.
  for (const l of more) lines.push(l);
  if (r.keyMap.metrics.length) {
    lines.push("");
    for (const l of queriesSection(r.keyMap, line)) lines.push(l);
  }
  lines.push("", ...nextSteps(r.framework, source));
  return lines.join("\n") + "\n";
}

function located(m: DescriptorMigration): LocatedNote[] {
  return m.notes
    .map((n, order) => ({ n, line: n.pointer === "" ? undefined : m.line(n.pointer), order }))
    .sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || a.order - b.order)
    .map(({ n, line }) => (line === undefined ? n : { ...n, line }));
}

/** A descriptor that is not converted, with its MIGRATION.md (report.ts). */
function notConverted(
  m: DescriptorMigration | undefined,
  type: string | undefined,
  reasons: Refusal[],
  { notes = true, name }: { notes?: boolean | LocatedNote[]; name?: string } = {},
): NotConverted {
  const doc = m?.doc;
  const located_ = Array.isArray(notes) ? notes : m && notes ? located(m) : [];
  const group = ef1Group(doc?.metricGroup, doc?.name);
  const metrics: { line: number; id?: string; key: string }[] = [];
  arr(doc?.metrics).forEach((element, i) => {
    for (const kind of ["timeseries", "statetimeseries"]) {
      const key = str(get(get(element, kind), "key"));
      if (key !== undefined && m)
        metrics.push({
          line: m.line(`/metrics/${i}/${kind}`),
          key,
          ...(group !== undefined ? { id: ef1MetricId(group, key) } : {}),
        });
    }
  });
  const ef1Name = str(doc?.name);
  const ef1Version = doc?.version === undefined ? undefined : String(doc.version);
  const content = refusedMigrationMd({
    ...(ef1Name !== undefined ? { ef1Name } : {}),
    ...(ef1Version !== undefined ? { ef1Version } : {}),
    ...(type !== undefined ? { type } : {}),
    reasons,
    metrics,
    notes: located_,
  });
  return {
    converted: false,
    ...(type !== undefined ? { type } : {}),
    ...(name !== undefined ? { name } : {}),
    reasons,
    notes: located_,
    files: [{ path: "MIGRATION.md", content }],
  };
}

/** The EF2 selectors again, once a Python plugin's code made some metrics counters (their `.count` keys). */
function withSelectors(metrics: Ef1Metric[]): Ef1Metric[] {
  return metrics.map((x) => {
    const selector = ef2Selector(
      {
        key: x.ef2.key,
        ...(x.ef2.type ? { type: x.ef2.type } : {}),
        ...(x.ef2.aggregation ? { aggregation: x.ef2.aggregation } : {}),
        ...(x.ef2.rateKey ? { perSecond: true } : {}),
      },
      x.ef2.dimensions.length ? x.ef2.dimensions : undefined,
    );
    return selector === x.ef2.selector ? x : { ...x, ef2: { ...x.ef2, selector } };
  });
}

/**
 * A descriptor refused for reasons found beside it (a file that cannot be read; in a fleet, a name or key
 * another descriptor has): its MIGRATION.md says why and lists its metrics, when its text is a descriptor.
 */
export function refused(
  text: string | undefined,
  reasons: Refusal[],
  extra: { name?: string; notes?: LocatedNote[] } = {},
): NotConverted {
  const parsed = text === undefined ? undefined : parseJson(text);
  const m =
    parsed?.ok && isObj(parsed.value) ? new DescriptorMigration(parsed.value, parsed.root, text!) : undefined;
  const type = m ? (frameworkOf(m.doc) ?? str(m.doc.type)) : undefined;
  return notConverted(m, type, reasons, {
    notes: extra.notes ?? false,
    ...(extra.name ? { name: extra.name } : {}),
  });
}

/** Converts one EF1 descriptor's text; never throws on any text. */
export function migrate(text: string, options: MigrateOptions = {}): MigrationResult {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const at = new LineIndex(text).position(parsed.error.offset);
    return notConverted(undefined, undefined, [
      {
        line: at.line,
        text: said`it is not JSON: ${q(parsed.error.message)} (column ${at.column})`,
        fix: said`make it valid JSON (\`plugin-review check\` shows where it stops), then migrate it again`,
      },
    ]);
  }
  if (!isObj(parsed.value))
    return notConverted(undefined, undefined, [
      {
        text: said`it is not a plugin descriptor (a JSON object)`,
        fix: said`migrate a plugin.json: a JSON object with \`name\`, \`type\` and \`metrics\``,
      },
    ]);
  const doc = parsed.value;
  const m = new DescriptorMigration(doc, parsed.root, text);
  const type = str(doc.type);
  const framework = frameworkOf(doc);
  if (!framework) {
    const pmi = type?.toUpperCase() === "PMI";
    const why = pmi
      ? said`PMI plugins have no EF2 form: EF2 has no PMI data source (WebSphere's PMI), and Dynatrace converts JMX and Python plugins only`
      : type === undefined
        ? said`it has no \`type\`: only JMX and Python plugins have an EF2 form`
        : said`its \`type\` is ${q(type)}: only JMX and Python plugins have an EF2 form`;
    const fix = pmi
      ? said`collect the same values another way: an EF2 JMX extension reading WebSphere's MBeans (where its JMX connector is on), or an EF2 Python extension reading the PMI data; Dynatrace's own WebSphere monitoring covers many of them. Until then the EF1 plugin runs on OneAgent 1.299 and earlier only. Re-point the dashboards, SLOs and alerts that query the metrics below to the new keys`
      : said`if it is a JMX or Python plugin, say so in \`type\` (\`JMX\` or \`python\`) and migrate it again`;
    return notConverted(m, type, [{ line: m.line("/type"), text: why, fix }], { notes: false });
  }
  const derived = deriveName(doc, options.name);
  if (!derived.name)
    return notConverted(
      m,
      framework,
      [
        {
          line: m.line(doc.metricGroup !== undefined ? "/metricGroup" : "/name"),
          text: said`${derived.problem!}`,
          fix: said`give the extension its name: \`--name custom:<name>\` (one descriptor), or an entry in the map (\`--map\`, docs/migrate.md "Migrating a fleet")`,
        },
      ],
      { notes: false },
    );
  const name = derived.name;
  if (options.nameNote)
    m.note("changed", doc.metricGroup !== undefined ? "/metricGroup" : "/name", options.nameNote);
  if (derived.how === "made-valid")
    m.note(
      "changed",
      doc.metricGroup !== undefined ? "/metricGroup" : "/name",
      said`Dynatrace's converter would name the extension ${q(derived.dynatrace)}, which is not a valid EF2 name (${derived.problem!}): it is \`${name}\` (or give one with --name)`,
    );
  const version = ef2Version(doc.version);
  if (version.note)
    m.note(
      "changed",
      "/version",
      said`${q(doc.version ?? "(none)")}: ${version.note}, giving \`${version.version}\``,
    );

  // A Python plugin's code (when given) says which metrics are counters: their keys end in `.count`.
  const plan = framework === "python" ? planPython(m, isRemote(doc), options.code) : undefined;
  const prefix = options.keyPrefix ?? keyPrefix(name);
  const mapped = mapMetrics(doc, framework, prefix);
  const metrics = plan ? withSelectors(withCodeTypes(mapped, plan)) : mapped;
  noteDescriptor(m, framework);
  // Two EF1 metrics that Dynatrace's key rule makes one EF2 key would become one metric: refused, not merged.
  const byKey = new Map<string, string>();
  for (const x of metrics) {
    const other = byKey.get(x.ef2.key);
    if (other !== undefined && other !== x.ef1.key)
      m.block(
        x.pointer,
        said`metrics ${q(other)} and ${q(x.ef1.key)} would both be \`${x.ef2.key}\` in EF2 (Dynatrace's key rule drops other characters and the \`.count\` of a gauge): rename one`,
        said`rename metric ${q(x.ef1.key)} or ${q(other)} so that their EF2 keys differ (its \`key\`: its EF1 id changes too)`,
      );
    byKey.set(x.ef2.key, x.ef1.key);
  }
  // A dimension's name of no letter EF2 keeps (`地域`) makes no dimension key: the descriptor's to rename, said
  // before the extension is built (which would refuse it as plugin-review's own mistake).
  for (const x of metrics)
    for (const d of x.dimensions) {
      const problem = d.ef2 === undefined ? undefined : dimensionKeyProblem(d.ef2);
      if (problem !== undefined)
        m.block(
          `${x.pointer}/dimensions`,
          said`dimension ${q(d.ef1)} of metric ${q(x.ef1.key)} makes no EF2 dimension key (${q(d.ef2 ?? "")}: ${problem}): EF2 keeps only \`a-z0-9-._:\` of a name`,
          said`rename dimension ${q(d.ef1)} with ASCII letters or digits, in plugin.json and in the code that sends it`,
        );
    }

  const extension: Record<string, YamlValue> = {
    name,
    version: version.version,
    minDynatraceVersion: MIN_DYNATRACE[framework],
    author: { name: AUTHOR_PLACEHOLDER },
  };
  const beside = new Map<string, string>();
  let metadata: YamlValue[];
  let subgroups: number | undefined;
  let activation: Obj = {};
  if (framework === "JMX") {
    const jmx = jmxSource(m, metrics);
    if (!jmx.jmx && !m.blockers.length)
      m.block(
        "/metrics",
        said`the plugin has no metric to collect`,
        said`give it at least one metric read from an MBean attribute`,
      );
    if (jmx.jmx) extension.jmx = jmx.jmx;
    metadata = jmx.metadata;
    subgroups = jmx.subgroups;
  } else {
    const python = pythonSource(m, metrics, plan!.module);
    extension.python = python.python;
    metadata = python.metadata;
    beside.set(ACTIVATION_FILE, jsonText(python.activation));
    activation = python.activation as Obj;
  }
  if (metadata.length) extension.metrics = metadata;
  const alerts = alertFiles(m, metrics, name);
  if (alerts.length) extension.alerts = alerts.map((a) => ({ path: a.path }));
  for (const a of alerts) beside.set(a.path, jsonText(a.event));
  const dashboard = dashboardOf(m, metrics, name, AUTHOR_PLACEHOLDER);
  if (dashboard) {
    extension.dashboards = [{ path: dashboard.path }];
    beside.set(dashboard.path, jsonText(dashboard.content));
  }

  if (m.blockers.length)
    return notConverted(
      m,
      framework,
      m.blockers.map((b) => ({ line: m.line(b.pointer), text: b.text, ...(b.fix ? { fix: b.fix } : {}) })),
      { name },
    );
  const yaml = toYaml(extension);
  const problems = checkExtension(extension, beside, options.readBack === false ? undefined : yaml);
  if (problems.length)
    return notConverted(
      m,
      framework,
      problems.map((p) => ({
        text: said`the EF2 extension made of it is not valid: ${q(p)}`,
        fix: said`this is plugin-review's mistake, not the descriptor's: please report it with the plugin.json`,
      })),
      { name },
    );

  const keyMap: KeyMap = {
    framework,
    name,
    ...(prefix !== keyPrefix(name) ? { keyPrefix: prefix } : {}),
    ...(derived.problem ? { nameProblem: derived.problem } : {}),
    metrics: metrics.map(({ pointer, ef1, ef2, dimensions }) => ({ pointer, ef1, ef2, dimensions })),
  };
  const notes = located(m);
  const summary = {
    framework,
    name,
    version: version.version,
    notes,
    keyMap,
    metrics: metadata.filter((x) => !String(get(x, "key")).startsWith("func:")).length,
    ...(subgroups !== undefined ? { subgroups } : {}),
    alerts: alerts.length,
    ...(dashboard ? { dashboard: { path: dashboard.path, tiles: dashboard.tiles } } : {}),
  };
  const keysText = metricKeysJson(keyMap, m, version.version, doc);
  // The Python project: written before MIGRATION.md, whose notes it adds to.
  const project = plan
    ? projectFiles(m, plan, {
        name,
        version: version.version,
        activation,
        keyMapText: keysText,
        descriptorText: jsonText(doc),
      })
    : [];
  const more = plan ? codeSections(plan, metrics, name) : [];
  const lostInCode: CodeLoss[] = plan
    ? notCarried(plan).map(({ use, why }) => ({ file: use.file, line: use.line, call: use.name, why }))
    : [];
  const projectSummary = plan
    ? {
        project: {
          module: plan.module,
          ...(plan.code ? {} : { codeMissing: plan.missing ?? "" }),
          ...(lostInCode.length ? { notCarried: lostInCode } : {}),
        },
      }
    : {};
  const done = { ...summary, notes: plan ? located(m) : notes, ...projectSummary };
  const files: OutputFile[] = [
    { path: EXTENSION_FILE, content: yaml },
    ...[...beside].map(([path, content]) => ({ path: `extension/${path}`, content })),
    { path: "metric-keys.json", content: keysText },
    { path: "metric-keys.csv", content: metricKeysCsv(keyMap, m) },
    ...project,
  ];
  // Nothing is written for the audit's readiness: no written places to find (and no YAML to parse for them).
  const written = options.readBack === false ? [] : files;
  const md = migrationMd(done, doc, written, options.source ?? "path/to/plugin.json", (p) => m.line(p), more);
  // MIGRATION.md after the key maps, before the Python project's files (as the CLI lists what it wrote).
  files.splice(files.length - project.length, 0, { path: "MIGRATION.md", content: md });
  return { converted: true, ...done, files };
}

/** What `migrate` can do with a descriptor, for the audit: fully, partly (and what is lost), or not at all. */
export interface Readiness {
  /** `JMX` or `python`, or the descriptor's `type` as written (PMI), if any. */
  type?: string;
  migrate: "fully" | "partly" | "not at all";
  /** `partly`: what is not carried over, each with its line; `not at all`: why not. */
  items: { line?: number; member?: string; text: string }[];
}

export function readiness(text: string, options: MigrateOptions = {}): Readiness {
  const r = migrate(text, { readBack: false, ...options });
  if (!r.converted)
    return {
      ...(r.type !== undefined ? { type: r.type } : {}),
      migrate: "not at all",
      items: r.reasons.map((x) => ({
        ...(x.line !== undefined ? { line: x.line } : {}),
        text: plain(x.text),
      })),
    };
  const lost = r.notes.filter((n) => n.kind === "dropped");
  return {
    type: r.framework,
    migrate: lossesOf(r) ? "partly" : "fully",
    items: [
      ...lost.map((n) => ({
        ...(n.line !== undefined ? { line: n.line } : {}),
        member: n.member,
        text: plain(n.text),
      })),
      // The plugin's code, when it was given (the audit reads plugin.json alone).
      ...(r.project?.notCarried ?? []).map((x) => ({
        member: printable(`${x.file}:${x.line}`),
        text: printable(`${x.call}: ${x.why}`),
      })),
    ],
  };
}
