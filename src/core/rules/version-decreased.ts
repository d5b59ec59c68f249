import { compareVersions, NUMERIC_VERSION } from "../compare.js";
import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";

/** A lower version than the one already uploaded is rejected by the server. */
export const rule = defineRule({
  meta: {
    id: "version-decreased",
    kind: "change",
    defaultSeverity: "error",
    files: ["plugin.json", "extension.yaml"],
    description: "Head's version is lower than base's.",
    messages: {
      decreased:
        "`version` went down from `{{base}}` to `{{head}}` (versions compare segment by segment as numbers); it must increase",
    },
  },
  check(context) {
    if (!context.base) return;
    const head = str(get(context.value, "version"));
    const base = str(get(context.base.value, "version"));
    if (
      head === undefined ||
      base === undefined ||
      !NUMERIC_VERSION.test(head) ||
      !NUMERIC_VERSION.test(base)
    )
      return;
    if (compareVersions(head, base) < 0)
      context.report({ pointer: "/version", messageId: "decreased", data: { base, head } });
  },
});
