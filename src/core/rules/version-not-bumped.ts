import { compareVersions, jsonEqual, nextVersion, NUMERIC_VERSION } from "../compare.js";
import { get, str } from "../guards.js";
import { defineRule } from "../rule.js";

/** The server only takes a changed descriptor with a higher version; names the next version to use. */
export const rule = defineRule({
  meta: {
    id: "version-not-bumped",
    kind: "change",
    defaultSeverity: "error",
    fixable: "code",
    description: "The descriptor changed and its version equals the base version.",
    messages: {
      notBumped: "the descriptor changed but `version` is still `{{head}}`; increase it",
      notBumpedNext:
        "the descriptor changed but `version` is still `{{head}}`{{equalTo}}; increase it, e.g. to `{{next}}`",
    },
  },
  check(context) {
    if (!context.base) return;
    const head = str(get(context.value, "version"));
    const base = str(get(context.base.value, "version"));
    if (head === undefined || base === undefined) return;
    const bothValid = NUMERIC_VERSION.test(head) && NUMERIC_VERSION.test(base);
    const same = bothValid ? compareVersions(head, base) === 0 : head === base;
    if (!same || jsonEqual(context.value, context.base.value)) return;
    if (!NUMERIC_VERSION.test(head)) {
      context.report({ pointer: "/version", messageId: "notBumped", data: { head } });
      return;
    }
    const next = nextVersion(head);
    context.report({
      pointer: "/version",
      messageId: "notBumpedNext",
      data: { head, next, equalTo: head !== base ? ` (equal to the base's \`${base}\`)` : "" },
      fix: { replacement: JSON.stringify(next), description: `bump the version to \`${next}\`` },
    });
  },
});
