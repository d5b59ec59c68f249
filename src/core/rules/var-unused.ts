import { defineRule } from "../rule.js";

/**
 * A variable that no data source uses: every monitoring configuration asks for a value that changes nothing
 * (Dynatrace's VS Code add-on warns of it too). Usually a rename left half done.
 */
export const rule = defineRule({
  meta: {
    id: "var-unused",
    kind: "document",
    defaultSeverity: "warning",
    files: ["extension.yaml"],
    nameData: ["id"],
    description: "`vars` declares a variable that no data source uses (`var:<id>`).",
    messages: {
      unused:
        "variable `{{id}}` is declared but no data source uses `var:{{id}}`: monitoring configurations ask for a value that changes nothing",
    },
  },
  check(context) {
    const ext = context.extension;
    const used = new Set(ext.varUses.map((u) => u.id));
    const said = new Set<string>();
    for (const v of ext.vars) {
      if (used.has(v.id) || said.has(v.id)) continue;
      said.add(v.id);
      context.report({ pointer: `${v.pointer}/id`, messageId: "unused", data: { id: v.id } });
    }
  },
});
