import { ruleTable, validHost, validRemote, text, lineOf } from "../../helpers.js";

type J = Record<string, unknown>;
function host(members: J): J {
  const d = validHost();
  delete d.processTypeNames;
  delete d.technologies;
  return { ...d, ...members };
}
const none = text(host({}));
const emptyNames = text(host({ processTypeNames: [] }));
const emptyAll = text(host({ technologies: [], processTypes: [], processTypeNames: [] }));
const notArray = text(host({ technologies: "PYTHON" }));
const remoteWithout = (() => {
  const d = validRemote();
  delete d.technologies;
  return d;
})();

ruleTable("activation-criteria-missing", {
  valid: [
    { name: "the host example (processTypeNames and technologies)", doc: validHost() },
    { name: "the remote example", doc: validRemote() },
    { name: "only processTypeNames", doc: host({ processTypeNames: ["JAVA"] }) },
    { name: "only processTypes", doc: host({ processTypes: [10] }) },
    { name: "only technologies", doc: host({ technologies: ["TOMCAT"] }) },
    {
      name: "an empty list beside a non-empty one",
      doc: host({ processTypeNames: [], technologies: ["PYTHON"] }),
    },
    { name: "a remote plugin needs none", doc: remoteWithout },
    {
      name: "turned off",
      doc: none,
      options: { config: { rules: { "activation-criteria-missing": "off" } } },
    },
  ],
  invalid: [
    {
      name: "none of the three: root, line 1",
      messageId: "none",
      doc: none,
      lines: [1],
      message:
        "none of processTypeNames, processTypes or technologies is set: nothing can activate this host plugin",
    },
    {
      name: "an empty processTypeNames: at its key",
      messageId: "unusable",
      doc: emptyNames,
      lines: [lineOf(emptyNames, '"processTypeNames"')],
      message: "`processTypeNames` is empty",
    },
    {
      name: "all three empty: at the first in the order processTypeNames, processTypes, technologies",
      messageId: "unusable",
      doc: emptyAll,
      lines: [lineOf(emptyAll, '"processTypeNames"')],
    },
    {
      name: "technologies that is not a list activates nothing",
      messageId: "unusable",
      doc: notArray,
      lines: [lineOf(notArray, '"technologies"')],
      message: "`technologies` is not a list",
    },
    {
      name: "a JMX plugin too",
      doc: text(host({ type: "JMX", name: "custom.jmx.x" })),
      lines: [1],
      messageId: "none",
    },
    {
      name: "severity can be lowered",
      messageId: "none",
      doc: none,
      lines: [1],
      severity: "warning",
      options: { config: { rules: { "activation-criteria-missing": "warning" } } },
    },
  ],
});
