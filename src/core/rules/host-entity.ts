import { defineRule } from "../rule.js";

/** HOST is accepted by the agent but makes the plugin always active; PROCESS_GROUP_INSTANCE is recommended. */
export const rule = defineRule({
  meta: {
    id: "host-entity",
    kind: "document",
    defaultSeverity: "warning",
    description: "Host entity is HOST (accepted, always active, not recommended).",
    messages: {
      host: "entity `HOST` is accepted but the plugin is then always active on every host; use `PROCESS_GROUP_INSTANCE` and activation criteria instead",
    },
  },
  check(context) {
    if (context.variant === "host" && context.member("entity") === "HOST")
      context.report({ pointer: "/entity", messageId: "host" });
  },
});
