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
import { frameworkOf, mapMetrics, type Framework, type KeyMap } from "../core/ef2/key-map.js";
import { deriveName, ef2Version, keyPrefix } from "../core/ef2/names.js";
import { jsonText } from "./json-text.js";
import { field, textCell } from "../format/csv.js";
import { printable } from "../format/printable.js";
import { codeSpan, markdown, plain, q, said, type Note, type Phrase } from "./notes.js";
import { ACTIVATION_FILE, isRemote, pythonSource } from "./python.js";
import { codeSections, planPython, projectFiles, withCodeTypes, type PluginCode } from "./python-project.js";
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
  /** A Python plugin's project: its module (`python3 -m <module>`), and why the plugin's code is not in it. */
  project?: { module: string; codeMissing?: string };
}

export interface NotConverted {
  converted: false;
  /** JMX or python when the descriptor is one; else its `type` as written (PMI), if any. */
  type?: string;
  /** Why, each with the line it is about when there is one. */
  reasons: { line?: number; text: Phrase }[];
  notes: LocatedNote[];
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
  for (const member of ["processTypeNames", "processTypes", "technologies"])
    if (doc[member] !== undefined)
      m.note(
        "dropped",
        `/${member}`,
        framework === "JMX"
          ? said`EF2 activates an extension by monitoring configuration (hosts, host groups, management zones), not by process type or technology; the MBean queries match the JVMs that have those MBeans`
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

  const ui = obj(doc.ui);
  if (ui) {
    const why = {
      keymetrics: said`EF2's extension.yaml has no key metrics: pin the metric to a dashboard, or use it in a Latest Dynatrace document`,
      keycharts: said`EF2's extension.yaml has no charts (its \`screens:\` are not shown by Latest Dynatrace): make it a dashboard, listed in \`dashboards:\` or \`documents:\``,
      charts: said`EF2's extension.yaml has no charts (its \`screens:\` are not shown by Latest Dynatrace): make it a dashboard, listed in \`dashboards:\` or \`documents:\``,
    } as const;
    for (const [member, value] of Object.entries(ui)) {
      if (member in why)
        arr(value).forEach((item, i) => {
          const title = str(get(item, "title")) ?? str(get(item, "displayname")) ?? str(get(item, "key"));
          const what = title === undefined ? said`` : said`${q(title)}: `;
          m.note("dropped", `/ui/${member}/${i}`, [...what, ...why[member as keyof typeof why]]);
        });
      else m.note("dropped", `/ui/${member}`, said`not an EF1 \`ui\` member this migration knows`);
    }
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
    version,
    from: { name: from.name, version: from.version, type: from.type },
    metrics: keyMap.metrics.map((x) => ({
      ef1: { ...x.ef1, pointer: x.pointer, line: m.line(x.pointer) },
      ef2: x.ef2,
    })),
  });
}

/** A CSV cell that no spreadsheet runs as a formula (RFC 4180 quoting; OWASP's `'` before a formula's start). */
function cell(text: string): string {
  return field(textCell(printable(text)));
}

function metricKeysCsv(keyMap: KeyMap, m: DescriptorMigration): string {
  const rows = [
    ["ef1_key", "ef1_dimensions", "ef1_line", "ef2_key", "ef2_dimensions", "ef2_type", "ef2_rate_key"],
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
 * (`more`); then how to check and build.
 */
function migrationMd(
  r: Omit<Converted, "files" | "converted">,
  from: Obj,
  written: readonly OutputFile[],
  source: string,
  more: readonly string[] = [],
): string {
  const lines = [
    `# Migrating ${codeSpan(str(from.name) ?? "(no name)")} to \`${r.name}\``,
    "",
    `The EF1 plugin ${codeSpan(str(from.name) ?? "(no name)")} version ${codeSpan(String(from.version ?? "(none)"))} (${r.framework === "JMX" ? "JMX" : "Python"}) is the EF2 extension \`${r.name}\` version \`${r.version}\`: extension/extension.yaml, with ${r.metrics} ${r.metrics === 1 ? "metric" : "metrics"}${r.subgroups !== undefined ? ` in ${r.subgroups} JMX ${r.subgroups === 1 ? "subgroup" : "subgroups"}` : ""}${r.framework === "python" ? ` and extension/${ACTIVATION_FILE}` : ""}${r.alerts ? `, and ${r.alerts} metric ${r.alerts === 1 ? "event" : "events"} in extension/alerts/` : ""}. metric-keys.json (and .csv) names the EF2 metric of every EF1 metric.`,
    "",
    `Each entry names the line of the EF1 plugin.json it comes from, and each thing to do by hand its place in this folder (\`file:line\`). [docs/migrate.md](${MIGRATE_DOCS}#the-mapping-member-by-member) explains the mapping.`,
  ];
  for (const s of SECTIONS) {
    lines.push("", `## ${s.title}`, "");
    const notes = r.notes.filter((n) => n.kind === s.kind);
    if (!notes.length) lines.push(s.none);
    for (const n of notes) {
      const at = n.written && writtenLine(written, n.written);
      const ef1 = n.line === undefined ? undefined : `line ${n.line}, ${codeSpan(n.member)}`;
      const where =
        at === undefined ? ef1 : `\`${n.written!.file}:${at}\`${ef1 === undefined ? "" : ` (from ${ef1})`}`;
      lines.push(`- ${where === undefined ? "" : `${where}: `}${markdown(n.text)}`);
    }
  }
  lines.push(...more);
  lines.push("", ...nextSteps(r.framework, source));
  return lines.join("\n") + "\n";
}

function located(m: DescriptorMigration): LocatedNote[] {
  return m.notes
    .map((n, order) => ({ n, line: n.pointer === "" ? undefined : m.line(n.pointer), order }))
    .sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || a.order - b.order)
    .map(({ n, line }) => (line === undefined ? n : { ...n, line }));
}

function notConverted(
  m: DescriptorMigration | undefined,
  type: string | undefined,
  reasons: NotConverted["reasons"],
): NotConverted {
  return { converted: false, ...(type !== undefined ? { type } : {}), reasons, notes: m ? located(m) : [] };
}

/** Converts one EF1 descriptor's text; never throws on any text. */
export function migrate(text: string, options: MigrateOptions = {}): MigrationResult {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const at = new LineIndex(text).position(parsed.error.offset);
    return notConverted(undefined, undefined, [
      { line: at.line, text: said`it is not JSON: ${q(parsed.error.message)} (column ${at.column})` },
    ]);
  }
  if (!isObj(parsed.value))
    return notConverted(undefined, undefined, [
      { text: said`it is not a plugin descriptor (a JSON object)` },
    ]);
  const doc = parsed.value;
  const m = new DescriptorMigration(doc, parsed.root, text);
  const type = str(doc.type);
  const framework = frameworkOf(doc);
  if (!framework) {
    const why =
      type?.toUpperCase() === "PMI"
        ? said`PMI plugins have no EF2 form: EF2 has no PMI data source (WebSphere's PMI), and Dynatrace converts JMX and Python plugins only`
        : type === undefined
          ? said`it has no \`type\`: only JMX and Python plugins have an EF2 form`
          : said`its \`type\` is ${q(type)}: only JMX and Python plugins have an EF2 form`;
    return notConverted(undefined, type, [{ line: m.line("/type"), text: why }]);
  }
  const derived = deriveName(doc, options.name);
  if (!derived.name)
    return notConverted(undefined, framework, [
      {
        line: m.line(doc.metricGroup !== undefined ? "/metricGroup" : "/name"),
        text: said`${derived.problem!}`,
      },
    ]);
  const name = derived.name;
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
  const mapped = mapMetrics(doc, framework, keyPrefix(name));
  const metrics = plan ? withCodeTypes(mapped, plan) : mapped;
  noteDescriptor(m, framework);
  // Two EF1 metrics that Dynatrace's key rule makes one EF2 key would become one metric: refused, not merged.
  const byKey = new Map<string, string>();
  for (const x of metrics) {
    const other = byKey.get(x.ef2.key);
    if (other !== undefined && other !== x.ef1.key)
      m.block(
        x.pointer,
        said`metrics ${q(other)} and ${q(x.ef1.key)} would both be \`${x.ef2.key}\` in EF2 (Dynatrace's key rule drops other characters and the \`.count\` of a gauge): rename one`,
      );
    byKey.set(x.ef2.key, x.ef1.key);
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
    if (!jmx.jmx && !m.blockers.length) m.block("/metrics", said`the plugin has no metric to collect`);
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

  if (m.blockers.length)
    return notConverted(
      m,
      framework,
      m.blockers.map((b) => ({ line: m.line(b.pointer), text: b.text })),
    );
  const yaml = toYaml(extension);
  const problems = checkExtension(extension, beside, options.readBack === false ? undefined : yaml);
  if (problems.length)
    return notConverted(
      m,
      framework,
      problems.map((p) => ({ text: said`the EF2 extension made of it is not valid: ${q(p)}` })),
    );

  const keyMap: KeyMap = {
    framework,
    name,
    ...(derived.problem ? { nameProblem: derived.problem } : {}),
    metrics: metrics.map(({ pointer, ef1, ef2 }) => ({ pointer, ef1, ef2 })),
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
  const projectSummary = plan
    ? { project: { module: plan.module, ...(plan.code ? {} : { codeMissing: plan.missing ?? "" }) } }
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
  const md = migrationMd(done, doc, written, options.source ?? "path/to/plugin.json", more);
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
    migrate: lost.length ? "partly" : "fully",
    items: lost.map((n) => ({
      ...(n.line !== undefined ? { line: n.line } : {}),
      member: n.member,
      text: plain(n.text),
    })),
  };
}
