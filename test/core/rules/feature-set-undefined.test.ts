import { EF2, edit, EXTENSION, lineOf, ruleTable } from "../../helpers.js";

const cased = edit(EXTENSION, "            featureSet: errors\n", "            featureSet: Interfaces\n");
const separator = edit(
  edit(EXTENSION, "        featureSet: interfaces\n", "        featureSet: interface-stats\n"),
  "            featureSet: errors\n",
  "            featureSet: interface_stats\n",
);

ruleTable("feature-set-undefined", {
  valid: [
    { name: "the valid extension: a metric's own feature set (`errors`)", doc: EXTENSION, options: EF2 },
    {
      name: "a metric in its subgroup's feature set",
      doc: edit(EXTENSION, "            featureSet: errors\n", "            featureSet: interfaces\n"),
      options: EF2,
    },
    {
      name: "names one letter apart are two feature sets (`basic`, `basics`)",
      doc: edit(EXTENSION, "            featureSet: errors\n", "            featureSet: basics\n"),
      options: EF2,
    },
  ],
  invalid: [
    {
      name: "the subgroup's feature set in other letter case",
      doc: cased,
      options: EF2,
      lines: [lineOf(cased, "featureSet: Interfaces")],
      messageId: "undefined",
      data: { name: "Interfaces", near: "interfaces" },
      severity: "warning",
      suggestions: [
        [
          {
            desc: "use `interfaces`",
            output: edit(cased, "featureSet: Interfaces", 'featureSet: "interfaces"'),
          },
        ],
      ],
    },
    {
      name: "`_` for `-`",
      doc: separator,
      options: EF2,
      lines: [lineOf(separator, "featureSet: interface_stats")],
      messageId: "undefined",
      data: { name: "interface_stats", near: "interface-stats" },
      suggestions: [
        [
          {
            desc: "use `interface-stats`",
            output: edit(separator, "featureSet: interface_stats", 'featureSet: "interface-stats"'),
          },
        ],
      ],
    },
  ],
});
