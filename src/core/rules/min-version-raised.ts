import { compareVersions, NUMERIC_VERSION } from "../compare.js";
import { get } from "../guards.js";
import { defineRule } from "../rule.js";

/** Environments older than `minDynatraceVersion` cannot install the extension, nor this update of it. */
export const rule = defineRule({
  meta: {
    id: "min-version-raised",
    kind: "change",
    defaultSeverity: "notice",
    files: ["extension.yaml"],
    description: "`minDynatraceVersion` went up: older environments can no longer install the extension.",
    messages: {
      raised:
        "`minDynatraceVersion` went up from `{{was}}` to `{{now}}`: environments older than {{now}} can no longer install or update the extension",
    },
  },
  check(context) {
    if (!context.base) return;
    const now = get(context.value, "minDynatraceVersion");
    const was = get(context.base.value, "minDynatraceVersion");
    if (typeof now !== "string" || typeof was !== "string") return;
    if (!NUMERIC_VERSION.test(now) || !NUMERIC_VERSION.test(was) || compareVersions(now, was) <= 0) return;
    context.report({ pointer: "/minDynatraceVersion", messageId: "raised", data: { was, now } });
  },
});
