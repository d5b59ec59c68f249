import { defineRule } from "../rule.js";
import { Suggester } from "../suggest.js";

/** Dynatrace's own variables (`var:ext.activationtag`), which an extension uses without declaring them. */
const BUILT_IN = /^ext\./;

/**
 * A `var:<id>` that `vars` does not declare: no monitoring configuration can give it a value, so the dimension
 * or filter that reads it is empty (Dynatrace's VS Code add-on reports it as an error too).
 */
export const rule = defineRule({
  meta: {
    id: "var-undeclared",
    kind: "document",
    defaultSeverity: "error",
    files: ["extension.yaml"],
    nameData: ["id"],
    positionalData: ["suggestion"],
    description: "A data source uses `var:<id>` and `vars` declares no such variable.",
    messages: {
      undeclared:
        "`var:{{id}}` is used, but `vars` declares no variable `{{id}}`: no monitoring configuration can set it{{suggestion}}",
    },
  },
  check(context) {
    const ext = context.extension;
    const declared = ext.vars.map((v) => v.id);
    const known = new Set(declared);
    const near = new Suggester(declared);
    for (const use of ext.varUses) {
      if (known.has(use.id) || BUILT_IN.test(use.id)) continue;
      context.report({
        pointer: use.pointer,
        messageId: "undeclared",
        data: { id: use.id, suggestion: near.didYouMean(use.id) },
      });
    }
  },
});
