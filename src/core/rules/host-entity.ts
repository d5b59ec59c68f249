import { finding, get, type Rule } from "../rule.js";

/** HOST is accepted by the agent but makes the plugin always active; PROCESS_GROUP_INSTANCE is recommended. */
export const rule: Rule = {
  meta: {
    id: "host-entity",
    kind: "document",
    defaultSeverity: "warning",
    description: "Host entity is HOST (accepted, always active, not recommended).",
  },
  check(ctx) {
    if (ctx.variant !== "host" || get(ctx.value, "entity") !== "HOST") return [];
    return [
      finding(
        this.meta,
        "/entity",
        "entity `HOST` is accepted but the plugin is then always active on every host; use `PROCESS_GROUP_INSTANCE` and activation criteria instead",
      ),
    ];
  },
};
