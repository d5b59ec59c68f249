/**
 * The Python project migrate writes (src/migrate/python-project.ts, python-code.ts), without running it: the
 * module's name, the plugin's files copied (text and binary, unsafe paths and plugin.json left out), the code's
 * counters in the key map, the calls MIGRATION.md lists with their lines, and what happens when the code is not
 * there. The projects are run on Dynatrace's SDK in python-run.test.ts.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runMigrate } from "../../src/cli/migrate.js";
import { readiness } from "../../src/migrate/migrate.js";
import { scanPython, typesOfKeys } from "../../src/migrate/python-code.js";
import { moduleName, type PluginCode } from "../../src/migrate/python-project.js";
import { converted, extensionOf, file, schemaErrors } from "./helpers.js";
import { ROOT, text, validHost, validRemote } from "../helpers.js";

const bytes = (s: string) => new TextEncoder().encode(s);

function code(files: Record<string, string | Uint8Array>, folder = "plugins/demo"): PluginCode {
  return {
    folder,
    files: Object.entries(files).map(([path, content]) => ({
      path,
      bytes: typeof content === "string" ? bytes(content) : content,
    })),
  };
}

const REMOTE_CODE = `from ruxit.api.base_plugin import RemoteBasePlugin
from ruxit.api.exceptions import AuthException
import ruxit.plugin_state_machine


class DemoDevicePlugin(RemoteBasePlugin):
    def query(self, **kwargs):
        group = self.topology_builder.create_group("g", "G")
        device = group.create_device("d", "D")
        device.absolute("cpu", 1, {"core": "0"})  # a gauge
        device.relative(key="requests", value=5)
        name = "computed"
        device.relative(name, 1)
        device.report_property("version", "1")
        if not self.config.get("host"):
            raise AuthException("no")
`;

describe("the module", () => {
  it.each([
    ["demo_plugin", "demo_plugin_ef2"],
    ["AtlasPlugin", "atlasplugin_ef2"],
    ["metric-filter", "metric_filter_ef2"],
    ["custom.remote.python.x", "custom_remote_python_x_ef2"],
    ["1st", "plugin_1st_ef2"],
    ["__", "plugin_ef2"],
    [undefined, "plugin_ef2"],
    ["ä" + "x".repeat(300), `${"x".repeat(59)}_ef2`],
  ])("%s → %s, a name dt-sdk create accepts", (pkg, module) => {
    expect(moduleName(pkg)).toBe(module);
    expect(module).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
  });

  it("is the same in extension.yaml, setup.py and the module folder", () => {
    const r = converted(validRemote(), { code: code({ "demo_device.py": REMOTE_CODE }) });
    expect(file(r, "extension/extension.yaml")).toContain("    module: demo_device_ef2\n");
    expect(file(r, "setup.py")).toContain('MODULE = "demo_device_ef2"');
    expect(file(r, "demo_device_ef2/__main__.py")).toContain('package="demo_device",');
    expect(r.project?.module).toBe("demo_device_ef2");
  });
});

describe("the plugin's code", () => {
  it("is copied into <module>/plugin/: text as text, binary as base64; plugin.json and unsafe paths are not", () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]);
    const r = converted(validRemote(), {
      code: code({
        "demo_device.py": REMOTE_CODE,
        "lib/util.py": "X = 1\n",
        "icon.png": png,
        "plugin.json": "{}",
        "../escape.py": "x",
      }),
    });
    const paths = r.files.map((f) => f.path).filter((p) => p.startsWith("demo_device_ef2/plugin/"));
    expect(paths).toEqual([
      "demo_device_ef2/plugin/__init__.py",
      "demo_device_ef2/plugin/demo_device.py",
      "demo_device_ef2/plugin/lib/util.py",
      "demo_device_ef2/plugin/icon.png",
    ]);
    const icon = r.files.find((f) => f.path.endsWith("icon.png"))!;
    expect(icon.encoding).toBe("base64");
    expect(Buffer.from(icon.content, "base64")).toEqual(Buffer.from(png));
    const md = file(r, "MIGRATION.md");
    expect(md).toContain(
      "- `plugin.json` was not copied: the descriptor is `demo_device_ef2/ef1-plugin.json`",
    );
    expect(md).toContain("- `../escape.py` was not copied: its path would leave the folder.");
  });

  it("a huge module (a generated one: 300,000 calls) is read, not a crash of the whole run", () => {
    const calls = Array.from({ length: 300_000 }, (_, i) => `        device.relative("k${i}", ${i})\n`).join(
      "",
    );
    const r = converted(validRemote(), {
      code: code({ "demo_device.py": `${REMOTE_CODE}\n    def more(self, device):\n${calls}` }),
    });
    expect(r.project?.codeMissing).toBeUndefined();
    expect(r.files.some((f) => f.path === "demo_device_ef2/plugin/demo_device.py")).toBe(true);
    // each reference of the porting table is listed a few at a time
    expect(file(r, "MIGRATION.md")).toMatch(/\| `relative\(key, v, dims\)` \| .*, and 299996 more \|/);
  });

  it("a huge module whose calls the layer cannot carry (300,000 of them) lists each, not a crash of the whole run", () => {
    const calls = Array.from(
      { length: 300_000 },
      (_, i) => `        device.report_property("k${i}", "v")\n`,
    ).join("");
    const r = converted(validRemote(), {
      code: code({ "demo_device.py": `${REMOTE_CODE}\n    def more(self, device):\n${calls}` }),
    });
    const md = file(r, "MIGRATION.md");
    expect(md).toContain("- `demo_device.py:300018`, `report_property`: not sent");
    expect(md.split("`, `report_property`: not sent")).toHaveLength(300_002);
  });

  it("a plugin.json below the plugin's is another plugin's descriptor, not copied, and not said to be this one's", () => {
    const r = converted(validRemote(), {
      code: code({ "demo_device.py": REMOTE_CODE, "plugin.json": "{}", "other/plugin.json": "{}" }),
    });
    expect(r.files.some((f) => f.path.endsWith("plugin.json") && f.path.includes("/plugin/"))).toBe(false);
    const md = file(r, "MIGRATION.md");
    expect(md).toContain(
      "- `plugin.json` was not copied: the descriptor is `demo_device_ef2/ef1-plugin.json`",
    );
    expect(md).toContain(
      "- `other/plugin.json` was not copied: another plugin's descriptor, not this plugin's code (migrate it on its own).",
    );
  });

  it("missing: the project has a to-do, MIGRATION.md and the summary say why, and the layer stops saying so", () => {
    const r = converted(validRemote(), { code: code({ "other.py": "" }) });
    expect(r.project).toEqual({
      module: "demo_device_ef2",
      codeMissing: "neither demo_device.py nor demo_device/__init__.py is in plugins/demo",
    });
    const todo = r.notes.find((n) => n.kind === "todo" && n.member === "source.package")!;
    expect(todo.line).toBe(12);
    const md = file(r, "MIGRATION.md");
    expect(md).toContain("**To do:** the plugin's code was not found (neither demo_device.py nor");
    expect(r.files.some((f) => f.path.startsWith("demo_device_ef2/plugin/demo_device"))).toBe(false);
    // The layer itself says it at run time (ef1compat/__init__.py, load_plugin_class).
    expect(file(r, "demo_device_ef2/ef1compat/__init__.py")).toContain("the EF1 plugin's code is not in");
  });

  it.each([
    ["demo_device.py", "it could not be read (no permission)"],
    ["demo_device.py", "a symbolic link, not followed (it may name any file)"],
    ["demo_device/", "it could not be read (no permission)"],
  ])("there but not read (%s: %s): said so, not that it is not there", (path, why) => {
    const r = converted(validRemote(), {
      code: { ...code({ "other.py": "" }), skipped: [{ path, why }] },
    });
    expect(r.project?.codeMissing).toBe(`${path} is in plugins/demo but was not copied: ${why}`);
    expect(file(r, "MIGRATION.md")).toContain(
      `**To do:** the plugin's code was not found (${path} is in plugins/demo but was not copied: ${why})`,
    );
  });

  it("a folder that could not be read: the reason, and nothing of it copied", () => {
    const r = converted(validRemote(), {
      code: {
        folder: "big",
        files: [],
        problem: 'the plugin\'s folder "big" was not copied: it holds more than 1000 files',
      },
    });
    expect(r.project?.codeMissing).toMatch(/more than 1000 files/);
  });
});

describe("what the code makes of the key map", () => {
  it("a metric reported with relative() is a count with a .count key; one with absolute() a gauge", () => {
    const r = converted(
      {
        ...validRemote(),
        metrics: [
          { timeseries: { key: "cpu", unit: "Percent", dimensions: ["core"] } },
          { timeseries: { key: "requests", unit: "Count" } },
          { timeseries: { key: "computed", unit: "Count" } },
        ],
      },
      { code: code({ "demo_device.py": REMOTE_CODE }) },
    );
    expect(r.keyMap.metrics.map((m) => [m.ef1.key, m.ef2.key, m.ef2.type])).toEqual([
      ["cpu", "tech.demo.device.cpu", "gauge"],
      ["requests", "tech.demo.device.requests.count", "count"],
      ["computed", "tech.demo.device.computed", undefined],
    ]);
    // The layer reads the module's copy, the same bytes as the project's.
    expect(file(r, "demo_device_ef2/metric-keys.json")).toBe(file(r, "metric-keys.json"));
    const md = file(r, "MIGRATION.md");
    expect(md).toContain("This plugin's counters: `requests` → `tech.demo.device.requests.count`.");
    expect(md).toContain("`relative` at `demo_device.py:13` names its metric at run time");
  });

  it("lists what the layer cannot carry with its line, and the porting table with the plugin's calls", () => {
    const r = converted(validRemote(), { code: code({ "demo_device.py": REMOTE_CODE }) });
    const md = file(r, "MIGRATION.md");
    expect(md).toContain(
      "- `demo_device.py:3`, `import ruxit.plugin_state_machine`: a module of the EF1 engine",
    );
    expect(md).toContain("- `demo_device.py:14`, `report_property`: not sent");
    expect(md).toContain(
      "| `relative(key, v, dims)` | the delta, computed by the extension: `report_metric(<EF2 key>.count, delta, dims, metric_type=MetricType.DELTA)` | `demo_device.py:11`, `demo_device.py:13` |",
    );
    expect(md).toContain("| groups and custom devices |");
    expect(md).toMatch(/\| `ConfigException`, `AuthException` \| .* \| `demo_device\.py:16` \|/);
  });

  it("lists the EF1 engine's members the layer does not provide (get_activation_context, get_monitored_entities)", () => {
    const host = [
      "from ruxit.api.base_plugin import BasePlugin",
      "from ruxit.api.selectors import EntityType",
      "",
      "class DemoPlugin(BasePlugin):",
      "    def query(self, **kwargs):",
      '        self.logger.info("context %s", self.get_activation_context())',
      "        fetch = self.get_monitored_entities",
      "        for entity in fetch(EntityType.PROCESS_GROUP_INSTANCE):",
      '            entity.absolute(key="random", value=1)',
      "",
    ].join("\n");
    const md = file(converted(validHost(), { code: code({ "demo_plugin.py": host }) }), "MIGRATION.md");
    expect(md).toContain(
      "- `demo_plugin.py:6`, `get_activation_context`: a member of the EF1 engine the layer does not provide: calling it raises NotCarriedToEF2 (a run that does not catch it fails, and sends nothing); `self.associated_entity` is the snapshot entry of the process group instance the layer runs the plugin for.",
    );
    expect(md).toContain(
      "- `demo_plugin.py:7`, `get_monitored_entities`: a member of the EF1 engine the layer does not provide: calling it raises NotCarriedToEF2 (a run that does not catch it fails, and sends nothing); report with `self.results_builder` (on the process group instance of `self.associated_entity`, or on another with `entity_id=`) instead.",
    );
    // a plugin that defines a method of that name calls its own: nothing to list
    const own =
      REMOTE_CODE +
      "\n    def get_monitored_entities(self):\n        return []\n\n    def close(self, **kwargs):\n        self.get_monitored_entities()\n";
    const remoteMd = file(
      converted(validRemote(), { code: code({ "demo_device.py": own }) }),
      "MIGRATION.md",
    );
    expect(remoteMd).not.toContain("get_monitored_entities");
  });

  it("counts calls of the code not carried over as losses: partly converted, in the summary, JSON and readiness", async () => {
    const fixtures = join(ROOT, "test", "fixtures", "ef1-plugins");
    let stdout = "";
    const status = await runMigrate(
      {
        files: [
          join(fixtures, "engine-members", "plugin.json"),
          join(fixtures, "host-counters", "plugin.json"),
        ],
        format: "json",
      },
      { cwd: ROOT, stdout: (s) => (stdout += s), stderr: () => {} },
    );
    expect(status).toBe(0);
    const [members, counters] = JSON.parse(stdout) as {
      outcome: string;
      notes: { kind: string }[];
      project: { notCarried?: unknown[] };
    }[];
    // engine-members: nothing of plugin.json is dropped, two calls of its code are
    expect(members!.notes.filter((n) => n.kind === "dropped")).toEqual([]);
    expect(members!.outcome).toBe("partly");
    expect(members!.project.notCarried).toEqual([
      expect.objectContaining({ file: "engine_members.py", line: 16, call: "get_activation_context" }),
      expect.objectContaining({ file: "engine_members.py", line: 17, call: "get_monitored_entities" }),
    ]);
    // host-counters: everything carried, nothing lost
    expect(counters!.outcome).toBe("converted");
    expect(counters!.project.notCarried).toBeUndefined();

    const host =
      "from ruxit.api.base_plugin import BasePlugin\n\nclass DemoPlugin(BasePlugin):\n    def query(self, **kwargs):\n        self.get_monitored_entities()\n";
    expect(readiness(text(validHost())).migrate).toBe(
      readiness(text(validHost()), { code: code({ "demo_plugin.py": "" }) }).migrate,
    );
    const lost = readiness(text(validHost()), { code: code({ "demo_plugin.py": host }) });
    expect(lost.migrate).toBe("partly");
    expect(lost.items).toContainEqual(
      expect.objectContaining({
        member: "demo_plugin.py:5",
        text: expect.stringMatching(/^get_monitored_entities: /),
      }),
    );
  });
});

describe("the plugin's tests", () => {
  it("are not plugin code: their imports of the EF1 engine and their calls are neither listed nor counted", () => {
    const test = [
      "from ruxit.plugin_state_machine import PluginEngine",
      "from ruxit.api.results_builder import ResultsBuilder",
      "",
      "def test_query(plugin):",
      "    plugin.results_builder.relative('cpu', 1)",
      "    plugin.find_single_process_group('x')",
    ].join("\n");
    const plugin = REMOTE_CODE.replace("import ruxit.plugin_state_machine\n", "");
    const r = converted(
      { ...validRemote(), metrics: [{ timeseries: { key: "cpu", unit: "Percent", dimensions: ["core"] } }] },
      {
        code: code({
          "demo_device.py": plugin,
          "tests/test_demo_device.py": test,
          "test_simulator.py": "from ruxit.tools.simulator import run\n",
          "device_test.py": test,
          "conftest.py": "import ruxit.plugin_state_machine\n",
        }),
      },
    );
    // the plugin reports cpu with absolute: a gauge, whatever its tests call
    expect(r.keyMap.metrics.map((m) => [m.ef2.key, m.ef2.type])).toEqual([["tech.demo.device.cpu", "gauge"]]);
    const md = file(r, "MIGRATION.md");
    expect(md).not.toMatch(/test_demo_device|test_simulator|device_test|conftest/);
    expect(md).not.toContain("a module of the EF1 engine the layer does not provide");
    expect(file(r, "demo_device_ef2/plugin/tests/test_demo_device.py")).toBe(test); // copied all the same
  });
});

describe("the local run's files", () => {
  it("activation.json: one endpoint with the properties' defaults; a password named, secrets.json empty", () => {
    const r = converted(validHost(), { code: code({ "demo_plugin.py": "" }) });
    expect(JSON.parse(file(r, "activation.json"))).toEqual({
      enabled: true,
      description: "custom:tech.python.demo (a local run)",
      version: "1.2.0",
      activationContext: "LOCAL",
      pythonLocal: {
        endpoints: [{ url: "http://localhost:8080/status", timeout: 10, password: "{{password}}" }],
      },
    });
    expect(JSON.parse(file(r, "secrets.json"))).toEqual({ password: "" });
    expect(file(r, ".gitignore")).toContain("\nsecrets.json\n");
    expect(file(r, "setup.py")).toContain('install_requires=["requests>=2.6.0", "dt-extensions-sdk"]');
  });

  it("keeps the descriptor's text inert in the Python it writes", () => {
    const evil = 'x"); import os; os.system("boom")  # \n"""';
    const r = converted({
      ...validRemote(),
      source: { package: "demo_device", className: evil, install_requires: [evil] },
    });
    const main = file(r, "demo_device_ef2/__main__.py");
    expect(main).toContain(`class_name=${JSON.stringify(evil)},`);
    expect(main.split("\n").filter((l) => l.includes("boom"))).toHaveLength(1);
    expect(file(r, "setup.py")).toContain(`install_requires=[${JSON.stringify(evil)}, "dt-extensions-sdk"]`);
    expect(schemaErrors(extensionOf(r))).toEqual([]);
  });
});

describe("scanPython", () => {
  it("finds calls past strings, comments and line continuations, with their lines and literal keys", () => {
    const source = [
      "s = 'device.relative(\"no\")'  # device.relative('no')",
      '"""',
      "device.absolute('no')",
      '"""',
      "device.relative(",
      "    'requests', 1)",
      "x = f'{device.absolute(\"no\")}'",
      "device.per_second(key=r'rate', value=2)",
      "device.state_metric(b'bytes', 'OK')",
      "device.absolute('esc\\n', 1)",
      "device.absolute(\\",
      "  'cont', 1)",
    ].join("\n");
    expect(scanPython("p.py", source)).toEqual([
      { file: "p.py", line: 5, name: "relative", key: "requests" },
      { file: "p.py", line: 8, name: "per_second", key: "rate" },
      { file: "p.py", line: 9, name: "state_metric" },
      { file: "p.py", line: 10, name: "absolute" },
      { file: "p.py", line: 11, name: "absolute", key: "cont" },
    ]);
  });

  it("a key reported with relative anywhere is a count", () => {
    const uses = scanPython("p.py", "a.absolute('k', 1)\nb.relative('k', 2)\nc.per_second('r', 3)\n");
    expect([...typesOfKeys(uses)]).toEqual([
      ["k", "count"],
      ["r", "gauge"],
    ]);
  });

  it("a measurement object's key (add_relative_result(PluginMeasurement(…))) is its call's; one made elsewhere has none", () => {
    const source = [
      "device.add_relative_result(PluginMeasurement('acquired', 1, dims))",
      "self.results_builder.add_absolute_result(data.PluginMeasurement(key='open', value=2))",
      "device.add_state_result(PluginStateMetric(key='health', value='OK'))",
      "device.add_relative_result(measurement)",
      "device.add_relative_result(Other('no', 1))",
    ].join("\n");
    const uses = scanPython("p.py", source);
    expect(uses).toEqual([
      { file: "p.py", line: 1, name: "add_relative_result", key: "acquired" },
      { file: "p.py", line: 2, name: "add_absolute_result", key: "open" },
      { file: "p.py", line: 3, name: "add_state_result", key: "health" },
      { file: "p.py", line: 4, name: "add_relative_result" },
      { file: "p.py", line: 5, name: "add_relative_result" },
    ]);
    expect([...typesOfKeys(uses)]).toEqual([
      ["acquired", "count"],
      ["open", "gauge"],
      ["health", "gauge"],
    ]);
  });

  it("reads unterminated strings and odd text without throwing; a long file whole", () => {
    for (const source of ["'", '"""', "x.relative(", "\\", "'\n'", "\u0000\ud800", "(".repeat(10000)])
      expect(() => scanPython("p.py", source)).not.toThrow();
    const long = "device.relative('k', 1)\n".repeat(20000);
    expect(scanPython("p.py", long)).toHaveLength(20000);
  });
});

describe("the plugin's class", () => {
  it("not defined by any file of the folder: a to-do at source.className", () => {
    const r = converted(validRemote(), {
      code: code({ "demo_device.py": "class Other(object):\n    pass\n" }),
    });
    const todo = r.notes.find((n) => n.member === "source.className");
    expect(todo?.kind).toBe("todo");
    expect(
      converted(validRemote(), { code: code({ "demo_device.py": REMOTE_CODE }) }).notes,
    ).not.toContainEqual(expect.objectContaining({ member: "source.className" }));
  });
});
