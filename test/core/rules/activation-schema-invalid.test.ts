import { EF2, lineOf, pythonExtension, ruleTable } from "../../helpers.js";

const { extension, schema, options } = pythonExtension();
const at = lineOf(extension, "path: activationSchema.json");
// One file named by both activations: its own problems are its own once; the root each reads, each.
const REMOTE = "    remote:\n      path: activationSchema.json\n";
if (!extension.includes(REMOTE)) throw new Error("the example's remote activation moved");
const both = extension.replace(REMOTE, `${REMOTE}    local:\n      path: activationSchema.json\n`);
const atLocal = lineOf(both, "path: activationSchema.json", 2);
const withSchema = (text: string) => pythonExtension({ "extension/activationSchema.json": text }).options;
const edited = (from: string, to: string) => {
  if (!schema.includes(from)) throw new Error(`schema lacks ${from}`);
  return withSchema(schema.replace(from, to));
};

ruleTable("activation-schema-invalid", {
  valid: [
    { name: "the Python extension's schema", doc: extension, options },
    { name: "not read by the caller: not judged", doc: extension, options: EF2 },
    {
      // The App lists only a Python extension's files; what changed is known for every extension.
      name: "only the changed files given, none listed: not called absent",
      doc: extension,
      options: { ...EF2, files: { changed: ["example_queue/__main__.py"] } },
    },
  ],
  invalid: [
    {
      name: "absent from the repository",
      doc: extension,
      options: pythonExtension({ "extension/activationSchema.json": undefined }).options,
      lines: [at],
      messageId: "absent",
      data: { path: "activationSchema.json" },
      severity: "error",
    },
    {
      name: "not JSON",
      doc: extension,
      options: withSchema(schema.replace('"dynatrace": "1",', '"dynatrace": "1",,')),
      lines: [at],
      messageId: "unreadable",
      message: /^`activationSchema\.json` is not valid JSON/,
    },
    {
      // The type is text or a `{"$ref"}` object: text is told the types there are, once, not also "must be object".
      name: "a property type Dynatrace does not have: the types it has, once",
      doc: extension,
      options: edited('"type": "secret"', '"type": "password"'),
      lines: [at],
      messageId: "format",
      data: {
        problem:
          "`types.pythonRemote.properties.password.type` is `password`, not one of `boolean`, `integer`, `float`, `text`, `secret`, `local_date`, `local_time`, `local_date_time`, `zoned_date_time`, `time_zone`, `setting`, `list` or `set`",
      },
    },
    {
      name: "a misspelt property type: the closest type suggested",
      doc: extension,
      options: edited('"type": "text"', '"type": "txt"'),
      lines: [at],
      messageId: "format",
      message: /`types\.pythonRemote\.properties\.url\.type` is `txt`, not one of .*: did you mean `text`\?$/,
    },
    {
      name: "without the fixed schemaId",
      doc: extension,
      options: edited('  "schemaId": "python-extension.activation",\n', ""),
      lines: [at],
      messageId: "format",
      data: { problem: "`(root)` is missing `schemaId`" },
    },
    {
      name: "a $ref to an enum it does not define",
      doc: extension,
      options: edited('"$ref": "#/enums/mode"', '"$ref": "#/enums/modes"'),
      lines: [at],
      messageId: "ref",
      data: { ref: "#/enums/modes", at: "/types/pythonRemote/properties/mode/type/$ref" },
    },
    {
      name: "python.activation.remote with no pythonRemote root",
      doc: extension,
      options: edited(
        '"pythonRemote": {\n      "displayName": "Queue server"',
        '"pythonLocal": {\n      "displayName": "Queue server"',
      ),
      lines: [at],
      messageId: "root",
      data: { root: "pythonRemote", where: "remote" },
    },
    {
      name: "named by remote and local, absent: said once",
      doc: both,
      options: pythonExtension({ "extension/activationSchema.json": undefined }).options,
      lines: [at],
      messageId: "absent",
    },
    {
      name: "named by remote and local, not JSON: said once",
      doc: both,
      options: withSchema(schema.replace('"dynatrace": "1",', '"dynatrace": "1",,')),
      lines: [at],
      messageId: "unreadable",
    },
    {
      name: "named by remote and local, an undefined $ref said once, the root local reads and it lacks at local",
      doc: both,
      options: edited('"$ref": "#/enums/mode"', '"$ref": "#/enums/modes"'),
      lines: [at, atLocal],
      messageId: ["ref", "root"],
      data: [{ ref: "#/enums/modes" }, { root: "pythonLocal", where: "local" }],
    },
  ],
});
