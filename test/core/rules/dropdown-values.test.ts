import { ruleTable, validHost, validRemote, lineOf, at, make, pythonExtension } from "../../helpers.js";

// The remote example's `mode` property is a Dropdown; its key occurs first in configUI, then in properties.
const emptyValues = make(validRemote(), (d) => {
  at(d, "properties", 1).dropdownValues = [];
});
const missingValues = make(validRemote(), (d) => {
  const p = at(d, "properties", 1);
  delete p.dropdownValues;
  delete p.defaultValue;
});
const notAList = make(validRemote(), (d) => {
  at(d, "properties", 1).dropdownValues = "fast,thorough";
});
const badDefault = make(validRemote(), (d) => {
  at(d, "properties", 1).defaultValue = "slow";
});
const lowerCaseType = make(validRemote(), (d) => {
  Object.assign(at(d, "properties", 1), { type: "dropdown", defaultValue: "Fast" });
});
// A default written without quotes: property-default-type says it must be a string.
const numberChoice = make(validRemote(), (d) => {
  Object.assign(at(d, "properties", 1), { dropdownValues: ["1", "2"], defaultValue: 2 });
});
const numberNotAChoice = make(validRemote(), (d) => {
  Object.assign(at(d, "properties", 1), { dropdownValues: ["1", "2"], defaultValue: 3 });
});
const hostDropdown = make(validHost(), (d) => {
  at<unknown[]>(d, "properties").push({ key: "level", type: "Dropdown", defaultValue: "low" });
});

// An activation schema (extensions-2.md §3): its `mode` property's type is the enum `mode` (items "all",
// "busy"); findings are at the path in extension.yaml that names the schema.
const python = pythonExtension();
const schemaAt = lineOf(python.extension, "path: activationSchema.json");
const MODE_DEFAULT = '"default": "all"';
const modeDefault = (value: string): typeof python.options => {
  if (!python.schema.includes(MODE_DEFAULT)) throw new Error("the example schema changed");
  const schema = python.schema.replace(MODE_DEFAULT, `"default": ${value}`);
  return pythonExtension({ "extension/activationSchema.json": schema }).options;
};

ruleTable("dropdown-values", {
  valid: [
    { name: "host example", doc: validHost() },
    { name: "remote example (default among the values)", doc: validRemote() },
    {
      name: "a Dropdown without a default",
      doc: make(validRemote(), (d) => {
        delete at(d, "properties", 1).defaultValue;
      }),
    },
    {
      name: "a single choice",
      doc: make(validRemote(), (d) => {
        Object.assign(at(d, "properties", 1), { dropdownValues: ["only"], defaultValue: "only" });
      }),
    },
    {
      name: "dropdownValues on a String property are not this rule's business",
      doc: make(validRemote(), (d) => {
        at(d, "properties", 0).dropdownValues = [];
      }),
    },
    {
      name: "a number whose text is a choice: property-default-type's alone (quote it), not also not a choice",
      doc: numberChoice,
    },
    {
      name: "a number written 1.10 whose text is the choice `1.10`",
      doc: make(validRemote(), (d) => {
        Object.assign(at(d, "properties", 1), { dropdownValues: ["1.9", "1.10"], defaultValue: 0 });
      }).replace('"defaultValue": 0', '"defaultValue": 1.10'),
    },
    {
      name: "activation schema enum default among its items",
      doc: python.extension,
      options: python.options,
    },
    {
      name: "activation schema enum null default (a nullable property's unset value)",
      doc: python.extension,
      options: modeDefault("null"),
    },
    {
      name: "activation schema enum with an undefined enum: activation-schema-invalid's",
      doc: python.extension,
      options: pythonExtension({
        "extension/activationSchema.json": python.schema.replace('"#/enums/mode"', '"#/enums/other"'),
      }).options,
    },
    {
      name: "rule turned off",
      doc: emptyValues,
      options: { config: { rules: { "dropdown-values": "off" } } },
    },
  ],
  invalid: [
    {
      name: "empty dropdownValues, at its key",
      messageId: "missing",
      doc: emptyValues,
      lines: [lineOf(emptyValues, '"dropdownValues"')],
      message: "a Dropdown property needs a non-empty `dropdownValues` list",
      severity: "error",
    },
    {
      name: "missing dropdownValues, at the property's opening brace (the line before its key)",
      messageId: "missing",
      doc: missingValues,
      lines: [lineOf(missingValues, '"key": "mode"', 2) - 1],
      message: "non-empty `dropdownValues`",
    },
    {
      name: "dropdownValues that is not a list",
      messageId: "missing",
      doc: notAList,
      lines: [lineOf(notAList, '"dropdownValues"')],
      message: "non-empty `dropdownValues`",
    },
    {
      name: "a default that is not one of the values, at the default value",
      messageId: "notAChoice",
      doc: badDefault,
      lines: [lineOf(badDefault, '"defaultValue": "slow"')],
      message: '`defaultValue` "slow" is not one of the `dropdownValues`',
    },
    {
      name: "a number that is no choice even quoted",
      messageId: "notAChoice",
      doc: numberNotAChoice,
      lines: [lineOf(numberNotAChoice, '"defaultValue": 3')],
      message: /^`defaultValue` 3 is not one of the `dropdownValues`$/,
    },
    {
      name: "type in any case; values compare exactly",
      messageId: "notAChoice",
      doc: lowerCaseType,
      lines: [lineOf(lowerCaseType, '"defaultValue": "Fast"')],
      message: "is not one of the `dropdownValues`",
    },
    {
      name: "host Dropdown (variant-mismatch too) still needs values",
      messageId: "missing",
      doc: hostDropdown,
      lines: [lineOf(hostDropdown, '"key": "level"') - 1],
      message: "non-empty `dropdownValues`",
    },
    {
      name: "activation schema enum default not among its items, at the path naming the schema",
      messageId: "notAnItem",
      doc: python.extension,
      options: modeDefault('"idle"'),
      lines: [schemaAt],
      data: { path: "activationSchema.json", key: "pythonRemote.mode", value: '"idle"', enum: "enums.mode" },
      message:
        '`activationSchema.json`: the `default` "idle" of property `pythonRemote.mode` is not one of the items of `enums.mode`',
      severity: "error",
    },
    {
      name: "activation schema enum default compared exactly (an item's displayName is not its value)",
      messageId: "notAnItem",
      doc: python.extension,
      options: modeDefault('"Every queue"'),
      lines: [schemaAt],
    },
  ],
});
