import { ruleTable, validHost, validRemote, text, lineOf, set, at, make } from "../../helpers.js";

const hostFavicon = set(validHost(), [], "favicon", "https://example.com/x.png");
const hostDropdownValues = set(validHost(), ["properties", 0], "dropdownValues", ["a", "b"]);
/** A host property of `type` with choices, as a OneAgent plugin's log level has them. */
const hostWithChoices = (type: string) =>
  make(validHost(), (d) => {
    at<unknown[]>(d, "properties").push({ key: "log_level", type, dropdownValues: ["INFO", "DEBUG"] });
  });
const remoteProcessTypeNames = set(validRemote(), [], "processTypeNames", ["PYTHON"]);
const remoteProcessTypes = set(validRemote(), [], "processTypes", [10]);
const remoteAgentVersion = set(validRemote(), [], "requiredAgentVersion", "1.101.0");
const remotePattern = set(validRemote(), ["source"], "activation_name_pattern", "^demo$");
const remoteAll = text({
  processTypes: [10],
  ...validRemote(),
  requiredAgentVersion: "1.0",
  processTypeNames: ["PYTHON"],
});

ruleTable("ignored-member", {
  valid: [
    {
      name: "the host example (processTypeNames, requiredAgentVersion, activation_name_pattern)",
      doc: validHost(),
    },
    { name: "the remote example (favicon, dropdownValues)", doc: validRemote() },
    { name: "host processTypes", doc: set(validHost(), [], "processTypes", [10]) },
    { name: "remote technologies", doc: set(validRemote(), [], "technologies", ["X"]) },
    {
      name: "favicon inside a metric's free-form source (host)",
      doc: set(validHost(), ["metrics", 0], "source", { favicon: "x" }),
    },
    { name: "turned off", doc: hostFavicon, options: { config: { rules: { "ignored-member": "off" } } } },
    // variant-mismatch reports the Dropdown and dropdown-values asks for its choices: calling the choices
    // ignored as well would say the same twice, and contradict dropdown-values once they are written.
    { name: "a host Dropdown property's dropdownValues", doc: hostWithChoices("Dropdown") },
    { name: "a host dropdown property's dropdownValues (any case)", doc: hostWithChoices("dropdown") },
  ],
  invalid: [
    {
      name: "host favicon: at the key",
      messageId: "top",
      data: { member: "favicon", variant: "host", other: "remote" },
      doc: hostFavicon,
      lines: [lineOf(hostFavicon, '"favicon"')],
      severity: "warning",
      message: "`favicon` is ignored by host plugins (it only applies to remote plugins)",
    },
    {
      name: "host dropdownValues",
      messageId: "dropdownValues",
      doc: hostDropdownValues,
      lines: [lineOf(hostDropdownValues, '"dropdownValues"')],
      message: "`dropdownValues` is ignored by host plugins",
    },
    {
      name: "host dropdownValues on a STRING property",
      messageId: "dropdownValues",
      doc: hostWithChoices("STRING"),
      lines: [lineOf(hostWithChoices("STRING"), '"dropdownValues"')],
    },
    {
      name: "remote processTypeNames",
      messageId: "top",
      doc: remoteProcessTypeNames,
      lines: [lineOf(remoteProcessTypeNames, '"processTypeNames"')],
      message: "`processTypeNames` is ignored by remote plugins",
    },
    {
      name: "remote processTypes",
      messageId: "top",
      doc: remoteProcessTypes,
      lines: [lineOf(remoteProcessTypes, '"processTypes"')],
      message: "ignored by remote plugins",
    },
    {
      name: "remote requiredAgentVersion",
      messageId: "top",
      doc: remoteAgentVersion,
      lines: [lineOf(remoteAgentVersion, '"requiredAgentVersion"')],
      message: "`requiredAgentVersion`",
    },
    {
      name: "remote source.activation_name_pattern",
      messageId: "pattern",
      doc: remotePattern,
      lines: [lineOf(remotePattern, '"activation_name_pattern"')],
      message: "it filters host process groups",
    },
    {
      name: "remote with three ignored members: one finding each",
      messageId: "top",
      doc: remoteAll,
      lines: [
        lineOf(remoteAll, '"processTypes"'),
        lineOf(remoteAll, '"requiredAgentVersion"'),
        lineOf(remoteAll, '"processTypeNames"'),
      ].sort((a, b) => a - b),
      message: /is ignored by remote plugins/,
    },
    {
      name: "severity can be raised",
      messageId: "top",
      doc: hostFavicon,
      lines: [lineOf(hostFavicon, '"favicon"')],
      severity: "error",
      options: { config: { rules: { "ignored-member": "error" } } },
    },
  ],
});
