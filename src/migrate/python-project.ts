/**
 * A migrated Python plugin as a project Dynatrace's build accepts, in the layout of the EF2 SDK's template
 * (`dt-sdk create`): setup.py, `<module>/__init__.py` and `__main__.py`, activation.json and secrets.json for a
 * local run, .gitignore, beside the extension/ folder migrate.ts writes. `<module>/__main__.py` runs the EF1
 * plugin's code, copied into `<module>/plugin/`, through the compatibility layer written into
 * `<module>/ef1compat/` (src/migrate/ef1compat/, embedded.ts). Pure: the plugin's files come in as bytes (the
 * CLI reads them, bounded), the project's files go out.
 */
import { arr, get, obj, str, type Obj } from "../core/guards.js";
import { KNOWN_PROCESS_TYPES } from "../core/reference/known-process-types.js";
import { TOPOLOGY_DIMENSION_KEYS, type Ef1Metric } from "../core/ef2/key-map.js";
import type { DescriptorMigration } from "./context.js";
import { EF1COMPAT_FILES } from "./ef1compat/embedded.js";
import { codeSpan, q, said } from "./notes.js";
import {
  ENGINE_MEMBERS,
  RUXIT_ENGINE_NAMES,
  RUXIT_MODULES,
  measurementOf,
  scanPython,
  typesOfKeys,
  type ApiUse,
} from "./python-code.js";

/** The plugin's folder as the CLI read it: the files beside its plugin.json. */
export interface PluginCode {
  /** The folder as the user named it (`plugins/demo`), for messages. */
  folder: string;
  /** Its files, by path relative to it with `/` separators. */
  files: readonly { path: string; bytes: Uint8Array }[];
  /** Why it could not be read, or not all of it (then `files` is empty: nothing is copied in part). */
  problem?: string;
  /** What the reading left out on purpose, and why (MIGRATION.md lists it). */
  skipped?: readonly { path: string; why: string }[];
}

/** A file of the migration (see OutputFile in migrate.ts); binary content is base64. */
export interface ProjectFile {
  path: string;
  content: string;
  encoding?: "base64";
  yours?: true;
}

/** The dimensions a remote plugin's groups and devices become (ef1compat/__init__.py sends them). */
export const TOPOLOGY_DIMENSIONS = [
  "Group (EF1 custom device group id)",
  "Group name",
  "Device (EF1 custom device id)",
  "Device name",
  "Device address (its first endpoint)",
].map((displayName, i) => ({ key: TOPOLOGY_DIMENSION_KEYS[i]!, displayName }));

/** The longest module name kept from a package name (a folder name must fit any file system). */
const MODULE_BASE_MAX = 60;

/**
 * The EF2 module: the EF1 package as a lower-case Python module name (the rule of the SDK's `dt-sdk create`:
 * `[a-z][a-z0-9]*(_[a-z0-9]+)*`) and `_ef2`, so that it never is the EF1 module itself, which the plugin's code
 * imports under its own name (`demo_plugin` → `demo_plugin_ef2`, `AtlasPlugin` → `atlasplugin_ef2`).
 */
export function moduleName(pkg: string | undefined): string {
  const base = (pkg ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .slice(0, MODULE_BASE_MAX)
    .replace(/^_+|_+$/g, "");
  const start = base === "" ? "plugin" : /^[0-9]/.test(base) ? `plugin_${base}` : base;
  return `${start}_ef2`;
}

/** A relative path that stays inside the folder it is written to (no `..`, no root, no drive). */
function safePath(path: string): boolean {
  return (
    path !== "" &&
    !path.startsWith("/") &&
    !/[\\:]/.test(path) &&
    !path.includes("\u0000") &&
    path.split("/").every((s) => s !== "" && s !== "." && s !== "..")
  );
}

export interface PythonPlan {
  module: string;
  /** `source.package` and `source.className` as written. */
  pkg?: string;
  className?: string;
  remote: boolean;
  /** The plugin's files to copy (plugin.json files and unsafe paths left out), when its code was found. */
  code?: { folder: string; files: { path: string; bytes: Uint8Array }[] };
  /** Why the code is not there, when it is not. */
  missing?: string;
  /** Every use of the EF1 API in the code. */
  uses: ApiUse[];
  /** The files not copied, and why (a plugin.json, a path that would leave the folder). */
  skipped: { path: string; why: string }[];
  /** A host plugin's activation (the layer picks its process group instances from OneAgent's snapshot by it). */
  activation?: HostActivation;
}

/**
 * Where the EF1 agent ran a host plugin: the process groups of the snapshot of one of these process types (ids;
 * names the agent does not know are dropped, as it dropped them), of one of these technologies, whose name the
 * pattern matches; each criterion absent (null) matches every process group. Singleton: one plugin object for
 * them all, else one per process group instance.
 */
export interface HostActivation {
  processTypes: number[] | null;
  technologies: string[] | null;
  namePattern: string | null;
  singleton: boolean;
}

function hostActivation(doc: Obj): HostActivation {
  const names = arr(doc.processTypeNames);
  const ids = arr(doc.processTypes);
  const typed = names.length > 0 || ids.length > 0;
  const processTypes = new Set<number>();
  for (const name of names) {
    const id = typeof name === "string" ? KNOWN_PROCESS_TYPES.indexOf(name) : -1;
    if (id >= 0) processTypes.add(id);
  }
  for (const id of ids) if (typeof id === "number" && Number.isInteger(id)) processTypes.add(id);
  const technologies = arr(doc.technologies).filter((t): t is string => typeof t === "string");
  const source = obj(doc.source);
  return {
    processTypes: typed ? [...processTypes] : null,
    technologies: technologies.length > 0 ? technologies : null,
    namePattern: str(source?.activation_name_pattern) ?? null,
    singleton: str(source?.activation) === "Singleton",
  };
}

/** Where the module's code would be: `<package>.py` or `<package>/__init__.py` (a dotted package's folders). */
function codePaths(pkg: string): string[] {
  const parts = pkg.split(".");
  return [`${parts.join("/")}.py`, `${parts.join("/")}/__init__.py`];
}

/** A test's file, by pytest's and unittest's names (`tests/`, `test_*.py`, `*_test.py`, `conftest.py`). */
const TEST_FILE = /(^|\/)(tests?\/|test_[^/]*\.py$|[^/]*_test\.py$|conftest\.py$)/;

/**
 * Whether a file of the plugin's folder is one of its tests, not plugin code: tests import the EF1 engine's
 * internals (ruxit.plugin_state_machine, the simulator) and the layer never runs them. The module the plugin
 * names is its code, whatever its name.
 */
function isTest(path: string, pkg: string): boolean {
  return TEST_FILE.test(path) && !codePaths(pkg).includes(path);
}

/** What migrate makes of a Python plugin's code: its module, whether the code is there, what it uses. */
export function planPython(
  m: DescriptorMigration,
  remote: boolean,
  code: PluginCode | undefined,
): PythonPlan {
  const source = obj(m.doc.source);
  const pkg = str(source?.package);
  const className = str(source?.className);
  const plan: PythonPlan = { module: moduleName(pkg), remote, uses: [], skipped: [] };
  if (!remote) plan.activation = hostActivation(m.doc);
  if (pkg !== undefined) plan.pkg = pkg;
  if (className !== undefined) plan.className = className;
  if (pkg === undefined) {
    plan.missing = "plugin.json names no `source.package`";
    m.note(
      "todo",
      "/source",
      said`the plugin names no \`source.package\`: the module is \`${plan.module}\`, and its code must be put in \`${plan.module}/plugin/\` and named in \`${plan.module}/__main__.py\``,
    );
    return plan;
  }
  if (code === undefined) plan.missing = "the plugin's folder was not read";
  else if (code.problem !== undefined) plan.missing = code.problem;
  else {
    const paths = new Set(code.files.map((f) => f.path));
    if (!codePaths(pkg).some((p) => paths.has(p))) {
      // The module is there but was not read (no permission, a link): that, not "not there", is what to fix.
      const [file, folder] = codePaths(pkg);
      const unread = code.skipped?.find(
        (s) =>
          s.path === file ||
          s.path === folder ||
          folder!.startsWith(s.path.endsWith("/") ? s.path : `${s.path}/`),
      );
      plan.missing =
        unread !== undefined
          ? `${unread.path} is in ${code.folder} but was not copied: ${unread.why}`
          : `neither ${codePaths(pkg).join(" nor ")} is in ${code.folder}`;
    }
  }
  if (plan.missing !== undefined || code === undefined) {
    m.note(
      "todo",
      "/source/package",
      said`the plugin's code (${q(pkg)}) was not found: ${plan.missing!}; copy the plugin's files into \`${plan.module}/plugin/\`, where the compatibility layer runs them`,
    );
    return plan;
  }
  const files: { path: string; bytes: Uint8Array }[] = [];
  // One by one, not spread: a folder's lists (and a generated module's calls) may be longer than a call's arguments.
  for (const s of code.skipped ?? []) plan.skipped.push(s);
  for (const f of code.files) {
    if (!safePath(f.path)) plan.skipped.push({ path: f.path, why: "its path would leave the folder" });
    else if (f.path === "plugin.json")
      plan.skipped.push({
        path: f.path,
        why: `the descriptor is \`${plan.module}/ef1-plugin.json\` (the plugin's \`json_config\`), a name no review takes for an EF1 plugin's`,
      });
    // One below the plugin's folder is another plugin's (a deployment copy, a plugin of its own), not this one's.
    else if (/(^|\/)plugin\.json$/.test(f.path))
      plan.skipped.push({
        path: f.path,
        why: "another plugin's descriptor, not this plugin's code (migrate it on its own)",
      });
    else files.push(f);
  }
  plan.code = { folder: code.folder, files };
  const decoder = new TextDecoder("utf-8", { fatal: false });
  // The class source.className names, defined at the start of a line of some file (else the run stops on it).
  const definition =
    className === undefined
      ? undefined
      : new RegExp(`^[ \\t]*class[ \\t]+${className.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "m");
  let defined = false;
  for (const f of files)
    if (f.path.endsWith(".py")) {
      const text = decoder.decode(f.bytes);
      if (!isTest(f.path, pkg)) for (const use of scanPython(f.path, text)) plan.uses.push(use);
      defined ||= definition?.test(text) ?? false;
    }
  if (!defined)
    m.note(
      "todo",
      className === undefined ? "/source" : "/source/className",
      className === undefined
        ? said`the plugin names no \`source.className\`: name its class in \`${plan.module}/__main__.py\``
        : said`no Python file of the plugin's folder defines the class ${q(className)}: the project stops saying so until \`${plan.module}/__main__.py\` names the plugin's class`,
    );
  return plan;
}

/** `.count` at the end (or `_count`, any case of its `c`): a key Dynatrace already reads as a count's. */
const COUNT_SUFFIX = /[._][cC]ount$/;

/**
 * The key map as the code makes it: a metric the code reports with `relative` is an EF2 count, whose key ends in
 * `.count` (Dynatrace's convention; Classic adds it to a count's key that lacks it, so the key map would name a
 * metric that is never there); one it reports only with other calls is a gauge. The others, whose key the code
 * computes at run time, keep what the key map says (the code decides).
 */
export function withCodeTypes(metrics: Ef1Metric[], plan: PythonPlan): Ef1Metric[] {
  const types = typesOfKeys(plan.uses);
  return metrics.map((metric) => {
    const type = metric.ef1.kind === "timeseries" ? types.get(metric.ef1.key) : undefined;
    if (type === undefined || metric.ef2.type !== undefined) return metric;
    const key =
      type === "count" && !COUNT_SUFFIX.test(metric.ef2.key) ? `${metric.ef2.key}.count` : metric.ef2.key;
    return { ...metric, ef2: { ...metric.ef2, key, type } };
  });
}

/** A Python string literal of any text (JSON's escapes are Python's). */
function py(text: string): string {
  return JSON.stringify(text);
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fileOf(path: string, bytes: Uint8Array): ProjectFile {
  try {
    return { path, content: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { path, content: base64(bytes), encoding: "base64" };
  }
}

function setupPy(plan: PythonPlan, name: string, version: string, requires: string[]): string {
  return `"""The Python package of the EF2 extension ${name}, as Dynatrace's build (dt-sdk build: pip wheel, then
assemble) makes it: the module ${plan.module} with the EF1 plugin's code and its compatibility layer, and what
they need. Written by plugin-review migrate."""
import re
from pathlib import Path

from setuptools import find_namespace_packages, setup

MODULE = "${plan.module}"
HERE = Path(__file__).parent


def find_version() -> str:
    """The version extension/extension.yaml says (the EF2 SDK template's rule, quotes read too)."""
    try:
        text = (HERE / "extension" / "extension.yaml").read_text(encoding="utf-8")
    except OSError:
        return "${version}"
    found = re.search(r"^version:[ \\t]*[\\"']?([0-9A-Za-z.+-]+)", text, re.MULTILINE)
    return found.group(1) if found else "${version}"


def data_files() -> list:
    """Every file of the module that is not Python code: metric-keys.json and the plugin's own data."""
    root = HERE / MODULE
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    )


setup(
    name=MODULE,
    version=find_version(),
    description=${py(`${name}: an EF1 plugin on Extensions 2.0`)},
    packages=find_namespace_packages(include=[MODULE, MODULE + ".*"], exclude=["*.__pycache__"]),
    package_data={MODULE: data_files()},
    python_requires=">=3.10",
    install_requires=[${[...requires, "dt-extensions-sdk"].map(py).join(", ")}],
    extras_require={"dev": ["dt-extensions-sdk[cli]"]},
)
`;
}

function activationPy(a: HostActivation): string {
  const list = <T>(items: T[] | null, f: (item: T) => string) =>
    items === null ? "None" : `[${items.map(f).join(", ")}]`;
  return `{"process_types": ${list(a.processTypes, String)}, "technologies": ${list(a.technologies, py)}, "name_pattern": ${a.namePattern === null ? "None" : py(a.namePattern)}, "singleton": ${a.singleton ? "True" : "False"}}`;
}

function mainPy(plan: PythonPlan, name: string): string {
  return `"""The EF2 entry point of a migrated EF1 plugin: runs its code (plugin/) through plugin-review's compatibility
layer (ef1compat/, whose README.md says how). MIGRATION.md says how to move off the layer. Written by
plugin-review migrate."""
from .ef1compat import run


def main():
    run(
        package=${py(plan.pkg ?? "")},
        class_name=${py(plan.className ?? "")},
        remote=${plan.remote ? "True" : "False"},
        name=${py(name)},${
          plan.activation
            ? `
        # plugin.json's activation: the process group instances of OneAgent's snapshot the plugin runs for
        activation=${activationPy(plan.activation)},`
            : ""
        }
    )


if __name__ == "__main__":
    main()
`;
}

const GITIGNORE = `# Python
__pycache__/
*.py[cod]
*.egg-info/
.venv/
venv/

# Dynatrace's build (dt-sdk build): the wheels, the extension's archive
build/
dist/
extension/lib/

# A local run's passwords
secrets.json
`;

/** activation.json and secrets.json of a local run: one endpoint with the properties' defaults; passwords named. */
function localRun(plan: PythonPlan, activation: Obj, version: string, name: string): ProjectFile[] {
  const properties = obj(get(get(get(activation, "types"), "custom_extension"), "properties")) ?? {};
  const endpoint: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  Object.entries(properties).forEach(([key, property], i) => {
    if (get(property, "type") === "secret") {
      // The SDK puts secrets.json's values where activation.json says {{name}}: a name of plain characters.
      const secret = /^[A-Za-z0-9_.-]{1,64}$/.test(key) ? key : `secret${i + 1}`;
      secrets[secret] = "";
      endpoint[key] = `{{${secret}}}`;
    } else endpoint[key] = get(property, "default") ?? null;
  });
  const root = plan.remote ? "pythonRemote" : "pythonLocal";
  const activationJson = {
    enabled: true,
    description: `${name} (a local run)`,
    version,
    activationContext: plan.remote ? "REMOTE" : "LOCAL",
    [root]: { endpoints: [endpoint] },
  };
  return [
    { path: "activation.json", content: JSON.stringify(activationJson, null, 2) + "\n", yours: true },
    { path: "secrets.json", content: JSON.stringify(secrets, null, 2) + "\n", yours: true },
  ];
}

export interface ProjectInputs {
  name: string;
  version: string;
  /** activationSchema.json's object. */
  activation: Obj;
  /** metric-keys.json's text: the layer reads its copy in the module. */
  keyMapText: string;
  /** plugin.json as JSON text (the plugin's `json_config`), its raw controls and bidi marks escaped. */
  descriptorText: string;
}

/** `source.install_requires` as setup.py's (strings only; the others said in a note). */
function requirements(m: DescriptorMigration): string[] {
  const out: string[] = [];
  arr(get(m.doc.source, "install_requires")).forEach((r, i) => {
    if (typeof r === "string" && r.trim() !== "") out.push(r.trim());
    else
      m.note(
        "dropped",
        `/source/install_requires/${i}`,
        said`${q(r)} is not a requirement: setup.py leaves it out`,
      );
  });
  return out;
}

/** The project's files beside extension/: setup.py, the module, the local run's files, .gitignore. */
export function projectFiles(m: DescriptorMigration, plan: PythonPlan, inputs: ProjectInputs): ProjectFile[] {
  const module = plan.module;
  const files: ProjectFile[] = [
    { path: "setup.py", content: setupPy(plan, inputs.name, inputs.version, requirements(m)) },
    {
      path: `${module}/__init__.py`,
      content: `"""The EF2 extension ${inputs.name}: an EF1 plugin's code (plugin/) run by a compatibility layer (ef1compat/)."""\n`,
    },
    { path: `${module}/__main__.py`, content: mainPy(plan, inputs.name) },
    ...EF1COMPAT_FILES.map((f) => ({ path: `${module}/ef1compat/${f.path}`, content: f.content })),
    { path: `${module}/metric-keys.json`, content: inputs.keyMapText },
    { path: `${module}/ef1-plugin.json`, content: inputs.descriptorText },
  ];
  const code = plan.code?.files ?? [];
  // The folder is a package, so that the build packs it; the plugin's own __init__.py, if any, is kept.
  if (!code.some((f) => f.path === "__init__.py"))
    files.push({
      path: `${module}/plugin/__init__.py`,
      content: `"""The EF1 plugin's own files, copied by plugin-review migrate: the layer imports them as top-level modules."""\n`,
    });
  for (const f of code) files.push(fileOf(`${module}/plugin/${f.path}`, f.bytes));
  files.push(...localRun(plan, inputs.activation, inputs.version, inputs.name));
  files.push({ path: ".gitignore", content: GITIGNORE, yours: true });
  return files;
}

/** `file:line` references of uses, at most `max` of them, the rest counted. */
function refs(uses: readonly ApiUse[], max = 6): string {
  const shown = uses.slice(0, max).map((u) => codeSpan(`${u.file}:${u.line}`));
  return shown.join(", ") + (uses.length > max ? `, and ${uses.length - max} more` : "");
}

/** The rows of the contract's table (ef1-python-runtime.md): the EF1 calls, their EF2 counterparts. */
const PORTING: { ef1: string; ef2: string; uses: (u: ApiUse) => boolean }[] = [
  {
    ef1: "`class X(BasePlugin)` / `RemoteBasePlugin`, `query(**kwargs)`",
    ef2: "`class ExtensionImpl(Extension)`, `query(self)` every 60 s; `self.schedule(fn, seconds)` for other intervals",
    uses: (u) => u.name === "class" || ["def initialize", "def query", "def close"].includes(u.name),
  },
  {
    ef1: '`self.config.get("k")`',
    ef2: "`self.activation_config`: for a remote extension `pythonRemote.endpoints[]`, for a local one `pythonLocal`",
    uses: (u) => u.name === "self.config",
  },
  {
    ef1: "`absolute(key, v, dims)`",
    ef2: "`self.report_metric(<EF2 key>, v, dims)` (a gauge)",
    uses: (u) => u.name === "absolute" || u.name === "add_absolute_result",
  },
  {
    ef1: "`relative(key, v, dims)`",
    ef2: "the delta, computed by the extension: `report_metric(<EF2 key>.count, delta, dims, metric_type=MetricType.DELTA)`",
    uses: (u) => u.name === "relative" || u.name === "add_relative_result",
  },
  {
    ef1: "`per_second(key, v, dims)`",
    ef2: "the delta divided by the elapsed seconds, as a gauge",
    uses: (u) => u.name === "per_second" || u.name === "add_per_second_result",
  },
  {
    ef1: "`state_metric(key, state, dims)`",
    ef2: "no state metrics: a gauge with the state as a dimension (`state`), or an event",
    uses: (u) => u.name === "state_metric" || u.name === "add_state_result",
  },
  {
    ef1: "groups and custom devices",
    ef2: "no devices in code: the group and device are dimensions of each metric; topology (generic entity types) is declared in extension.yaml from them",
    uses: (u) => ["create_group", "create_device", "create_element", "add_endpoint"].includes(u.name),
  },
  {
    ef1: "`report_property`",
    ef2: "an entity attribute in extension.yaml's topology, from a dimension; or dropped",
    uses: (u) => u.name === "report_property",
  },
  {
    ef1: "`report_*_event`",
    ef2: "`self.report_dt_event(...)` / `self.report_event(...)`",
    uses: (u) => u.name.startsWith("report_") && u.name.endsWith("event"),
  },
  {
    ef1: "`ConfigException`, `AuthException`",
    ef2: "a status: `Status(StatusValue.INVALID_CONFIG_ERROR / AUTHENTICATION_ERROR, …)` from `query` or `fastcheck`",
    uses: (u) => u.name.startsWith("raise "),
  },
  {
    ef1: "`find_*`, `process_snapshot`, `entity_id=`",
    ef2: "`self.get_snapshot()` (OneAgent's process snapshot); the process group instance as the dimension `dt.entity.process_group_instance`",
    uses: (u) => u.name.startsWith("find_") || u.name === "entity_id" || u.name === "entity_selector",
  },
];

/** Why a member of the EF1 engine the layer does not provide is not carried, and what the layer offers instead. */
function engineMemberWhy(member: string, remote: boolean): string {
  const raises =
    "a member of the EF1 engine the layer does not provide: calling it raises NotCarriedToEF2 (a run that does not catch it fails, and sends nothing)";
  if (member === "get_monitored_entities")
    return `${raises}; report with \`self.results_builder\`${remote ? "" : " (on the process group instance of `self.associated_entity`, or on another with `entity_id=`)"} instead`;
  return remote
    ? raises
    : `${raises}; \`self.associated_entity\` is the snapshot entry of the process group instance the layer runs the plugin for`;
}

/** What the layer cannot carry in this plugin's code: each raises at run time (or is not sent), with its line. */
export function notCarried(plan: PythonPlan): { use: ApiUse; why: string }[] {
  // Nothing of code that is not in the project is judged (MIGRATION.md says to copy it).
  if (!plan.code) return [];
  const out: { use: ApiUse; why: string }[] = [];
  const defined = new Set(plan.uses.filter((u) => u.name.startsWith("def ")).map((u) => u.name.slice(4)));
  for (const u of plan.uses) {
    if (ENGINE_MEMBERS.has(u.name)) {
      if (!defined.has(u.name)) out.push({ use: u, why: engineMemberWhy(u.name, plan.remote) });
    } else if (u.name === "report_property")
      out.push({
        use: u,
        why: "not sent: EF2 code reports no entity properties (the layer warns once); make it a dimension, or an entity attribute of extension.yaml's topology",
      });
    else if (u.name.startsWith("import ") && RUXIT_ENGINE_NAMES.has(u.name.slice("import ".length)))
      out.push({
        use: u,
        why: "a module of the EF1 engine: the layer provides its names, so that the import runs, but using one raises NotCarriedToEF2 (EF2 has no counterpart); remove the import where the plugin does not use it",
      });
    else if (u.name.startsWith("import ") && !RUXIT_MODULES.has(u.name.slice("import ".length)))
      out.push({
        use: u,
        why: "a module of the EF1 engine the layer does not provide: importing it raises an error that says so",
      });
    else if (plan.remote && u.name.startsWith("find_"))
      out.push({
        use: u,
        why: "a remote plugin has no process snapshot (in EF1 neither): it raises NotCarriedToEF2",
      });
    else if (u.name === "entity_selector")
      out.push({
        use: u,
        why: "EF2 code reports metrics, not entities: a selector of a process group instance, the host, or a group or device the plugin created (`ExplicitSelector(group.id, …)`) is carried as dimensions, any other raises NotCarriedToEF2",
      });
  }
  return out;
}

/** MIGRATION.md's sections about the code: how it runs now, what differs, what is not carried, how to move off. */
export function codeSections(plan: PythonPlan, metrics: readonly Ef1Metric[], name: string): string[] {
  const module = plan.module;
  const lines = ["", "## The plugin's code", ""];
  if (plan.code) {
    const n = plan.code.files.length;
    lines.push(
      `The EF1 code runs unchanged on Extensions 2.0: \`migrate\` copied the plugin's folder (${codeSpan(plan.code.folder)}, ${n} ${n === 1 ? "file" : "files"}) into \`${module}/plugin/\`, and \`${module}/__main__.py\` runs its class ${codeSpan(plan.className ?? "")} of module ${codeSpan(plan.pkg ?? "")} through the compatibility layer in \`${module}/ef1compat/\`: plugin-review's code, whose README.md says what it does. \`setup.py\` is the package Dynatrace's build (\`dt-sdk build\`) makes, with the plugin's \`install_requires\` and \`dt-extensions-sdk\`.`,
      "",
      "Run it on your machine: `activation.json` is a monitoring configuration with the properties' defaults, `secrets.json` the passwords it names (empty: fill them in). Each metric is printed as a `send_metric:` line; Ctrl-C flushes them.",
      "",
      "```sh",
      "pip install dt-extensions-sdk .",
      `python3 -m ${module}`,
      "```",
    );
    for (const s of plan.skipped) lines.push("", `- ${codeSpan(s.path)} was not copied: ${s.why}.`);
  } else
    lines.push(
      `**To do:** the plugin's code was not found (${plan.missing ?? ""}). Copy the plugin's files (those beside its plugin.json) into \`${module}/plugin/\`: \`${module}/__main__.py\` runs them through the compatibility layer in \`${module}/ef1compat/\`, and until they are there it stops saying that they are missing.`,
    );

  const counters = metrics.filter((x) => x.ef2.type === "count" && x.ef1.kind === "timeseries");
  const computed = plan.uses.filter((u) => measurementOf(u) === "relative" && u.key === undefined);
  const prefix = name.replace(/^custom:/, "");
  lines.push("", "### What is different on Extensions 2.0", "");
  lines.push(
    `- **Keys.** Each metric is sent under the EF2 key metric-keys.json gives it (\`${prefix}.<EF1 key>\` unless the migration was told otherwise); the layer reads its copy, \`${module}/metric-keys.json\`.`,
    `- **Counters.** \`relative\` sends the increase since the previous run as an EF2 count (\`count,delta\`): nothing on the first run, nothing after a decrease (a reset), as the EF1 agent did. A count's key ends in \`.count\` (Dynatrace's convention: Classic adds it to a count's key that lacks it).` +
      (counters.length
        ? ` This plugin's counters: ${counters.map((x) => `${codeSpan(x.ef1.key)} → \`${x.ef2.key}\``).join(", ")}.`
        : "") +
      (computed.length
        ? ` \`relative\` at ${refs(computed)} names its metric at run time, so \`migrate\` cannot tell which metric it counts: such a metric keeps its key without \`.count\` in metric-keys.json (the layer warns when it sends one); give it the \`.count\` key there and in extension.yaml.`
        : ""),
    "- **Rates.** `per_second` sends the increase per second since the previous run as a gauge, from the second run on.",
    "- **State metrics.** `state_metric` sends a gauge of 1 with the dimension `state` set to the state; a state that plugin.json does not declare for the metric is not sent (a warning says so once).",
  );
  if (plan.remote)
    lines.push(
      `- **Groups and devices are dimensions.** EF2 code creates no custom devices: a metric reported on a group has the dimensions ${TOPOLOGY_DIMENSIONS.slice(
        0,
        2,
      )
        .map((d) => `\`${d.key}\``)
        .join(" and ")} (its identifier and name), on a device also ${TOPOLOGY_DIMENSIONS.slice(2)
        .map((d) => `\`${d.key}\``)
        .join(
          ", ",
        )} (its first endpoint); extension.yaml's metric metadata lists them. Entities would be declared in extension.yaml's \`topology\` from them.`,
      "- **One process, every endpoint.** Each endpoint of the monitoring configuration is one object of the plugin's class, as each EF1 configuration was. Its `self.activation` names it: `endpoint_name` is the monitoring configuration's description (with ` (endpoint <n>)` when it has several endpoints), `entity_id` an id (digits, as text) derived from the configuration's id and the endpoint's place in it.",
    );
  else
    lines.push(
      "- **Where it runs.** An EF2 local extension runs on the hosts its monitoring configuration names; there the layer makes one object of the plugin's class per process group instance of OneAgent's snapshot that plugin.json's activation matches (`processTypeNames`/`processTypes`, `technologies`, `source.activation_name_pattern`; one for all with `Singleton`), as the EF1 agent did, made and closed as they come and go: `associated_entity` is that snapshot entry, and what the results builder reports without naming an entity is on its process group instance. `find_*` and `process_snapshot` read OneAgent's process snapshot as the EF2 SDK offers it; a process group instance's id is a number, as on EF1, whose text is its EF2 entity id (`PROCESS_GROUP_INSTANCE-<hex>`), and `entity_id=` becomes the dimension `dt.entity.process_group_instance`.",
    );
  lines.push(
    "- **Settings.** `self.config` holds the endpoint's settings, as activationSchema.json describes them (passwords in clear, as on EF1).",
    "- **Events** (`report_*_event`) are Dynatrace events (`report_dt_event`), the description as the property `dt.event.description`.",
    "- **Status.** `ConfigException` and `AuthException` are the extension's status (`INVALID_CONFIG_ERROR`, `AUTHENTICATION_ERROR`). Raised by `initialize` for every endpoint, the extension reports that status and stops until its configuration changes.",
  );

  if (plan.code) {
    lines.push("", "### Not carried over from the code", "");
    const items = notCarried(plan);
    if (!items.length)
      lines.push("Nothing: every EF1 call of the code has a counterpart in the compatibility layer.");
    for (const { use, why } of items)
      lines.push(`- ${codeSpan(`${use.file}:${use.line}`)}, ${codeSpan(use.name)}: ${why}.`);
  }

  lines.push(
    "",
    "## Moving off the compatibility layer",
    "",
    `To write the extension in the EF2 SDK's own terms, port the plugin's class to an \`Extension\` subclass in \`${module}/__main__.py\` (the SDK's template), call the EF2 counterpart of each EF1 call, and delete \`${module}/ef1compat/\` and \`${module}/plugin/\`. Send each metric under the key metric-keys.json gives, so that dashboards and alerts keep their data.`,
    "",
    "| EF1 | EF2 | in this plugin |",
    "| --- | --- | --- |",
  );
  for (const row of PORTING) {
    const found = plan.uses.filter(row.uses);
    lines.push(`| ${row.ef1} | ${row.ef2} | ${found.length ? refs(found) : "—"} |`);
  }
  return lines;
}
