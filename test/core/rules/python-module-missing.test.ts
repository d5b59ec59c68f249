import { EF2, lineOf, pythonExtension, ruleTable } from "../../helpers.js";

const { extension, options } = pythonExtension();
const moved = pythonExtension({
  "example_queue/__main__.py": undefined,
  "src/example_queue/__main__.py": "print()\n",
});
const single = pythonExtension({ "example_queue/__main__.py": undefined, "example_queue.py": "print()\n" });
const wheel = pythonExtension({
  "example_queue/__main__.py": undefined,
  "extension/lib/example_queue-1.0.0-py3-none-any.whl": "",
});
const gone = pythonExtension({ "example_queue/__main__.py": undefined });
const renamed = extension.replace("module: example_queue", "module: example_queues");

ruleTable("python-module-missing", {
  valid: [
    { name: "the Python extension, its module beside extension/", doc: extension, options },
    { name: "a src/ layout", doc: extension, options: moved.options },
    { name: "a single-file module", doc: extension, options: single.options },
    { name: "a wheel built into extension/lib", doc: extension, options: wheel.options },
    { name: "no files listed: not judged", doc: renamed, options: EF2 },
    {
      name: "only the changed files given, none listed: not judged",
      doc: renamed,
      options: { ...EF2, files: { changed: ["example_queue/__main__.py"] } },
    },
  ],
  invalid: [
    {
      name: "the module's folder gone",
      doc: extension,
      options: gone.options,
      lines: [lineOf(extension, "module: example_queue")],
      messageId: "missing",
      data: { module: "example_queue", folder: "example_queue/" },
      severity: "error",
    },
    {
      name: "a module renamed in extension.yaml alone",
      doc: renamed,
      options,
      lines: [lineOf(renamed, "module: example_queues")],
      messageId: "missing",
      data: { module: "example_queues" },
    },
  ],
});
